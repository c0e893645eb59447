package fabriclab.congestion;

import fabriclab.Parameters;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.fabric.Incast;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Table;

import java.util.ArrayList;
import java.util.List;

/**
 * Fluid model of RTT-based rate control on one bottleneck: CTCC (001, Che et al., ICT &amp; Policy
 * 2024, section on CTCC: NIC-side RTT probes against a target RTT, AIMD, a NACK halves the rate,
 * PFC off) or TIMELY's gradient rule (Mittal et al., SIGCOMM 2015), per {@link RttControlParameters}.
 *
 * <p>Model: the bottleneck queue obeys dq/dt = sum_i N_i R_i - C (q in [0, buffer]; the excess is
 * dropped), integrated exactly over each step because rates are piecewise constant between
 * probes. A probe of class i at time t measures RTT = base RTT + q(t - base RTT) / C (the queue
 * it crossed one base RTT earlier: the reply returns at high priority, as in 001) and updates the
 * class's per-flow rate by the rule. Classes probe every probe interval, class i offset by
 * i / (number of classes) of an interval (classes are desynchronised, flows inside a class move in
 * lockstep: the worst case, and exactly what symmetric aggregation means). A flow's wire rate is
 * capped by its NIC share ({@link FlowClass#wireRateCap}); flows start at that cap. PFC is applied
 * if the bottleneck has it (CTCC runs without): at the end of each step the senders pause if
 * {@link fabriclab.fabric.Pfc#pausesAt} holds for the queue and resume if
 * {@link fabriclab.fabric.Pfc#resumesAt} holds. Immutable; {@link #simulate} is re-entrant.
 */
public final class RttFluidModel {
    private final RttControlParameters params;
    private final Bottleneck port;
    private final List<FlowClass> classes;
    private final double initialRateBitsPerSecond; // <= 0: start at the wire-rate cap

    /**
     * @param params control parameters, not null
     * @param port bottleneck, not null
     * @param classes flow classes, at least one, distinct labels
     */
    public RttFluidModel(RttControlParameters params, Bottleneck port, List<FlowClass> classes) {
        this(params, port, classes, 0.0);
    }

    private RttFluidModel(RttControlParameters params, Bottleneck port, List<FlowClass> classes, double initialRateBitsPerSecond) {
        this.initialRateBitsPerSecond = initialRateBitsPerSecond;
        this.params = Parameters.notNull("params", params);
        this.port = Parameters.notNull("port", port);
        this.classes = FlowClass.checkedList(classes);
    }

    /**
     * The RTT-control fluid model of an incast: one class of {@code senders * qpsPerSender} flows
     * labelled "incast" spread over the senders' NICs, or, with a stagger, one class per sender
     * ({@link FlowClass#incast(String, Incast)}), into the incast's receiver port. Every flow is
     * backlogged for the whole run (the model has no finite messages).
     *
     * @param params control parameters, not null
     * @param port the receiver's port, line rate equal to {@code incast.receiverRateBitsPerSecond()}
     * @param incast the incast; its sender rate must equal the receiver's (the model's NICs run at the
     *               bottleneck's line rate)
     */
    public static RttFluidModel incast(RttControlParameters params, Bottleneck port, Incast incast) {
        return new RttFluidModel(params, port, FlowClass.forIncast(port, incast));
    }

    /**
     * A copy in which every class starts at {@code bps} per flow (still capped by its wire-rate
     * cap) instead of at line rate; DCQCN state otherwise as at a flow start. Useful to study the
     * recovery after a rate cut and for tests of the increase laws.
     *
     * @param bps initial per-flow rate [bit/s], {@code > 0}
     */
    public RttFluidModel startingAt(double bps) {
        Parameters.positive("bps", bps);
        return new RttFluidModel(params, port, classes, bps);
    }

