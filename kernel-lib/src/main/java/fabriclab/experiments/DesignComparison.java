package fabriclab.experiments;

import fabriclab.Parameters;
import fabriclab.collectives.BandwidthBound;
import fabriclab.collectives.Collective;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Provenance;
import fabriclab.experiments.testbed.Duan2024Testbed;
import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.experiments.testbed.Duan2024Testbed.Dcqcn;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.experiments.testbed.Spread;
import fabriclab.fabric.LeafSpine;
import fabriclab.progress.ProgressSink;
import fabriclab.scenarios.TransportChoice;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.trace.DropReason;
import fabriclab.simulation.trace.QueueingObserver;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.simulation.transport.hpcc.HpccTransport;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.simulation.transport.uec.EntropySpraying;
import fabriclab.simulation.transport.uec.UecTransport;
import fabriclab.sweep.Columns;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import fabriclab.sweep.SweepTask;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tech.tablesaw.api.Table;

/**
 * Every fabric design the seeds weigh, on one simulator and the same workloads: RoCE with ECMP and DCQCN over PFC (000's
 * baseline), RoCE with switch adaptive routing (per packet or per flowlet, the NICs placing packets out of order), HPCC
 * over PFC, the Ultra Ethernet transport (UEC 1.0 as its reference simulator runs it: entropy spraying, NSCC, trimming,
 * no PFC) and GSE (seeds 000 and 002). Every run goes through the one set-up of the JCT experiments
 * ({@code JobSimulation}): 4096-byte packets without header overhead, 32 MB shared buffer per switch, NVIDIA's DCQCN
 * firmware defaults and the dynamic PFC threshold (alpha 1) of {@link GseVsRoceTestbed#documentedDefaults()}.
 *
 * <p>Workloads ({@link Workload}): 000's testbed on the 4 x 100G members at leaf speedup 1.5 (the configuration of
 * {@link GseVsRoceDcqcnAxes}: 8 jobs of 4 ranks, one queue pair per rank pair kept for the collective), running
 * AlltoAll with every peer at once or halving-doubling AllReduce (HCCL's H-D_R); and 002's training iteration's fabric
 * step on {@link Llama2Training#nonBlocking(int)} with 4 spines (32 x 200G NICs): the data-parallel gradient ring
 * AllReduce of the 8 rails (GPU k of the 4 servers) at once, which is the part of the iteration the fabric changes (the
 * compute and NVLink parts are the same under every design). Each runs healthy and with one leaf uplink down from the
 * start (leaf 0 to spine 0, first member; the routes already avoid it).
 *
 * <p>The settings the papers leave unstated are axes at the documented defaults of the real stacks
 * ({@link Design#settings()}): DCQCN's parameter set for RoCE/ECMP (NVIDIA ConnectX firmware defaults, Zhu et al.
 * 2015), the adaptive routing's granularity (per packet; per flowlet with Juniper's 256 us inactivity interval), UEC's
 * entropy choice (REPS, oblivious); HPCC and GSE at their defaults. GSE keeps PFC on the fabric's ports as a lossless
 * backstop under its grants ({@link Llama2Training}'s assumption; it matters only with a link down).
 *
 * <p>What each run counts ({@link Result}) names the mechanism of a gap: queueing delay per switch hop, PAUSE frames
 * and paused time, CNPs and rate cuts (DCQCN cuts, HPCC's and NSCC's multiplicative decreases), drops by place (at a
 * leaf's port toward a host, inside the fabric, at the failed link), UEC's trims, reordering (packets delivered below
 * one delivered before; GSE containers held at an edge), NAKs, timeouts and spurious timeouts, retransmissions.
 */
public final class DesignComparison {
    private DesignComparison() {
    }

    /** The designs compared. */
    public enum Design {
        /** RoCE, ECMP on the 5-tuple, DCQCN and PFC (000's baseline). */
        ROCE_ECMP("RoCE/ECMP+DCQCN", List.of("nvidia_connectx", "zhu_2015")),
        /** RoCE with switch adaptive routing and out-of-order placement at the NICs, DCQCN and PFC. */
        ROCE_ADAPTIVE("RoCE/adaptive", List.of("per_packet", "per_flowlet")),
        /** HPCC over go-back-N, ECMP and PFC, an ACK per packet ({@link HpccTransport#defaults()}). */
        HPCC("HPCC", List.of("defaults")),
        /** The Ultra Ethernet transport ({@link UecTransport#defaults()}), no PFC. */
        UEC("UEC", List.of("reps", "oblivious")),
        /** Global Scheduling Ethernet ({@link GseTransport#defaults()}). */
        GSE("GSE", List.of("defaults"));

