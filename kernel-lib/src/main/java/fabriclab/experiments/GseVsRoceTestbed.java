package fabriclab.experiments;

import fabriclab.experiments.testbed.Duan2024Testbed;
import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.experiments.testbed.Duan2024Testbed.Dcqcn;
import fabriclab.experiments.testbed.Duan2024Testbed.Uplinks;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.experiments.testbed.Spread;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.Parameters;
import fabriclab.collectives.BandwidthBound;
import fabriclab.collectives.Collective;
import fabriclab.collectives.CollectiveSchedule;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Datasets;
import fabriclab.datasets.Provenance;
import fabriclab.datasets.Target;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcDynamicThreshold;
import fabriclab.progress.ProgressSink;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.simulation.Scenario;
import fabriclab.sweep.Columns;
import fabriclab.sweep.LocalThreads;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import fabriclab.sweep.SweepTask;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import tech.tablesaw.api.Table;

/**
 * 000 figures 11 and 12 with the testbed settings the paper leaves unstated as axes:
 * the same 8 jobs of 4 ranks on {@link Duan2024Testbed}, run with
 * <ul>
 *   <li><b>uplinks</b>: one 400GE port per leaf-spine pair, or each 400GE port as 4 x 100G members
 *       hashed per flow (breakout or LAG): {@link Uplinks};</li>
 *   <li><b>queue pairs</b> per rank pair, 1, 2 or 4, opened once and kept for the whole collective, each
 *       with its own UDP source port, a message split evenly over them (HCCL_RDMA_QPS_PER_CONNECTION,
 *       default 1; fewer QPs when a QP would carry less than HCCL_MULTI_QP_THRESHOLD = 512 KB, as HCCL
 *       documents), messages of one QP in order; or, as the first reading of notebook 08 did, a new queue
 *       pair for every transfer ({@code queuePairPerTransfer});</li>
 *   <li><b>collective algorithm</b>: AlltoAll with every peer at once or pairwise exchange (one peer per
 *       step, HCCL's {@code pairwise}); AllReduce as a ring or recursive halving-doubling (HCCL's H-D_R,
 *       its documented default on Atlas training products when the server count is a power of two, as
 *       here with 4): {@link Algorithm};</li>
 *   <li><b>DCQCN</b>: Zhu et al. 2015 ({@link DcqcnParameters#zhu2015()}) or NVIDIA ConnectX firmware
 *       defaults ({@link DcqcnParameters#nvidiaConnectX()}), or none (PFC alone, the bracket in which
 *       congestion control costs nothing): {@link Dcqcn};</li>
 *   <li><b>PFC</b>: static XOFF (50 KB to 1 MB, XON at 90%) or the alpha-based dynamic threshold
 *       ({@link PfcDynamicThreshold}, XON 100 KB below it), headroom 100 KB.</li>
 * </ul>
 * Fixed: 100G NICs, 4096-byte packets without header overhead, 1 us links, 32 MB shared buffer per
 * switch, WRED Kmin 5 KB / Kmax 200 KB / Pmax 1% (Zhu et al.); GSE as in {@link GseVsRoceJct} (it
 * depends only on the uplinks and the algorithm), run on the same uplinks as the RoCE run it is compared
 * with: on 4 x 100G members its leaves spray containers over every member and its spines rotate each
 * source-destination pair's containers over the members toward the destination leaf
 * ({@link GseTransport}), so it needs no hash, and a container lost anyway would be resent.
 * Reduction compute time is not modelled. The DCQCN
 * state of a queue pair restarts at line rate with every message (the simulator's flows), an
 * assumption that favours RoCE slightly when a message follows a cut.
 *
 * <p>Counters say which mechanism makes each gap: uplink max/mean bytes, ECN marks and DCQCN rate
 * cuts, PFC pause time (summed, and the largest of one port) and the share of ports ever paused,
 * go-back-N retransmissions, drops, and the goodput, bytes sent and local ACK timeouts of
 * {@link JobMetrics.DeliveryCounters} (RoCE's timeout is HCCL's default 4.29 s, so a timeout within a run is a
 * stall of seconds; GSE counts none).
 *
 * @param uplinks the leaf-spine uplinks
 * @param queuePairs queue pairs per rank pair, 1 to 8
 * @param queuePairPerTransfer a new queue pair (new source port) for every transfer instead (then {@code queuePairs} must be 1)
 * @param dcqcn the DCQCN parameter set
 * @param pfcStaticXoffBytes static XOFF [bytes], 10 KB to 4 MB, used when {@code pfcDynamicAlpha} is 0
 * @param pfcDynamicAlpha alpha of the dynamic threshold (2^-6 to 2^3), or 0 for the static XOFF
 */