    /**
     * Runs the model from t = 0 with an empty queue.
     *
     * @param durationS simulated time [s], {@code > 0}
     * @param stepS integration step [s], {@code > 0}, at most the probe interval
     * @param sampleEveryS trajectory row spacing [s], {@code >= stepS}, and large enough that the rows hold at most
     *        {@link FluidRun#MAX_TRAJECTORY_VALUES} values
     * @param sink progress sink, not null
     */
    public FluidRun simulate(double durationS, double stepS, double sampleEveryS, ProgressSink sink) {
        Parameters.positive("durationS", durationS);
        Parameters.positive("stepS", stepS);
        if (stepS > params.probeIntervalS()) {
            throw new IllegalArgumentException("stepS must be <= the probe interval (" + params.probeIntervalS()
                    + " s), got " + stepS);
        }
        Parameters.positive("sampleEveryS", sampleEveryS);
        if (sampleEveryS < stepS) {
            throw new IllegalArgumentException("sampleEveryS must be >= stepS (" + stepS + "), got " + sampleEveryS);
        }
        Parameters.notNull("sink", sink);
        if (durationS / stepS > 2e9) {
            throw new IllegalArgumentException("durationS / stepS must be at most 2e9 steps, got " + durationS / stepS);
        }
        FluidRun.checkTrajectorySize(durationS, sampleEveryS, classes.size() + 4);
        int m = classes.size();
        double c = port.lineRateBitsPerSecond();
        double bufferBits = 8 * port.bufferBytes();
        double[] rate = new double[m];
        double[] cap = new double[m];
        double[] nextProbe = new double[m];
        double[] prevRtt = new double[m];
        double[] diff = new double[m];
        int[] negCount = new int[m];
        boolean[] nack = new boolean[m];
        boolean[] active = new boolean[m];
        for (int i = 0; i < m; i++) {
            cap[i] = classes.get(i).wireRateCap(c);
            nextProbe[i] = classes.get(i).startS() + params.probeIntervalS() * (1.0 + (double) i / m);
            prevRtt[i] = 0; // no sample yet (TimelyUpdate's convention)
        }
        int lag = (int) Math.round(port.baseRttS() / stepS);
        double[] ring = new double[lag + 1];
        long total = (long) Math.ceil(durationS / stepS - 1e-9);
        long sampleEvery = Math.max(1, Math.round(sampleEveryS / stepS));
        List<double[]> rows = new ArrayList<>();
        MetricsAccumulator acc = new MetricsAccumulator(port, classes, durationS);
        double q = 0; // bits
        double droppedBits = 0;
        boolean paused = false;
        double[] wire = new double[m];
        try (Progress progress = Progress.start("RTT-based control fluid model", total, sink)) {
            for (long n = 0; n <= total; n++) {
                double t = Math.min(n * stepS, durationS);
                ring[(int) (n % ring.length)] = q;
                double qDelayed = ring[(int) ((n + 1) % ring.length)];
                if (n < lag) {
                    qDelayed = 0;
                }
                for (int i = 0; i < m; i++) {
                    if (!active[i] && t >= classes.get(i).startS()) {
                        active[i] = true;
                        rate[i] = initialRateBitsPerSecond > 0 ? Math.min(cap[i], initialRateBitsPerSecond) : cap[i];
                    }
                    while (active[i] && t >= nextProbe[i] - 0.5 * stepS) {
                        probe(i, port.baseRttS() + qDelayed / c, rate, prevRtt, diff, negCount, nack, cap);
                        nextProbe[i] += params.probeIntervalS();
                    }
                    wire[i] = active[i] && !paused ? Math.min(rate[i], cap[i]) : 0;
                }
                acc.add(t, n == 0 ? 0 : stepS, q / 8, wire, paused);
                if (n % sampleEvery == 0) {
                    double[] row = new double[m + 4];
                    row[0] = t * 1e6;
                    for (int i = 0; i < m; i++) {
                        row[1 + i] = wire[i] / 1e9;
                    }
                    row[m + 1] = q / 8000;
                    row[m + 2] = (port.baseRttS() + q / c) * 1e6;
                    row[m + 3] = paused ? 1 : 0;
                    rows.add(row);
                }
                if (n == total) {
                    break;
                }
                double arrivals = 0;
                for (int i = 0; i < m; i++) {
                    arrivals += classes.get(i).multiplicity() * wire[i];
                }
                double h = Math.min(stepS, durationS - t);
                q += (arrivals - c) * h;
                if (q < 0) {
                    q = 0;
                }
                if (q > bufferBits) {
                    droppedBits += q - bufferBits;
                    q = bufferBits;
                    java.util.Arrays.fill(nack, true);
                }
                if (port.pfc() != null) {
                    if (!paused && port.pfc().pausesAt(q / 8)) {
                        paused = true;
                    } else if (paused && port.pfc().resumesAt(q / 8)) {
                        paused = false;
                    }
                }
                if (n > 0 && n % 8192 == 0) {
                    progress.advance(8192);
                }
            }
        }
        Table table = Table.create(params.rule() == RttRule.CTCC_TARGET ? "CTCC fluid model" : "TIMELY fluid model");
        table.addColumns(column("time_us", rows, 0));
        for (int i = 0; i < m; i++) {
            table.addColumns(column("rate_" + classes.get(i).label() + "_gbps", rows, 1 + i));
        }
        table.addColumns(column("queue_kb", rows, m + 1));
        table.addColumns(column("rtt_us", rows, m + 2));
        table.addColumns(column("paused", rows, m + 3));
        return new FluidRun(table, acc.result(durationS, droppedBits / 8));
    }

    private void probe(int i, double rtt, double[] rate, double[] prevRtt, double[] diff, int[] negCount,
                       boolean[] nack, double[] cap) {
        RttControlParameters p = params;
        double r = rate[i];
        if (nack[i]) {
            nack[i] = false;
            r = r / 2;
        } else if (p.rule() == RttRule.CTCC_TARGET) {
            if (rtt > p.targetRttS()) {
                r = r * (1 - Math.min(p.maxDecrease(), p.beta() * (rtt - p.targetRttS()) / rtt));
            } else {
                r = r + p.additiveIncreaseBitsPerSecond();
            }
        } else {
            TimelyUpdate u = new TimelyUpdate(r, prevRtt[i], diff[i], negCount[i]).next(p, rtt);
            prevRtt[i] = u.lastRttS();
            diff[i] = u.rttDiffS();
            negCount[i] = u.nonPositiveGradients();
            r = u.rateBitsPerSecond();
        }
        rate[i] = Math.min(cap[i], Math.max(p.minRateBitsPerSecond(), r));
    }

    private static DoubleColumn column(String name, List<double[]> rows, int k) {
        double[] v = new double[rows.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = rows.get(i)[k];
        }
        return DoubleColumn.create(name, v);
    }
}
