package fabriclab.validation;

import fabriclab.simulation.TieOrder;
import fabriclab.Parameters;
import fabriclab.fabric.Incast;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.hpcc.HpccTransport;
import java.util.ArrayList;
import java.util.List;

/**
 * The HPCC scenarios that the RDMA model of HPCC's authors for ns-3 (aliyun/ns-3-alibabacloud, its
 * {@code scratch/NormalNetwork}, {@code CcMode 3}) runs from {@code tools/rdma-reference/scenarios/hpcc_incast8/} and
 * {@code hpcc_perm/}, written for this simulator; its outputs are the dataset {@value #DATASET}.
 *
 * <ul>
 *   <li>{@link Kind#INCAST}: hosts 0 to 7 each send 1,000,000 B at once to host 8 through one switch.</li>
 *   <li>{@link Kind#PERMUTATION}: 16 hosts on 4 leaves of 4 under one spine (an idle host 16 on the spine, as the
 *       reference's all-to-all control), one 100 Gb/s uplink per leaf; host h sends 1,000,000 B to host (h + 4) mod 16,
 *       so each leaf's uplink and each spine downlink carries four flows.</li>
 * </ul>
 * Both: every link 100 Gb/s with 1 us of delay; 1000 B of payload, 52 B of headers and HPCC's 42-byte INT header per
 * data packet; an ACK per packet on the data's priority. HPCC ({@link HpccTransport#defaults()}): eta 0.95, maxStage 5,
 * R_AI 40 Mb/s, floor 1 Gb/s, fast reaction, one rate for the path, T the largest base RTT (the reference's
 * {@code GLOBAL_T 1} maxRtt: 4,160 ns and 8,320 ns), W = B T at line rate. The reference quantises its telemetry (128 B
 * of transmitted bytes, 80 B of queue, 1 ns; {@code INT_MULTI 1}); ours is exact. PFC and the switch buffer as in
 * {@link RdmaReferenceIncast} (2 MiB, dynamic thresholds, alpha 1/8); neither run pauses.
 *
 * <p>The comparison ({@link #rows}): the mean, smallest and largest FCT and the peak switch egress queue, ours against
 * the reference's, each within the reference's own variation: its flows in a scenario are identical (same size, start,
 * path length and share of the bottleneck), yet their FCTs differ by the order in which simultaneous packets of
 * different senders meet at a switch and by which ACK a sender's reference update lands on; that spread,
 * (largest - smallest) / mean of its FCTs, is how far the reference itself is from one value of the quantity. The
 * smallest and largest are compared sorted, since which flow comes first is that same order; the peak queue is built by
 * the same first windows, so it gets the same tolerance.
 *
 * @param kind which scenario
 */
public record RdmaReferenceHpcc(Kind kind) {
    /** The dataset of the reference's runs. */
    public static final String DATASET = "rdma-ns3-hpcc";

    /** The two scenarios, with their names in the dataset. */
    public enum Kind {
        /** The 8-to-1 incast ({@code hpcc_incast8}). */
        INCAST("hpcc_incast8"),
        /** The permutation under one spine ({@code hpcc_perm}). */
        PERMUTATION("hpcc_perm");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        /** Its scenario name in the dataset. */
        public String id() {
            return id;
        }
    }

    /** Validates. */
    public RdmaReferenceHpcc {
        Parameters.notNull("kind", kind);
    }

    /**
     * One quantity, ours against the reference's.
     *
     * @param quantity what is compared
     * @param unit its unit ({@code us} or {@code bytes})
     * @param reference the reference's value
     * @param ours ours
     * @param tolerance relative, the reference's FCT spread
     */
    public record Row(String quantity, String unit, double reference, double ours, double tolerance) {
        /** Validates: finite values, a tolerance in [0, 1]. */
        public Row {
            Parameters.notBlank("quantity", quantity);
            Parameters.notBlank("unit", unit);
            Parameters.finite("reference", reference);
            Parameters.finite("ours", ours);
            Parameters.inRange("tolerance", tolerance, 0.0, 1.0);
        }

        /** Whether ours is within the tolerance of the reference's value. */
        public boolean pass() {
            return Math.abs(ours - reference) <= tolerance * Math.abs(reference);
        }
    }