        private final String label;
        private final List<String> settings;

        Design(String label, List<String> settings) {
            this.label = label;
            this.settings = settings;
        }

        /** A short label for tables and figures. */
        public String label() {
            return label;
        }

        /** The values of its unstated setting, its documented default first. */
        public List<String> settings() {
            return settings;
        }
    }

    /** The workloads. */
    public enum Workload {
        /** 000's testbed, AlltoAll with every peer at once, 8 jobs of 4 ranks on the 4 x 100G members at 1.5:1. */
        ALL_TO_ALL_000("000 AlltoAll"),
        /** 000's testbed, halving-doubling AllReduce (H-D_R). */
        ALL_REDUCE_000("000 AllReduce"),
        /** 002's iteration: the gradient ring AllReduce of 8 rails of 4 ranks on 32 x 200G. */
        TRAINING_002("002 training step");

        private final String label;

        Workload(String label) {
            this.label = label;
        }

        /** A short label. */
        public String label() {
            return label;
        }

        /** The leaf-spine it runs on. */
        public LeafSpine fabric() {
            return this == TRAINING_002 ? Llama2Training.nonBlocking(4).fabric()
                    : GseVsRoceDcqcnAxes.testbed().fabric(GseVsRoceDcqcnAxes.SPEEDUP);
        }

        /** The collective every group runs. */
        public Collective collective() {
            return switch (this) {
                case ALL_TO_ALL_000 -> Algorithm.ALL_TO_ALL_AT_ONCE.collective;
                case ALL_REDUCE_000 -> Algorithm.HALVING_DOUBLING_ALL_REDUCE.collective;
                case TRAINING_002 -> Collective.RING_ALL_REDUCE;
            };
        }

        /** The NIC rate [Gb/s]. */
        public double nicGbps() {
            return fabric().hostRateBitsPerSecond() / 1e9;
        }

        /**
         * The line-rate lower bound of one group's JCT [us]: the bytes a rank sends over its NIC rate
         * ({@link BandwidthBound}, 4 ranks); no design can finish sooner.
         */
        public double boundUs(long bytesPerRank) {
            Parameters.inRange("bytesPerRank", bytesPerRank, 0L, GseVsRoceJct.MAX_BUFFER_BYTES);
            return new BandwidthBound(Duan2024Testbed.SERVERS, nicGbps()).seconds(collective(), bytesPerRank) * 1e6;
        }

        /** The link down in the failed-link runs: leaf 0's first uplink member to spine 0. */
        public int[] failedLink() {
            return new int[] {fabric().uplinkIndex(0, 0, 0)};
        }

        JobSimulation.JobFlows flows(long bytesPerRank) {
            return switch (this) {
                case ALL_TO_ALL_000 -> GseVsRoceDcqcnAxes.testbed().flows(Algorithm.ALL_TO_ALL_AT_ONCE, bytesPerRank);
                case ALL_REDUCE_000 -> GseVsRoceDcqcnAxes.testbed().flows(Algorithm.HALVING_DOUBLING_ALL_REDUCE, bytesPerRank);
                case TRAINING_002 -> JobSimulation.collectives(Duan2024Testbed.jobGroups(), Collective.RING_ALL_REDUCE,
                        bytesPerRank);
            };
        }
    }

