package fabriclab.congestion;

import fabriclab.Parameters;

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
        return new FlowClass("flows", n, 0.0);
    }

    /**
     * An incast class: {@code senders} hosts with {@code qpsPerSender} queue pairs each (per-QP rate
     * control), all starting at time 0; for example 7 x 1000 in the 001 experiment.
     */
    public static FlowClass incast(String label, int senders, int qpsPerSender) {
        Parameters.atLeast("senders", senders, 1);
        Parameters.atLeast("qpsPerSender", qpsPerSender, 1);
        return new FlowClass(label, Math.multiplyExact(senders, qpsPerSender), 0.0, senders);
    }

    /** Largest wire rate of one flow of this class [same unit as {@code lineRate}]: hosts * C / N. */
    public double wireRateCap(double lineRate) {
        return Math.min(lineRate, lineRate * hosts / multiplicity);
    }

    /**
     * Validates the flow classes of one model: at least one, distinct labels.
     *
     * @return an immutable copy
     */
    static java.util.List<FlowClass> checkedList(java.util.List<FlowClass> classes) {
        fabriclab.Parameters.notNull("classes", classes);
        if (classes.isEmpty()) {
            throw new IllegalArgumentException("classes must contain at least one flow class");
        }
        if (classes.stream().map(FlowClass::label).distinct().count() != classes.size()) {
            throw new IllegalArgumentException("classes must have distinct labels");
        }
        return java.util.List.copyOf(classes);
    }
}