    /** The reference's dataset. */
    public static tech.tablesaw.api.Table reference() {
        return fabriclab.datasets.Datasets.load(DATASET).table();
    }

    /** The reference's values of {@code quantity} in this scenario, in the dataset's order. */
    public long[] referenceValues(tech.tablesaw.api.Table reference, String quantity) {
        Parameters.notNull("reference", reference);
        Parameters.notNull("quantity", quantity);
        tech.tablesaw.api.Table r = reference.where(reference.stringColumn("scenario").isEqualTo(kind.id())
                .and(reference.stringColumn("quantity").isEqualTo(quantity)));
        if (r.rowCount() == 0) {
            throw new IllegalArgumentException("no " + quantity + " of " + kind.id() + " in the reference table");
        }
        long[] v = new long[r.rowCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = Math.round(r.numberColumn("value").getDouble(i));
        }
        return v;
    }

    /**
     * The comparison of {@code ours} (a run of {@link #scenario}) with the reference's run: mean, smallest and largest
     * FCT (start to the last byte's ACK, us) and peak switch egress queue (bytes), each with the reference's FCT spread
     * as tolerance (class comment).
     *
     * @param reference the {@value #DATASET} table
     */
    public List<Row> rows(fabriclab.simulation.SimulationResult ours, tech.tablesaw.api.Table reference) {
        Parameters.notNull("ours", ours);
        long[] theirs = referenceValues(reference, "fct_ns").clone();
        java.util.Arrays.sort(theirs);
        if (ours.flows().size() != theirs.length || !ours.allCompleted()) {
            throw new IllegalArgumentException("ours must be a completed run of the " + theirs.length + " flows of " + kind.id()
                    + ", got " + ours.flows().size() + " flows, all completed: " + ours.allCompleted());
        }
        double[] mine = ours.flows().stream().mapToDouble(f -> (f.acknowledgedPs() - f.spec().startPs()) / 1e6).sorted().toArray();
        double[] ref = java.util.Arrays.stream(theirs).mapToDouble(v -> v / 1e3).toArray();
        double refMean = java.util.Arrays.stream(ref).average().orElseThrow();
        double tolerance = Math.min(1, (ref[ref.length - 1] - ref[0]) / refMean);
        long ourPeak = ours.queues().stream().mapToLong(fabriclab.simulation.SimulationResult.QueueTrace::peakBytes).max().orElse(0);
        return List.of(
                new Row("mean FCT", "us", refMean, java.util.Arrays.stream(mine).average().orElseThrow(), tolerance),
                new Row("smallest FCT", "us", ref[0], mine[0], tolerance),
                new Row("largest FCT", "us", ref[ref.length - 1], mine[mine.length - 1], tolerance),
                new Row("peak switch egress queue", "bytes", referenceValues(reference, "peak_queue_bytes")[0], ourPeak,
                        tolerance));
    }

    /** Adds {@link #rows} as validation rows against {@link RdmaReferenceComparison#REFERENCE} to {@code cmp}. */
    public void addTo(fabriclab.notebook.PaperComparison cmp, fabriclab.simulation.SimulationResult ours,
            tech.tablesaw.api.Table reference) {
        Parameters.notNull("cmp", cmp);
        for (Row r : rows(ours, reference)) {
            cmp.validation(RdmaReferenceComparison.REFERENCE, "HPCC " + (kind == Kind.INCAST ? "8-to-1 incast" : "permutation under one spine")
                    + ", " + r.quantity(), r.unit(), fabriclab.datasets.Target.point(r.reference(), r.tolerance()), r.ours(),
                    String.format(java.util.Locale.ROOT, "tolerance %.1f%%: the reference's spread of FCTs over its identical flows",
                            100 * r.tolerance()));
        }
    }

    /** Payload of each flow, bytes. */
    public static final long BYTES = 1_000_000;
    /** Hosts of the permutation (on 4 leaves of 4). */
    public static final int PERMUTATION_HOSTS = 16;

