package fabriclab.experiments;

import fabriclab.Parameters;
import fabriclab.collectives.Collective;
import fabriclab.collectives.CollectiveSchedule;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Provenance;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.fabric.Pfc;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.Time;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.LeafSpine;
import fabriclab.sweep.Columns;
import fabriclab.sweep.LocalThreads;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import fabriclab.sweep.SweepTask;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import tech.tablesaw.api.Table;

/**
 * 000 section 3, figures 11 and 12: job completion time (JCT) of AlltoAll and AllReduce on RoCE and
 * on GSE, 8 concurrent jobs on one leaf-spine.
 *
 * <p>Our reading of the (partly garbled) text: 4 servers (A-D) of 8 NICs at 100GE; the 8 NICs of a
 * server sit on one leaf (4 leaves of 8 x 100GE down); each leaf has one 400GE uplink to each spine,
 * and the leaf speedup (uplink over downlink capacity, 800G down) sets the number of spines:
 * 1.5:1 is 3 spines (1200G up), 2:1 is 4 spines (1600G up). Job k (k = 0..7) is GPU/NIC k of the
 * four servers, so every job has 4 ranks on 4 different leaves and all its traffic crosses the spines.
 *
 * <p>RoCE: ECMP on the 5-tuple (CRC-32, per-switch seeds drawn from the run seed; every transfer
 * is one queue pair with its own random UDP source port), PFC on every switch (XOFF 1 MB, XON
 * 0.9 MB, headroom 100 KB), DCQCN with the published defaults ({@link DcqcnParameters#zhu2015()},
 * WRED Kmin 5 KB / Kmax 200 KB / Pmax 1%). GSE: {@link GseTransport#defaults()} (16 KB containers,
 * grants at the egress rate, round-robin container spraying, egress reordering, no fabric PFC).
 * Both: 4096-byte packets, no header overhead, 1 us links, 32 MB shared buffer per switch.
 *
 * <p>JCT of a job is the time its last transfer completes; a run reports the mean and the largest
 * JCT over the 8 jobs, and counters that explain the gap (max/mean uplink load, PFC pauses, ECN
 * marks, drops, reordered containers).
 *
 * @param speedup leaf speedup: 1.5 or 2 (3 or 4 spines)
 */
public record GseVsRoceJct(double speedup) {
    /** Servers, NICs per server, jobs. */
    public static final int SERVERS = 4;
    /** NICs per server (one per GPU) and jobs. */
    public static final int NICS = 8;
    private static final long G100 = 100_000_000_000L;
    private static final long G400 = 400_000_000_000L;

    /** Validates: only the two speedups of 000. */
    public GseVsRoceJct {
        if (speedup != 1.5 && speedup != 2.0) {
            throw new IllegalArgumentException("speedup must be 1.5 or 2.0 (000's two settings), got " + speedup);
        }
    }

    /** Which fabric. */
    public enum Fabric {
        /** ECMP + PFC + DCQCN. */
        ROCE,
        /** Containers + grants + spraying. */
        GSE
    }

    /** Number of spines: speedup x 800G / 400G. */
    public int spines() {
        return (int) Math.round(speedup * NICS * 100 / 400.0);
    }

    /** The leaf-spine. */
    public LeafSpine fabric() {
        return new LeafSpine(SERVERS, NICS, SERVERS, spines(), G100, G400, 1, Time.US, Time.US);
    }