    /**
     * One run.
     *
     * @param workload the workload
     * @param linkDown whether {@link Workload#failedLink()} is down from the start
     * @param design the design
     * @param setting one of {@code design.settings()}
     * @param bytesPerRank data per rank [bytes], 4096 to {@link GseVsRoceJct#MAX_BUFFER_BYTES}
     * @param seed the seed (source ports, ECMP seeds, marking draws, entropies)
     */
    public record Point(Workload workload, boolean linkDown, Design design, String setting, long bytesPerRank, long seed)
            implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates. */
        public Point {
            Parameters.notNull("workload", workload);
            Parameters.notNull("design", design);
            Parameters.notNull("setting", setting);
            if (!design.settings().contains(setting)) {
                throw new IllegalArgumentException("setting must be one of " + design.settings() + " for " + design + ", got \""
                        + setting + "\"");
            }
            Parameters.inRange("bytesPerRank", bytesPerRank, 4096L, GseVsRoceJct.MAX_BUFFER_BYTES);
        }

        /** How the fabric runs this design and setting. */
        JobSimulation.FabricSettings settings() {
            GseVsRoceTestbed tb = GseVsRoceTestbed.documentedDefaults();
            JobSimulation.FabricSettings roce = tb.fabricSettings(RoceOrGse.ROCE, false);
            return switch (design) {
                case ROCE_ECMP -> setting.equals("zhu_2015")
                        ? tb.withDcqcn(Dcqcn.ZHU_2015).fabricSettings(RoceOrGse.ROCE, false) : roce;
                case ROCE_ADAPTIVE -> roce.withRouting(setting.equals("per_packet") ? Forwarding.Mode.ADAPTIVE_PACKET
                        : Forwarding.Mode.ADAPTIVE_FLOWLET);
                case HPCC -> roce.withTransport(TransportChoice.HPCC);
                case UEC -> roce.withUec(UecTransport.defaults().withSpraying(setting.equals("reps") ? EntropySpraying.REPS
                        : EntropySpraying.OBLIVIOUS));
                case GSE -> tb.fabricSettings(RoceOrGse.GSE, true);
            };
        }