    /** The topology: the incast's switch, or the permutation's leaves, spine and idle spine host (the reference's numbering). */
    public Topology topology() {
        if (kind == Kind.INCAST) {
            return Incast.of(8, BYTES, RdmaReferenceIncast.RATE_BPS).topology(RdmaReferenceIncast.DELAY_PS);
        }
        long r = RdmaReferenceIncast.RATE_BPS;
        long d = RdmaReferenceIncast.DELAY_PS;
        int hosts = PERMUTATION_HOSTS + 1;
        int leaf0 = hosts;
        int spine = leaf0 + 4;
        List<LinkSpec> links = new ArrayList<>();
        for (int h = 0; h < PERMUTATION_HOSTS; h++) {
            links.add(new LinkSpec(h, leaf0 + h / 4, r, d));
        }
        for (int l = 0; l < 4; l++) {
            links.add(new LinkSpec(leaf0 + l, spine, r, d));
        }
        links.add(new LinkSpec(PERMUTATION_HOSTS, spine, r, d));
        return new Topology("4 leaves of 4 hosts under one spine, an idle host on the spine", hosts, 5, links,
                List.of(0, 0, 0, 0, 1));
    }

    /** The flows, all at 0 on priority 0. */
    public List<FlowSpec> flows() {
        List<FlowSpec> f = new ArrayList<>();
        if (kind == Kind.INCAST) {
            for (int h = 0; h < 8; h++) {
                f.add(new FlowSpec(h, 8, BYTES, 0, 0, 10000));
            }
        } else {
            for (int h = 0; h < PERMUTATION_HOSTS; h++) {
                f.add(new FlowSpec(h, (h + 4) % PERMUTATION_HOSTS, BYTES, 0, 0, 10000));
            }
        }
        return f;
    }

    /** Ports of the busiest switch (the incast's 9; a leaf's 5, the spine's 5). */
    private int switchPorts() {
        return kind == Kind.INCAST ? 9 : 5;
    }

    /** The scenario (the run's seed 1). */
    public Scenario scenario() {
        return scenario(1);
    }

    /**
     * The scenario with the run's seed {@code seed}: under {@link TieOrder#CANONICAL} the
     * seed of the rule's draw; nothing else in these runs draws (one path, no marking that HPCC reads).
     *
     * @param seed the run's seed, at least 0
     */
    public Scenario scenario(long seed) {
        Parameters.atLeast("seed", seed, 0L);
        long b = RdmaReferenceIncast.SWITCH_BUFFER_BYTES
                - switchPorts() * (RdmaReferenceIncast.HEADROOM_BYTES + RdmaReferenceIncast.RESERVE_BYTES);
        SimulationConfig config = new SimulationConfig(RdmaReferenceIncast.MTU_BYTES, RdmaReferenceIncast.HEADER_BYTES, 1,
                SwitchBuffer.shared(b), Forwarding.ecmp(HashFunction.CRC32, 7), seed, Time.US, 5_000);
        Pfc pfc = new Pfc(b / 8, b / 8 - RdmaReferenceIncast.PFC_THRESHOLD.xonOffsetBytes(), RdmaReferenceIncast.HEADROOM_BYTES,
                Pfc.MAX_QUANTA);
        return Scenario.builder(topology(), config).flows(flows()).transport(HpccTransport.defaults()).pfc(pfc)
                .pfcDynamicThreshold(RdmaReferenceIncast.PFC_THRESHOLD)
                .name("HPCC " + kind.id() + " of the RDMA reference").tieOrder(TieOrder.SCHEDULING).build();
    }

    /**
     * The reference's runs of both scenarios under this simulator's order of simultaneous events
     * ({@link TieOrder#CANONICAL}) instead of its own, draw seeds 1 to {@link #TIE_SEEDS}: a
     * scheduler of ours loaded into the unchanged reference ({@code tools/rdma-reference/tie_rule_scheduler.cc}).
     */
    public static final String TIE_RULE_DATASET = "rdma-ns3-hpcc-tie-rule";
    /** Draw seeds of {@link #TIE_RULE_DATASET}: 1 to this. */
    public static final int TIE_SEEDS = 5;

    /** The reference's runs under the rule ({@value #TIE_RULE_DATASET}). */
    public static tech.tablesaw.api.Table tieRuleReference() {
        return fabriclab.datasets.Datasets.load(TIE_RULE_DATASET).table();
    }