    /**
     * One run's outcome.
     *
     * @param collective the collective
     * @param bufferBytes data per rank [bytes]
     * @param fabric RoCE or GSE
     * @param speedup leaf speedup
     * @param seed the seed
     * @param meanJctUs mean JCT over the 8 jobs [us]
     * @param maxJctUs largest JCT [us]
     * @param boundUs bandwidth lower bound of one job [us] (BandwidthBound at 100G)
     * @param uplinkMaxOverMean max over mean of bytes sent on the leaf uplinks
     * @param pfcPauses PAUSE frames sent
     * @param ecnMarks packets ECN-marked
     * @param drops data packets dropped
     * @param containersReordered GSE containers that arrived before an earlier one of their pair
     */
    public record Run(Collective collective, long bufferBytes, Fabric fabric, double speedup, long seed, double meanJctUs,
            double maxJctUs, double boundUs, double uplinkMaxOverMean, long pfcPauses, long ecnMarks, long drops,
            long containersReordered) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates: settings present, speedup positive, times and ratio finite and not negative, counts not negative. */
        public Run {
            Parameters.notNull("collective", collective);
            Parameters.atLeast("bufferBytes", bufferBytes, 1L);
            Parameters.notNull("fabric", fabric);
            Parameters.positive("speedup", speedup);
            Parameters.nonNegative("meanJctUs", meanJctUs);
            Parameters.nonNegative("maxJctUs", maxJctUs);
            Parameters.nonNegative("boundUs", boundUs);
            Parameters.nonNegative("uplinkMaxOverMean", uplinkMaxOverMean);
            Parameters.atLeast("pfcPauses", pfcPauses, 0L);
            Parameters.atLeast("ecnMarks", ecnMarks, 0L);
            Parameters.atLeast("drops", drops, 0L);
            Parameters.atLeast("containersReordered", containersReordered, 0L);
        }
    }

    /**
     * Simulates the 8 jobs running {@code collective} with {@code bufferBytes} per rank.
     *
     * @param collective the collective
     * @param bufferBytes data per rank, 4096 bytes to {@link #MAX_BUFFER_BYTES}
     * @param fabric RoCE or GSE
     * @param seed seed of the ECMP hash seeds, source ports and WRED draws
     * @throws IllegalStateException if a job did not finish within the simulated 10 s (no JCT to report)
     */
    public Run run(Collective collective, long bufferBytes, Fabric fabric, long seed) {
        Parameters.notNull("collective", collective);
        Parameters.inRange("bufferBytes", bufferBytes, 4096L, MAX_BUFFER_BYTES);
        Parameters.notNull("fabric", fabric);
        Outcome o = simulate(fabric(), jobGroups(), collective, bufferBytes, fabric, seed, new int[0], sim -> { });
        SimulationResult r = o.result();
        if (java.util.Arrays.stream(o.jctUs()).anyMatch(j -> !Double.isFinite(j))) {
            throw new IllegalStateException("a job of " + collective + " with " + bufferBytes + " bytes per rank on " + fabric
                    + " did not finish within the simulated 10 s (seed " + seed + "): no JCT to report");
        }
        double bound = new fabriclab.collectives.BandwidthBound(SERVERS, 100).seconds(collective, bufferBytes) * 1e6;
        return new Run(collective, bufferBytes, fabric, speedup, seed, java.util.Arrays.stream(o.jctUs()).average().orElseThrow(),
                java.util.Arrays.stream(o.jctUs()).max().orElseThrow(), bound, o.uplinkMaxOverMean(), r.pausesSent(),
                r.ecnMarks(), r.droppedPackets(), r.counters().getOrDefault("gse.containersReordered", 0L));
    }

    /**
     * The largest data per rank a run takes, bytes (1 GiB, twice the sweep's largest size): larger
     * sizes would take hours of packet-level simulation and may not finish within the simulated 10 s.
     */
    public static final long MAX_BUFFER_BYTES = 1L << 30;

    /** The 8 jobs as host groups: rank r of job k (group k) is NIC k of server r. */
    static int[][] jobGroups() {
        int[][] groups = new int[NICS][SERVERS];
        for (int job = 0; job < NICS; job++) {
            for (int r = 0; r < SERVERS; r++) {
                groups[job][r] = r * NICS + job;
            }
        }
        return groups;
    }

    /**
     * A simulated set of concurrent collectives.
     *
     * @param result the simulation result
     * @param jctUs completion time of each group's collective [us]
     * @param uplinkMaxOverMean max over mean of packets sent on the leaf uplinks, the dead links left out
     */
    record Outcome(SimulationResult result, double[] jctUs, double uplinkMaxOverMean) {
    }

    /**
     * The engine behind {@link #run} and {@link Llama2Fabric}: every group runs {@code collective} over
     * its hosts (rank r = {@code groups[g][r]}), all starting at time 0; RoCE or GSE configured as in
     * the class comment; {@code setup} may add failures before the run, and the links listed in
     * {@code deadLinks} (indices into {@code ls.build().links()}) are left out of the uplink balance.
     * Each transfer is one queue pair with a random UDP source port drawn from {@code seed} (in group,
     * transfer order), then the ECMP seed.
     */
    static Outcome simulate(LeafSpine ls, int[][] groups, Collective collective, long bufferBytes, Fabric fabric, long seed,
            int[] deadLinks, java.util.function.Consumer<Scenario.Builder> setup) {
        SplittableRandom rnd = new SplittableRandom(seed);
        CollectiveSchedule[] schedules = new CollectiveSchedule[groups.length];
        int transfers = 0;
        for (int g = 0; g < groups.length; g++) {
            schedules[g] = CollectiveSchedule.of(collective, groups[g].length, bufferBytes);
            transfers += schedules[g].transfers().size();
        }
        int[] ports = new int[transfers]; // drawn before the ECMP seed, in flow order
        for (int i = 0; i < transfers; i++) {
            ports[i] = 49152 + rnd.nextInt(16384);
        }
        DcqcnParameters d = DcqcnParameters.zhu2015();
        EcnMarking wred = fabric == Fabric.ROCE ? d.marking() : EcnMarking.OFF;
        SimulationConfig c = new SimulationConfig(4096, 0, 1, new SwitchBuffer(32_000_000, 32_000_000, wred),
                Forwarding.ecmp(HashFunction.CRC32, rnd.nextInt()), seed, 0, 0);
        fabriclab.fabric.Topology topology = ls.build();
        Scenario.Builder scenario = Scenario.builder(topology, c);
        int[] groupOf = new int[transfers];
        int[] next = {0};
        for (int g = 0; g < groups.length; g++) {
            int first = scenario.collective(schedules[g], groups[g], () -> ports[next[0]++]);
            java.util.Arrays.fill(groupOf, first, first + schedules[g].transfers().size(), g);
        }
        if (fabric == Fabric.ROCE) {
            scenario.transport(RoceTransport.dcqcn(d)).pfc(new Pfc(1_000_000, 900_000, 100_000, 65535));
        } else {
            scenario.transport(GseTransport.defaults());
        }
        setup.accept(scenario);
        SimulationResult r = scenario.build().simulator().run(10 * Time.S, Progress.silent());
        double[] jct = new double[groups.length];
        for (SimulationResult.FlowRecord f : r.flows()) {
            long done = r.completedAtPs(f.id());
            int g = groupOf[f.id()];
            jct[g] = Math.max(jct[g], done < 0 ? Double.POSITIVE_INFINITY : Time.toMicros(done));
        }
        int hosts = ls.hosts();
        java.util.Set<Long> dead = new java.util.HashSet<>(); // (leaf switch index, spine node) of each dead uplink
        for (int link : deadLinks) {
            fabriclab.fabric.LinkSpec l = topology.links().get(link);
            int leaf = Math.min(l.nodeA(), l.nodeB());
            dead.add(((long) (leaf - hosts)) << 32 | Math.max(l.nodeA(), l.nodeB()));
        }
        long[] up = r.queues().stream().filter(q -> q.switchIndex() < ls.leaves() && q.peerNode() >= hosts + ls.leaves()
                        && !dead.contains(((long) q.switchIndex()) << 32 | q.peerNode()))
                .mapToLong(SimulationResult.QueueTrace::txPackets).toArray();
        double mean = java.util.Arrays.stream(up).average().orElse(1);
        double max = java.util.Arrays.stream(up).max().orElse(1);
        return new Outcome(r, jct, mean == 0 ? 1 : max / mean);
    }

    /**
     * The parameters of one run of a sweep: what {@link RunTask} gives to {@link #run}. Validated on
     * construction (so also when a cluster deserializes it).
     *
     * @param speedup leaf speedup, 1.5 or 2
     * @param collective the collective, not null
     * @param bufferBytes data per rank [bytes], 4096 to {@link #MAX_BUFFER_BYTES}
     * @param fabric RoCE or GSE, not null
     * @param seed the seed
     */
    public record RunParameters(double speedup, Collective collective, long bufferBytes, Fabric fabric, long seed)
            implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates every field. */
        public RunParameters {
            new GseVsRoceJct(speedup);
            Parameters.notNull("collective", collective);
            Parameters.inRange("bufferBytes", bufferBytes, 4096L, MAX_BUFFER_BYTES);
            Parameters.notNull("fabric", fabric);
        }
    }

    /**
     * The sweep task of this experiment: {@code new GseVsRoceJct(p.speedup()).run(p.collective(), p.bufferBytes(),
     * p.fabric(), p.seed())}, by name, so that any {@link SweepExecutor} (local threads or a Spark cluster)
     * can run it.
     */
    public static final class RunTask implements SweepTask<RunParameters, Run> {
        /** Stateless. */
        public RunTask() {
        }

        @Override
        public Run run(RunParameters p) {
            Parameters.notNull("p", p);
            return new GseVsRoceJct(p.speedup()).run(p.collective(), p.bufferBytes(), p.fabric(), p.seed());
        }
    }

    /** Every combination, in the order speedup, collective, size, fabric, seed. */
    private static List<RunParameters> points(double[] speedups, List<Collective> collectives, long[] sizes, List<Fabric> fabrics,
            long[] seeds) {
        Parameters.notNull("collectives", collectives);
        Parameters.notNull("sizes", sizes);
        Parameters.notNull("fabrics", fabrics);
        Parameters.notNull("seeds", seeds);
        for (int i = 0; i < collectives.size(); i++) {
            Parameters.notNull("collectives[" + i + "]", collectives.get(i));
        }
        for (int i = 0; i < sizes.length; i++) {
            Parameters.inRange("sizes[" + i + "]", sizes[i], 4096L, MAX_BUFFER_BYTES);
        }
        for (int i = 0; i < fabrics.size(); i++) {
            Parameters.notNull("fabrics[" + i + "]", fabrics.get(i));
        }
        List<RunParameters> points = new ArrayList<>();
        for (double speedup : speedups) {
            for (Collective col : collectives) {
                for (long size : sizes) {
                    for (Fabric f : fabrics) {
                        for (long seed : seeds) {
                            points.add(new RunParameters(speedup, col, size, f, seed));
                        }
                    }
                }
            }
        }
        return points;
    }

    /**
     * Runs every combination of collectives, sizes, fabrics and seeds at this speedup on {@code threads}
     * threads ({@link LocalThreads}); results in the order (collective, size, fabric, seed) whatever the thread
     * count, and each run depends only on its own seed, so the sweep is deterministic.
     *
     * @param collectives the collectives, no null element
     * @param sizes data per rank [bytes], each at least 4096
     * @param fabrics the fabrics, no null element
     * @param seeds the seeds
     * @param threads worker threads, at least 1
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<Run> sweep(List<Collective> collectives, long[] sizes, List<Fabric> fabrics, long[] seeds, int threads,
            ProgressSink sink) throws InterruptedException {
        return new LocalThreads(threads).run(sweepPlan(collectives, sizes, fabrics, seeds), sink);
    }

    /**
     * The plan of {@link #sweep}: every combination of collectives, sizes, fabrics and seeds at this
     * speedup, in the order (collective, size, fabric, seed), run by {@link RunTask}. Run it on any
     * {@link SweepExecutor}; turn its results into a table with {@link #table}.
     *
     * @param collectives the collectives, no null element
     * @param sizes data per rank [bytes], each at least 4096
     * @param fabrics the fabrics, no null element
     * @param seeds the seeds
     */
    public SweepPlan<RunParameters, Run> sweepPlan(List<Collective> collectives, long[] sizes, List<Fabric> fabrics,
            long[] seeds) {
        List<RunParameters> points = points(new double[] {speedup}, collectives, sizes, fabrics, seeds);
        return new SweepPlan<>("GSE vs RoCE JCT sweep (" + points.size() + " runs)", RunTask.class, points);
    }

    /** Name of the full sweep's model dataset, {@code datasets/model/jct-gse-vs-roce-full.csv}. */
    public static final String FULL_SWEEP = "jct-gse-vs-roce-full";

    /**
     * The full sweep behind notebook 08: data per rank 1 MiB to 512 MiB (powers of two), AlltoAll and
     * ring AllReduce, RoCE and GSE, leaf speedups 1.5 and 2, seeds 1 to 3 (240 runs), in the order
     * (speedup, collective, size, fabric, seed) whatever the thread count. Writes nothing: save the
     * runs with {@link #fullSweepDataset} and {@code fabriclab.datasets.Datasets}.
     *
     * @param threads worker threads, at least 1
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static List<Run> fullSweep(int threads, ProgressSink sink) throws InterruptedException {
        return fullSweep(new LocalThreads(threads), sink);
    }

    /**
     * {@link #fullSweep(int, ProgressSink)} on any executor: local threads, or a Spark cluster
     * ({@code fabriclab.sweep.SweepExecutors.configured(threads)} picks one from the
     * {@code FABRICLAB_SWEEP_MASTER} setting). The same runs, in the same order, on every executor.
     *
     * @param executor where the runs happen
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static List<Run> fullSweep(SweepExecutor executor, ProgressSink sink) throws InterruptedException {
        Parameters.notNull("executor", executor);
        return executor.run(fullSweepPlan(), sink);
    }

    /** The plan of {@link #fullSweep(SweepExecutor, ProgressSink)}: 240 parameter records in the order (speedup, collective, size, fabric, seed). */
    public static SweepPlan<RunParameters, Run> fullSweepPlan() {
        long[] sizes = new long[10];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = (1L << 20) << i;
        }
        List<RunParameters> points = points(new double[] {1.5, 2.0}, List.of(Collective.ALL_TO_ALL, Collective.RING_ALL_REDUCE), sizes,
                List.of(Fabric.ROCE, Fabric.GSE), new long[] {1, 2, 3});
        return new SweepPlan<>("GSE vs RoCE JCT sweep (" + points.size() + " runs)", RunTask.class, points);
    }

    /**
     * The runs of {@link #fullSweep(SweepExecutor, ProgressSink)} as the model dataset {@link #FULL_SWEEP}: the table of {@link #table}
     * with its provenance. The same runs give the same bytes when saved.
     *
     * @param runs the runs, not null
     */
    public static Dataset fullSweepDataset(List<Run> runs) {
        Parameters.noNullElements("runs", runs);
        return new Dataset(provenance(FULL_SWEEP,
                "Written by notebooks/08-gse-vs-roce-jct.ipynb or fabriclab.experiments.JctSweepMain (identical output); "
                        + runs.size() + " runs (deterministic: each run depends only on its seed)."), table(FULL_SWEEP, runs));
    }

    /** The columns of {@link #table}, with their units. */
    private static final Columns<Run> COLUMNS = Columns.<Run>of()
            .stringColumn("collective", "", r -> r.collective().name().toLowerCase(Locale.ROOT))
            .doubleColumn("size_mb", "MiB per rank", r -> r.bufferBytes() / 1048576.0)
            .stringColumn("fabric", "", r -> r.fabric().name().toLowerCase(Locale.ROOT))
            .doubleColumn("speedup", "ratio", Run::speedup)
            .longColumn("seed", "", Run::seed)
            .doubleColumn("mean_jct_us", "us", Run::meanJctUs)
            .doubleColumn("max_jct_us", "us", Run::maxJctUs)
            .doubleColumn("bound_us", "us", Run::boundUs)
            .doubleColumn("uplink_max_over_mean", "ratio", Run::uplinkMaxOverMean)
            .longColumn("pfc_pauses", "frames", Run::pfcPauses)
            .longColumn("ecn_marks", "packets", Run::ecnMarks)
            .longColumn("drops", "packets", Run::drops)
            .longColumn("containers_reordered", "containers", Run::containersReordered);

    /**
     * The runs as a table named {@code name}, one row per run in the order given: collective and fabric
     * in lower case, size_mb = data per rank [MiB], then the fields of {@link Run} (JCTs and bound in us).
     */
    public static Table table(String name, List<Run> runs) {
        Parameters.noNullElements("runs", runs);
        return COLUMNS.table(name, runs);
    }

    /**
     * Provenance of a model dataset made of {@link #table}: the units of its columns, 000 as the paper.
     *
     * @param name the dataset name
     * @param notes how the runs were made
     */
    public static Provenance provenance(String name, String notes) {
        return new Provenance(name, "GSE vs RoCE job completion time, 8 jobs of 4 ranks, packet-level model", "model",
                new Provenance.Paper("000_5f64c80d7629dca1.txt", null, null, null, null),
                "000 section 3, figures 11 and 12 (model of the experiment)", COLUMNS.units(), notes);
    }
}
