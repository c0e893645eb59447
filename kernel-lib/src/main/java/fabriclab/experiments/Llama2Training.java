package fabriclab.experiments;

import fabriclab.experiments.testbed.Spread;
import fabriclab.Parameters;
import fabriclab.collectives.Collective;
import fabriclab.collectives.LeafSpineBound;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Provenance;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.experiments.Llama2Fabric.Case;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import fabriclab.progress.ProgressSink;
import fabriclab.sweep.Columns;
import fabriclab.sweep.LocalThreads;
import fabriclab.sweep.Sweep;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import fabriclab.sweep.SweepTask;
import java.io.Serializable;
import fabriclab.training.Accelerator;
import fabriclab.training.CommOp;
import fabriclab.training.CommTimer;
import fabriclab.training.IterationTimeline;
import fabriclab.training.ParallelLayout;
import fabriclab.training.TrainingJob;
import fabriclab.training.TransformerConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tech.tablesaw.api.Table;

/**
 * 002 table 1 (Llama2-13B on 32 accelerators with one 200G port each, samples/s on RoCE and GSE in four
 * situations) from first principles: the model's FLOPs and the layout's collectives
 * ({@link TrainingJob}), an accelerator's peak at a compute efficiency, the iteration's schedule with its
 * overlap ({@link IterationTimeline}), and communication timed on 002's fabric.
 *
 * <p>002's fabric (the paper's figure 8 is not in our copy of the text, so this is a reading, with its
 * unknowns as parameters): 4 servers x 8 accelerators, one 200G NIC per accelerator; each server's 8 NICs on
 * one leaf (4 leaves); {@code spines} spines, one uplink per leaf and spine at
 * {@code speedup x 8 x 200G / spines} (speedup 1: non-blocking, 1.6 Tb/s up per leaf). Inside a server,
 * NVLink at {@code nvlinkBytesPerSecond} per GPU and direction. The rows, as in {@link Llama2Fabric}: single
 * job; one link down (leaf 0 - spine 0); four links down (spine 0's uplink of every leaf, so each leaf
 * loses {@code 1/spines} of its uplink capacity; 002's GSE loses 10% in that row, which is what bounds the
 * reading: with enough spare uplink capacity it would lose nothing); multiple jobs (two 16-GPU jobs,
 * servers A-B and C-D, each with half the DP degree and half the batch, run at once; samples/s summed).
 * Links are down before the iteration starts (steady state).
 *
 * <p>Communication: {@link CommTimer#hierarchical} (NVLink inside a server, rails of one rank per server
 * across the fabric), the rails timed either by {@link Timing#BOUND} ({@link LeafSpineBound}: GSE sprays
 * evenly, RoCE hashes each transfer onto one path, mean of {@link #ECMP_DRAWS} draws), or by
 * {@link Timing#PACKET}, the packet simulator of {@link GseVsRoceJct} on a ring all-reduce of
 * {@link #PACKET_REFERENCE_BYTES} per rank, scaled linearly to the bytes each rank sends (the bandwidth regime; a
 * reduce-scatter or an all-gather is timed as the all-reduce that sends the same bytes), at the documented defaults of
 * {@link GseVsRoceTestbed#documentedDefaults()}: RoCE with ECMP, NVIDIA's DCQCN, the dynamic PFC threshold (alpha 1)
 * and the reliable connection's defaults (NCCL's); GSE with containers, grants and spraying, and the same PFC on the
 * fabric's ports as a lossless backstop. The backstop matters only with links down: GSE's grants bound each
 * destination port, not the path, so on a fabric without spare uplinks the spines receive more than the links left
 * carry; with PFC they pause their upstream instead of dropping (without it, a run with a link down loses packets
 * at the spines and completes by resending, which would measure this model's grants rather than GSE). How 002's GSE
 * handles such a core is not stated; the backstop is this model's assumption. Pipeline sends use the bound in both modes. Each
 * communication step is timed alone on the fabric: two steps that overlap in time (e.g. DP of two stages)
 * do not slow each other down (a limitation).
 *
 * @param spines spines, 1 to 16
 * @param speedup uplink over downlink capacity of a leaf, in (0, 4]
 * @param nvlinkBytesPerSecond per-GPU, one-direction bandwidth inside a server [bytes/s]
 */