        /** Runs it. */
        public Result run() {
            LeafSpine ls = workload.fabric();
            int[] failed = linkDown ? workload.failedLink() : new int[0];
            QueueingSum queueing = new QueueingSum();
            JobSimulation.Run run = JobSimulation.simulate(ls, settings(), seed, workload.flows(bytesPerRank),
                    JobSimulation.linksDownFromStart(failed), queueing);
            JobMetrics m = JobMetrics.of(run.result(), ls, run.topology(), run.groupOf(), Duan2024Testbed.NICS, failed);
            return Result.of(this, run.result(), m, queueing, ls.hosts());
        }
    }

    /** Sums the queueing delay of data packets leaving switch egress queues. */
    private static final class QueueingSum implements QueueingObserver {
        long packets;
        long delayPs;

        @Override
        public void dequeued(int switchIndex, int port, int flow, boolean data, int wireBytes, long queueingDelayPs, long timePs) {
            if (data) {
                packets++;
                delayPs += queueingDelayPs;
            }
        }
    }

    /**
     * A run's outcome and the counters that name its mechanisms.
     *
     * @param point what ran
     * @param finished whether every group finished within the horizon
     * @param meanJctUs mean JCT over the 8 groups [us]
     * @param maxJctUs the slowest group's JCT [us]
     * @param boundUs the line-rate lower bound of a group's JCT [us] ({@link Workload#boundUs})
     * @param flowBytes payload bytes the flows carry
     * @param deliveredBytes distinct payload bytes handed to the receivers
     * @param sentBytes payload bytes the senders put on the wire (first copies and resends)
     * @param queueDelayUs mean queueing delay of a data packet per switch egress it leaves [us]
     * @param uplinkMaxOverMean max over mean of packets sent on the leaf uplinks (live members)
     * @param pfcPauses PAUSE frames sent
     * @param pfcPausedUs time paused, summed over ports and priorities [us]
     * @param ecnMarks packets ECN-marked
     * @param cnps DCQCN CNPs the receivers sent
     * @param rateCuts the senders' multiplicative cuts: DCQCN rate cuts, HPCC's multiplicative decreases or NSCC's
     * @param dropsToHost data packets tail-dropped at a leaf's port toward a host (the last hop)
     * @param dropsInFabric data packets tail-dropped at any other switch or host port
     * @param dropsFailedLink data packets lost to the failed link (black-holed or in flight on it)
     * @param trims data packets UEC's switches trimmed to headers
     * @param reordered packets delivered below one delivered before (all receivers), plus GSE containers held at an
     *        edge for an earlier one
     * @param nacks NAKs the receivers sent for a sequence gap (UEC: NACKs of trimmed packets)
     * @param timeouts retransmission timeouts that fired
     * @param spuriousTimeouts those that fired for a packet that was not lost
     * @param retransmits data packets sent more than once
     */
    public record Result(Point point, boolean finished, double meanJctUs, double maxJctUs, double boundUs, long flowBytes,
            long deliveredBytes, long sentBytes, double queueDelayUs, double uplinkMaxOverMean, long pfcPauses,
            double pfcPausedUs, long ecnMarks, long cnps, long rateCuts, long dropsToHost, long dropsInFabric,
            long dropsFailedLink, long trims, long reordered, long nacks, long timeouts, long spuriousTimeouts,
            long retransmits) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates. */
        public Result {
            Parameters.notNull("point", point);
            Parameters.nonNegative("meanJctUs", Parameters.finite("meanJctUs", meanJctUs));
            Parameters.nonNegative("maxJctUs", Parameters.finite("maxJctUs", maxJctUs));
            Parameters.nonNegative("boundUs", Parameters.finite("boundUs", boundUs));
            Parameters.nonNegative("queueDelayUs", Parameters.finite("queueDelayUs", queueDelayUs));
            Parameters.nonNegative("uplinkMaxOverMean", Parameters.finite("uplinkMaxOverMean", uplinkMaxOverMean));
            Parameters.nonNegative("pfcPausedUs", Parameters.finite("pfcPausedUs", pfcPausedUs));
            Parameters.atLeast("flowBytes", flowBytes, 0L);
            Parameters.atLeast("deliveredBytes", deliveredBytes, 0L);
            Parameters.atLeast("sentBytes", sentBytes, 0L);
            Parameters.atLeast("pfcPauses", pfcPauses, 0L);
            Parameters.atLeast("ecnMarks", ecnMarks, 0L);
            Parameters.atLeast("cnps", cnps, 0L);
            Parameters.atLeast("rateCuts", rateCuts, 0L);
            Parameters.atLeast("dropsToHost", dropsToHost, 0L);
            Parameters.atLeast("dropsInFabric", dropsInFabric, 0L);
            Parameters.atLeast("dropsFailedLink", dropsFailedLink, 0L);
            Parameters.atLeast("trims", trims, 0L);
            Parameters.atLeast("reordered", reordered, 0L);
            Parameters.atLeast("nacks", nacks, 0L);
            Parameters.atLeast("timeouts", timeouts, 0L);
            Parameters.atLeast("spuriousTimeouts", spuriousTimeouts, 0L);
            Parameters.atLeast("retransmits", retransmits, 0L);
        }

        private static final Pattern PEER = Pattern.compile("-> node (\\d+)");

        static Result of(Point p, SimulationResult r, JobMetrics m, QueueingSum q, int hosts) {
            long toHost = 0;
            long fabric = 0;
            long failed = 0;
            for (SimulationResult.DropSite d : r.drops()) {
                if (d.reason() == DropReason.BLACK_HOLE || d.reason() == DropReason.LINK_FAILURE) {
                    failed += d.dataPackets();
                    continue;
                }
                Matcher peer = PEER.matcher(d.place());
                boolean towardHost = d.place().startsWith("switch") && peer.find() && Integer.parseInt(peer.group(1)) < hosts;
                if (towardHost) {
                    toHost += d.dataPackets();
                } else {
                    fabric += d.dataPackets();
                }
            }
            long flowBytes = r.flows().stream().mapToLong(f -> f.spec().bytes()).sum();
            long reordered = r.flows().stream().mapToLong(SimulationResult.FlowRecord::reorderedPackets).sum()
                    + m.counter(GseTransport.CONTAINERS_REORDERED);
            long cuts = m.counter(RoceTransport.RATE_CUTS) + m.counter(HpccTransport.DECREASES)
                    + m.counter(UecTransport.MULTIPLICATIVE_DECREASES);
            long retransmits = m.retransmits() + m.counter(UecTransport.RETRANSMITS) + m.counter(GseTransport.PACKETS_RESENT);
            JobMetrics.PfcCounters pfc = m.pfc();
            return new Result(p, m.allFinished(), m.allFinished() ? m.meanJctUs() : 0, m.allFinished() ? m.maxJctUs() : 0,
                    p.workload().boundUs(p.bytesPerRank()), flowBytes, m.deliveredBytes(), m.sentBytes(),
                    q.packets == 0 ? 0 : q.delayPs / 1e6 / q.packets, m.uplinkMaxOverMean(), pfc.pauses(), pfc.pausedUs(),
                    m.ecnMarks(), m.counter(RoceTransport.CNPS), cuts, toHost, fabric, failed, m.counter(UecTransport.TRIMS),
                    reordered, m.counter(TransportModel.NACKS), m.timeouts(), m.spuriousTimeouts(), retransmits);
        }
    }

    /** Runs a {@link Point} (what a sweep executor instantiates). */
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
     * The grid: for each workload, healthy then with the link down, each seed, every design and every value of its
     * setting (GSE first, so that a sweep's first runs are the reference).
     *
     * @param workloads the workloads, not empty, no null
     * @param bytesPerRank data per rank of each workload [bytes], one per workload
     * @param seeds the seeds, not empty
     * @param linkDown whether to add the failed-link runs
     */
    public static List<Point> points(List<Workload> workloads, long[] bytesPerRank, long[] seeds, boolean linkDown) {
        Parameters.noNullElements("workloads", workloads);
        Parameters.notNull("bytesPerRank", bytesPerRank);
        Parameters.notNull("seeds", seeds);
        if (workloads.isEmpty() || seeds.length == 0) {
            throw new IllegalArgumentException("workloads and seeds must not be empty, got " + workloads + " and "
                    + seeds.length + " seeds");
        }
        if (bytesPerRank.length != workloads.size()) {
            throw new IllegalArgumentException("bytesPerRank must hold one size per workload (" + workloads.size() + "), got "
                    + bytesPerRank.length);
        }
        List<Design> order = List.of(Design.GSE, Design.ROCE_ECMP, Design.ROCE_ADAPTIVE, Design.HPCC, Design.UEC);
        List<Point> out = new ArrayList<>();
        for (int w = 0; w < workloads.size(); w++) {
            for (boolean down : linkDown ? new boolean[] {false, true} : new boolean[] {false}) {
                for (long seed : seeds) {
                    for (Design d : order) {
                        for (String s : d.settings()) {
                            out.add(new Point(workloads.get(w), down, d, s, bytesPerRank[w], seed));
                        }
                    }
                }
            }
        }
        return out;
    }

    /**
     * Runs {@code points}; results in point order on any executor (each run depends only on its point).
     *
     * @param points the points, no null
     * @param executor local threads or a cluster
     * @param sink the progress bar
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static List<Result> sweep(List<Point> points, SweepExecutor executor, ProgressSink sink) throws InterruptedException {
        Parameters.noNullElements("points", points);
        Parameters.notNull("executor", executor);
        Parameters.notNull("sink", sink);
        return executor.run(new SweepPlan<>("every design on 000's testbed and 002's step (" + points.size() + " runs)",
                Task.class, points), sink);
    }

    /** The key pairing a run with GSE's run of the same workload, link state, size and seed. */
    private static String gseKey(Point p) {
        return p.workload() + " " + p.linkDown() + " " + p.bytesPerRank() + " " + p.seed();
    }

    /**
     * Each run's mean JCT over GSE's of the same workload, link state, size and seed (GSE's own rows give 1).
     *
     * @throws IllegalArgumentException if a run has no GSE run to pair with, or a run did not finish
     */
    public static double[] overGse(List<Result> runs) {
        Parameters.noNullElements("runs", runs);
        Map<String, Double> gse = new LinkedHashMap<>();
        for (Result r : runs) {
            if (r.point().design() == Design.GSE) {
                gse.put(gseKey(r.point()), r.meanJctUs());
            }
        }
        double[] out = new double[runs.size()];
        for (int i = 0; i < out.length; i++) {
            Result r = runs.get(i);
            Double g = gse.get(gseKey(r.point()));
            if (g == null || !r.finished()) {
                throw new IllegalArgumentException("runs must hold finished runs each with a GSE run of the same workload,"
                        + " link state, size and seed; run " + i + " (" + r.point() + ") " + (g == null ? "has none" : "did not finish"));
            }
            out[i] = r.meanJctUs() / g;
        }
        return out;
    }

    /** Name of the model dataset of these runs. */
    public static final String DATASET = "design-comparison";

    private static Columns<Object[]> runColumns() {
        return Columns.<Object[]>of()
                .stringColumn("workload", "", o -> res(o).point().workload().name().toLowerCase(Locale.ROOT))
                .stringColumn("link", "", o -> res(o).point().linkDown() ? "one_down" : "healthy")
                .stringColumn("design", "", o -> res(o).point().design().name().toLowerCase(Locale.ROOT))
                .stringColumn("setting", "", o -> res(o).point().setting())
                .doubleColumn("size_mb", "MiB per rank", o -> res(o).point().bytesPerRank() / 1048576.0)
                .longColumn("seed", "", o -> res(o).point().seed())
                .doubleColumn("mean_jct_us", "us", o -> res(o).meanJctUs())
                .doubleColumn("max_jct_us", "us", o -> res(o).maxJctUs())
                .doubleColumn("bound_us", "us", o -> res(o).boundUs())
                .doubleColumn("over_gse", "ratio", o -> (Double) o[1])
                .longColumn("flow_bytes", "bytes", o -> res(o).flowBytes())
                .longColumn("delivered_bytes", "bytes", o -> res(o).deliveredBytes())
                .longColumn("sent_bytes", "bytes", o -> res(o).sentBytes())
                .doubleColumn("queue_delay_us", "us per switch hop (data packets)", o -> res(o).queueDelayUs())
                .doubleColumn("uplink_max_over_mean", "ratio", o -> res(o).uplinkMaxOverMean())
                .longColumn("pfc_pauses", "frames", o -> res(o).pfcPauses())
                .doubleColumn("pfc_paused_us", "us (sum over ports)", o -> res(o).pfcPausedUs())
                .longColumn("ecn_marks", "packets", o -> res(o).ecnMarks())
                .longColumn("cnps", "packets", o -> res(o).cnps())
                .longColumn("rate_cuts", "cuts", o -> res(o).rateCuts())
                .longColumn("drops_to_host", "packets", o -> res(o).dropsToHost())
                .longColumn("drops_in_fabric", "packets", o -> res(o).dropsInFabric())
                .longColumn("drops_failed_link", "packets", o -> res(o).dropsFailedLink())
                .longColumn("trims", "packets", o -> res(o).trims())
                .longColumn("reordered", "packets or containers", o -> res(o).reordered())
                .longColumn("nacks", "packets", o -> res(o).nacks())
                .longColumn("timeouts", "timeouts", o -> res(o).timeouts())
                .longColumn("spurious_timeouts", "timeouts", o -> res(o).spuriousTimeouts())
                .longColumn("retransmits", "packets", o -> res(o).retransmits());
    }

    private static Result res(Object[] o) {
        return (Result) o[0];
    }

    private static List<Object[]> withRatios(List<Result> runs) {
        double[] ratio = overGse(runs);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            rows.add(new Object[] {runs.get(i), ratio[i]});
        }
        return rows;
    }

    /** The runs as a table, one row per run in the order given, with each run's mean JCT over GSE's ({@link #overGse}). */
    public static Table table(List<Result> runs) {
        return runColumns().table(DATASET, withRatios(runs));
    }

    /**
     * The runs as the model dataset {@link #DATASET} with its provenance; the same runs give the same bytes.
     *
     * @param runs the runs
     * @param notes how they were made (sizes, seeds)
     */
    public static Dataset dataset(List<Result> runs, String notes) {
        Parameters.notNull("notes", notes);
        Table t = table(runs);
        return new Dataset(new Provenance(DATASET,
                "Every design on 000's testbed and 002's training step: JCT and mechanism counters, packet-level model", "model",
                new Provenance.Paper("000_5f64c80d7629dca1.txt", null, null, null, null),
                "000 section 3 (figures 11 and 12: AlltoAll and AllReduce on the testbed) and 002 section 4 (table 1: the"
                        + " training iteration's gradient AllReduce); what-if over the designs the seeds weigh",
                runColumns().units(), notes + " " + runs.size() + " runs (deterministic: each run depends only on its point)."), t);
    }

    /**
     * The ranking per workload and link state: one row per design, its runs over every seed and setting pooled; rank 1
     * the lowest median JCT over GSE's. Columns: {@code workload}, {@code link}, {@code rank}, {@code design},
     * {@code runs}, {@code over_gse_median}, {@code over_gse_min}, {@code over_gse_max}, {@code jct_ms_median},
     * {@code over_bound_median} (mean JCT over the line-rate bound), and the median per run of the mechanism counters
     * ({@code queue_delay_us}, {@code pfc_pauses}, {@code cnps}, {@code rate_cuts}, {@code drops_to_host},
     * {@code drops_in_fabric}, {@code drops_failed_link}, {@code trims}, {@code reordered}, {@code timeouts},
     * {@code spurious_timeouts}). Workloads and link states in first-seen order.
     *
     * @param runs runs of {@link #sweep}
     */
    public static Table ranking(List<Result> runs) {
        List<Object[]> rows = withRatios(runs);
        Map<String, Map<Design, List<Object[]>>> groups = new LinkedHashMap<>();
        for (Object[] o : rows) {
            Point p = res(o).point();
            groups.computeIfAbsent(p.workload() + "\u0000" + p.linkDown(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(p.design(), k -> new ArrayList<>()).add(o);
        }
        List<Object[]> out = new ArrayList<>();
        for (Map<Design, List<Object[]>> byDesign : groups.values()) {
            List<Object[]> summaries = new ArrayList<>();
            for (Map.Entry<Design, List<Object[]>> e : byDesign.entrySet()) {
                List<Object[]> rs = e.getValue();
                Spread ratio = Spread.of(rs.stream().mapToDouble(o -> (Double) o[1]).toArray());
                Point p = res(rs.get(0)).point();
                summaries.add(new Object[] {p.workload(), p.linkDown(), e.getKey(), rs.size(), ratio,
                    median(rs, r -> r.meanJctUs() / 1000), median(rs, r -> r.meanJctUs() / r.boundUs()),
                    median(rs, Result::queueDelayUs), median(rs, r -> r.pfcPauses()), median(rs, r -> r.cnps()),
                    median(rs, r -> r.rateCuts()), median(rs, r -> r.dropsToHost()), median(rs, r -> r.dropsInFabric()),
                    median(rs, r -> r.dropsFailedLink()), median(rs, r -> r.trims()), median(rs, r -> r.reordered()),
                    median(rs, r -> r.timeouts()), median(rs, r -> r.spuriousTimeouts())});
            }
            summaries.sort(Comparator.comparingDouble((Object[] o) -> ((Spread) o[4]).median())
                    .thenComparing(o -> ((Design) o[2]).ordinal()));
            for (int i = 0; i < summaries.size(); i++) {
                Object[] s = summaries.get(i);
                Object[] row = Arrays.copyOf(s, s.length + 1);
                row[s.length] = i + 1;
                out.add(row);
            }
        }
        Columns<Object[]> c = Columns.<Object[]>of()
                .stringColumn("workload", "", o -> ((Workload) o[0]).name().toLowerCase(Locale.ROOT))
                .stringColumn("link", "", o -> (Boolean) o[1] ? "one_down" : "healthy")
                .longColumn("rank", "", o -> (Integer) o[o.length - 1])
                .stringColumn("design", "", o -> ((Design) o[2]).name().toLowerCase(Locale.ROOT))
                .longColumn("runs", "", o -> (Integer) o[3])
                .doubleColumn("over_gse_median", "ratio", o -> ((Spread) o[4]).median())
                .doubleColumn("over_gse_min", "ratio", o -> ((Spread) o[4]).min())
                .doubleColumn("over_gse_max", "ratio", o -> ((Spread) o[4]).max())
                .doubleColumn("jct_ms_median", "ms", o -> (Double) o[5])
                .doubleColumn("over_bound_median", "ratio", o -> (Double) o[6]);
        String[] names = {"queue_delay_us", "pfc_pauses", "cnps", "rate_cuts", "drops_to_host", "drops_in_fabric",
            "drops_failed_link", "trims", "reordered", "timeouts", "spurious_timeouts"};
        for (int k = 0; k < names.length; k++) {
            int idx = 7 + k;
            c = c.doubleColumn(names[k], k == 0 ? "us" : "per run", o -> (Double) o[idx]);
        }
        return c.table("Ranking per workload: mean JCT over GSE's, median and min-max over seeds and settings", out);
    }

    /**
     * The ranking at a glance for one workload: each design's mean JCT over GSE's, healthy and with the link down side by
     * side, as its median (circle) and its lowest and highest run over seeds and settings (triangles), on a logarithmic
     * axis with GSE's level (1) dashed.
     *
     * @param ranking a table of {@link #ranking}
     * @param workload the workload drawn, one the table holds
     */
    public static org.knowm.xchart.CategoryChart figure(Table ranking, Workload workload) {
        Parameters.notNull("ranking", ranking);
        Parameters.notNull("workload", workload);
        String w = workload.name().toLowerCase(Locale.ROOT);
        List<String> labels = new ArrayList<>();
        List<Double> med = new ArrayList<>();
        List<Double> lo = new ArrayList<>();
        List<Double> hi = new ArrayList<>();
        for (Design d : Design.values()) {
            for (String link : List.of("healthy", "one_down")) {
                for (int i = 0; i < ranking.rowCount(); i++) {
                    if (ranking.stringColumn("workload").get(i).equals(w) && ranking.stringColumn("link").get(i).equals(link)
                            && ranking.stringColumn("design").get(i).equals(d.name().toLowerCase(Locale.ROOT))) {
                        labels.add(d.label() + (link.equals("healthy") ? "" : ", link down"));
                        med.add(ranking.doubleColumn("over_gse_median").get(i));
                        lo.add(ranking.doubleColumn("over_gse_min").get(i));
                        hi.add(ranking.doubleColumn("over_gse_max").get(i));
                    }
                }
            }
        }
        if (labels.isEmpty()) {
            throw new IllegalArgumentException("ranking must hold rows of workload " + workload + ", got none");
        }
        org.knowm.xchart.CategoryChart c = fabriclab.notebook.Figures.bars(workload.label()
                + ": JCT over GSE's, healthy and link down",
                "design (and link state)", "mean JCT / GSE's mean JCT, logarithmic");
        c.getStyler().setOverlapped(true);
        c.getStyler().setXAxisLabelRotation(35);
        c.getStyler().setYAxisLogarithmic(true);
        // a category chart's axis starts at 0 unless told (no logarithm of 0): from 0.5, or the decade below a lower run
        double lowest = lo.stream().mapToDouble(x -> x).min().orElse(1);
        c.getStyler().setYAxisMin(lowest >= 0.5 ? 0.5 : Math.pow(10, Math.floor(Math.log10(lowest))));
        c.getStyler().setMarkerSize(9);
        Object[][] series = {{"median over seeds and settings", med, org.knowm.xchart.style.markers.SeriesMarkers.CIRCLE},
            {"lowest run", lo, org.knowm.xchart.style.markers.SeriesMarkers.TRIANGLE_DOWN},
            {"highest run", hi, org.knowm.xchart.style.markers.SeriesMarkers.TRIANGLE_UP}};
        for (Object[] s : series) {
            @SuppressWarnings("unchecked")
            List<Double> ys = (List<Double>) s[1];
            org.knowm.xchart.CategorySeries cs = c.addSeries((String) s[0], labels, ys);
            cs.setChartCategorySeriesRenderStyle(org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle.Scatter);
            cs.setMarker((org.knowm.xchart.style.markers.Marker) s[2]);
        }
        org.knowm.xchart.CategorySeries one = c.addSeries("GSE's level (1)", labels, labels.stream().map(x -> 1.0).toList());
        one.setChartCategorySeriesRenderStyle(org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle.Line);
        one.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
        one.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER, 10f,
                new float[] {4f, 4f}, 0f));
        one.setLineColor(java.awt.Color.GRAY);
        return c;
    }

    private static double median(List<Object[]> rows, ToDoubleFunction<Result> f) {
        return Spread.of(rows.stream().mapToDouble(o -> f.applyAsDouble(res(o))).toArray()).median();
    }
}
