package fabriclab.congestion;

import fabriclab.Parameters;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Time;
import java.util.ArrayList;
import java.util.List;

/**
 * A class of identical flows in the fluid models: {@code multiplicity} flows that start together
 * and see the same feedback, so they stay identical and are integrated once (the symmetric
 * aggregation that makes 7,000 queue pairs as cheap as one). Heterogeneous start times are
 * separate classes.
 *
 * <p>The flows of a class are spread evenly over {@code hosts} sender NICs, each with the
 * bottleneck's line rate C; a NIC cannot put more than C on the wire, so a flow's wire rate is
 * {@code min(R, hosts * C / multiplicity)} (the NIC shares its port among its queue pairs). With
 * one flow per host (the DCQCN papers' setting) this is simply the line-rate cap.
 *
 * @param label name used in trajectory column names (letters, digits, '-', '_')
 * @param multiplicity number of flows N in the class, {@code >= 1}
 * @param startS start time [s], {@code >= 0}; before it the class sends nothing
 * @param hosts number of sender NICs the class's flows share, in [1, multiplicity]
 */
public record FlowClass(String label, int multiplicity, double startS, int hosts) {
    /** Validates the fields. */
    public FlowClass {
        Parameters.notBlank("label", label);
        if (!label.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("label must match [A-Za-z0-9_-]+, got \"" + label + "\"");
        }
        Parameters.atLeast("multiplicity", multiplicity, 1);
        Parameters.nonNegative("startS", startS);
        Parameters.inRange("hosts", hosts, 1, multiplicity);
    }

    /** {@code n} flows, one per host, starting at {@code startS}. */
    public FlowClass(String label, int multiplicity, double startS) {
        this(label, multiplicity, startS, multiplicity);
    }

    /** {@code n} flows, one per host, starting at time 0, labelled "flows". */
    public static FlowClass of(int n) {
        Parameters.atLeast("n", n, 1);
        return new FlowClass("flows", n, 0.0);
    }

    /**
     * An incast class: {@code senders} hosts with {@code qpsPerSender} queue pairs each (per-QP rate
     * control), all starting at time 0; for example 7 x 1000 in the 001 experiment.
     */
    public static FlowClass incast(String label, int senders, int qpsPerSender) {
        Parameters.atLeast("senders", senders, 1);
        Parameters.atLeast("qpsPerSender", qpsPerSender, 1);
        if ((long) senders * qpsPerSender > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("senders x qpsPerSender must be <= " + Integer.MAX_VALUE + " flows, got "
                    + senders + " x " + qpsPerSender);
        }
        return new FlowClass(label, senders * qpsPerSender, 0.0, senders);
    }

    /**
     * The flow classes of an incast: with a synchronized start one class of
     * {@code senders * qpsPerSender} flows spread over {@code senders} NICs, labelled {@code label};
     * with a stagger one class per sender ({@code qpsPerSender} flows on one NIC, starting at
     * {@code i * stagger}), labelled {@code label + "-" + i}. The message size is not represented:
     * the fluid models keep every flow backlogged.
     *
     * @param label class label (letters, digits, '-', '_')
     * @param incast the incast, not null
     */
    public static List<FlowClass> incast(String label, Incast incast) {
        Parameters.notNull("incast", incast);
        if (incast.queuePairs() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("incast.queuePairs() must be at most " + Integer.MAX_VALUE + ", got "
                    + incast.queuePairs());
        }
        if (incast.staggerPs() == 0) {
            return List.of(new FlowClass(label, (int) incast.queuePairs(), 0.0, incast.senders()));
        }
        List<FlowClass> classes = new ArrayList<>(incast.senders());
        for (int i = 0; i < incast.senders(); i++) {
            classes.add(new FlowClass(label + "-" + i, incast.qpsPerSender(),
                    Time.toSeconds(incast.startPs(i)), 1));
        }
        return List.copyOf(classes);
    }

    /**
     * The classes of an incast into {@code port}, labelled "incast", after checking that the port is
     * the incast's receiver and that the senders' NICs run at the port's line rate (the fluid models'
     * assumption).
     */
    static List<FlowClass> forIncast(Bottleneck port, Incast incast) {
        Parameters.notNull("port", port);
        Parameters.notNull("incast", incast);
        if (port.lineRateBitsPerSecond() != incast.receiverRateBitsPerSecond()) {
            throw new IllegalArgumentException("port.lineRateBitsPerSecond must equal incast.receiverRateBitsPerSecond ("
                    + incast.receiverRateBitsPerSecond() + "), got " + port.lineRateBitsPerSecond());
        }
        if (incast.senderRateBitsPerSecond() != incast.receiverRateBitsPerSecond()) {
            throw new IllegalArgumentException("incast.senderRateBitsPerSecond must equal incast.receiverRateBitsPerSecond ("
                    + incast.receiverRateBitsPerSecond() + ") in the fluid congestion models, whose NICs run at the "
                    + "bottleneck's line rate; got " + incast.senderRateBitsPerSecond());
        }
        return incast("incast", incast);
    }

    /** Largest wire rate of one flow of this class [same unit as {@code lineRate}]: hosts * C / N. */
    public double wireRateCap(double lineRate) {
        Parameters.positive("lineRate", lineRate);
        return Math.min(lineRate, lineRate * hosts / multiplicity);
    }

    /**
     * Validates the flow classes of one model: at least one, distinct labels.
     *
     * @return an immutable copy
     */
    static List<FlowClass> checkedList(List<FlowClass> classes) {
        fabriclab.Parameters.noNullElements("classes", classes);
        if (classes.isEmpty()) {
            throw new IllegalArgumentException("classes must contain at least one flow class");
        }
        if (classes.stream().map(FlowClass::label).distinct().count() != classes.size()) {
            throw new IllegalArgumentException("classes must have distinct labels");
        }
        return List.copyOf(classes);
    }
}