public record Llama2Training(int spines, double speedup, double nvlinkBytesPerSecond) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Accelerators of the testbed. */
    public static final int GPUS = 32;
    /** Accelerators (and NICs) per server: 8, the usual training server; 002 does not say. */
    public static final int GPUS_PER_SERVER = 8;
    /** NIC rate per accelerator (002: "each card with a 200G port") [bit/s]. */
    public static final long NIC_BITS_PER_SECOND = 200_000_000_000L;
    /**
     * NVLink per GPU and direction [bytes/s]: A100's NVLink 3 is 600 GB/s in both directions together (300 each),
     * H800's 400 (200 each); NCCL reaches about 80% of it, so 200e9 is our middle reading.
     */
    public static final double NVLINK_BYTES_PER_SECOND = 200e9;
    /**
     * Ring all-reduce buffer per rank of a packet-simulated communication step [bytes]: 64 MiB, where notebook 08
     * finds the JCT over the bound flat (about 8 s of simulation on one core). At 16 MiB RoCE's time per byte is
     * still 10-20% higher (DCQCN's rate recovery is a larger share); GSE's is within 6% of the NIC bound at both.
     */
    public static final long PACKET_REFERENCE_BYTES = 64L << 20;
    /** ECMP draws averaged by the bound. */
    public static final int ECMP_DRAWS = 32;

    /** How the fabric part of communication is timed. */
    public enum Timing {
        /** {@link LeafSpineBound}: fluid, step-synchronous; fast. */
        BOUND,
        /** The packet simulator, scaled from {@link #PACKET_REFERENCE_BYTES}. */
        PACKET
    }

    /** Validates. */
    public Llama2Training {
        Parameters.inRange("spines", spines, 1, 16);
        Parameters.inHalfOpenRange("speedup", speedup, 0, 4);
        Parameters.positive("nvlinkBytesPerSecond", nvlinkBytesPerSecond);
    }

    /** The non-blocking reading with {@code spines} spines (speedup 1, NVLink at {@link #NVLINK_BYTES_PER_SECOND}). */
    public static Llama2Training nonBlocking(int spines) {
        return new Llama2Training(spines, 1.0, NVLINK_BYTES_PER_SECOND);
    }

    /** The leaf-spine: 4 leaves of 8 x 200G NICs, {@code spines} spines, 1 us links. */
    public LeafSpine fabric() {
        return LeafSpine.withSpeedup(4, GPUS_PER_SERVER, 4, spines, NIC_BITS_PER_SECOND, speedup, 1, Time.US, Time.US);
    }

    /** Link indices of the uplinks down in {@code row}: none, leaf 0 - spine 0, or spine 0's uplink of every leaf. */
    public int[] failedUplinks(Case row) {
        Parameters.notNull("row", row);
        LeafSpine ls = fabric();
        return switch (row) {
            case SINGLE_JOB, MULTIPLE_JOBS -> new int[0];
            case ONE_LINK_DOWN -> new int[] {ls.uplinkIndex(0, 0, 0)};
            case FOUR_LINKS_DOWN -> {
                if (spines < 2) {
                    throw new IllegalArgumentException("spines must be at least 2 for the four-links-down row, got " + spines);
                }
                int[] l = new int[ls.leaves()];
                for (int leaf = 0; leaf < l.length; leaf++) {
                    l[leaf] = ls.uplinkIndex(leaf, 0, 0);
                }
                yield l;
            }
        };
    }

    /**
     * The communication timer of one row and fabric: {@link CommTimer#hierarchical} with the rails timed as
     * {@code timing} says; in the multiple-jobs row every step also carries the other job's copy (hosts + 16).
     * Thread-safe; it caches the seconds per byte of each set of rails (the times are linear in bytes).
     *
     * @param row the table row
     * @param fabric RoCE or GSE
     * @param timing bound or packet simulator
     * @param seed seed of the ECMP draws or of the simulation
     */
    public CommTimer timer(Case row, RoceOrGse fabric, Timing timing, long seed) {
        return timer(row, fabric, timing, seed, PACKET_REFERENCE_BYTES);
    }

    /**
     * {@link #timer(Case, RoceOrGse, Timing, long)} with the packet simulator's reference buffer given.
     *
     * @param packetReferenceBytes ring all-reduce buffer per rank simulated, at least 1 MiB (unused by the bound)
     */
    public CommTimer timer(Case row, RoceOrGse fabric, Timing timing, long seed, long packetReferenceBytes) {
        Parameters.atLeast("packetReferenceBytes", packetReferenceBytes, 1L << 20);
        Parameters.notNull("row", row);
        Parameters.notNull("fabric", fabric);
        Parameters.notNull("timing", timing);
        int[] failed = failedUplinks(row);
        if (spines == 1 && row == Case.ONE_LINK_DOWN) {
            throw new IllegalArgumentException("spines must be at least 2 for the one-link-down row, got 1");
        }
        return new RowTimer(new RailTimer(row, fabric, timing, seed, packetReferenceBytes, failed));
    }

    /**
     * What {@link #timer} returns: {@link CommTimer#hierarchical} over a {@link RailTimer}, able to say which packet-level
     * runs the timing of one iteration used ({@link #recording}).
     */
    private final class RowTimer implements CommTimer {
        private final RailTimer rails;
        private final CommTimer whole;

        RowTimer(RailTimer rails) {
            this.rails = rails;
            this.whole = CommTimer.hierarchical(GPUS_PER_SERVER, nvlinkBytesPerSecond, rails);
        }

        @Override
        public double seconds(CommOp.Primitive primitive, int[][] hostGroups, double bufferBytes) {
            return whole.seconds(primitive, hostGroups, bufferBytes);
        }

        /** The same timer, adding the key of every set of rails it times to {@code keys}. */
        CommTimer recording(Set<String> keys) {
            return CommTimer.hierarchical(GPUS_PER_SERVER, nvlinkBytesPerSecond, (primitive, groups, bytes) -> {
                keys.add(rails.key(primitive, groups));
                return rails.seconds(primitive, groups, bytes);
            });
        }
    }

    /**
     * The fabric part of {@link #timer}: the rails of one row and fabric, timed by the bound or the packet simulator.
     * Times are linear in bytes, so each set of rails is timed once, per byte, and cached (thread-safe).
     */
    private final class RailTimer implements CommTimer {
        /** Bytes per rank of the bound's reference runs: 1 MiB. */
        private static final int CHUNK_BYTES = 1 << 20;
        private final Case row;
        private final RoceOrGse fabric;
        private final Timing timing;
        private final long seed;
        private final long packetReferenceBytes;
        private final int[] failed;
        private final LeafSpineBound bound;
        private final LeafSpineBound.Routing routing;
        private final Map<String, Double> secondsPerByte = new ConcurrentHashMap<>();
        /** The packet-level reference run of each set of rails the simulator timed, by key. */
        private final Map<String, JobMetrics> packetRuns = new ConcurrentHashMap<>();

        RailTimer(Case row, RoceOrGse fabric, Timing timing, long seed, long packetReferenceBytes, int[] failed) {
            this.row = row;
            this.fabric = fabric;
            this.timing = timing;
            this.seed = seed;
            this.packetReferenceBytes = packetReferenceBytes;
            this.failed = failed;
            this.bound = new LeafSpineBound(fabric(), failed);
            this.routing = fabric == RoceOrGse.GSE ? LeafSpineBound.Routing.SPRAY : LeafSpineBound.Routing.ECMP;
        }

        @Override
        public double seconds(CommOp.Primitive primitive, int[][] groups, double bytes) {
            int[][] rails = rails(groups);
            boolean p2p = primitive == CommOp.Primitive.SEND_RECV;
            String key = key(primitive, groups);
            double sent = Arrays.stream(rails).mapToDouble(g -> primitive.bytesSentPerRank(g.length, bytes)).max().orElse(0);
            return secondsPerByte.computeIfAbsent(key, k -> p2p ? sendRecvSecondsPerByte(rails) : ringSecondsPerByte(k, rails))
                    * sent;
        }

        /** The rails timed for {@code groups}: themselves, with the second job's copy in the multiple-jobs row. */
        private int[][] rails(int[][] groups) {
            return row == Case.MULTIPLE_JOBS ? withSecondJob(groups) : groups;
        }

        /** The cache key of {@code primitive} on {@code groups}. */
        String key(CommOp.Primitive primitive, int[][] groups) {
            return (primitive == CommOp.Primitive.SEND_RECV ? "p2p " : "ring ") + Arrays.deepToString(rails(groups));
        }

        /** {@link JobMetrics.DeliveryCounters#sum} of the packet-level runs of {@code keys} (the others have none). */
        JobMetrics.DeliveryCounters delivery(Set<String> keys) {
            List<JobMetrics> runs = new ArrayList<>();
            for (String k : new java.util.TreeSet<>(keys)) {
                JobMetrics m = packetRuns.get(k);
                if (m != null) {
                    runs.add(m);
                }
            }
            return JobMetrics.DeliveryCounters.sum(runs);
        }

        /** {@code groups} (hosts of the first 16-GPU job) and the same groups in the second job (hosts + 16). */
        private int[][] withSecondJob(int[][] groups) {
            int[][] all = Arrays.copyOf(groups, 2 * groups.length);
            for (int g = 0; g < groups.length; g++) {
                for (int h : groups[g]) {
                    if (h >= GPUS / 2) {
                        throw new IllegalArgumentException("hostGroups must be hosts of the first 16-GPU job (0 to "
                                + (GPUS / 2 - 1) + ") in the multiple-jobs row, got " + h);
                    }
                }
                all[groups.length + g] = Arrays.stream(groups[g]).map(h -> h + GPUS / 2).toArray();
            }
            return all;
        }

        /** Seconds per byte of the point-to-point sends {@code pairs} ({from, to}), by the bound. */
        private double sendRecvSecondsPerByte(int[][] pairs) {
            List<LeafSpineBound.Flow> flows = new ArrayList<>();
            for (int[] pair : pairs) {
                flows.add(new LeafSpineBound.Flow(pair[0], pair[1], CHUNK_BYTES));
            }
            return bound.seconds(List.of(flows), routing, seed, ECMP_DRAWS) / CHUNK_BYTES;
        }

        /** Seconds per byte each rank sends in concurrent ring all-reduces over {@code rails}. */
        private double ringSecondsPerByte(String key, int[][] rails) {
            int n = rails[0].length;
            if (timing == Timing.BOUND) {
                double chunk = CHUNK_BYTES;
                double ref = 2.0 * (n - 1) * chunk; // bytes each rank sends in the all-reduce of n chunks
                return bound.seconds(LeafSpineBound.ringSteps(rails, 2 * (n - 1), chunk), routing, seed, ECMP_DRAWS) / ref;
            }
            JobMetrics m = JobSimulation.run(fabric(), GseVsRoceTestbed.documentedDefaults().fabricSettings(fabric, fabric == RoceOrGse.GSE), seed,
                    JobSimulation.collectives(rails, Collective.RING_ALL_REDUCE, packetReferenceBytes), rails.length, failed,
                    JobSimulation.linksDownFromStart(failed));
            if (!m.allFinished()) {
                throw new IllegalStateException("the packet simulation of " + row.label() + " on " + fabric
                        + " did not complete (a transfer never finished)");
            }
            packetRuns.put(key, m);
            double us = m.maxJctUs();
            return us * 1e-6 / (2.0 * (n - 1) / n * packetReferenceBytes);
        }
    }

    /**
     * One configuration of the sweep (a point of its grid): the table row, the fabric, the layout, the batch, the
     * accelerator and its efficiency.
     *
     * @param row the table row
     * @param fabric RoCE or GSE
     * @param layout the 32-GPU layout
     * @param globalBatch B [samples], a multiple of DP x micro-batches
     * @param accelerator the accelerator
     * @param efficiency compute efficiency (MFU of the compute phases), in (0, 1]
     */
    public record Configuration(Case row, RoceOrGse fabric, ParallelLayout layout, int globalBatch, Accelerator accelerator,
            double efficiency) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates. */
        public Configuration {
            Parameters.notNull("row", row);
            Parameters.notNull("fabric", fabric);
            Parameters.notNull("layout", layout);
            Parameters.notNull("accelerator", accelerator);
            Parameters.inHalfOpenRange("efficiency", efficiency, 0, 1);
            if (layout.gpus() != GPUS || layout.gpusPerServer() != GPUS_PER_SERVER) {
                throw new IllegalArgumentException("layout must be for " + GPUS + " GPUs, " + GPUS_PER_SERVER
                        + " per server, got " + layout.gpus() + " and " + layout.gpusPerServer());
            }
            new TrainingJob(TransformerConfig.llama2x13b(4096), layout, globalBatch); // validates the batch
        }
    }

    /**
     * One evaluated point.
     *
     * @param point the point, not null
     * @param timing how the fabric was timed, not null
     * @param samplesPerSecond (this and every number below: finite, not negative) throughput of the row (both jobs summed in the multiple-jobs row) [samples/s]
     * @param iterationSeconds one iteration [s]
     * @param computeSeconds compute of one GPU of stage 0 in one iteration [s]
     * @param tensorSeconds TP all-reduces of stage 0 (blocking) [s]
     * @param dataParallelSeconds DP communication of stage 0 (busy time of its DP stream) [s]
     * @param mfu end-to-end model FLOPs utilisation
     * @param delivery the packet-level reference runs the iteration's fabric times were scaled from, taken together
     *        ({@link JobMetrics.DeliveryCounters#sum}: bytes and RoCE's local ACK timeouts summed over the distinct runs,
     *        goodput over their summed last completions); all 0 when the fabric was timed by the bound, not null
     */
    public record Result(Configuration point, Timing timing, double samplesPerSecond, double iterationSeconds, double computeSeconds,
            double tensorSeconds, double dataParallelSeconds, double mfu, JobMetrics.DeliveryCounters delivery)
            implements Serializable {
        private static final long serialVersionUID = 2L;

        /** Validates: point and timing present, every number finite and not negative. */
        public Result {
            Parameters.notNull("point", point);
            Parameters.notNull("timing", timing);
            Parameters.nonNegative("samplesPerSecond", samplesPerSecond);
            Parameters.nonNegative("iterationSeconds", iterationSeconds);
            Parameters.nonNegative("computeSeconds", computeSeconds);
            Parameters.nonNegative("tensorSeconds", tensorSeconds);
            Parameters.nonNegative("dataParallelSeconds", dataParallelSeconds);
            Parameters.nonNegative("mfu", mfu);
            Parameters.notNull("delivery", delivery);
        }
    }

    /** Llama2-13B at Llama 2's 4096-token context. */
    public static TransformerConfig model() {
        return TransformerConfig.llama2x13b(4096);
    }

    /**
     * The job that runs in {@code row}: the point's layout and batch, or, for multiple jobs, one of the two
     * 16-GPU jobs (half the DP degree, half the batch).
     *
     * @throws IllegalArgumentException in the multiple-jobs row if the layout's DP degree is odd
     */
    public static TrainingJob job(Case row, ParallelLayout layout, int globalBatch) {
        Parameters.notNull("row", row);
        Parameters.notNull("layout", layout);
        if (row != Case.MULTIPLE_JOBS) {
            return new TrainingJob(model(), layout, globalBatch);
        }
        if (layout.dataParallel() % 2 != 0) {
            throw new IllegalArgumentException("layout.dataParallel must be even to split the GPUs into two jobs "
                    + "(multiple-jobs row), got " + layout.dataParallel());
        }
        return new TrainingJob(model(), layout.withData(layout.gpus() / 2, layout.dataParallel() / 2), globalBatch / 2);
    }

    /** The iteration of a point, communication timed by {@code timer} (from {@link #timer} for the point's row and fabric). */
    public IterationTimeline timeline(Configuration p, CommTimer timer) {
        Parameters.notNull("p", p);
        Parameters.notNull("timer", timer);
        return IterationTimeline.schedule(job(p.row(), p.layout(), p.globalBatch()), p.accelerator(), p.efficiency(), timer,
                IterationTimeline.DDP_BUCKET_BYTES);
    }

    /**
     * Evaluates a point with a timer from {@link #timer} for its row and fabric; {@code timing} (not null) says which.
     * {@link Result#delivery()} sums the packet-level runs that timer made for the sets of rails this point's iteration
     * uses; with another timer it is {@code DeliveryCounters.NONE} (all 0).
     */
    public Result evaluate(Configuration p, CommTimer timer, Timing timing) {
        Parameters.notNull("timing", timing);
        Parameters.notNull("timer", timer);
        Set<String> used = ConcurrentHashMap.newKeySet();
        RowTimer row = timer instanceof RowTimer r ? r : null;
        IterationTimeline t = timeline(p, row == null ? timer : row.recording(used));
        double sps = t.samplesPerSecond() * (p.row() == Case.MULTIPLE_JOBS ? 2 : 1);
        return new Result(p, timing, sps, t.iterationSeconds(), t.seconds(IterationTimeline.Kind.COMPUTE, 0),
                t.seconds(IterationTimeline.Kind.TENSOR_PARALLEL, 0), t.seconds(IterationTimeline.Kind.DATA_PARALLEL, 0), t.mfu(),
                row == null ? JobMetrics.DeliveryCounters.NONE : row.rails.delivery(used));
    }

    /**
     * Evaluates every point on {@code threads} threads ({@link Sweep}); one timer per (row, fabric), shared by
     * the points (its cache is deterministic), so the results are the same whatever the thread count.
     *
     * @param points the points, no null element
     * @param timing bound or packet simulator
     * @param seed seed of every timer
     * @param threads worker threads, at least 1
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<Result> sweep(List<Configuration> points, Timing timing, long seed, int threads, ProgressSink sink)
            throws InterruptedException {
        return sweep(points, timing, seed, new LocalThreads(threads), sink);
    }

    /**
     * {@link #sweep(List, Timing, long, int, ProgressSink)} on any executor, as the plan {@link #sweepPlan} run by
     * {@link Task}: the points a task instance runs share one timer per (row, fabric), so on {@link LocalThreads}
     * (one instance for all its threads) each set of rails is timed once, and on Spark once per instance (one per
     * deserialized copy of its task function). The timers' caches are deterministic, so the results are the same
     * either way.
     *
     * @param points the points, no null element
     * @param timing bound or packet simulator
     * @param seed seed of every timer
     * @param executor where the points are evaluated
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<Result> sweep(List<Configuration> points, Timing timing, long seed, SweepExecutor executor, ProgressSink sink)
            throws InterruptedException {
        Parameters.notNull("executor", executor);
        Parameters.noNullElements("points", points);
        Parameters.notNull("timing", timing);
        requireSpines(points);
        return executor.run(sweepPlan(points, timing, seed), sink);
    }

    /**
     * {@link #sweep(List, Timing, long, SweepExecutor, ProgressSink)} at each of {@code seeds}, as one plan: the points
     * of all the seeds go to the executor together, each point at every seed in turn, so that its workers take points
     * whose timers differ (a timer's packet runs are computed once, and a worker that needs one another worker is
     * computing waits for it) and the seeds' runs overlap instead of each seed waiting for its slowest run. The results
     * are those of one sweep per seed: each point's result depends only on the point, its timing and its seed.
     *
     * @param points the points, no null element
     * @param timing bound or packet simulator
     * @param seeds the timers' seeds, at least one, no seed twice
     * @param executor where the points are evaluated
     * @param sink where the progress bar goes (one bar for all the seeds)
     * @return per seed, in the order of {@code seeds}, the results in the order of {@code points}
     * @throws InterruptedException if the calling thread is interrupted
     */
    public Map<Long, List<Result>> sweep(List<Configuration> points, Timing timing, long[] seeds, SweepExecutor executor,
            ProgressSink sink) throws InterruptedException {
        Parameters.notNull("seeds", seeds);
        if (seeds.length == 0) {
            throw new IllegalArgumentException("seeds must hold at least one seed, got none");
        }
        Map<Long, Integer> firstAt = new java.util.HashMap<>();
        for (int i = 0; i < seeds.length; i++) {
            Integer j = firstAt.putIfAbsent(seeds[i], i);
            if (j != null) {
                throw new IllegalArgumentException("seeds must not repeat a seed, got " + seeds[i] + " at indices " + j
                        + " and " + i);
            }
        }
        Parameters.notNull("executor", executor);
        Parameters.notNull("sink", sink);
        Parameters.noNullElements("points", points);
        Parameters.notNull("timing", timing);
        requireSpines(points);
        List<Point> params = new ArrayList<>(points.size() * seeds.length);
        for (Configuration p : points) {
            for (long seed : seeds) {
                params.add(new Point(this, p, timing, seed));
            }
        }
        List<Result> all = executor.run(new SweepPlan<>("Llama2-13B iterations, " + timing.name().toLowerCase(Locale.ROOT)
                + " (" + points.size() + " points x " + seeds.length + " seeds)", Task.class, params), sink);
        Map<Long, List<Result>> out = new LinkedHashMap<>();
        for (int k = 0; k < seeds.length; k++) {
            List<Result> bySeed = new ArrayList<>(points.size());
            for (int i = 0; i < points.size(); i++) {
                bySeed.add(all.get(i * seeds.length + k));
            }
            out.put(seeds[k], List.copyOf(bySeed));
        }
        return out;
    }

    /** Fails naming the first of {@code points} whose row needs more spines than this fabric has. */
    private void requireSpines(List<Configuration> points) {
        for (int i = 0; i < points.size(); i++) {
            Configuration p = points.get(i);
            if (spines == 1 && (p.row() == Case.ONE_LINK_DOWN || p.row() == Case.FOUR_LINKS_DOWN)) {
                throw new IllegalArgumentException("points[" + i + "] needs at least 2 spines for " + p.row().label());
            }
        }
    }

    /**
     * The plan of a sweep as data: one {@link Point} per point, run by {@link Task}.
     *
     * @param points the points, no null element
     * @param timing bound or packet simulator
     * @param seed seed of every timer
     */
    public SweepPlan<Point, Result> sweepPlan(List<Configuration> points, Timing timing, long seed) {
        Parameters.noNullElements("points", points);
        Parameters.notNull("timing", timing);
        List<Point> params = new ArrayList<>();
        for (Configuration p : points) {
            params.add(new Point(this, p, timing, seed));
        }
        return new SweepPlan<>("Llama2-13B iterations, " + timing.name().toLowerCase(Locale.ROOT) + " (" + points.size()
                + " points)", Task.class, params);
    }

    /**
     * The parameters of one run of a sweep: the fabric, the configuration, the timing and the timers' seed; what
     * {@link Task} evaluates.
     *
     * @param fabric the fabric reading
     * @param configuration the configuration evaluated
     * @param timing bound or packet simulator (GSE's rows with links down are timed by the bound)
     * @param seed seed of the timer
     */
    public record Point(Llama2Training fabric, Configuration configuration, Timing timing, long seed) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates: the fabric has the spines the configuration's row needs. */
        public Point {
            Parameters.notNull("fabric", fabric);
            Parameters.notNull("configuration", configuration);
            Parameters.notNull("timing", timing);
            if (fabric.spines() == 1 && (configuration.row() == Case.ONE_LINK_DOWN || configuration.row() == Case.FOUR_LINKS_DOWN)) {
                throw new IllegalArgumentException("configuration needs at least 2 spines for " + configuration.row().label());
            }
        }
    }

    /** The sweep task of this experiment: one point evaluated with its own timer (what an executor that is not local threads runs). */
    public static final class Task implements SweepTask<Point, Result> {
        /** Used by the executors. */
        public Task() {
        }

        /**
         * The timers of the points this instance ran, one per fabric, row, fabric kind, timing and seed: an executor
         * that runs many points on one instance ({@link LocalThreads} shares one among its threads) times each set of
         * rails once. A timer's cache is deterministic, so a point gets the same result from a shared timer as from
         * its own.
         */
        private final Map<List<Object>, CommTimer> timers = new ConcurrentHashMap<>();

        @Override
        public Result run(Point q) {
            Parameters.notNull("q", q);
            Configuration p = q.configuration();
            CommTimer timer = timers.computeIfAbsent(List.of(q.fabric(), p.row(), p.fabric(), q.timing(), q.seed()),
                    k -> q.fabric().timer(p.row(), p.fabric(), q.timing(), q.seed()));
            return q.fabric().evaluate(p, timer, q.timing());
        }

        /**
         * Not recorded: a point timed by the bound costs less than reading its record, and the points timed by the
         * packet simulator share a few packet runs per set of rails (the timer's cache), so computing a quarter of them
         * costs nearly what computing all does (the measurement: BENCH-RESULTS.md).
         */
        @Override
        public boolean recorded(Point q) {
            Parameters.notNull("q", q);
            return false;
        }
    }

    /** At most this many micro-batches per iteration in {@link #layouts} (see there). */
    public static final int MAX_MICRO_BATCHES = 32;

    /**
     * The layouts of the sweep for a global batch B: TP 1, 2, 4, 8 (inside a server) x PP 1, 2, 4 x ZeRO 0, 1, 3
     * (ZeRO 3 only without pipeline stages, as DeepSpeed allows), DP = 32 / (TP PP). Micro-batches: one sample
     * each (m = B / DP, what fits a 13B model's 4096-token activations) but at most {@link #MAX_MICRO_BATCHES}
     * (then b = B / (DP m) samples each), so the pipeline bubble {@code (PP-1)/(m+PP-1)} is at most 9% at B = 32.
     *
     * @param globalBatch B, a multiple of 32, at least 32
     */
    public static List<ParallelLayout> layouts(int globalBatch) {
        Parameters.atLeast("globalBatch", globalBatch, GPUS);
        if (globalBatch % GPUS != 0) {
            throw new IllegalArgumentException("globalBatch must be a multiple of " + GPUS + ", got " + globalBatch);
        }
        List<ParallelLayout> out = new ArrayList<>();
        for (int tp : new int[] {1, 2, 4, 8}) {
            for (int pp : new int[] {1, 2, 4}) {
                for (int zero : new int[] {0, 1, 3}) {
                    if (zero == 3 && pp > 1) {
                        continue;
                    }
                    int dp = GPUS / (tp * pp);
                    out.add(ParallelLayout.of(GPUS, GPUS_PER_SERVER, tp, pp, zero, Math.min(globalBatch / dp, MAX_MICRO_BATCHES)));
                }
            }
        }
        return out;
    }

    /**
     * Every row x fabric x layout ({@link #layouts}) x batch x accelerator x efficiency, in that order (the
     * multiple-jobs row only for layouts with an even DP degree).
     *
     * @param batches global batches, each a multiple of 32, no null element
     * @param accelerators the accelerators, no null element
     * @param efficiencies compute efficiencies, each in (0, 1]
     */
    public static List<Configuration> grid(List<Integer> batches, List<Accelerator> accelerators, double[] efficiencies) {
        Parameters.noNullElements("batches", batches);
        Parameters.noNullElements("accelerators", accelerators);
        Parameters.notNull("efficiencies", efficiencies);
        for (int i = 0; i < efficiencies.length; i++) {
            Parameters.inHalfOpenRange("efficiencies[" + i + "]", efficiencies[i], 0, 1);
        }
        List<Configuration> points = new ArrayList<>();
        for (Case row : Case.values()) {
            for (RoceOrGse f : RoceOrGse.values()) {
                for (int b : batches) {
                    for (ParallelLayout l : layouts(b)) {
                        if (row == Case.MULTIPLE_JOBS && l.dataParallel() % 2 != 0) {
                            continue;
                        }
                        for (Accelerator a : accelerators) {
                            for (double e : efficiencies) {
                                points.add(new Configuration(row, f, l, b, a, e));
                            }
                        }
                    }
                }
            }
        }
        return points;
    }

    /**
     * The pair calibrated on 002's single-job row: among the single-job gains, the one whose GSE gain, rounded to
     * a whole percent, is nearest {@code publishedGainPercent}, then whose RoCE throughput is nearest
     * {@code publishedRoceSamplesPerSecond} in ratio (smallest |ln(model / published)|); the first of equals in
     * list order. What it returns fits 002's row by construction: a calibration, not a prediction.
     *
     * @param gains RoCE/GSE pairs of a sweep ({@link #gains}), no null element, at least one of the single-job row
     * @param publishedGainPercent 002's GSE gain of the single-job row [%], finite
     * @param publishedRoceSamplesPerSecond 002's RoCE throughput of the single-job row [samples/s], positive
     * @return the chosen pair; its RoCE point is the calibrated point
     */
    public static Gain calibratedGain(List<Gain> gains, double publishedGainPercent, double publishedRoceSamplesPerSecond) {
        Parameters.noNullElements("gains", gains);
        Parameters.finite("publishedGainPercent", publishedGainPercent);
        Parameters.positive("publishedRoceSamplesPerSecond", Parameters.finite("publishedRoceSamplesPerSecond",
                publishedRoceSamplesPerSecond));
        return gains.stream().filter(g -> g.roce().point().row() == Case.SINGLE_JOB)
                .min(java.util.Comparator.comparingDouble((Gain g) -> Math.round(Math.abs(g.gainPercent() - publishedGainPercent)))
                        .thenComparingDouble(g -> Math.abs(Math.log(g.roce().samplesPerSecond() / publishedRoceSamplesPerSecond))))
                .orElseThrow(() -> new IllegalArgumentException("gains must hold a pair of the single-job row, got "
                        + gains.size() + " pairs without one"));
    }

    /** GPU-hours of Llama 2 13B's pretraining (Touvron et al. 2023, "Llama 2", table 2), on A100-80GB GPUs. */
    public static final double LLAMA2_13B_PRETRAINING_GPU_HOURS = 368_640;
    /** Tokens of Llama 2's pretraining (Touvron et al. 2023, table 1: 2.0T for every size). */
    public static final double LLAMA2_PRETRAINING_TOKENS = 2.0e12;

    /**
     * The model-FLOPs utilisation of Llama 2 13B's own pretraining, from what its authors published:
     * {@code F_token x tokens / (GPU-hours x 3600 s x A100 peak)}, with {@code F_token} of {@link #model()}
     * ({@link TransformerConfig#trainingFlopsPerToken()}), {@link #LLAMA2_PRETRAINING_TOKENS},
     * {@link #LLAMA2_13B_PRETRAINING_GPU_HOURS} and the A100's 312 TFLOP/s ({@link Accelerator#A100}). It is the MFU
     * of whole iterations on Meta's clusters (communication, stalls and restarts included), so it bounds the compute
     * phases' efficiency from below. Nothing of 002 goes into it.
     */
    public static double llama2PretrainingMfu() {
        return model().trainingFlopsPerToken() * LLAMA2_PRETRAINING_TOKENS
                / (LLAMA2_13B_PRETRAINING_GPU_HOURS * 3600 * Accelerator.A100.peakFlopsPerSecond());
    }

    /**
     * The point calibrated outside 002 table 1: the single job with Megatron-style TP 2, no pipeline, a distributed
     * optimizer (ZeRO 1), B = 128 (a layout chosen before looking at 002's numbers), on the A100 that Llama 2 was
     * trained on, at the compute efficiency {@link #llama2PretrainingMfu()} that Llama 2's own published GPU-hours
     * give, on RoCE.
     */
    public static Configuration outsideCalibratedPoint() {
        ParallelLayout layout = layouts(128).stream()
                .filter(l -> l.tensorParallel() == 2 && l.pipelineParallel() == 1 && l.zeroStage() == 1).findFirst().orElseThrow();
        return new Configuration(Case.SINGLE_JOB, RoceOrGse.ROCE, layout, 128, Accelerator.A100, llama2PretrainingMfu());
    }

    /**
     * The pair calibrated on 002's single-job row with the packet simulator: the single-job points of {@code boundGains}
     * whose bound gain lies within {@code windowPercent} points of {@code publishedGainPercent} are run again on the
     * packet simulator (RoCE and GSE), and of those the pair {@link #calibratedGain} chooses is returned, so that the
     * point is calibrated and reported by the same model.
     *
     * @param boundGains pairs of a bound sweep ({@link #gains}), no null element
     * @param publishedGainPercent 002's GSE gain of the single-job row [%], finite
     * @param publishedRoceSamplesPerSecond 002's RoCE throughput of the single-job row [samples/s], positive
     * @param windowPercent half-width of the window of bound gains that are simulated [percentage points], 1 to 100
     * @param seed seed of the packet simulations
     * @param executor where the points are evaluated
     * @param sink where the progress bar goes
     * @throws InterruptedException if interrupted
     * @throws IllegalArgumentException if no single-job bound gain lies in the window
     */
    public Gain calibratedOnPacket(List<Gain> boundGains, double publishedGainPercent, double publishedRoceSamplesPerSecond,
            double windowPercent, long seed, SweepExecutor executor, ProgressSink sink) throws InterruptedException {
        Parameters.noNullElements("boundGains", boundGains);
        Parameters.finite("publishedGainPercent", publishedGainPercent);
        Parameters.inRange("windowPercent", windowPercent, 1, 100);
        List<Configuration> candidates = new ArrayList<>();
        for (Gain g : boundGains) {
            if (g.roce().point().row() == Case.SINGLE_JOB && Math.abs(g.gainPercent() - publishedGainPercent) <= windowPercent) {
                candidates.add(g.roce().point());
                candidates.add(g.gse().point());
            }
        }
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("boundGains must hold a single-job pair within windowPercent = " + windowPercent
                    + " points of publishedGainPercent = " + publishedGainPercent + ", got none");
        }
        return calibratedGain(gains(sweep(candidates, Timing.PACKET, seed, executor, sink)), publishedGainPercent,
                publishedRoceSamplesPerSecond);
    }

    /**
     * Every row and fabric at each of {@code settings}' layout, batch, accelerator and efficiency, in the order
     * row, fabric, setting; the multiple-jobs row only for layouts with an even DP degree (two jobs split it).
     *
     * @param settings the points whose settings to take (their row and fabric are ignored), no null element
     */
    public static List<Configuration> everyRowAndFabric(List<Configuration> settings) {
        Parameters.noNullElements("settings", settings);
        List<Configuration> points = new ArrayList<>();
        for (Case row : Case.values()) {
            for (RoceOrGse f : RoceOrGse.values()) {
                for (Configuration p : settings) {
                    if (row != Case.MULTIPLE_JOBS || p.layout().dataParallel() % 2 == 0) {
                        points.add(new Configuration(row, f, p.layout(), p.globalBatch(), p.accelerator(), p.efficiency()));
                    }
                }
            }
        }
        return points;
    }

    /**
     * RoCE and GSE at the same row, layout, batch, accelerator and efficiency.
     *
     * @param roce the RoCE result
     * @param gse the GSE result
     */
    public record Gain(Result roce, Result gse) {
        /** Validates that the two differ only in the fabric. */
        public Gain {
            Parameters.notNull("roce", roce);
            Parameters.notNull("gse", gse);
            Configuration r = roce.point();
            Configuration g = gse.point();
            if (r.fabric() != RoceOrGse.ROCE || g.fabric() != RoceOrGse.GSE || r.row() != g.row() || !r.layout().equals(g.layout())
                    || r.globalBatch() != g.globalBatch() || !r.accelerator().equals(g.accelerator())
                    || r.efficiency() != g.efficiency()) {
                throw new IllegalArgumentException("roce and gse must be the same point on RoCE and on GSE, got " + r + " and " + g);
            }
        }

        /** GSE over RoCE samples/s minus 1, in percent (002's "gain"). */
        public double gainPercent() {
            return 100 * (gse.samplesPerSecond() / roce.samplesPerSecond() - 1);
        }
    }

    /** Pairs every RoCE result with the GSE result of the same point, in the order of the RoCE results ({@code results}: no null element). */
    public static List<Gain> gains(List<Result> results) {
        Parameters.noNullElements("results", results);
        Map<String, Result> gse = new java.util.HashMap<>();
        for (Result r : results) {
            if (r.point().fabric() == RoceOrGse.GSE) {
                gse.put(key(r.point()), r);
            }
        }
        List<Gain> out = new ArrayList<>();
        for (Result r : results) {
            if (r.point().fabric() == RoceOrGse.ROCE && gse.containsKey(key(r.point()))) {
                out.add(new Gain(r, gse.get(key(r.point()))));
            }
        }
        return out;
    }

    private static String key(Configuration p) {
        return p.row() + "|" + p.layout() + "|" + p.globalBatch() + "|" + p.accelerator().name() + "|" + p.efficiency();
    }

    /** Name of the model dataset of the sweep, {@code datasets/model/llama2-training.csv}. */
    public static final String SWEEP = "llama2-training";

    /** The columns of {@link #table}, with their units. */
    private static final Columns<Result> COLUMNS = Columns.<Result>of()
            .stringColumn("scenario", "002 table 1 row", r -> r.point().row().label())
            .stringColumn("fabric", "", r -> r.point().fabric().name().toLowerCase(Locale.ROOT))
            .stringColumn("timing", "bound or packet", r -> r.timing().name().toLowerCase(Locale.ROOT))
            .intColumn("tp", "degree", r -> r.point().layout().tensorParallel())
            .intColumn("pp", "degree", r -> r.point().layout().pipelineParallel())
            .intColumn("dp", "degree", r -> r.point().layout().dataParallel())
            .intColumn("zero", "stage", r -> r.point().layout().zeroStage())
            .intColumn("micro_batches", "per iteration", r -> r.point().layout().microBatches())
            .intColumn("global_batch", "samples", r -> r.point().globalBatch())
            .stringColumn("accelerator", "", r -> r.point().accelerator().name())
            .doubleColumn("efficiency", "fraction of peak while computing", r -> r.point().efficiency())
            .doubleColumn("samples_per_s", "samples/s", Result::samplesPerSecond)
            .doubleColumn("iteration_s", "s", Result::iterationSeconds)
            .doubleColumn("compute_s", "s", Result::computeSeconds)
            .doubleColumn("tp_s", "s", Result::tensorSeconds)
            .doubleColumn("dp_s", "s", Result::dataParallelSeconds)
            .doubleColumn("mfu", "fraction", Result::mfu);

    /** The columns of {@link #table}: {@link #COLUMNS}, then the delivery columns of the row's packet-level reference runs. */
    private static final Columns<Result> ALL_COLUMNS = JobMetrics.DeliveryCounters.appendTo(COLUMNS, Result::delivery, false,
            ", over the packet-level reference runs the row was scaled from; 0 when timed by the bound");

    /** The results as a table named {@code name}, one row per result in the order given. */
    public static Table table(String name, List<Result> results) {
        return ALL_COLUMNS.table(name, results);
    }

    /**
     * The results as the model dataset {@link #SWEEP} with its provenance.
     *
     * @param results the results
     * @param notes how they were made
     */
    public static Dataset dataset(List<Result> results, String notes) {
        Parameters.notNull("results", results);
        return new Dataset(new Provenance(SWEEP, "Llama2-13B training iterations on 32 accelerators, RoCE vs GSE, per layout, "
                + "batch, accelerator and compute efficiency", "model",
                new Provenance.Paper("002_f37e90f02f6a00b7.txt", null, null, null, null),
                "002 table 1 (model from the transformer, the layout and the fabric)", ALL_COLUMNS.units(),
                Parameters.notNull("notes", notes)), table(SWEEP, results));
    }

    /**
     * The results of several seeds as the model dataset {@link #SWEEP}: the columns of {@link #dataset} after a
     * {@code seed} column, the seeds in ascending order, each seed's results in the order given.
     *
     * @param bySeed results per seed, not empty, no null list or element
     * @param notes how they were made
     */
    public static Dataset seedsDataset(Map<Long, List<Result>> bySeed, String notes) {
        Parameters.notNull("bySeed", bySeed);
        Parameters.notNull("notes", notes);
        if (bySeed.isEmpty()) {
            throw new IllegalArgumentException("bySeed must hold at least one seed, got none");
        }
        Table all = null;
        for (Map.Entry<Long, List<Result>> e : new java.util.TreeMap<>(bySeed).entrySet()) {
            Parameters.noNullElements("bySeed[" + e.getKey() + "]", e.getValue());
            Table t = table(SWEEP, e.getValue());
            long[] seed = new long[t.rowCount()];
            Arrays.fill(seed, e.getKey());
            t.insertColumn(0, tech.tablesaw.api.LongColumn.create("seed", seed));
            all = all == null ? t : all.append(t);
        }
        Map<String, String> units = new java.util.LinkedHashMap<>();
        units.put("seed", "");
        units.putAll(ALL_COLUMNS.units());
        return new Dataset(new Provenance(SWEEP, "Llama2-13B training iterations on 32 accelerators, RoCE vs GSE, per layout, "
                + "batch, accelerator and compute efficiency, over seeds", "model",
                new Provenance.Paper("002_f37e90f02f6a00b7.txt", null, null, null, null),
                "002 table 1 (model from the transformer, the layout and the fabric)", units,
                notes + " " + all.rowCount() + " rows."), all);
    }

    /**
     * RoCE's and GSE's samples/s and the gain at one row and setting over seeds.
     *
     * @param roce RoCE samples/s
     * @param gse GSE samples/s
     * @param gainPercent GSE gain over RoCE, per seed [%]
     * @param seeds number of seeds
     */
    public record SeedSpread(Spread roce, Spread gse, Spread gainPercent, int seeds) {
        /** Validates. */
        public SeedSpread {
            Parameters.notNull("roce", roce);
            Parameters.notNull("gse", gse);
            Parameters.notNull("gainPercent", gainPercent);
            Parameters.atLeast("seeds", seeds, 1);
        }

        /**
         * The spread at {@code row} of the point with {@code like}'s layout, batch, accelerator and efficiency (its row
         * and fabric ignored), RoCE and GSE paired per seed; null when a seed has no such pair.
         *
         * @param bySeed results per seed, not empty
         * @param row the row
         * @param like the setting
         */
        public static SeedSpread of(Map<Long, List<Result>> bySeed, Case row, Configuration like) {
            Parameters.notNull("bySeed", bySeed);
            Parameters.notNull("row", row);
            Parameters.notNull("like", like);
            if (bySeed.isEmpty()) {
                throw new IllegalArgumentException("bySeed must hold at least one seed, got none");
            }
            int n = bySeed.size();
            double[] roce = new double[n], gse = new double[n], gain = new double[n];
            int k = 0;
            for (List<Result> results : new java.util.TreeMap<>(bySeed).values()) {
                Gain g = gains(results).stream().filter(x -> x.roce().point().row() == row
                        && x.roce().point().layout().equals(like.layout()) && x.roce().point().globalBatch() == like.globalBatch()
                        && x.roce().point().accelerator().equals(like.accelerator())
                        && x.roce().point().efficiency() == like.efficiency()).findFirst().orElse(null);
                if (g == null) {
                    return null;
                }
                roce[k] = g.roce().samplesPerSecond();
                gse[k] = g.gse().samplesPerSecond();
                gain[k] = g.gainPercent();
                k++;
            }
            return new SeedSpread(Spread.of(roce), Spread.of(gse), Spread.of(gain), n);
        }

        /** "RoCE a (lo-hi), GSE b (lo-hi), gain c% (lo-hi) over n seeds" in samples/s. */
        public String describe() {
            return "RoCE " + roce.format("%.2f") + ", GSE " + gse.format("%.2f") + " samples/s, gain " + gainPercent.format("%.1f")
                    + "% over " + seeds + " seeds";
        }
    }
}