    /**
     * The FCTs (us, flow start to the ACK of its last byte) of the reference's run of this scenario under the rule with
     * draw seed {@code seed}, in the dataset's order.
     *
     * @param reference the {@value #TIE_RULE_DATASET} table
     * @param seed a draw seed, 1 to {@link #TIE_SEEDS}
     */
    public double[] tieRuleReferenceFctsUs(tech.tablesaw.api.Table reference, int seed) {
        Parameters.notNull("reference", reference);
        Parameters.inRange("seed", seed, 1, TIE_SEEDS);
        tech.tablesaw.api.Table r = reference.where(reference.stringColumn("scenario").isEqualTo(kind.id())
                .and(reference.intColumn("tie_seed").isEqualTo(seed))
                .and(reference.stringColumn("quantity").isEqualTo("fct_ns")));
        if (r.rowCount() != flows().size()) {
            throw new IllegalArgumentException("the reference table holds " + r.rowCount() + " FCTs of " + kind.id()
                    + " under draw seed " + seed + ", not " + flows().size());
        }
        double[] v = new double[r.rowCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.numberColumn("value").getDouble(i) / 1e3;
        }
        return v;
    }

    /**
     * Our runs of this scenario under the rule ({@link TieOrder#CANONICAL}), draw seeds 1
     * to {@link #TIE_SEEDS}, each flow's FCT in us (start to the ACK of its last byte).
     */
    public List<double[]> tieRuleRunsFctsUs() {
        List<double[]> runs = new ArrayList<>();
        for (int seed = 1; seed <= TIE_SEEDS; seed++) {
            fabriclab.simulation.SimulationResult r = RdmaReferenceTieRule.underRule(scenario(seed), seed);
            if (!r.allCompleted()) {
                throw new IllegalStateException(kind.id() + " under the rule, seed " + seed + ": not every flow completed");
            }
            runs.add(r.flows().stream().mapToDouble(f -> (f.acknowledgedPs() - f.spec().startPs()) / 1e6).toArray());
        }
        return runs;
    }

    /**
     * The comparison of both simulators under the rule, over the draw seeds 1 to {@link #TIE_SEEDS} (a run's draws
     * cannot match the reference's event by event: its clock ticks in ns, ours in ps, so the instants differ):
     * <ul>
     *   <li>the median over the seeds of a run's mean FCT, the smallest and the largest FCT over all runs, each within the
     *       reference's spread of FCTs over its identical flows and its draws, (largest - smallest) / mean of all its FCTs
     *       under the rule (the tolerance {@link #rows} takes from one run in the reference's own order);</li>
     *   <li>the spread of one run's FCTs, (largest - smallest) / mean in percent, median over the seeds, within the range
     *       of the reference's own per-run spreads over its draws, relative to their median.</li>
     * </ul>
     *
     * @param ours our runs' FCTs, us, one array per seed ({@link #tieRuleRunsFctsUs})
     * @param reference the {@value #TIE_RULE_DATASET} table
     */
    public List<Row> tieRuleRows(List<double[]> ours, tech.tablesaw.api.Table reference) {
        Parameters.noNullElements("ours", ours);
        if (ours.size() != TIE_SEEDS) {
            throw new IllegalArgumentException("ours must hold " + TIE_SEEDS + " runs (draw seeds 1 to " + TIE_SEEDS + "), got "
                    + ours.size());
        }
        for (int i = 0; i < ours.size(); i++) {
            double[] run = ours.get(i);
            Parameters.finiteElements("ours[" + i + "]", run);
            if (run.length == 0 || java.util.Arrays.stream(run).anyMatch(v -> v <= 0)) {
                throw new IllegalArgumentException("ours[" + i + "] must hold a run's FCTs, us, each > 0, got "
                        + java.util.Arrays.toString(run));
            }
        }
        List<double[]> theirs = new ArrayList<>();
        for (int seed = 1; seed <= TIE_SEEDS; seed++) {
            theirs.add(tieRuleReferenceFctsUs(reference, seed));
        }
        double[] refAll = theirs.stream().flatMapToDouble(java.util.Arrays::stream).sorted().toArray();
        double[] ourAll = ours.stream().flatMapToDouble(java.util.Arrays::stream).sorted().toArray();
        double refMean = java.util.Arrays.stream(refAll).average().orElseThrow();
        double fctTolerance = Math.min(1, (refAll[refAll.length - 1] - refAll[0]) / refMean);
        double[] refSpreads = theirs.stream().mapToDouble(RdmaReferenceHpcc::spreadPercent).sorted().toArray();
        double refSpread = RdmaReferenceComparison.median(refSpreads);
        double spreadTolerance = Math.min(1, (refSpreads[refSpreads.length - 1] - refSpreads[0]) / refSpread);
        return List.of(
                new Row("mean FCT, median over the draws", "us",
                        RdmaReferenceComparison.median(theirs.stream().mapToDouble(RdmaReferenceHpcc::mean).toArray()),
                        RdmaReferenceComparison.median(ours.stream().mapToDouble(RdmaReferenceHpcc::mean).toArray()), fctTolerance),
                new Row("smallest FCT over the draws", "us", refAll[0], ourAll[0], fctTolerance),
                new Row("largest FCT over the draws", "us", refAll[refAll.length - 1], ourAll[ourAll.length - 1], fctTolerance),
                new Row("FCT spread of a run, median over the draws", "%", refSpread,
                        RdmaReferenceComparison.median(ours.stream().mapToDouble(RdmaReferenceHpcc::spreadPercent).toArray()), spreadTolerance));
    }

