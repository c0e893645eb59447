package fabriclab.validation;

import fabriclab.simulation.TieOrder;
import fabriclab.Parameters;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.window.DctcpTransport;
import fabriclab.simulation.transport.window.SwiftTransport;
import fabriclab.simulation.transport.window.TimelyTransport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * DCTCP, TIMELY and Swift on the two scenarios of {@link RdmaReferenceHpcc} (the 8-to-1 incast and the permutation
 * under one spine, 1,000,000 B per flow, 100 Gb/s, 1 us links, 2 MiB switch buffers with PFC), as the RDMA model of
 * HPCC's authors for ns-3 (aliyun/ns-3-alibabacloud @ eb45e7f, {@code scratch/NormalNetwork}) runs them from
 * {@code tools/rdma-reference/scenarios/<cc>_incast8/} and {@code <cc>_perm/}; its outputs are the datasets
 * {@code rdma-ns3-dctcp}, {@code rdma-ns3-timely} and {@code rdma-ns3-swift}.
 *
 * <p>Settings on both sides (the reference's class and attribute names in {@code rdma-congestion-ops.cc}):
 * <ul>
 *   <li>Every scheme keeps the reference's rate-scaled window ({@code HAS_WIN 1}, {@code VarWin}): W = B T with T the
 *       largest base RTT (4,160 ns and 52,000 B in the incast, 8,320 ns and 104,000 B in the permutation).</li>
 *   <li>{@link Cc#DCTCP} ({@code CcMode 8}, class {@code Dctcp}): {@link DctcpTransport#hpccSimulation(long)}, g 1/16,
 *       R_AI 615 Mb/s, floor 1 Gb/s; marking a step at K = 300 KB decided at dequeue, as the reference decides it; an ECN
 *       echo on the ACK of every marked packet (the reference with {@code CnpInterval 0}, as HPCC's own simulator echoes;
 *       its default coalesces echoes per queue pair over 4 us).</li>
 *   <li>{@link Cc#TIMELY} ({@code CcMode 7}, class {@code Timely}): {@link TimelyTransport#hpccSimulation(long)},
 *       delta 100 Mb/s, hyper-active step 500 Mb/s, floor 1 Gb/s, EWMA 0.875, beta 0.8, T_low 50 us, T_high 500 us,
 *       minRTT 20 us.</li>
 *   <li>{@link Cc#SWIFT} ({@code CcMode 11}, class {@code Swift}): ours is {@link SwiftTransport#defaults(double)} with
 *       the window of one BDP in packets; the reference's class keeps a rate, not a window: each ACK below its target
 *       adds {@code RateAI} (5 Mb/s, its default), a decrease is {@code rate (1 - min(beta (rtt - target) / rtt,
 *       MaxMdf))} at most once per RTT, with target = base RTT + {@code BaseTarget} (1 + fs), fs the flow scaling of the
 *       rate clamped to [0, {@code Range}]; {@code BaseTarget} 25 us, {@code Beta} 0.8, {@code MaxMdf} 0.4,
 *       {@code Range} 4 (its defaults); no per-hop term.</li>
 * </ul>
 *
 * <p>The comparison ({@link #rows}): mean, smallest and largest FCT and the peak switch egress queue, ours against the
 * reference's. FCT tolerance: the reference's own spread over its identical flows, (largest - smallest) / mean, as in
 * {@link RdmaReferenceHpcc}, but at least the time of one window of the bottleneck's packets at line rate
 * (W / line rate over the mean FCT): flows whose windows keep the bottleneck busy finish in an order set by which
 * window's packets a switch serves first, which both simulators settle by their own tie rule. Peak queue tolerance:
 * the reference samples its queues every 1 us ({@code QLEN_MON_INTERVAL 1}), in which the bottleneck's queue moves by
 * up to (senders into it - 1) x line rate x 1 us; that resolution over the reference's peak, or the FCT tolerance if
 * larger.
 *
 * @param cc the congestion control
 * @param kind the scenario
 */
public record RdmaReferenceCc(Cc cc, RdmaReferenceHpcc.Kind kind) {
    /** The congestion controls, each with its dataset and scenario prefix. */
    public enum Cc {
        /** DCTCP ({@code CcMode 8}). */
        DCTCP("rdma-ns3-dctcp", "dctcp", "DCTCP"),
        /** TIMELY with the window ({@code CcMode 7}). */
        TIMELY("rdma-ns3-timely", "timely", "TIMELY+w"),
        /** Swift ({@code CcMode 11}). */
        SWIFT("rdma-ns3-swift", "swift", "Swift");

        private final String dataset;
        private final String prefix;
        private final String label;

        Cc(String dataset, String prefix, String label) {
            this.dataset = dataset;
            this.prefix = prefix;
            this.label = label;
        }

        /** Its dataset of the reference's runs. */
        public String dataset() {
            return dataset;
        }

        /** Its name in tables. */
        public String label() {
            return label;
        }

        /** The reference's dataset. */
        public tech.tablesaw.api.Table reference() {
            return fabriclab.datasets.Datasets.load(dataset).table();
        }
    }

    /** Validates. */
    public RdmaReferenceCc {
        Parameters.notNull("cc", cc);
        Parameters.notNull("kind", kind);
    }

    /** The DCTCP marking of the scenarios, a step at 300 KB (HPCC's {@code run.py}: 30 KB per 10 Gb/s). */
    public static final double DCTCP_K_BYTES = 300_000;

    /** Its scenario name in the dataset: {@code dctcp_incast8}, {@code swift_perm}, ... */
    public String id() {
        return cc.prefix + (kind == RdmaReferenceHpcc.Kind.INCAST ? "_incast8" : "_perm");
    }

    private RdmaReferenceHpcc shape() {
        return new RdmaReferenceHpcc(kind);
    }

    /** The window W = B T of the scenario, bytes (T its largest base RTT). */
    public long windowBytes() {
        return kind == RdmaReferenceHpcc.Kind.INCAST ? 52_000 : 104_000;
    }

    /** Senders sharing the bottleneck (8 in the incast, 4 on each uplink of the permutation). */
    public int sendersPerBottleneck() {
        return kind == RdmaReferenceHpcc.Kind.INCAST ? 8 : 4;
    }

    /** Our transport for the scenario. */
    public TransportModel transport() {
        return switch (cc) {
            case DCTCP -> DctcpTransport.hpccSimulation(windowBytes());
            case TIMELY -> TimelyTransport.hpccSimulation(windowBytes());
            case SWIFT -> SwiftTransport.defaults((double) windowBytes() / RdmaReferenceIncast.MTU_BYTES);
        };
    }

    /** The scenario: {@link RdmaReferenceHpcc}'s topology, flows, buffer and PFC with {@link #transport()}. */
    public Scenario scenario() {
        int ports = kind == RdmaReferenceHpcc.Kind.INCAST ? 9 : 5;
        long b = RdmaReferenceIncast.SWITCH_BUFFER_BYTES - ports * (RdmaReferenceIncast.HEADROOM_BYTES + RdmaReferenceIncast.RESERVE_BYTES);
        SwitchBuffer buffer = SwitchBuffer.shared(b);
        if (cc == Cc.DCTCP) {
            buffer = buffer.withEcnMarking(fabriclab.fabric.EcnMarking.step(DCTCP_K_BYTES))
                    .withEcnMarkingPoint(SwitchBuffer.MarkingPoint.DEQUEUE);
        }
        SimulationConfig config = new SimulationConfig(RdmaReferenceIncast.MTU_BYTES, RdmaReferenceIncast.HEADER_BYTES, 1, buffer,
                Forwarding.ecmp(HashFunction.CRC32, 7), 1, Time.US, 5_000);
        Pfc pfc = new Pfc(b / 8, b / 8 - RdmaReferenceIncast.PFC_THRESHOLD.xonOffsetBytes(), RdmaReferenceIncast.HEADROOM_BYTES,
                Pfc.MAX_QUANTA);
        RdmaReferenceHpcc s = shape();
        return Scenario.builder(s.topology(), config).flows(s.flows()).transport(transport()).pfc(pfc)
                .pfcDynamicThreshold(RdmaReferenceIncast.PFC_THRESHOLD).name(cc.label() + " " + id() + " of the RDMA reference")
                .tieOrder(TieOrder.SCHEDULING).build();
    }

    /** The reference's values of {@code quantity} in this scenario, in the dataset's order. */
    public long[] referenceValues(tech.tablesaw.api.Table reference, String quantity) {
        Parameters.notNull("reference", reference);
        Parameters.notNull("quantity", quantity);
        tech.tablesaw.api.Table r = reference.where(reference.stringColumn("scenario").isEqualTo(id())
                .and(reference.stringColumn("quantity").isEqualTo(quantity)));
        if (r.rowCount() == 0) {
            throw new IllegalArgumentException("no " + quantity + " of " + id() + " in the reference table");
        }
        long[] v = new long[r.rowCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = Math.round(r.numberColumn("value").getDouble(i));
        }
        return v;
    }

    /**
     * One quantity, ours against the reference's.
     *
     * @param quantity what is compared
     * @param unit {@code us} or {@code bytes}
     * @param reference the reference's value
     * @param ours ours
     * @param tolerance relative (class comment)
     * @param reason where the tolerance comes from
     */
    public record Row(String quantity, String unit, double reference, double ours, double tolerance, String reason) {
        /** Validates: finite values, a tolerance in [0, 1]. */
        public Row {
            Parameters.notBlank("quantity", quantity);
            Parameters.notBlank("unit", unit);
            Parameters.finite("reference", reference);
            Parameters.finite("ours", ours);
            Parameters.inRange("tolerance", tolerance, 0.0, 1.0);
            Parameters.notBlank("reason", reason);
        }

        /** Whether ours is within the tolerance of the reference's value. */
        public boolean pass() {
            return Math.abs(ours - reference) <= tolerance * Math.abs(reference);
        }
    }

    /**
     * The comparison of {@code ours} (a completed run of {@link #scenario}) with the reference's run (class comment).
     *
     * @param reference the scheme's dataset ({@link Cc#reference()})
     */
    public List<Row> rows(SimulationResult ours, tech.tablesaw.api.Table reference) {
        Parameters.notNull("ours", ours);
        long[] theirs = referenceValues(reference, "fct_ns").clone();
        Arrays.sort(theirs);
        if (ours.flows().size() != theirs.length || !ours.allCompleted()) {
            throw new IllegalArgumentException("ours must be a completed run of the " + theirs.length + " flows of " + id()
                    + ", got " + ours.flows().size() + " flows, all completed: " + ours.allCompleted());
        }
        double[] mine = ours.flows().stream().mapToDouble(f -> (f.acknowledgedPs() - f.spec().startPs()) / 1e6).sorted().toArray();
        double[] ref = Arrays.stream(theirs).mapToDouble(v -> v / 1e3).toArray();
        double refMean = Arrays.stream(ref).average().orElseThrow();
        double spread = (ref[ref.length - 1] - ref[0]) / refMean;
        double windowUs = windowBytes() * 8.0 / (RdmaReferenceIncast.RATE_BPS / 1e6);
        double fctTolerance = Math.min(1, Math.max(spread, windowUs / refMean));
        String fctReason = spread >= windowUs / refMean
                ? String.format(Locale.ROOT, "the reference's spread of FCTs over its identical flows, %.2f%%", 100 * spread)
                : String.format(Locale.ROOT, "one window (%d B) at line rate over the mean FCT, %.2f%% (the reference's spread %.2f%% is smaller)",
                        windowBytes(), 100 * windowUs / refMean, 100 * spread);
        long refPeak = referenceValues(reference, "peak_queue_bytes")[0];
        double resolution = (sendersPerBottleneck() - 1) * RdmaReferenceIncast.RATE_BPS / 8.0 * 1e-6;
        double peakTolerance = Math.min(1, Math.max(fctTolerance, resolution / Math.max(1, refPeak)));
        String peakReason = String.format(Locale.ROOT,
                "the reference's 1-us queue sampling: %d senders - 1 at line rate move the queue by %.0f B per sample", sendersPerBottleneck(),
                resolution);
        long ourPeak = ours.queues().stream().mapToLong(SimulationResult.QueueTrace::peakBytes).max().orElse(0);
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("mean FCT", "us", refMean, Arrays.stream(mine).average().orElseThrow(), fctTolerance, fctReason));
        rows.add(new Row("smallest FCT", "us", ref[0], mine[0], fctTolerance, fctReason));
        rows.add(new Row("largest FCT", "us", ref[ref.length - 1], mine[mine.length - 1], fctTolerance, fctReason));
        rows.add(new Row("peak switch egress queue", "bytes", refPeak, ourPeak, peakTolerance, peakReason));
        return rows;
    }

    /**
     * Runs ours on every scheme and scenario (six runs of seconds each), adds their rows to {@code cmp}
     * ({@link #addTo}) and tabulates them: columns {@code scheme}, {@code scenario}, {@code quantity}, {@code unit},
     * {@code reference}, {@code ours}, {@code tolerance}, {@code pass}, {@code reason}.
     */
    public static tech.tablesaw.api.Table runAll(fabriclab.notebook.PaperComparison cmp) {
        Parameters.notNull("cmp", cmp);
        tech.tablesaw.api.StringColumn scheme = tech.tablesaw.api.StringColumn.create("scheme");
        tech.tablesaw.api.StringColumn scenario = tech.tablesaw.api.StringColumn.create("scenario");
        tech.tablesaw.api.StringColumn quantity = tech.tablesaw.api.StringColumn.create("quantity");
        tech.tablesaw.api.StringColumn unit = tech.tablesaw.api.StringColumn.create("unit");
        tech.tablesaw.api.DoubleColumn reference = tech.tablesaw.api.DoubleColumn.create("reference");
        tech.tablesaw.api.DoubleColumn ours = tech.tablesaw.api.DoubleColumn.create("ours");
        tech.tablesaw.api.DoubleColumn tolerance = tech.tablesaw.api.DoubleColumn.create("tolerance");
        tech.tablesaw.api.StringColumn pass = tech.tablesaw.api.StringColumn.create("pass");
        tech.tablesaw.api.StringColumn reason = tech.tablesaw.api.StringColumn.create("reason");
        for (Cc c : Cc.values()) {
            tech.tablesaw.api.Table t = c.reference();
            for (RdmaReferenceHpcc.Kind k : RdmaReferenceHpcc.Kind.values()) {
                RdmaReferenceCc s = new RdmaReferenceCc(c, k);
                SimulationResult r = new fabriclab.simulation.Simulator(s.scenario()).run();
                s.addTo(cmp, r, t);
                for (Row row : s.rows(r, t)) {
                    scheme.append(c.label());
                    scenario.append(s.id());
                    quantity.append(row.quantity());
                    unit.append(row.unit());
                    reference.append(row.reference());
                    ours.append(row.ours());
                    tolerance.append(row.tolerance());
                    pass.append(row.pass() ? "pass" : "miss");
                    reason.append(row.reason());
                }
            }
        }
        long passed = pass.asList().stream().filter("pass"::equals).count();
        return tech.tablesaw.api.Table.create(String.format(Locale.ROOT,
                "DCTCP, TIMELY+w and Swift against the RDMA reference: %d of %d within tolerance", passed, pass.size()), scheme,
                scenario, quantity, unit, reference, ours, tolerance, pass, reason);
    }

    /**
     * The comparison with both simulators under one order of simultaneous events
     * ({@link TieOrder#CANONICAL}; the reference's runs under the rule are the dataset
     * {@link RdmaReferenceTieRule#dataset}{@code (cc.dataset())}, draw seeds 1 to {@link RdmaReferenceTieRule#DRAWS}):
     * {@link #rows} of ours with the run's seed d against the reference's draw d, merged over the draws by
     * {@link RdmaReferenceTieRule#overDraws} (target the reference's range over its draws with the median per-draw
     * tolerance, ours the median of our draws). Five runs of ours.
     */
    public List<fabriclab.datasets.ComparisonRow> tieRuleRows() {
        tech.tablesaw.api.Table all = fabriclab.datasets.Datasets.load(RdmaReferenceTieRule.dataset(cc.dataset())).table();
        List<List<fabriclab.datasets.ComparisonRow>> perDraw = new ArrayList<>();
        for (int d = 1; d <= RdmaReferenceTieRule.DRAWS; d++) {
            SimulationResult ours = RdmaReferenceTieRule.underRule(scenario(), d);
            fabriclab.notebook.PaperComparison c = fabriclab.notebook.PaperComparison.of("RDMA reference " + cc.label(),
                    "outside reference (not a seed paper)");
            for (Row r : rows(ours, RdmaReferenceTieRule.referenceRun(all, d))) {
                c.validation(RdmaReferenceComparison.REFERENCE, quantity(r), r.unit(),
                        fabriclab.datasets.Target.point(r.reference(), r.tolerance()), r.ours(), "").tolerance(r.tolerance(), r.reason());
            }
            perDraw.add(c.rows());
        }
        return RdmaReferenceTieRule.overDraws(perDraw);
    }

    /**
     * {@link #tieRuleRows} of every scheme and scenario (30 runs of ours): columns {@code scheme}, {@code scenario},
     * {@code quantity}, {@code unit}, {@code reference_low} and {@code reference_high} (the reference's range over its
     * draws), {@code ours} (median over our draws), {@code tolerance} (relative, beyond either end), {@code pass}.
     */
    public static tech.tablesaw.api.Table tieRuleTable() {
        tech.tablesaw.api.StringColumn scheme = tech.tablesaw.api.StringColumn.create("scheme");
        tech.tablesaw.api.StringColumn scenario = tech.tablesaw.api.StringColumn.create("scenario");
        tech.tablesaw.api.StringColumn quantity = tech.tablesaw.api.StringColumn.create("quantity");
        tech.tablesaw.api.StringColumn unit = tech.tablesaw.api.StringColumn.create("unit");
        tech.tablesaw.api.DoubleColumn low = tech.tablesaw.api.DoubleColumn.create("reference_low");
        tech.tablesaw.api.DoubleColumn high = tech.tablesaw.api.DoubleColumn.create("reference_high");
        tech.tablesaw.api.DoubleColumn ours = tech.tablesaw.api.DoubleColumn.create("ours");
        tech.tablesaw.api.DoubleColumn tolerance = tech.tablesaw.api.DoubleColumn.create("tolerance");
        tech.tablesaw.api.StringColumn pass = tech.tablesaw.api.StringColumn.create("pass");
        for (Cc c : Cc.values()) {
            for (RdmaReferenceHpcc.Kind k : RdmaReferenceHpcc.Kind.values()) {
                RdmaReferenceCc s = new RdmaReferenceCc(c, k);
                String prefix = RdmaReferenceTieRule.PREFIX + s.quantityPrefix();
                for (fabriclab.datasets.ComparisonRow r : s.tieRuleRows()) {
                    scheme.append(c.label());
                    scenario.append(s.id());
                    quantity.append(r.quantity().substring(prefix.length()));
                    unit.append(r.unit());
                    low.append(Math.round(r.target().published() * 10) / 10.0);
                    high.append(Math.round(r.target().publishedHigh() * 10) / 10.0);
                    ours.append(Math.round(r.model() * 10) / 10.0);
                    tolerance.append(Math.round(r.target().tolerance() * 1000) / 1000.0);
                    pass.append(r.meetsTarget() ? "pass" : "miss");
                }
            }
        }
        long passed = pass.asList().stream().filter("pass"::equals).count();
        return tech.tablesaw.api.Table.create(String.format(Locale.ROOT,
                "DCTCP, TIMELY+w and Swift against the RDMA reference, both under one tie rule (draws 1-%d): %d of %d within"
                        + " tolerance", RdmaReferenceTieRule.DRAWS, passed, pass.size()), scheme, scenario, quantity, unit, low,
                high, ours, tolerance, pass);
    }

    /** The start of this scheme and scenario's row quantities: scheme, scenario, ", ". */
    private String quantityPrefix() {
        return cc.label() + " " + (kind == RdmaReferenceHpcc.Kind.INCAST ? "8-to-1 incast" : "permutation under one spine") + ", ";
    }

    private String quantity(Row r) {
        return quantityPrefix() + r.quantity();
    }

    /** Adds {@link #rows} as validation rows against {@link RdmaReferenceComparison#REFERENCE} to {@code cmp}. */
    public void addTo(fabriclab.notebook.PaperComparison cmp, SimulationResult ours, tech.tablesaw.api.Table reference) {
        Parameters.notNull("cmp", cmp);
        for (Row r : rows(ours, reference)) {
            cmp.validation(RdmaReferenceComparison.REFERENCE, quantity(r), r.unit(),
                    fabriclab.datasets.Target.point(r.reference(), r.tolerance()), r.ours(),
                    String.format(Locale.ROOT, "tolerance %.1f%%: %s", 100 * r.tolerance(), r.reason()));
        }
    }
}