public record GseVsRoceTestbed(Uplinks uplinks, int queuePairs, boolean queuePairPerTransfer, Dcqcn dcqcn,
        long pfcStaticXoffBytes, double pfcDynamicAlpha) implements Serializable {
    private static final long serialVersionUID = 1L;
    /** HCCL_MULTI_QP_THRESHOLD default: a QP carries at least this much of a message [bytes]. */
    public static final long MULTI_QP_THRESHOLD_BYTES = 512 * 1024;
    /** PFC headroom above XOFF [bytes]. */
    public static final long HEADROOM_BYTES = 100_000;
    /** XON this far below the dynamic XOFF [bytes]. */
    public static final long DYNAMIC_XON_OFFSET_BYTES = 100_000;
    /** Shared buffer per switch [bytes]. */
    public static final long BUFFER_BYTES = JobSimulation.BUFFER_BYTES;

    /** Validates. */
    public GseVsRoceTestbed {
        Parameters.notNull("uplinks", uplinks);
        Parameters.inRange("queuePairs", queuePairs, 1, 8);
        if (queuePairPerTransfer && queuePairs != 1) {
            throw new IllegalArgumentException("queuePairs must be 1 with queuePairPerTransfer, got " + queuePairs);
        }
        Parameters.notNull("dcqcn", dcqcn);
        Parameters.inRange("pfcStaticXoffBytes", pfcStaticXoffBytes, 10_000L, 4_000_000L);
        if (pfcDynamicAlpha != 0) {
            Parameters.inRange("pfcDynamicAlpha", pfcDynamicAlpha, PfcDynamicThreshold.MIN_ALPHA, PfcDynamicThreshold.MAX_ALPHA);
        }
    }

    /** The first reading of notebook 08: single 400G uplinks, a new QP per transfer, Zhu et al., static XOFF 1 MB. */
    public static GseVsRoceTestbed firstReading() {
        return new GseVsRoceTestbed(Uplinks.SINGLE_400G, 1, true, Dcqcn.ZHU_2015, 1_000_000, 0);
    }

    /**
     * The documented defaults we could cite: 000's single 400GE uplinks, HCCL's one QP per rank pair
     * kept for the collective, NVIDIA's DCQCN firmware defaults, a dynamic PFC threshold with alpha 1
     * (SONiC's {@code dynamic_th} 0; which alpha a given switch ships is not documented in what we found).
     */
    public static GseVsRoceTestbed documentedDefaults() {
        return new GseVsRoceTestbed(Uplinks.SINGLE_400G, 1, false, Dcqcn.NVIDIA_CONNECTX, 1_000_000, 1.0);
    }

    /** A copy with other uplinks. */
    public GseVsRoceTestbed withUplinks(Uplinks u) {
        return new GseVsRoceTestbed(u, queuePairs, queuePairPerTransfer, dcqcn, pfcStaticXoffBytes, pfcDynamicAlpha);
    }

    /** A copy with {@code n} queue pairs per rank pair kept for the collective. */
    public GseVsRoceTestbed withQueuePairs(int n) {
        return new GseVsRoceTestbed(uplinks, n, false, dcqcn, pfcStaticXoffBytes, pfcDynamicAlpha);
    }

    /** A copy with a new queue pair per transfer. */
    public GseVsRoceTestbed withQueuePairPerTransfer() {
        return new GseVsRoceTestbed(uplinks, 1, true, dcqcn, pfcStaticXoffBytes, pfcDynamicAlpha);
    }

    /** A copy with another DCQCN parameter set. */
    public GseVsRoceTestbed withDcqcn(Dcqcn d) {
        return new GseVsRoceTestbed(uplinks, queuePairs, queuePairPerTransfer, d, pfcStaticXoffBytes, pfcDynamicAlpha);
    }

    /** A copy with a static XOFF of {@code bytes}. */
    public GseVsRoceTestbed withStaticXoff(long bytes) {
        return new GseVsRoceTestbed(uplinks, queuePairs, queuePairPerTransfer, dcqcn, bytes, 0);
    }

    /** A copy with a dynamic threshold of {@code alpha}. */
    public GseVsRoceTestbed withDynamicAlpha(double alpha) {
        return new GseVsRoceTestbed(uplinks, queuePairs, queuePairPerTransfer, dcqcn, pfcStaticXoffBytes, alpha);
    }

    /** The PFC of this testbed (XON at 90% of a static XOFF). */
    public Pfc pfc() {
        long xoff = pfcDynamicAlpha == 0 ? pfcStaticXoffBytes : 1_000_000; // a dynamic threshold replaces XOFF/XON
        return new Pfc(xoff, xoff * 9 / 10, HEADROOM_BYTES, Pfc.MAX_QUANTA);
    }

    /** The dynamic threshold, or null for the static one. */
    public PfcDynamicThreshold pfcDynamicThreshold() {
        return pfcDynamicAlpha == 0 ? null : new PfcDynamicThreshold(pfcDynamicAlpha, DYNAMIC_XON_OFFSET_BYTES);
    }

    /**
     * How {@code fabric} runs on this testbed: its DCQCN and PFC (RoCE), and for GSE this PFC as the fabric's lossless
     * backstop when {@code gseFabricPfc}.
     */
    JobSimulation.FabricSettings fabricSettings(RoceOrGse fabric, boolean gseFabricPfc) {
        return new JobSimulation.FabricSettings(fabric, dcqcn.parameters(), pfc(), pfcDynamicThreshold(), gseFabricPfc);
    }

    /** A short label: uplinks, QPs, DCQCN, PFC. */
    public String label() {
        return (uplinks == Uplinks.SINGLE_400G ? "1x400G" : "4x100G") + ", "
                + (queuePairPerTransfer ? "QP per transfer" : queuePairs + " QP") + ", "
                + dcqcn.label() + ", " + pfcLabel();
    }

    /** The PFC setting as a label: "XOFF 200 KB" or "alpha 1". */
    public String pfcLabel() {
        return pfcDynamicAlpha == 0 ? "XOFF " + pfcStaticXoffBytes / 1000 + " KB"
                : "alpha " + (pfcDynamicAlpha >= 1 ? String.valueOf((long) pfcDynamicAlpha) : "1/" + Math.round(1 / pfcDynamicAlpha));
    }

    /** The leaf-spine at {@code speedup} (3 or 4 spines) with these uplinks ({@link Duan2024Testbed}). */
    public LeafSpine fabric(double speedup) {
        return new Duan2024Testbed(speedup, uplinks).leafSpine();
    }

    /**
     * One run.
     *
     * @param testbed the settings
     * @param algorithm the collective algorithm
     * @param fabric RoCE or GSE
     * @param speedup leaf speedup
     * @param bufferBytes data per rank [bytes]
     * @param seed the seed
     * @param meanJctUs mean JCT over the 8 jobs [us]
     * @param maxJctUs the slowest job's JCT [us]
     * @param boundUs bandwidth bound of one job at 100G [us]
     * @param uplinkMaxOverMean max over mean of packets sent on the leaf uplinks (members counted apart)
     * @param ecnMarks packets ECN-marked
     * @param rateCuts DCQCN rate cuts
     * @param pfcPauses PAUSE frames sent
     * @param pfcPausedUs time paused summed over ports and priorities [us]
     * @param pfcMaxPortPausedUs the largest paused time of one port [us]
     * @param pfcPausedPortShare share of the fabric's ports (host and switch) ever paused
     * @param retransmits data packets sent more than once (go-back-N)
     * @param drops data packets dropped
     * @param delivery goodput, bytes delivered and sent, local ACK timeouts (spurious ones apart) and failed queue pairs
     */
    public record Result(GseVsRoceTestbed testbed, Algorithm algorithm, RoceOrGse fabric, double speedup, long bufferBytes,
            long seed, double meanJctUs, double maxJctUs, double boundUs, double uplinkMaxOverMean, long ecnMarks, long rateCuts,
            long pfcPauses, double pfcPausedUs, double pfcMaxPortPausedUs, double pfcPausedPortShare, long retransmits,
            long drops, JobMetrics.DeliveryCounters delivery) implements Serializable {
        private static final long serialVersionUID = 2L;

        /** Validates: settings present, times and shares finite and not negative, counts not negative. */
        public Result {
            Parameters.notNull("testbed", testbed);
            Parameters.notNull("algorithm", algorithm);
            Parameters.notNull("fabric", fabric);
            Parameters.positive("speedup", Parameters.finite("speedup", speedup));
            Parameters.atLeast("bufferBytes", bufferBytes, 1L);
            Parameters.nonNegative("meanJctUs", Parameters.finite("meanJctUs", meanJctUs));
            Parameters.nonNegative("maxJctUs", Parameters.finite("maxJctUs", maxJctUs));
            Parameters.nonNegative("boundUs", Parameters.finite("boundUs", boundUs));
            Parameters.nonNegative("uplinkMaxOverMean", Parameters.finite("uplinkMaxOverMean", uplinkMaxOverMean));
            Parameters.nonNegative("pfcPausedUs", Parameters.finite("pfcPausedUs", pfcPausedUs));
            Parameters.nonNegative("pfcMaxPortPausedUs", Parameters.finite("pfcMaxPortPausedUs", pfcMaxPortPausedUs));
            Parameters.inRange("pfcPausedPortShare", Parameters.finite("pfcPausedPortShare", pfcPausedPortShare), 0, 1);
            Parameters.atLeast("ecnMarks", ecnMarks, 0L);
            Parameters.atLeast("rateCuts", rateCuts, 0L);
            Parameters.atLeast("pfcPauses", pfcPauses, 0L);
            Parameters.atLeast("retransmits", retransmits, 0L);
            Parameters.atLeast("drops", drops, 0L);
            Parameters.notNull("delivery", delivery);
        }

        /** Local ACK timeouts of the run ({@code delivery().timeouts()}). */
        public long timeouts() {
            return delivery.timeouts();
        }
    }

    /**
     * Simulates the 8 jobs of 000 running {@code algorithm} with {@code bufferBytes} per rank on this testbed.
     *
     * @param algorithm the collective algorithm
     * @param fabric RoCE or GSE (GSE uses only the uplinks of this testbed)
     * @param speedup 1.5 or 2
     * @param bufferBytes data per rank, at least 4096 bytes
     * @param seed seed of the source ports, ECMP hash seeds and WRED draws
     */
    public Result run(Algorithm algorithm, RoceOrGse fabric, double speedup, long bufferBytes, long seed) {
        Parameters.notNull("algorithm", algorithm);
        Parameters.notNull("fabric", fabric);
        Duan2024Testbed.checkSpeedup(speedup);
        Parameters.atLeast("bufferBytes", bufferBytes, 4096L);
        return run(algorithm, fabric, speedup, bufferBytes, seed, fabricSettings(fabric, false));
    }

    /**
     * {@link #run(Algorithm, RoceOrGse, double, long, long)} with {@code settings} in place of this testbed's DCQCN and
     * PFC (the uplinks, queue pairs and flows stay this testbed's).
     */
    Result run(Algorithm algorithm, RoceOrGse fabric, double speedup, long bufferBytes, long seed,
            JobSimulation.FabricSettings settings) {
        return result(algorithm, fabric, speedup, bufferBytes, seed, metrics(algorithm, speedup, bufferBytes, seed, settings));
    }

    /** The metrics of the run of {@link #run(Algorithm, RoceOrGse, double, long, long, JobSimulation.FabricSettings)}. */
    JobMetrics metrics(Algorithm algorithm, double speedup, long bufferBytes, long seed, JobSimulation.FabricSettings settings) {
        Parameters.notNull("settings", settings);
        return JobSimulation.run(fabric(speedup), settings, seed, flows(algorithm, bufferBytes), Duan2024Testbed.NICS, new int[0],
                scenario -> { });
    }

    /** The {@link Result} of a run's metrics {@code m}. */
    Result result(Algorithm algorithm, RoceOrGse fabric, double speedup, long bufferBytes, long seed, JobMetrics m) {
        double bound = new BandwidthBound(Duan2024Testbed.SERVERS, 100).seconds(algorithm.collective, bufferBytes) * 1e6;
        JobMetrics.PfcCounters pfc = m.pfc();
        return new Result(this, algorithm, fabric, speedup, bufferBytes, seed, m.meanJctUs(), m.maxJctUs(), bound,
                m.uplinkMaxOverMean(), m.ecnMarks(), m.counter(RoceTransport.RATE_CUTS), pfc.pauses(), pfc.pausedUs(),
                pfc.maxPortPausedUs(), pfc.pausedPortShare(), m.retransmits(), m.drops(), m.delivery());
    }

    /**
     * The 8 jobs' flows on this testbed's queue pairs: each transfer of {@code algorithm}'s schedule split
     * over its queue pairs ({@link #queuePairsOf}), source ports drawn at a queue pair's first use, in
     * (job, transfer, queue pair) order.
     */
    JobSimulation.JobFlows flows(Algorithm algorithm, long bufferBytes) {
        return rnd -> {
            int[][] groups = Duan2024Testbed.jobGroups();
            QueuePairFlows flows = new QueuePairFlows();
            for (int g = 0; g < groups.length; g++) {
                flows.addJob(g, groups[g], algorithm.schedule(groups[g].length, bufferBytes), rnd);
            }
            return flows::addTo;
        };
    }

    /** Queue pairs a transfer of {@code bytes} is split over: 1 per transfer, else up to {@code queuePairs}, each carrying at least {@link #MULTI_QP_THRESHOLD_BYTES}. */
    int queuePairsOf(long bytes) {
        return queuePairPerTransfer ? 1 : (int) Math.max(1, Math.min(queuePairs, bytes / MULTI_QP_THRESHOLD_BYTES));
    }

    /** The flows of the jobs as they are drawn: one flow per (transfer, queue pair), with its dependencies and job. */
    private final class QueuePairFlows {
        private final List<FlowSpec> flows = new ArrayList<>();
        private final List<int[]> after = new ArrayList<>();
        private final List<Integer> groupOf = new ArrayList<>();

        /** Adds job {@code g} (rank r on host {@code hosts[r]}) running {@code s}. */
        void addJob(int g, int[] hosts, CollectiveSchedule s, SplittableRandom rnd) {
            Map<Long, Integer> port = new HashMap<>(); // (from, to, qp) -> source port, drawn at first use
            Map<Long, Integer> lastOnQp = new HashMap<>(); // (from, to, qp) -> last flow index on it
            int[][] flowsOfTransfer = new int[s.transfers().size()][];
            for (int ti = 0; ti < s.transfers().size(); ti++) {
                CollectiveSchedule.Transfer t = s.transfers().get(ti);
                int qps = queuePairsOf(t.bytes());
                flowsOfTransfer[ti] = new int[qps];
                List<Integer> pre = predecessors(t, flowsOfTransfer);
                for (int q = 0; q < qps; q++) {
                    long bytes = t.bytes() / qps + (q < t.bytes() % qps ? 1 : 0);
                    List<Integer> waits = new ArrayList<>(pre);
                    int src;
                    if (queuePairPerTransfer) {
                        src = JobSimulation.sourcePort(rnd);
                    } else {
                        long key = ((long) t.from() * 64 + t.to()) * 64 + q;
                        src = port.computeIfAbsent(key, k -> JobSimulation.sourcePort(rnd));
                        Integer last = lastOnQp.get(key);
                        if (last != null && !waits.contains(last)) {
                            waits.add(last); // a QP delivers its messages in order
                        }
                        lastOnQp.put(key, flows.size());
                    }
                    flowsOfTransfer[ti][q] = flows.size();
                    flows.add(new FlowSpec(hosts[t.from()], hosts[t.to()], Math.max(1, bytes), 0, 0, src));
                    after.add(waits.stream().mapToInt(Integer::intValue).toArray());
                    groupOf.add(g);
                }
            }
        }

        /** The flows of the transfers {@code t} waits for. */
        private List<Integer> predecessors(CollectiveSchedule.Transfer t, int[][] flowsOfTransfer) {
            List<Integer> pre = new ArrayList<>();
            for (int a : t.after()) {
                for (int f : flowsOfTransfer[a]) {
                    pre.add(f);
                }
            }
            return pre;
        }

        /** Adds the flows and their dependencies to {@code scenario}; returns the job of each flow. */
        int[] addTo(Scenario.Builder scenario) {
            scenario.flows(flows);
            for (int i = 0; i < flows.size(); i++) {
                if (after.get(i).length > 0) {
                    scenario.startAfter(i, after.get(i));
                }
            }
            return groupOf.stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /**
     * One point of a sweep: a testbed, an algorithm, a fabric, a speedup, a size, a seed.
     *
     * @param testbed the settings
     * @param algorithm the algorithm
     * @param fabric RoCE or GSE
     * @param speedup leaf speedup
     * @param bufferBytes data per rank [bytes]
     * @param seed the seed
     */
    public record Point(GseVsRoceTestbed testbed, Algorithm algorithm, RoceOrGse fabric, double speedup,
            long bufferBytes, long seed) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates. */
        public Point {
            Parameters.notNull("testbed", testbed);
            Parameters.notNull("algorithm", algorithm);
            Parameters.notNull("fabric", fabric);
            Duan2024Testbed.checkSpeedup(speedup);
            Parameters.atLeast("bufferBytes", bufferBytes, 4096L);
        }

        /** Runs it. */
        public Result run() {
            return testbed.run(algorithm, fabric, speedup, bufferBytes, seed);
        }
    }

    /** Which grid a sweep runs. */
    public enum Grid {
        /**
         * The default subset (36 RoCE runs per seed and 12 GSE runs): for the four algorithms at both speedups
         * the documented defaults, and at speedup 1.5:1 each axis varied alone from them (4x100G; 2 and 4 QPs;
         * a QP per transfer; DCQCN of Zhu et al.; static XOFF 50 KB; alpha 1/8); GSE once per algorithm,
         * speedup and uplinks used (400G at both speedups, 4x100G at 1.5:1). (The first reading, static XOFF
         * 1 MB, is the full sweep of {@link GseVsRoceJct#fullSweep}.)
         */
        SUBSET,
        /**
         * Every combination: 2 uplinks x 4 QP settings (per transfer, 1, 2, 4) x 2 DCQCN sets x 5 PFC
         * settings (static 50 KB, 200 KB, 1 MB; alpha 1/8, 1) x 4 algorithms x 2 speedups = 640 RoCE runs
         * per seed plus 16 GSE runs (both uplinks; an estimated 45 minutes on 2 cores).
         */
        FULL
    }

    /** The RoCE testbeds of {@code grid} at {@code speedup}. */
    static List<GseVsRoceTestbed> testbeds(Grid grid, double speedup) {
        GseVsRoceTestbed base = documentedDefaults();
        List<GseVsRoceTestbed> list = new ArrayList<>();
        if (grid == Grid.SUBSET) {
            list.add(base);
            if (speedup == 1.5) {
                list.add(base.withUplinks(Uplinks.BREAKOUT_4X100G));
                list.add(base.withQueuePairs(2));
                list.add(base.withQueuePairs(4));
                list.add(base.withQueuePairPerTransfer());
                list.add(base.withDcqcn(Dcqcn.ZHU_2015));
                list.add(base.withStaticXoff(50_000));
                list.add(base.withDynamicAlpha(0.125));
            }
            return list;
        }
        for (Uplinks u : Uplinks.values()) {
            for (int qp : new int[] {0, 1, 2, 4}) {
                for (Dcqcn d : List.of(Dcqcn.ZHU_2015, Dcqcn.NVIDIA_CONNECTX)) {
                    for (Object pfc : new Object[] {50_000L, 200_000L, 1_000_000L, 0.125, 1.0}) {
                        GseVsRoceTestbed t = base.withUplinks(u).withDcqcn(d);
                        t = qp == 0 ? t.withQueuePairPerTransfer() : t.withQueuePairs(qp);
                        t = pfc instanceof Long x ? t.withStaticXoff(x) : t.withDynamicAlpha((Double) pfc);
                        list.add(t);
                    }
                }
            }
        }
        return list;
    }

    /**
     * The points of {@code grid} at {@code bufferBytes} per rank and the given seeds, in the order
     * (speedup, algorithm, testbed, seed), RoCE first, then GSE once on each kind of uplinks those RoCE
     * testbeds use (400G first; GSE's runs do not depend on the seed: the first seed).
     *
     * @param grid SUBSET or FULL
     * @param bufferBytes data per rank, at least 4096 bytes
     * @param seeds the seeds, at least one
     */
    public static List<Point> points(Grid grid, long bufferBytes, long[] seeds) {
        Parameters.notNull("grid", grid);
        Parameters.notNull("seeds", seeds);
        if (seeds.length == 0) {
            throw new IllegalArgumentException("seeds must hold at least one seed, got none");
        }
        List<Point> points = new ArrayList<>();
        for (double speedup : new double[] {1.5, 2.0}) {
            for (Algorithm a : Algorithm.values()) {
                List<GseVsRoceTestbed> tbs = testbeds(grid, speedup);
                for (GseVsRoceTestbed t : tbs) {
                    for (long seed : seeds) {
                        points.add(new Point(t, a, RoceOrGse.ROCE, speedup, bufferBytes, seed));
                    }
                }
                // GSE does not depend on the seed: once per kind of uplinks the RoCE testbeds use
                for (Uplinks u : Uplinks.values()) {
                    if (tbs.stream().anyMatch(t -> t.uplinks() == u)) {
                        points.add(new Point(documentedDefaults().withUplinks(u), a, RoceOrGse.GSE, speedup,
                                bufferBytes, seeds[0]));
                    }
                }
            }
        }
        return points;
    }

    /**
     * Runs {@code points} on {@code threads} threads with a progress bar ({@link Sweep}); results in
     * point order whatever the thread count (each run depends only on its own point).
     *
     * @param points the points, no null element
     * @param threads worker threads, at least 1
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static List<Result> sweep(List<Point> points, int threads, ProgressSink sink) throws InterruptedException {
        return sweep(points, new LocalThreads(threads), sink);
    }

    /**
     * The same sweep on any executor (local threads, or Spark through
     * {@link fabriclab.sweep.SweepExecutors#configured}): the same runs in point order, byte for byte.
     *
     * @param points the points, no null element
     * @param executor where the runs happen
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static List<Result> sweep(List<Point> points, SweepExecutor executor, ProgressSink sink) throws InterruptedException {
        Parameters.notNull("executor", executor);
        return executor.run(sweepPlan(points), sink);
    }

    /**
     * The plan of a sweep over {@code points}, run by {@link Task}.
     *
     * @param points the points, no null element
     */
    public static SweepPlan<Point, Result> sweepPlan(List<Point> points) {
        Parameters.noNullElements("points", points);
        return new SweepPlan<>("000 testbed axes (" + points.size() + " runs)", Task.class, points);
    }

    /** One run of a testbed sweep as a named library function (what a Spark executor instantiates). */
    public static final class Task implements SweepTask<Point, Result> {
        /** Used by the executors. */
        public Task() {
        }

        @Override
        public Result run(Point p) {
            return Parameters.notNull("p", p).run();
        }
    }

    /**
     * RoCE/GSE ratios of a sweep: one row per RoCE run (speedup, algorithm, testbed, seed) with the GSE
     * run of the same algorithm, speedup, uplinks and seed: ratio of the mean JCTs over the 8 jobs, ratio of
     * the slowest jobs, whether the mean ratio lies in 000's band ({@link GseVsRoceJct#publishedBand}, its ends without tolerance), and the RoCE run's counters.
     * RoCE runs without their GSE run are left out.
     *
     * @param runs runs of {@link #sweep}
     */
    public static Table ratios(List<Result> runs) {
        Parameters.noNullElements("runs", runs);
        Map<String, Result> gse = new HashMap<>();
        for (Result r : runs) {
            if (r.fabric() == RoceOrGse.GSE) {
                gse.put(r.speedup() + " " + r.algorithm() + " " + r.bufferBytes() + " " + r.testbed().uplinks() + " " + r.seed(), r);
            }
        }
        List<Result[]> pairs = new ArrayList<>();
        for (Result r : runs) {
            Result g = gse.get(r.speedup() + " " + r.algorithm() + " " + r.bufferBytes() + " " + r.testbed().uplinks() + " " + r.seed());
            if (r.fabric() == RoceOrGse.ROCE && g != null) {
                pairs.add(new Result[] {r, g});
            }
        }
        Dataset published = Datasets.load(GseVsRoceJct.PUBLISHED);
        return Columns.<Result[]>of()
                .doubleColumn("speedup", "ratio", p -> p[0].speedup())
                .stringColumn("algorithm", "", p -> p[0].algorithm().name().toLowerCase(Locale.ROOT))
                .stringColumn("testbed", "", p -> p[0].testbed().label())
                .longColumn("seed", "", p -> p[0].seed())
                .doubleColumn("roce_mean_jct_ms", "ms", p -> p[0].meanJctUs() / 1000)
                .doubleColumn("gse_mean_jct_ms", "ms", p -> p[1].meanJctUs() / 1000)
                .doubleColumn("ratio_mean", "RoCE/GSE", p -> p[0].meanJctUs() / p[1].meanJctUs())
                .doubleColumn("ratio_slowest", "RoCE/GSE", p -> p[0].maxJctUs() / p[1].maxJctUs())
                .stringColumn("in_band", "", p -> {
                    Target.Band b = GseVsRoceJct.publishedBand(published, p[0].algorithm().collective);
                    double x = p[0].meanJctUs() / p[1].meanJctUs();
                    return x >= b.published() && x <= b.publishedHigh() ? "yes" : "no";
                })
                .doubleColumn("uplink_max_over_mean", "ratio", p -> p[0].uplinkMaxOverMean())
                .longColumn("rate_cuts", "cuts", p -> p[0].rateCuts())
                .doubleColumn("pfc_paused_ms", "ms (sum over ports)", p -> p[0].pfcPausedUs() / 1000)
                .doubleColumn("pfc_paused_port_share", "fraction", p -> p[0].pfcPausedPortShare())
                .longColumn("retransmits", "packets", p -> p[0].retransmits())
                .table("ratios", pairs);
    }

    /**
     * The points of 000's canonical configurations for each of {@code seeds}: the documented defaults for AlltoAll
     * (all peers at once) and AllReduce (H-D_R) at both speedups, and the same on 4 x 100G members at 1.5:1; RoCE and
     * GSE for each.
     *
     * @param bufferBytes data per rank [bytes], at least 4096
     * @param seeds the seeds (ECMP hash seed, source ports and WRED draws), not empty
     */
    public static List<Point> canonicalPoints(long bufferBytes, long[] seeds) {
        Parameters.atLeast("bufferBytes", bufferBytes, 4096L);
        Parameters.notNull("seeds", seeds);
        if (seeds.length == 0) {
            throw new IllegalArgumentException("seeds must not be empty");
        }
        GseVsRoceTestbed d = documentedDefaults();
        List<Point> points = new ArrayList<>();
        for (long seed : seeds) {
            for (GseVsRoceTestbed tb : List.of(d, d.withUplinks(Uplinks.BREAKOUT_4X100G))) {
                for (double sp : tb == d ? new double[] {1.5, 2.0} : new double[] {1.5}) {
                    for (Algorithm a : List.of(Algorithm.ALL_TO_ALL_AT_ONCE, Algorithm.HALVING_DOUBLING_ALL_REDUCE)) {
                        for (RoceOrGse f : RoceOrGse.values()) {
                            points.add(new Point(tb, a, f, sp, bufferBytes, seed));
                        }
                    }
                }
            }
        }
        return points;
    }

    /**
     * The points that weigh DCQCN's part in 000's canonical configurations at 1.5:1, for each of {@code seeds}: RoCE
     * with Zhu et al.'s DCQCN and with no DCQCN (PFC alone), on 400G links and on 4 x 100G members, for AlltoAll (all
     * peers at once) and AllReduce (H-D_R), everything else at the documented defaults. RoCE only: each pairs with the
     * GSE run of {@link #canonicalPoints} of the same seed, speedup, uplinks and algorithm, and NVIDIA's DCQCN is the
     * canonical configuration itself.
     *
     * @param bufferBytes data per rank [bytes], at least 4096
     * @param seeds the seeds (ECMP hash seed, source ports and WRED draws), not empty
     */
    public static List<Point> dcqcnAxisPoints(long bufferBytes, long[] seeds) {
        Parameters.atLeast("bufferBytes", bufferBytes, 4096L);
        Parameters.notNull("seeds", seeds);
        if (seeds.length == 0) {
            throw new IllegalArgumentException("seeds must not be empty");
        }
        List<Point> points = new ArrayList<>();
        for (long seed : seeds) {
            for (Uplinks u : Uplinks.values()) {
                for (Dcqcn d : List.of(Dcqcn.ZHU_2015, Dcqcn.OFF)) {
                    GseVsRoceTestbed tb = documentedDefaults().withUplinks(u).withDcqcn(d);
                    for (Algorithm a : List.of(Algorithm.ALL_TO_ALL_AT_ONCE, Algorithm.HALVING_DOUBLING_ALL_REDUCE)) {
                        points.add(new Point(tb, a, RoceOrGse.ROCE, 1.5, bufferBytes, seed));
                    }
                }
            }
        }
        return points;
    }

    /**
     * The spread of RoCE/GSE over seeds: one row per (speedup, algorithm, testbed) of {@link #ratios}{@code (runs)},
     * with the number of seeds, the median of the mean-JCT ratio (the middle value, or the mean of the two middle
     * values), its minimum and maximum, and how many seeds put it in 000's band.
     *
     * @param runs runs of {@link #sweep}, each RoCE run with its GSE run of the same seed
     */
    public static Table ratioSpread(List<Result> runs) {
        Table r = ratios(runs);
        Map<String, List<Integer>> rows = new java.util.LinkedHashMap<>();
        for (int i = 0; i < r.rowCount(); i++) {
            String key = r.doubleColumn("speedup").get(i) + "\u0000" + r.stringColumn("algorithm").get(i) + "\u0000"
                    + r.stringColumn("testbed").get(i);
            rows.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
        }
        List<Object[]> out = new ArrayList<>();
        for (List<Integer> idx : rows.values()) {
            Spread x = Spread.of(idx.stream().mapToDouble(i -> r.doubleColumn("ratio_mean").get(i)).toArray());
            long inBand = idx.stream().filter(i -> r.stringColumn("in_band").get(i).equals("yes")).count();
            int first = idx.get(0);
            out.add(new Object[] {r.doubleColumn("speedup").get(first), r.stringColumn("algorithm").get(first),
                    r.stringColumn("testbed").get(first), idx.size(), x.median(), x.min(), x.max(), inBand});
        }
        return Columns.<Object[]>of()
                .doubleColumn("speedup", "ratio", o -> (Double) o[0])
                .stringColumn("algorithm", "", o -> (String) o[1])
                .stringColumn("testbed", "", o -> (String) o[2])
                .longColumn("seeds", "", o -> (Integer) o[3])
                .doubleColumn("ratio_median", "RoCE/GSE", o -> (Double) o[4])
                .doubleColumn("ratio_min", "RoCE/GSE", o -> (Double) o[5])
                .doubleColumn("ratio_max", "RoCE/GSE", o -> (Double) o[6])
                .longColumn("seeds_in_band", "", o -> (Long) o[7])
                .table("RoCE/GSE over seeds", out);
    }

    /** Name of the axes sweep's model dataset. */
    public static final String AXES = "jct-gse-vs-roce-axes";

    private static final Columns<Result> COLUMNS = JobMetrics.DeliveryCounters.appendTo(Columns.<Result>of()
            .stringColumn("algorithm", "", r -> r.algorithm().name().toLowerCase(Locale.ROOT))
            .stringColumn("fabric", "", r -> r.fabric().name().toLowerCase(Locale.ROOT))
            .doubleColumn("speedup", "ratio", Result::speedup)
            .doubleColumn("size_mb", "MiB per rank", r -> r.bufferBytes() / 1048576.0)
            .stringColumn("uplinks", "", r -> r.testbed().uplinks().name().toLowerCase(Locale.ROOT))
            // text in every row ("1 kept", "per transfer"): a column mixing numbers and text does not load
            .stringColumn("queue_pairs", "", r -> r.testbed().queuePairPerTransfer() ? "per transfer"
                    : r.testbed().queuePairs() + " kept")
            .stringColumn("dcqcn", "", r -> r.testbed().dcqcn().name().toLowerCase(Locale.ROOT))
            .stringColumn("pfc", "", r -> r.testbed().pfcLabel())
            .longColumn("seed", "", Result::seed)
            .doubleColumn("mean_jct_us", "us", Result::meanJctUs)
            .doubleColumn("max_jct_us", "us", Result::maxJctUs)
            .doubleColumn("bound_us", "us", Result::boundUs)
            .doubleColumn("uplink_max_over_mean", "ratio", Result::uplinkMaxOverMean)
            .longColumn("ecn_marks", "packets", Result::ecnMarks)
            .longColumn("rate_cuts", "cuts", Result::rateCuts)
            .longColumn("pfc_pauses", "frames", Result::pfcPauses)
            .doubleColumn("pfc_paused_us", "us (sum over ports)", Result::pfcPausedUs)
            .doubleColumn("pfc_max_port_paused_us", "us", Result::pfcMaxPortPausedUs)
            .doubleColumn("pfc_paused_port_share", "fraction of ports", Result::pfcPausedPortShare)
            .longColumn("retransmits", "packets", Result::retransmits)
            .longColumn("timeouts", "timeouts", Result::timeouts)
            .longColumn("drops", "packets", Result::drops), Result::delivery, true);

    /**
     * The runs as a table, one row per run in the order given (the testbed as its four axis columns), the delivery
     * columns of {@link JobMetrics.DeliveryCounters#appendTo} last (its {@code timeouts} is the column before
     * {@code drops}).
     */
    public static Table table(List<Result> runs) {
        Parameters.noNullElements("runs", runs);
        return COLUMNS.table(AXES, runs);
    }

    /** Name of the dataset of 000's canonical configurations over seeds ({@link #seedsDataset}). */
    public static final String SEEDS = "jct-gse-vs-roce-seeds";

    /**
     * The runs of 000's canonical configurations over seeds ({@link #canonicalPoints}) as the dataset {@link #SEEDS}: one
     * row per run, the columns of {@link #dataset}; their spread is {@link #ratioSpread}.
     *
     * @param runs the runs
     * @param notes what produced them, for the provenance
     */
    public static Dataset seedsDataset(List<Result> runs, String notes) {
        Parameters.noNullElements("runs", runs);
        Parameters.notNull("notes", notes);
        return new Dataset(new Provenance(SEEDS, "GSE vs RoCE JCT of 000's canonical configurations over seeds, packet-level model",
                "model", new Provenance.Paper("000_5f64c80d7629dca1.txt", null, null, null, null),
                "000 section 3, figures 11 and 12 (the spread over ECMP hash seeds, source ports and WRED draws)", COLUMNS.units(),
                notes + " " + runs.size() + " runs (deterministic: each run depends only on its point)."), table(runs));
    }

    /**
     * The runs as the model dataset {@link #AXES} with its provenance; the same runs give the same bytes.
     *
     * @param runs the runs
     * @param notes how they were made (grid, seeds)
     */
    public static Dataset dataset(List<Result> runs, String notes) {
        Parameters.noNullElements("runs", runs);
        Parameters.notNull("notes", notes);
        return new Dataset(new Provenance(AXES, "GSE vs RoCE JCT over the testbed settings 000 leaves unstated, packet-level model",
                "model", new Provenance.Paper("000_5f64c80d7629dca1.txt", null, null, null, null),
                "000 section 3, figures 11 and 12 (what-if over unstated settings)", COLUMNS.units(),
                notes + " " + runs.size() + " runs (deterministic: each run depends only on its point)."), table(runs));
    }
}