    /**
     * Both scenarios under the rule, ours against the reference ({@link #tieRuleRows}; ten runs of ours): columns
     * {@code scenario}, {@code quantity}, {@code unit}, {@code reference}, {@code ours}, {@code tolerance} (relative),
     * {@code pass}.
     */
    public static tech.tablesaw.api.Table tieRuleTable() {
        tech.tablesaw.api.Table reference = tieRuleReference();
        tech.tablesaw.api.StringColumn scenario = tech.tablesaw.api.StringColumn.create("scenario");
        tech.tablesaw.api.StringColumn quantity = tech.tablesaw.api.StringColumn.create("quantity");
        tech.tablesaw.api.StringColumn unit = tech.tablesaw.api.StringColumn.create("unit");
        tech.tablesaw.api.DoubleColumn ref = tech.tablesaw.api.DoubleColumn.create("reference");
        tech.tablesaw.api.DoubleColumn ours = tech.tablesaw.api.DoubleColumn.create("ours");
        tech.tablesaw.api.DoubleColumn tolerance = tech.tablesaw.api.DoubleColumn.create("tolerance");
        tech.tablesaw.api.StringColumn pass = tech.tablesaw.api.StringColumn.create("pass");
        for (Kind k : Kind.values()) {
            RdmaReferenceHpcc s = new RdmaReferenceHpcc(k);
            for (Row r : s.tieRuleRows(s.tieRuleRunsFctsUs(), reference)) {
                scenario.append(k.id());
                quantity.append(r.quantity());
                unit.append(r.unit());
                ref.append(Math.round(r.reference() * 10) / 10.0);
                ours.append(Math.round(r.ours() * 10) / 10.0);
                tolerance.append(Math.round(r.tolerance() * 1000) / 1000.0);
                pass.append(r.pass() ? "pass" : "miss");
            }
        }
        long passed = pass.asList().stream().filter("pass"::equals).count();
        return tech.tablesaw.api.Table.create(String.format(java.util.Locale.ROOT,
                "HPCC under one order of simultaneous events in both simulators (draw seeds 1-%d): %d of %d within tolerance",
                TIE_SEEDS, passed, pass.size()), scenario, quantity, unit, ref, ours, tolerance, pass);
    }

    private static double mean(double[] v) {
        return java.util.Arrays.stream(v).average().orElseThrow();
    }

    /** (largest - smallest) / mean of {@code v}, percent. */
    private static double spreadPercent(double[] v) {
        java.util.DoubleSummaryStatistics st = java.util.Arrays.stream(v).summaryStatistics();
        return 100 * (st.getMax() - st.getMin()) / st.getAverage();
    }
}
