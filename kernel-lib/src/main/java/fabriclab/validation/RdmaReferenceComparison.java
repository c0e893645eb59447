package fabriclab.validation;

import fabriclab.Parameters;
import fabriclab.datasets.ComparisonRow;
import fabriclab.datasets.Datasets;
import fabriclab.datasets.Target;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.notebook.Figures;
import fabriclab.notebook.PaperComparison;
import fabriclab.project.ProjectPaths;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * Our packet simulator against the RDMA reference (the ns-3 model of HPCC's authors as aliyun/ns-3-alibabacloud carries
 * it) on the four scenarios whose reference outputs are committed: the DCQCN+PFC N-to-1 incasts of
 * {@link RdmaReferenceIncast} ({@value #INCAST_DATASET}), PFC propagation with a victim of {@link RdmaReferencePfcVictim}
 * ({@value #VICTIM_DATASET}), go-back-N after a link goes down of {@link RdmaReferenceGoBackN}
 * ({@value #GO_BACK_N_DATASET}) and the DCQCN all-to-all on a leaf-spine with hashed uplinks of
 * {@link RdmaReferenceAllToAll} ({@value #ALL_TO_ALL_DATASET}). Each compared figure is one validation row ({@link ComparisonRow}) with its tolerance
 * and the tolerance's reason; a row that misses carries its mechanism in the note.
 *
 * <p>Tolerances, each from the reference's own variation or a stated modelling difference, never fitted:
 * <ul>
 *   <li>Completion times (makespan, mean FCT, the victim's FCT) and PAUSE frames per port: the reference's own spread of
 *       FCT over the incast's flows, (max - min) / max. The flows are identical; what separates them in the reference is
 *       which of them the marking draws and the PAUSE order hit. A PAUSE/RESUME cycle is a stretch of the run, so the
 *       count of PAUSE frames scales with the time the run lasts.</li>
 *   <li>The first PAUSE of the incast: the time the two PFC thresholds' known offset (ours pauses
 *       {@link RdmaReferenceIncast#RESERVE_BYTES} + N x 512 B earlier per ingress counter) plus one packet takes to fill
 *       at an ingress counter's rate 100 Gb/s x (1 - 1/N). The reference logs a PAUSE where it is received: one link
 *       delay and a 64 B frame are taken off.</li>
 *   <li>Peak of a queue that PFC holds: the same offset for each ingress counter that feeds it (plus one headroom in
 *       the single-switch incast) and the reference's 1-us sampling, 12.5 KB at 100 Gb/s.</li>
 *   <li>ECN marks at the bottleneck and DCQCN rate cuts per sender: ours over the reference's within a factor of
 *       {@value #REGIME_FACTOR} either way. The models differ here by construction (the reference marks at dequeue,
 *       ours at enqueue; the reference flags every marked packet's ACK as a CNP and cuts at most every 4 us, its first
 *       CNP without a cut; ours sends at most one CNP per flow per 4 us and cuts on each); the factor says "the same
 *       regime", not agreement.</li>
 *   <li>Go-back-N: the data packets lost and the NACKs exactly (the same packet train meets the same failure); packets
 *       resent within one per link of the resent path (4), the FCT within one packet time per link of that path: where
 *       in a packet the NACK reaches each store-and-forward hop shifts the restart by up to a packet there.</li>
 *   <li>Drops: exactly 0 in both (PFC).</li>
 *   <li>All-to-all with hashed uplinks (four spines): neither simulator can reproduce the other's path choice (the
 *       reference hashes with Murmur3 seeded by the switch's node id, ours with CRC-32), so each is run over
 *       {@value #ALL_TO_ALL_RUNS} path choices and the median of ours over its runs (makespan, mean, p10, p50, p90 and
 *       p99 of the per-flow FCT, PAUSE frames) is held against the reference's range over its runs, [min, max], with the
 *       range's width (max - min) as tolerance relative to the nearer end (max - min) / max: the width itself above the
 *       range, a little less below it. The variation over path choices is the reference's own, counted once for where
 *       the reference falls and once for where a second simulator with other path choices falls.</li>
 *   <li>The all-to-all's one-spine control, where no hashing acts: as the incasts, the reference's spread of FCT over
 *       the alike flows (the 192 across the spine; the 48 within a leaf for theirs). Its rows come twice: with our NIC
 *       rule (the default: DCQCN's rate limiter spaces a queue pair's packets by size / rate, one packet per turn, no
 *       credit for waiting) and with the reference's ({@link RoceTransport.TokenBucket}: ns-3-alibabacloud's default
 *       {@code TxDequeueMode DWRR}, a token bucket per queue pair that keeps filling while the queue pair waits behind
 *       others or under PAUSE, and burst service). The flows within a leaf share their NIC with twelve flows across the
 *       spine that DCQCN cuts and PFC pauses; under our rule a cut flow loses the time it waits beyond its spacing (for
 *       its round-robin turn, or under PAUSE) and the flows within the leaf take the line, so these finish about a third
 *       sooner than the reference's (a miss; with PFC off and unbounded buffers the gap stays); under the
 *       reference's rule the row passes, and the reference run with our rule ({@code QpAvail}, scenario
 *       {@value #ALL_TO_ALL_CONTROL_QPAVAIL}) comes out on our side: the traced mechanism.</li>
 * </ul>
 *
 * <p>The reference's switch decides ECN marks at dequeue, ours by default at enqueue; {@link #run(Path,
 * SwitchBuffer.MarkingPoint)} runs ours either way ({@link SwitchBuffer.MarkingPoint}). A DCQCN row that misses names
 * its mechanism: run marking at enqueue, the marking point; run marking at dequeue, the
 * reaction point in part.
 */
public final class RdmaReferenceComparison {
    /** The outside reference of every row. */
    public static final String REFERENCE = "HPCC's RDMA model for ns-3 (aliyun/ns-3-alibabacloud eb45e7f, scratch/NormalNetwork)";
    /** The incast dataset. */
    public static final String INCAST_DATASET = "rdma-ns3-dcqcn-incast";
    /** The PFC victim dataset. */
    public static final String VICTIM_DATASET = "rdma-ns3-pfc-victim";
    /** The go-back-N dataset. */
    public static final String GO_BACK_N_DATASET = "rdma-ns3-gbn-linkdown";
    /** The all-to-all dataset. */
    public static final String ALL_TO_ALL_DATASET = "rdma-ns3-alltoall";
    /**
     * The reference's one-spine control run with its NIC's queue-pair service set to {@code QpAvail} (packet spacing, one
     * packet per turn: our rule) instead of its default {@code DWRR}, a scenario of {@value #ALL_TO_ALL_DATASET}.
     */
    public static final String ALL_TO_ALL_CONTROL_QPAVAIL = "a2a_1spine_qpavail";
    /** Hashed all-to-all runs on each side: the reference's destination ports 100 to 109, our ECMP seeds 1 to 10. */
    public static final int ALL_TO_ALL_RUNS = 10;
    /** Spines of the hashed all-to-all. */
    public static final int ALL_TO_ALL_SPINES = 4;
    /** The incasts' sender counts N in the incast dataset. */
    public static final List<Integer> INCAST_SENDERS = List.of(4, 8, 16);
    /** The factor either way that ECN marks and rate cuts may differ by (the same regime, not agreement). */
    public static final double REGIME_FACTOR = 3;
    /** The reference's sampling period of queue lengths, ps (1 us). */
    public static final long SAMPLE_PS = Time.US;
    /** Links of go-back-N's resent path (host, switch 2, switch 4, switch 3, host). */
    public static final int RESENT_PATH_LINKS = 4;

    /** The mechanism of a DCQCN row that misses with ours marking at enqueue. */
    static final String MISS_MARKING = "mechanism: the marking point; ours marks at enqueue, the reference at dequeue, and a"
            + " packet marked at enqueue carries the mark to its receiver only after waiting through the queue it found (8 us"
            + " behind Kmin = 100 KB at 100 Gb/s), so our senders cut later and the queue climbs to the PFC threshold more"
            + " often (compare the rows run with marking at dequeue)";
    /** The mechanism of a DCQCN row that misses with ours marking at dequeue, as the reference does. */
    static final String MISS_REACTION = "mechanism, in part: the reaction points; the reference's first CNP does not cut and"
            + " it cuts at most once per 4-us check that follows CNPs (one per marked packet), ours cuts on its first CNP at"
            + " once and on each CNP (at most one per flow per 4 us); the rest is not traced";
    private static final String MISS_WITHIN_LEAF = "mechanism: the NIC's rate limiter and how the NIC shares its line among its"
            + " queue pairs (RoceTransport.TokenBucket). Each sender's NIC carries three flows within its leaf at line rate"
            + " and twelve across the spine that DCQCN cuts (and PFC pauses). Ours spaces a queue pair's packets by size /"
            + " rate and credits no waiting, so a cut flow that waits for its round-robin turn, or under PAUSE, longer than"
            + " its spacing sends below its DCQCN rate and the flows within the leaf take the rest of the line; the"
            + " reference (ns-3-alibabacloud's default TxDequeueMode DWRR) fills a token bucket of up to 8,000 B per queue"
            + " pair while it waits and serves turns of up to that, so every queue pair gets about an equal turn. Run with"
            + " the reference's rule, the row below passes; the reference run with ours (QpAvail, scenario"
            + " a2a_1spine_qpavail) gives %.4g us, the side of ours";
    /** The within-leaf miss of the one-spine control run with the reference's NIC rule, should it miss. */
    private static final String MISS_WITHIN_LEAF_TOKEN_BUCKET = "mechanism not traced (the NIC's rule is the reference's here)";
    /** The (switch, interface) of each victim scenario port compared, and the node it leads to. */
    private static final Map<String, Integer> VICTIM_PEER = new java.util.TreeMap<>(Map.of("11:1", 0, "11:2", 1, "11:5", 13,
            "12:1", 4, "12:2", 5, "12:3", 6, "12:4", 7, "12:5", 13, "13:1", 11, "13:2", 12));

    private final Map<Integer, SimulationResult> incasts;
    private final SimulationResult victimDcqcn;
    private final SimulationResult victimPfc;
    private final SimulationResult goBackN;
    private final List<SimulationResult> allToAll;
    private final SimulationResult allToAllControl;
    private final SimulationResult allToAllControlTokenBucket;
    private final SwitchBuffer.MarkingPoint markingPoint;
    private final Path root;

    private RdmaReferenceComparison(Map<Integer, SimulationResult> incasts, SimulationResult victimDcqcn,
            SimulationResult victimPfc, SimulationResult goBackN, List<SimulationResult> allToAll,
            SimulationResult allToAllControl, SimulationResult allToAllControlTokenBucket, SwitchBuffer.MarkingPoint markingPoint,
            Path root) {
        this.incasts = incasts;
        this.victimDcqcn = victimDcqcn;
        this.victimPfc = victimPfc;
        this.goBackN = goBackN;
        this.allToAll = allToAll;
        this.allToAllControl = allToAllControl;
        this.allToAllControlTokenBucket = allToAllControlTokenBucket;
        this.markingPoint = markingPoint;
        this.root = root;
    }

    /** Runs ours on every scenario, marking at enqueue, reading the reference's datasets from the project's {@code datasets/}. */
    public static RdmaReferenceComparison run() {
        return run(ProjectPaths.datasets());
    }

    /**
     * Runs ours on every scenario with ECN marks decided at {@code markingPoint} ({@code DEQUEUE}: as the reference
     * decides them), reading the reference's datasets from the project's {@code datasets/}.
     */
    public static RdmaReferenceComparison run(SwitchBuffer.MarkingPoint markingPoint) {
        return run(ProjectPaths.datasets(), markingPoint);
    }

    /** As {@link #run(Path, SwitchBuffer.MarkingPoint)}, marking at enqueue (ours). */
    public static RdmaReferenceComparison run(Path root) {
        return run(root, SwitchBuffer.MarkingPoint.ENQUEUE);
    }

    /**
     * Runs ours on every scenario (incasts N = 4, 8, 16; the victim with DCQCN+PFC and PFC alone; go-back-N; the
     * all-to-all on four spines with ECMP seeds 1 to {@value #ALL_TO_ALL_RUNS}, and on one spine), the switches deciding
     * ECN marks at {@code markingPoint}.
     *
     * @param root the datasets directory holding {@code published/} with the reference's datasets
     * @param markingPoint where our switches decide ECN marks (the reference: {@code DEQUEUE})
     */
    public static RdmaReferenceComparison run(Path root, SwitchBuffer.MarkingPoint markingPoint) {
        Parameters.notNull("root", root);
        Parameters.notNull("markingPoint", markingPoint);
        Map<Integer, SimulationResult> incasts = new LinkedHashMap<>();
        for (int n : INCAST_SENDERS) {
            incasts.put(n, new Simulator(new RdmaReferenceIncast(n).scenario(markingPoint)).run());
        }
        List<SimulationResult> allToAll = new ArrayList<>();
        for (int seed = 1; seed <= ALL_TO_ALL_RUNS; seed++) {
            allToAll.add(new Simulator(new RdmaReferenceAllToAll(ALL_TO_ALL_SPINES, seed).scenario(markingPoint)).run());
        }
        return new RdmaReferenceComparison(incasts, new Simulator(new RdmaReferencePfcVictim(true).scenario(markingPoint)).run(),
                new Simulator(new RdmaReferencePfcVictim(false).scenario(markingPoint)).run(),
                new Simulator(new RdmaReferenceGoBackN().scenario()).run(), List.copyOf(allToAll),
                new Simulator(new RdmaReferenceAllToAll(1, 1).scenario(markingPoint)).run(),
                new Simulator(new RdmaReferenceAllToAll(1, 1).scenario(markingPoint, RoceTransport.TokenBucket.reference())).run(),
                markingPoint, root);
    }

    /** Where our switches decided ECN marks in these runs. */
    public SwitchBuffer.MarkingPoint markingPoint() {
        return markingPoint;
    }

    /** Every row: the incasts, the victim with DCQCN+PFC and with PFC alone, go-back-N, the all-to-all. */
    public List<ComparisonRow> rows() {
        List<ComparisonRow> out = new ArrayList<>();
        Table incast = Datasets.load(root, INCAST_DATASET).table();
        for (int n : INCAST_SENDERS) {
            out.addAll(incastRows(n, incasts.get(n), incast, markingPoint));
        }
        Table victim = Datasets.load(root, VICTIM_DATASET).table();
        out.addAll(victimRows(true, victimDcqcn, victim, markingPoint));
        out.addAll(victimRows(false, victimPfc, victim, markingPoint));
        out.addAll(goBackNRows(goBackN, Datasets.load(root, GO_BACK_N_DATASET).table()));
        Table allToAllTable = Datasets.load(root, ALL_TO_ALL_DATASET).table();
        out.addAll(allToAllRows(allToAll, allToAllControl, allToAllTable, markingPoint));
        out.addAll(allToAllTokenBucketRows(allToAllControlTokenBucket, allToAllTable));
        return out;
    }

    /** Adds {@link #rows()} to {@code cmp}; returns {@code cmp}. */
    public PaperComparison addTo(PaperComparison cmp) {
        Parameters.notNull("cmp", cmp);
        rows().forEach(cmp::add);
        return cmp;
    }

    /**
     * The rows as a reader checks them, one table per scenario (the incasts, the PFC victim, go-back-N, the all-to-all),
     * each with the
     * columns of {@link Ns3Comparison#summary} (outside value, ours, tolerance, pass or miss, note: for a miss, the
     * mechanism) and named by its scenario and how many of its rows pass.
     */
    public List<Table> summaries() {
        String[][] parts = {{"-to-1 DCQCN+PFC incast", "DCQCN+PFC N-to-1 incasts"}, {"PFC victim", "PFC propagation with a victim"},
                {"go-back-N", "go-back-N after a link goes down"}, {"all-to-all", "DCQCN all-to-all on a leaf-spine"}};
        List<ComparisonRow> all = rows();
        List<Table> out = new ArrayList<>();
        for (String[] p : parts) {
            PaperComparison c = PaperComparison.of(p[1], "outside reference (not a seed paper)");
            all.stream().filter(r -> r.quantity().contains(p[0])).forEach(c::add);
            Table t = Ns3Comparison.summary(c);
            long pass = c.rows().stream().filter(ComparisonRow::meetsTarget).count();
            t.setName("RDMA reference, " + p[1] + (markingPoint == SwitchBuffer.MarkingPoint.DEQUEUE
                    ? ", ours marking at dequeue as the reference does" : "") + ": " + pass + " of " + c.rows().size()
                    + " rows pass");
            out.add(t);
        }
        return out;
    }

    /** Our result of the N-to-1 incast, N one of {@link #INCAST_SENDERS}. */
    public SimulationResult incast(int senders) {
        SimulationResult r = incasts.get(senders);
        if (r == null) {
            throw new IllegalArgumentException("senders must be one of " + INCAST_SENDERS + ", got " + senders);
        }
        return r;
    }

    /**
     * Per-sender FCT of the incasts, both sides: columns {@code senders} (N), {@code sender} (host), {@code reference_us},
     * {@code ours_us} (from the start to the sender's receipt of the ACK of the last byte, us).
     */
    public Table incastFct() {
        Table t = Datasets.load(root, INCAST_DATASET).table();
        IntColumn n = IntColumn.create("senders");
        IntColumn sender = IntColumn.create("sender");
        DoubleColumn ref = DoubleColumn.create("reference_us");
        DoubleColumn ours = DoubleColumn.create("ours_us");
        for (int s : INCAST_SENDERS) {
            for (SimulationResult.FlowRecord f : incasts.get(s).flows()) {
                n.append(s);
                sender.append(f.spec().source());
                ref.append(incastValue(t, s, "fct_ns", f.spec().source()) / 1e3);
                ours.append(fctNs(f) / 1e3);
            }
        }
        return Table.create("DCQCN+PFC incasts: per-sender FCT, the RDMA reference and ours", n, sender, ref, ours);
    }

    /** {@link #incastFct()} as a scatter: ours against the reference per sender, one series per N, and the diagonal. */
    public XYChart incastFctChart() {
        Table t = incastFct();
        XYChart c = Figures.xy("DCQCN+PFC incasts: per-sender FCT, ours against the RDMA reference",
                "reference FCT [us]", "ours FCT [us]");
        double hi = 0;
        for (int s : INCAST_SENDERS) {
            Table part = t.where(t.intColumn("senders").isEqualTo(s));
            double[] x = part.doubleColumn("reference_us").asDoubleArray();
            double[] y = part.doubleColumn("ours_us").asDoubleArray();
            hi = Math.max(hi, Math.max(Arrays.stream(x).max().orElse(0), Arrays.stream(y).max().orElse(0)));
            c.addSeries("N = " + s, x, y).setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
        XYSeries d = c.addSeries("equal", new double[] {0, hi}, new double[] {0, hi});
        d.setMarker(SeriesMarkers.NONE).setLineStyle(SeriesLines.DASH_DASH).setLineColor(Figures.PAPER_COLOR);
        return c;
    }

    /**
     * The rows of one N-to-1 incast: makespan, mean FCT, drops, PAUSE frames the switch sends, the first PAUSE (where
     * the reference pauses), the bottleneck's peak queue, ECN marks and rate cuts per sender.
     *
     * @param ours our result of {@code new RdmaReferenceIncast(senders).scenario()}
     * @param reference the dataset {@value #INCAST_DATASET}
     */
    public static List<ComparisonRow> incastRows(int senders, SimulationResult ours, Table reference) {
        return incastRows(senders, ours, reference, SwitchBuffer.MarkingPoint.ENQUEUE);
    }

    /**
     * As {@link #incastRows(int, SimulationResult, Table)}, for ours run with ECN marks decided at {@code markingPoint}
     * (the mechanism a missing row names depends on it).
     */
    public static List<ComparisonRow> incastRows(int senders, SimulationResult ours, Table reference,
            SwitchBuffer.MarkingPoint markingPoint) {
        Parameters.notNull("ours", ours);
        Parameters.notNull("markingPoint", markingPoint);
        String mechanism = mechanism(markingPoint);
        Parameters.notNull("reference", reference);
        int n = senders;
        String what = n + "-to-1 DCQCN+PFC incast, 1 MB each at 100 Gb/s: ";
        PaperComparison c = PaperComparison.of("RDMA reference incast", "outside reference (not a seed paper)");
        long[] ref = incastRows(reference, n, "fct_ns").stream().mapToLong(r -> r[3]).toArray();
        if (ref.length != n) {
            throw new IllegalArgumentException(INCAST_DATASET + " has " + ref.length + " FCTs for N = " + n + ", not " + n);
        }
        long refMax = Arrays.stream(ref).max().orElseThrow();
        double spread = (double) (refMax - Arrays.stream(ref).min().orElseThrow()) / refMax;
        String spreadReason = "the reference's spread of FCT over its identical flows, (max - min) / max";
        long oursMax = 0;
        double oursMean = 0;
        for (SimulationResult.FlowRecord f : ours.flows()) {
            oursMax = Math.max(oursMax, fctNs(f));
            oursMean += fctNs(f) / (double) n;
        }
        c.validation(REFERENCE, what + "makespan", "us", Target.point(refMax / 1e3, spread), oursMax / 1e3, "")
                .tolerance(spread, spreadReason);
        c.validation(REFERENCE, what + "mean FCT", "us", Target.point(Arrays.stream(ref).average().orElseThrow() / 1e3, spread),
                oursMean / 1e3, "").tolerance(spread, spreadReason);
        c.validation(REFERENCE, what + "drops", "packets", Target.point(incastRows(reference, n, "drops").get(0)[3], 0),
                ours.droppedPackets(), "").tolerance(0, "PFC: lossless in both, exact");
        long oursPauses = 0;
        long oursFirstPs = Long.MAX_VALUE;
        for (SimulationResult.PortPfc p : ours.pfc()) {
            if (p.node() >= n + 1 && p.pausesSent() > 0) {
                oursPauses += p.pausesSent();
                oursFirstPs = Math.min(oursFirstPs, p.firstPauseSentPs());
            }
        }
        long refPauses = incastRows(reference, n, "pause_sent").stream().mapToLong(r -> r[3]).sum();
        double pauseTol = refPauses == 0 ? 0 : spread;
        c.validation(REFERENCE, what + "PAUSE frames the switch sends", "frames", Target.point(refPauses, pauseTol), oursPauses,
                refPauses == 0 ? "the reference does not pause at this N; " + mechanism
                        : (oursPauses > refPauses ? "more" : "fewer") + " PAUSE/RESUME cycles in ours; " + mechanism)
                .tolerance(pauseTol, refPauses == 0 ? "none: the reference sends none"
                        : "a PAUSE/RESUME cycle is a stretch of the run: " + spreadReason);
        if (refPauses > 0) {
            double refFirstNs = incastRows(reference, n, "first_pause_ns").stream().filter(p -> p[3] >= 0).mapToLong(p -> p[3])
                    .min().orElseThrow() - RdmaReferenceIncast.DELAY_PS / (double) Time.NS
                    - Time.serializationPs(Pfc.PAUSE_FRAME_BYTES, RdmaReferenceIncast.RATE_BPS) / (double) Time.NS;
            double offsetBytes = RdmaReferenceIncast.RESERVE_BYTES + n * 512.0
                    + RdmaReferenceIncast.MTU_BYTES + RdmaReferenceIncast.HEADER_BYTES;
            double tolNs = offsetBytes / (RdmaReferenceIncast.RATE_BPS / 8e9 * (1 - 1.0 / n));
            double tol = Math.min(1, tolNs / refFirstNs);
            c.validation(REFERENCE, what + "first PAUSE sent", "us", Target.point(refFirstNs / 1e3, tol),
                    oursFirstPs == Long.MAX_VALUE ? -1 : oursFirstPs / (double) Time.US,
                    "the reference's time received, less one link delay and a 64 B frame")
                    .tolerance(tol, "the PFC thresholds' known offset (4 KiB + N x 512 B) plus a packet, at an ingress"
                            + " counter's fill rate 100 Gb/s x (1 - 1/N)");
        }
        int receiver = n;
        SimulationResult.QueueTrace q = ours.queues().stream().filter(x -> x.peerNode() == receiver).findFirst().orElseThrow();
        long refPeak = incastRows(reference, n, "peak_queue_bytes").get(0)[3];
        double peakTolBytes = n * (RdmaReferenceIncast.RESERVE_BYTES + n * 512.0) + RdmaReferenceIncast.HEADROOM_BYTES
                + sampleBytes(RdmaReferenceIncast.RATE_BPS);
        double peakTol = Math.min(1, peakTolBytes / refPeak);
        c.validation(REFERENCE, what + "peak queue at the receiver's port", "kB", Target.point(refPeak / 1e3, peakTol),
                q.peakBytes() / 1e3, refPauses == 0 && oursPauses > 0 ? "ours pauses the senders and the reference does"
                        + " not; the threshold offset does not explain the difference" : "")
                .tolerance(peakTol, "the PFC thresholds' offset for N ingress counters, one headroom, and the reference's"
                        + " 1-us sampling");
        long refMarks = incastRows(reference, n, "ecn_marked").get(0)[3];
        regime(c, what + "ECN-marked packets at the bottleneck, ours over the reference's", refMarks, q.ecnMarks(),
                "marked at dequeue in the reference, at enqueue in ours");
        double refCuts = incastRows(reference, n, "rate_cuts").stream().mapToLong(r -> r[3]).sum() / (double) n;
        regime(c, what + "DCQCN rate cuts per sender, ours over the reference's", refCuts,
                ours.counter(RoceTransport.RATE_CUTS) / (double) n,
                "the reference cuts at most every 4 us and not on its first CNP, ours on each CNP (at most one per 4 us)");
        return withMechanism(c.rows(), mechanism);
    }

    /**
     * The rows of the PFC victim scenario: the victim's FCT, the incast's makespan and mean FCT, drops, PAUSE frames per
     * switch port, the peaks of the three queues PFC holds.
     *
     * @param ours our result of {@code new RdmaReferencePfcVictim(dcqcn).scenario()}
     * @param reference the dataset {@value #VICTIM_DATASET}
     */
    public static List<ComparisonRow> victimRows(boolean dcqcn, SimulationResult ours, Table reference) {
        return victimRows(dcqcn, ours, reference, SwitchBuffer.MarkingPoint.ENQUEUE);
    }

    /**
     * As {@link #victimRows(boolean, SimulationResult, Table)}, for ours run with ECN marks decided at
     * {@code markingPoint} (the mechanism a missing row names depends on it).
     */
    public static List<ComparisonRow> victimRows(boolean dcqcn, SimulationResult ours, Table reference,
            SwitchBuffer.MarkingPoint markingPoint) {
        Parameters.notNull("ours", ours);
        Parameters.notNull("markingPoint", markingPoint);
        Parameters.notNull("reference", reference);
        String id = dcqcn ? "hol_dcqcn" : "hol_pfc";
        String what = "PFC victim on two leaves and a spine, " + (dcqcn ? "DCQCN+PFC" : "PFC alone") + ": ";
        PaperComparison c = PaperComparison.of("RDMA reference victim", "outside reference (not a seed paper)");
        long[] refIncast = RdmaReferencePfcVictim.INCAST_SENDERS.stream().mapToLong(s -> victimValue(reference, id, "fct_ns", s, -1))
                .toArray();
        long refMax = Arrays.stream(refIncast).max().orElseThrow();
        double spread = (double) (refMax - Arrays.stream(refIncast).min().orElseThrow()) / refMax;
        String spreadReason = "the reference's spread of FCT over the incast's three flows, (max - min) / max";
        long[] fct = ours.flows().stream().mapToLong(RdmaReferenceComparison::fctNs).toArray();
        long oursMax = Math.max(fct[0], Math.max(fct[2], fct[3]));
        double oursMean = (fct[0] + fct[2] + fct[3]) / 3.0;
        c.validation(REFERENCE, what + "victim's FCT", "us",
                Target.point(victimValue(reference, id, "fct_ns", RdmaReferencePfcVictim.VICTIM_SOURCE, -1) / 1e3, spread),
                fct[RdmaReferencePfcVictim.VICTIM_FLOW] / 1e3, "host 1 to host 7, whose port is never congested")
                .tolerance(spread, spreadReason);
        c.validation(REFERENCE, what + "incast makespan", "us", Target.point(refMax / 1e3, spread), oursMax / 1e3, "")
                .tolerance(spread, spreadReason);
        c.validation(REFERENCE, what + "incast mean FCT", "us",
                Target.point(Arrays.stream(refIncast).average().orElseThrow() / 1e3, spread), oursMean / 1e3, "")
                .tolerance(spread, spreadReason);
        long refDrops = 0;
        for (int sw = RdmaReferencePfcVictim.LEAF0; sw <= RdmaReferencePfcVictim.SPINE; sw++) {
            refDrops += victimValue(reference, id, "drops", sw, -1);
        }
        c.validation(REFERENCE, what + "drops", "packets", Target.point(refDrops, 0), ours.droppedPackets(), "")
                .tolerance(0, "PFC: lossless in both, exact");
        for (Map.Entry<String, Integer> e : VICTIM_PEER.entrySet()) {
            int node = Integer.parseInt(e.getKey().split(":")[0]);
            int port = Integer.parseInt(e.getKey().split(":")[1]);
            long ref = victimValue(reference, id, "pause_sent", node, port);
            long o = ours.pfc().stream().filter(p -> p.node() == node && p.peerNode() == e.getValue()).findFirst().orElseThrow()
                    .pausesSent();
            double tol = ref == 0 ? 0 : spread;
            c.validation(REFERENCE, what + "PAUSE frames sent " + node + " -> " + e.getValue(), "frames", Target.point(ref, tol), o,
                    dcqcn && ref != o ? (o > ref ? "more" : "fewer") + " PAUSE/RESUME cycles in ours with DCQCN" : "")
                    .tolerance(tol, ref == 0 ? "none: the reference sends none" : "a PAUSE/RESUME cycle is a stretch of the run: "
                            + spreadReason);
        }
        int[][] queues = {{11, 5, 2}, {12, 3, 3}, {13, 2, 1}}; // switch, interface, ingress counters feeding it
        for (int[] qp : queues) {
            int peer = VICTIM_PEER.get(qp[0] + ":" + qp[1]);
            long ref = victimValue(reference, id, "peak_queue_bytes", qp[0], qp[1]);
            SimulationResult.QueueTrace trace = ours.queues().stream()
                    .filter(x -> x.switchIndex() == qp[0] - RdmaReferencePfcVictim.HOSTS && x.peerNode() == peer).findFirst()
                    .orElseThrow();
            double tol = Math.min(1, (qp[2] * (RdmaReferenceIncast.RESERVE_BYTES + RdmaReferencePfcVictim.SWITCH_PORTS * 512.0)
                    + sampleBytes(RdmaReferenceIncast.RATE_BPS)) / ref);
            c.validation(REFERENCE, what + "peak queue " + qp[0] + " -> " + peer, "kB", Target.point(ref / 1e3, tol),
                    trace.peakBytes() / 1e3, qp[2] + " ingress counter(s) feed it")
                    .tolerance(tol, "the PFC thresholds' offset (4 KiB + 5 x 512 B) per feeding ingress counter, and the"
                            + " reference's 1-us sampling");
        }
        return dcqcn ? withMechanism(c.rows(), mechanism(markingPoint)) : c.rows();
    }

    /**
     * The rows of go-back-N after the link goes down: data packets lost, NACKs, packets resent, FCT.
     *
     * @param ours our result of {@code new RdmaReferenceGoBackN().scenario()}
     * @param reference the dataset {@value #GO_BACK_N_DATASET}
     */
    public static List<ComparisonRow> goBackNRows(SimulationResult ours, Table reference) {
        Parameters.notNull("ours", ours);
        Parameters.notNull("reference", reference);
        String what = "go-back-N after a link goes down, 1 MB at 100 Gb/s: ";
        PaperComparison c = PaperComparison.of("RDMA reference go-back-N", "outside reference (not a seed paper)");
        SimulationResult.FlowRecord f = ours.flows().get(0);
        long packets = RdmaReferenceGoBackN.BYTES / RdmaReferenceIncast.MTU_BYTES;
        c.validation(REFERENCE, what + "data packets lost", "packets", Target.point(goBackNValue(reference, "data_dropped", -1), 0),
                f.droppedPackets(), "the packets on the failed link's wire").tolerance(0, "the same packet train meets the same failure: exact");
        c.validation(REFERENCE, what + "NACKs", "packets", Target.point(goBackNValue(reference, "nacks", 1), 0),
                ours.counter(TransportModel.NACKS), "").tolerance(0, "one gap, one NACK: exact");
        long refResent = goBackNValue(reference, "data_sent", 0) - packets;
        double resentTol = Math.min(1, RESENT_PATH_LINKS / (double) refResent);
        c.validation(REFERENCE, what + "data packets resent", "packets", Target.point(refResent, resentTol),
                f.retransmittedPackets(), "the reference's sends beyond the " + packets + " needed")
                .tolerance(resentTol, "one packet per link of the resent path: where in a packet the NACK reaches each hop");
        long refFct = goBackNValue(reference, "fct_ns", 0);
        double packetNs = Time.serializationPs(RdmaReferenceIncast.MTU_BYTES + RdmaReferenceIncast.HEADER_BYTES,
                RdmaReferenceIncast.RATE_BPS) / (double) Time.NS;
        double fctTol = Math.min(1, RESENT_PATH_LINKS * packetNs / refFct);
        c.validation(REFERENCE, what + "FCT", "us", Target.point(refFct / 1e3, fctTol), fctNs(f) / 1e3, "")
                .tolerance(fctTol, "one packet time per link of the resent path");
        return c.rows();
    }

    /** Our hashed all-to-all runs, ECMP seeds 1 to {@value #ALL_TO_ALL_RUNS} in order. */
    public List<SimulationResult> allToAll() {
        return allToAll;
    }

    /** Our one-spine all-to-all (the control). */
    public SimulationResult allToAllControl() {
        return allToAllControl;
    }

    /** Our one-spine all-to-all with the reference's NIC rule ({@link RoceTransport.TokenBucket#reference()}). */
    public SimulationResult allToAllControlTokenBucket() {
        return allToAllControlTokenBucket;
    }

    /**
     * The rows of the DCQCN all-to-all ({@link RdmaReferenceAllToAll}): on four spines with hashed uplinks, the flows
     * completed in every run, then makespan, mean, p10, p50, p90 and p99 of the per-flow FCT and the PAUSE frames of a
     * run, each the median of ours over its runs against the reference's range over its runs; on one spine (no hashing),
     * the across-spine flows' makespan and mean FCT, the within-leaf flows' mean FCT and the PAUSE frames. Percentiles are
     * nearest-rank (the ceil(q n)-th smallest of the 240 FCTs). PAUSE frames are those received by any device, hosts and
     * switches, as the reference logs them.
     *
     * @param hashed our results of {@code new RdmaReferenceAllToAll(4, seed).scenario()}, one per seed, at least one
     * @param control our result of {@code new RdmaReferenceAllToAll(1, seed).scenario()}
     * @param reference the dataset {@value #ALL_TO_ALL_DATASET}
     */
    public static List<ComparisonRow> allToAllRows(List<SimulationResult> hashed, SimulationResult control, Table reference) {
        return allToAllRows(hashed, control, reference, SwitchBuffer.MarkingPoint.ENQUEUE);
    }

    /**
     * As {@link #allToAllRows(List, SimulationResult, Table)}, for ours run with ECN marks decided at
     * {@code markingPoint} (the mechanism a missing row names depends on it).
     */
    public static List<ComparisonRow> allToAllRows(List<SimulationResult> hashed, SimulationResult control, Table reference,
            SwitchBuffer.MarkingPoint markingPoint) {
        Parameters.notNull("hashed", hashed);
        Parameters.notNull("markingPoint", markingPoint);
        if (hashed.isEmpty()) {
            throw new IllegalArgumentException("hashed must hold at least one run, got none");
        }
        hashed.forEach(r -> Parameters.notNull("hashed's run", r));
        Parameters.notNull("control", control);
        Parameters.notNull("reference", reference);
        if (!reference.columnNames().containsAll(List.of("scenario", "quantity", "source", "destination", "value"))) {
            throw new IllegalArgumentException("reference must be the dataset " + ALL_TO_ALL_DATASET
                    + " (columns scenario, quantity, source, destination, value), got columns " + reference.columnNames());
        }
        PaperComparison c = PaperComparison.of("RDMA reference all-to-all", "outside reference (not a seed paper)");
        String what = "all-to-all on 4 leaves x 4 spines, hashed uplinks, 256 KB per pair at 100 Gb/s: ";
        int flows = RdmaReferenceAllToAll.HOSTS * (RdmaReferenceAllToAll.HOSTS - 1);
        long oursCompleted = hashed.stream().mapToLong(r -> r.flows().stream().filter(SimulationResult.FlowRecord::completed).count())
                .min().orElseThrow();
        long refCompleted = Long.MAX_VALUE;
        for (int k = 0; k < ALL_TO_ALL_RUNS; k++) {
            refCompleted = Math.min(refCompleted, Arrays.stream(allToAllFlows(referenceAllToAllFct(reference, "a2a_s" + k))).filter(v -> v > 0)
                    .count());
        }
        c.validation(REFERENCE, what + "flows completed, fewest in a run", "flows", Target.point(refCompleted, 0), oursCompleted,
                "of " + flows + " per run").tolerance(0, "PFC: lossless in both, every flow completes: exact");
        String[] names = {"makespan", "mean FCT", "p10 FCT", "p50 FCT", "p90 FCT", "p99 FCT", "PAUSE frames per run"};
        String[] units = {"us", "us", "us", "us", "us", "us", "frames"};
        double[][] ref = new double[names.length][ALL_TO_ALL_RUNS];
        for (int k = 0; k < ALL_TO_ALL_RUNS; k++) {
            String id = "a2a_s" + k;
            double[] s = allToAllStatistics(allToAllFlows(referenceAllToAllFct(reference, id)));
            for (int j = 0; j < 6; j++) {
                ref[j][k] = s[j];
            }
            ref[6][k] = allToAllValue(reference, id, "pause_received");
        }
        double[][] ours = new double[names.length][hashed.size()];
        for (int k = 0; k < hashed.size(); k++) {
            double[] s = allToAllStatistics(allToAllFlows(ourAllToAllFct(hashed.get(k))));
            for (int j = 0; j < 6; j++) {
                ours[j][k] = s[j];
            }
            ours[6][k] = hashed.get(k).pfc().stream().mapToLong(SimulationResult.PortPfc::pausesReceived).sum();
        }
        for (int j = 0; j < names.length; j++) {
            double scale = j < 6 ? 1e3 : 1; // ns to us
            double min = Arrays.stream(ref[j]).min().orElseThrow() / scale;
            double max = Arrays.stream(ref[j]).max().orElseThrow() / scale;
            double m = median(ours[j]) / scale;
            double tol = max > 0 ? Math.min(1, (max - min) / max) : 0;
            String note = String.format(Locale.ROOT, "median of ours over %d runs (%.6g to %.6g); the reference's %d runs %.6g to"
                    + " %.6g, median %.6g", hashed.size(), Arrays.stream(ours[j]).min().orElseThrow() / scale,
                    Arrays.stream(ours[j]).max().orElseThrow() / scale, ALL_TO_ALL_RUNS, min, max, median(ref[j]) / scale);
            Target t = max > min ? new Target.Band(min, max, tol) : Target.point(min, 0);
            c.validation(REFERENCE, what + names[j] + ", median over runs", units[j], t, m, note)
                    .toleranceReason("the reference's own variation over path choices: its range over " + ALL_TO_ALL_RUNS
                            + " hash inputs, widened by the range's width relative to the nearer end, (max - min) / max");
        }
        controlRows(c, control, reference, "all-to-all on 4 leaves x 1 spine (no hashing), 256 KB per pair at 100 Gb/s: ",
                String.format(Locale.ROOT, MISS_WITHIN_LEAF, Arrays.stream(allToAllSelect(referenceAllToAllFct(reference,
                        ALL_TO_ALL_CONTROL_QPAVAIL), false)).average().orElseThrow() / 1e3));
        return withMechanism(c.rows(), mechanism(markingPoint));
    }

    /**
     * The one-spine control's rows ({@link #allToAllRows(List, SimulationResult, Table, SwitchBuffer.MarkingPoint)})
     * for ours run with the reference's NIC rule, {@code new RdmaReferenceAllToAll(1, seed).scenario(markingPoint,
     * RoceTransport.TokenBucket.reference())}: each DCQCN rate limiter a token bucket that keeps filling while its queue
     * pair waits, the NIC serving bursts ({@link RoceTransport.TokenBucket}). The same quantities and tolerances, named
     * with that rule.
     *
     * @param control our result of that scenario
     * @param reference the dataset {@value #ALL_TO_ALL_DATASET}
     */
    public static List<ComparisonRow> allToAllTokenBucketRows(SimulationResult control, Table reference) {
        Parameters.notNull("control", control);
        Parameters.notNull("reference", reference);
        if (!reference.columnNames().containsAll(List.of("scenario", "quantity", "source", "destination", "value"))) {
            throw new IllegalArgumentException("reference must be the dataset " + ALL_TO_ALL_DATASET
                    + " (columns scenario, quantity, source, destination, value), got columns " + reference.columnNames());
        }
        PaperComparison c = PaperComparison.of("RDMA reference all-to-all", "outside reference (not a seed paper)");
        controlRows(c, control, reference, "all-to-all on 4 leaves x 1 spine (no hashing), 256 KB per pair at 100 Gb/s, NIC"
                + " rate limiter and service as the reference's (token bucket, bursts): ", MISS_WITHIN_LEAF_TOKEN_BUCKET);
        return withMechanism(c.rows(), "mechanism not traced");
    }

    private static void controlRows(PaperComparison c, SimulationResult control, Table reference, String one,
            String missWithinLeaf) {
        long[][] refFct = referenceAllToAllFct(reference, "a2a_1spine");
        long[][] ourFct = ourAllToAllFct(control);
        long[] refAcross = allToAllSelect(refFct, true);
        long[] ourAcross = allToAllSelect(ourFct, true);
        long[] refWithin = allToAllSelect(refFct, false);
        long[] ourWithin = allToAllSelect(ourFct, false);
        double spread = spread(refAcross);
        String spreadReason = "the reference's spread of FCT over the 192 alike flows across the spine, (max - min) / max";
        c.validation(REFERENCE, one + "makespan of the flows across the spine", "us",
                Target.point(Arrays.stream(refAcross).max().orElseThrow() / 1e3, spread),
                Arrays.stream(ourAcross).max().orElseThrow() / 1e3, "").tolerance(spread, spreadReason);
        c.validation(REFERENCE, one + "mean FCT of the flows across the spine", "us",
                Target.point(Arrays.stream(refAcross).average().orElseThrow() / 1e3, spread),
                Arrays.stream(ourAcross).average().orElseThrow() / 1e3, "").tolerance(spread, spreadReason);
        double spreadWithin = spread(refWithin);
        double refWithinMean = Arrays.stream(refWithin).average().orElseThrow() / 1e3;
        double ourWithinMean = Arrays.stream(ourWithin).average().orElseThrow() / 1e3;
        c.validation(REFERENCE, one + "mean FCT of the flows within a leaf", "us", Target.point(refWithinMean, spreadWithin),
                ourWithinMean, Math.abs(ourWithinMean - refWithinMean) <= spreadWithin * refWithinMean ? ""
                        : missWithinLeaf)
                .tolerance(spreadWithin, "the reference's spread of FCT over the 48 alike flows within a leaf, (max - min) / max");
        c.validation(REFERENCE, one + "PAUSE frames", "frames", Target.point(allToAllValue(reference, "a2a_1spine", "pause_received"),
                spread), control.pfc().stream().mapToLong(SimulationResult.PortPfc::pausesReceived).sum(), "received by any device")
                .tolerance(spread, "a PAUSE/RESUME cycle is a stretch of the run: " + spreadReason);
    }

    /**
     * The per-flow FCT of the hashed all-to-all, pooled over the runs, as two empirical distribution functions: the
     * reference's {@value #ALL_TO_ALL_RUNS} runs and ours.
     */
    public XYChart allToAllFctChart() {
        Table t = Datasets.load(root, ALL_TO_ALL_DATASET).table();
        List<Long> ref = new ArrayList<>();
        for (int k = 0; k < ALL_TO_ALL_RUNS; k++) {
            Arrays.stream(allToAllFlows(referenceAllToAllFct(t, "a2a_s" + k))).forEach(ref::add);
        }
        List<Long> ours = new ArrayList<>();
        allToAll.forEach(r -> Arrays.stream(allToAllFlows(ourAllToAllFct(r))).forEach(ours::add));
        XYChart c = Figures.xy("DCQCN all-to-all, 4 leaves x 4 spines, hashed: per-flow FCT over " + ALL_TO_ALL_RUNS
                + " path choices each", "FCT [us]", "fraction of flows");
        XYSeries r = c.addSeries("RDMA reference", cdfX(ref), cdfY(ref.size()));
        r.setMarker(SeriesMarkers.NONE).setLineColor(Figures.PAPER_COLOR);
        c.addSeries("ours", cdfX(ours), cdfY(ours.size())).setMarker(SeriesMarkers.NONE);
        return c;
    }

    private static double[] cdfX(List<Long> v) {
        return v.stream().mapToLong(Long::longValue).sorted().mapToDouble(x -> x / 1e3).toArray();
    }

    private static double[] cdfY(int n) {
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = (i + 1) / (double) n;
        }
        return y;
    }

    /** The mechanism a DCQCN row that misses names, for ours run with ECN marks decided at {@code markingPoint}. */
    private static String mechanism(SwitchBuffer.MarkingPoint markingPoint) {
        return markingPoint == SwitchBuffer.MarkingPoint.ENQUEUE ? MISS_MARKING : MISS_REACTION;
    }

    /** Each row that misses and names no mechanism yet gets {@code mechanism} appended to its note. */
    private static List<ComparisonRow> withMechanism(List<ComparisonRow> rows, String mechanism) {
        List<ComparisonRow> out = new ArrayList<>();
        for (ComparisonRow r : rows) {
            if (r.meetsTarget() || r.note().contains("mechanism")) {
                out.add(r);
            } else {
                out.add(new ComparisonRow(r.source(), r.quantity(), r.unit(), r.kind(), r.basis(), r.canonical(), r.target(),
                        r.model(), r.note().isBlank() ? mechanism : r.note() + "; " + mechanism, r.sameQuantityAs(),
                        r.trivialValue(), r.toleranceReason()));
            }
        }
        return out;
    }

    private static double spread(long[] v) {
        double max = Arrays.stream(v).max().orElseThrow();
        return (max - Arrays.stream(v).min().orElseThrow()) / max;
    }

    /** FCT of the reference's all-to-all run {@code id}, ns, indexed [source][destination] (0 where it has none). */
    static long[][] referenceAllToAllFct(Table t, String id) {
        long[][] fct = new long[RdmaReferenceAllToAll.HOSTS][RdmaReferenceAllToAll.HOSTS];
        boolean found = false;
        for (Row r : t) {
            if (r.getString("scenario").equals(id) && r.getString("quantity").equals("fct_ns")) {
                fct[r.getInt("source")][r.getInt("destination")] = (long) r.getNumber("value");
                found = true;
            }
        }
        if (!found) {
            throw new IllegalArgumentException(ALL_TO_ALL_DATASET + " has no fct_ns of " + id);
        }
        return fct;
    }

    /** A per-run value of the all-to-all dataset. */
    static long allToAllValue(Table t, String id, String quantity) {
        for (Row r : t) {
            if (r.getString("scenario").equals(id) && r.getString("quantity").equals(quantity)) {
                return (long) r.getNumber("value");
            }
        }
        throw new IllegalArgumentException(ALL_TO_ALL_DATASET + " has no " + quantity + " of " + id);
    }

    /** Our all-to-all FCT, ns, indexed [source][destination] (0 for a flow that did not complete). */
    static long[][] ourAllToAllFct(SimulationResult r) {
        long[][] fct = new long[RdmaReferenceAllToAll.HOSTS][RdmaReferenceAllToAll.HOSTS];
        for (SimulationResult.FlowRecord f : r.flows()) {
            if (f.spec().source() < RdmaReferenceAllToAll.HOSTS && f.spec().destination() < RdmaReferenceAllToAll.HOSTS
                    && f.completed()) {
                fct[f.spec().source()][f.spec().destination()] = fctNs(f);
            }
        }
        return fct;
    }

    /** The FCTs of the flows between different leaves (across a spine) or within one leaf, source-major. */
    static long[] allToAllSelect(long[][] fct, boolean acrossSpine) {
        List<Long> out = new ArrayList<>();
        for (int a = 0; a < fct.length; a++) {
            for (int d = 0; d < fct.length; d++) {
                boolean across = a / RdmaReferenceAllToAll.HOSTS_PER_LEAF != d / RdmaReferenceAllToAll.HOSTS_PER_LEAF;
                if (a != d && across == acrossSpine) {
                    out.add(fct[a][d]);
                }
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** Every flow's FCT, source-major. */
    static long[] allToAllFlows(long[][] fct) {
        long[] out = new long[fct.length * (fct.length - 1)];
        int i = 0;
        for (int a = 0; a < fct.length; a++) {
            for (int d = 0; d < fct.length; d++) {
                if (a != d) {
                    out[i++] = fct[a][d];
                }
            }
        }
        return out;
    }

    /** Nearest-rank percentile: the ceil(q n)-th smallest. */
    static long percentile(long[] values, double q) {
        long[] s = values.clone();
        Arrays.sort(s);
        return s[Math.max(0, (int) Math.ceil(q * s.length) - 1)];
    }

    /** Makespan, mean, p10, p50, p90 and p99 of one run's FCTs, ns. */
    static double[] allToAllStatistics(long[] fct) {
        return new double[] {Arrays.stream(fct).max().orElseThrow(), Arrays.stream(fct).average().orElseThrow(),
                percentile(fct, 0.1), percentile(fct, 0.5), percentile(fct, 0.9), percentile(fct, 0.99)};
    }

    /** The median (the mean of the middle two for an even count). */
    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static void regime(PaperComparison c, String quantity, double reference, double ours, String mechanism) {
        c.validation(REFERENCE, quantity, "ratio", new Target.Band(1 / REGIME_FACTOR, REGIME_FACTOR, 0), ours / reference,
                String.format(Locale.ROOT, "reference %.1f, ours %.1f; %s", reference, ours, mechanism))
                .toleranceReason("the same regime, not agreement: the two models differ here by construction");
    }

    private static double sampleBytes(long rateBps) {
        return rateBps / 8.0 * SAMPLE_PS / Time.S;
    }

    private static long fctNs(SimulationResult.FlowRecord f) {
        return (f.acknowledgedPs() - f.startedPs()) / Time.NS;
    }

    /** The incast dataset's rows of one N and quantity, as (node, port, time_ns, value). */
    private static List<long[]> incastRows(Table t, int senders, String quantity) {
        List<long[]> out = new ArrayList<>();
        for (Row r : t) {
            if (r.getInt("senders") == senders && r.getString("quantity").equals(quantity)) {
                out.add(new long[] {r.getInt("node"), r.getInt("port"), (long) r.getNumber("time_ns"), (long) r.getNumber("value")});
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(INCAST_DATASET + " has no " + quantity + " for N = " + senders);
        }
        return out;
    }

    private static long incastValue(Table t, int senders, String quantity, int node) {
        return incastRows(t, senders, quantity).stream().filter(r -> r[0] == node).mapToLong(r -> r[3]).findFirst().orElseThrow();
    }

    /** A value of the victim dataset; 0 where the tool wrote no row (it writes only ports with frames or bytes). */
    private static long victimValue(Table t, String id, String quantity, long node, long port) {
        for (Row r : t) {
            if (r.getString("scenario").equals(id) && r.getString("quantity").equals(quantity) && r.getInt("node") == node
                    && r.getInt("port") == port) {
                return (long) r.getNumber("value");
            }
        }
        return 0;
    }

    /** The sum of a go-back-N dataset quantity over its rows (of {@code node}, or all for -1). */
    static long goBackNValue(Table t, String quantity, long node) {
        long sum = 0;
        boolean found = false;
        for (Row r : t) {
            if (r.getString("quantity").equals(quantity) && (node < 0 || r.getInt("node") == node)) {
                sum += (long) r.getNumber("value");
                found = true;
            }
        }
        if (!found) {
            throw new IllegalArgumentException(GO_BACK_N_DATASET + " has no " + quantity);
        }
        return sum;
    }
}
