package fabriclab.experiments;

import fabriclab.experiments.testbed.Duan2024Testbed;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.Parameters;
import fabriclab.collectives.BandwidthBound;
import fabriclab.collectives.Collective;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Datasets;
import fabriclab.datasets.Provenance;
import fabriclab.datasets.Target;
import fabriclab.fabric.LeafSpine;
import fabriclab.progress.ProgressSink;
import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.sweep.Columns;
import fabriclab.sweep.LocalThreads;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import fabriclab.sweep.SweepTask;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.Table;

/**
 * 000 section 3, figures 11 and 12: job completion time (JCT) of AlltoAll and AllReduce on RoCE and
 * on GSE, 8 concurrent jobs on one leaf-spine.
 *
 * <p>The fabric and the jobs are {@link Duan2024Testbed}'s (our reading of the partly garbled text) with
 * one 400G link per leaf-spine pair; the run is {@link JobSimulation}'s, measured as {@link JobMetrics}.
 *
 * <p>RoCE: ECMP on the 5-tuple (CRC-32, per-switch seeds drawn from the run seed; every transfer
 * is one queue pair with its own random UDP source port), PFC on every switch (XOFF 1 MB, XON
 * 0.9 MB, headroom 100 KB), DCQCN with the published defaults ({@link DcqcnParameters#zhu2015()},
 * WRED Kmin 5 KB / Kmax 200 KB / Pmax 1%). GSE: {@link GseTransport#defaults()} (16 KB containers,
 * grants at the egress rate, round-robin container spraying, egress reordering, no fabric PFC).
 * Both: 4096-byte packets, no header overhead, 1 us links, 32 MB shared buffer per switch.
 *
 * <p>JCT of a job is the time its last transfer completes; a run reports the mean and the largest
 * JCT over the 8 jobs, counters that explain the gap (max/mean uplink load, PFC pauses, ECN
 * marks, drops, reordered containers), and what the transport delivered against what it sent with the
 * reliable connection's timeouts ({@link JobMetrics.DeliveryCounters}; RoCE's local ACK timeout is 4.29 s, HCCL's
 * default, so within a run's JCT a timeout is a stall of seconds; GSE counts none).
 *
 * @param speedup leaf speedup: 1.5 or 2 (3 or 4 spines)
 */
public record GseVsRoceJct(double speedup) {
    /** Servers ({@link Duan2024Testbed#SERVERS}). */
    public static final int SERVERS = Duan2024Testbed.SERVERS;
    /** NICs per server (one per GPU) and jobs ({@link Duan2024Testbed#NICS}). */
    public static final int NICS = Duan2024Testbed.NICS;

    /** Validates: only the two speedups of 000. */
    public GseVsRoceJct {
        Duan2024Testbed.checkSpeedup(speedup);
    }

    /** Number of spines: speedup x 800G / 400G. */
    public int spines() {
        return testbed().spines();
    }

    /** 000's testbed at this speedup, one 400G link per leaf-spine pair. */
    public Duan2024Testbed testbed() {
        return Duan2024Testbed.of(speedup);
    }

    /** The leaf-spine. */
    public LeafSpine fabric() {
        return testbed().leafSpine();
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
     * @param delivery goodput, bytes delivered and sent, timeouts, spurious timeouts and failed queue pairs of the run
     */
    public record Result(Collective collective, long bufferBytes, RoceOrGse fabric, double speedup, long seed, double meanJctUs,
            double maxJctUs, double boundUs, double uplinkMaxOverMean, long pfcPauses, long ecnMarks, long drops,
            long containersReordered, JobMetrics.DeliveryCounters delivery) implements Serializable {
        private static final long serialVersionUID = 2L;

        /** Validates: settings present, speedup positive, times and ratio finite and not negative, counts not negative. */
        public Result {
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
            Parameters.notNull("delivery", delivery);
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
    public Result run(Collective collective, long bufferBytes, RoceOrGse fabric, long seed) {
        Parameters.notNull("collective", collective);
        Parameters.inRange("bufferBytes", bufferBytes, 4096L, MAX_BUFFER_BYTES);
        Parameters.notNull("fabric", fabric);
        JobMetrics m = JobSimulation.run(fabric(), JobSimulation.FabricSettings.firstReading(fabric), seed,
                JobSimulation.collectives(Duan2024Testbed.jobGroups(), collective, bufferBytes), NICS, new int[0], sim -> { });
        if (!m.allFinished()) {
            throw new IllegalStateException("a job of " + collective + " with " + bufferBytes + " bytes per rank on " + fabric
                    + " did not finish within the simulated 10 s (seed " + seed + "): no JCT to report");
        }
        double bound = new BandwidthBound(SERVERS, 100).seconds(collective, bufferBytes) * 1e6;
        return new Result(collective, bufferBytes, fabric, speedup, seed, m.meanJctUs(), m.maxJctUs(), bound, m.uplinkMaxOverMean(),
                m.pfc().pauses(), m.ecnMarks(), m.drops(), m.counter(GseTransport.CONTAINERS_REORDERED),
                m.delivery());
    }

    /**
     * The largest data per rank a run takes, bytes (1 GiB, twice the sweep's largest size): larger
     * sizes would take hours of packet-level simulation and may not finish within the simulated 10 s.
     */
    public static final long MAX_BUFFER_BYTES = 1L << 30;

    /**
     * The parameters of one run of a sweep: what {@link Task} gives to {@link #run}. Validated on
     * construction (so also when a cluster deserializes it).
     *
     * @param speedup leaf speedup, 1.5 or 2
     * @param collective the collective, not null
     * @param bufferBytes data per rank [bytes], 4096 to {@link #MAX_BUFFER_BYTES}
     * @param fabric RoCE or GSE, not null
     * @param seed the seed
     */
    public record Point(double speedup, Collective collective, long bufferBytes, RoceOrGse fabric, long seed)
            implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates every field. */
        public Point {
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
    public static final class Task implements SweepTask<Point, Result> {
        /** Stateless. */
        public Task() {
        }

        @Override
        public Result run(Point p) {
            Parameters.notNull("p", p);
            return new GseVsRoceJct(p.speedup()).run(p.collective(), p.bufferBytes(), p.fabric(), p.seed());
        }
    }

    /** Every combination, in the order speedup, collective, size, fabric, seed. */
    private static List<Point> points(double[] speedups, List<Collective> collectives, long[] sizes, List<RoceOrGse> fabrics,
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
        List<Point> points = new ArrayList<>();
        for (double speedup : speedups) {
            for (Collective col : collectives) {
                for (long size : sizes) {
                    for (RoceOrGse f : fabrics) {
                        for (long seed : seeds) {
                            points.add(new Point(speedup, col, size, f, seed));
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
    public List<Result> sweep(List<Collective> collectives, long[] sizes, List<RoceOrGse> fabrics, long[] seeds, int threads,
            ProgressSink sink) throws InterruptedException {
        return new LocalThreads(threads).run(sweepPlan(collectives, sizes, fabrics, seeds), sink);
    }

    /**
     * The plan of {@link #sweep}: every combination of collectives, sizes, fabrics and seeds at this
     * speedup, in the order (collective, size, fabric, seed), run by {@link Task}. Run it on any
     * {@link SweepExecutor}; turn its results into a table with {@link #table}.
     *
     * @param collectives the collectives, no null element
     * @param sizes data per rank [bytes], each at least 4096
     * @param fabrics the fabrics, no null element
     * @param seeds the seeds
     */
    public SweepPlan<Point, Result> sweepPlan(List<Collective> collectives, long[] sizes, List<RoceOrGse> fabrics,
            long[] seeds) {
        List<Point> points = points(new double[] {speedup}, collectives, sizes, fabrics, seeds);
        return new SweepPlan<>("GSE vs RoCE JCT sweep (" + points.size() + " runs)", Task.class, points);
    }

    /** Name of 000's published dataset, {@code datasets/published/gse-vs-roce-jct.csv}. */
    public static final String PUBLISHED = "gse-vs-roce-jct";

    /**
     * The band 000 publishes for the RoCE/GSE JCT ratio at 512 MB, read from {@link #PUBLISHED}: its text says
     * both that GSE's JCT is "about 1/3" of RoCE's (column {@code gse_over_roce_jct}, a ratio of its inverse) and
     * that GSE is "about 3.5x" (AlltoAll) and "2.6x" (AllReduce) better (column {@code roce_over_gse_jct_ratio}),
     * for no stated leaf speedup; the band runs between the two statements, at either speedup, with
     * {@link Target#DEFAULT_TOLERANCE} on its ends.
     *
     * @param collective ALL_TO_ALL (row {@code alltoall}) or an AllReduce (row {@code allreduce}), not null
     */
    public static Target.Band publishedBand(Collective collective) {
        return publishedBand(Datasets.load(PUBLISHED), collective);
    }

    /**
     * {@link #publishedBand(Collective)} from a given copy of the published dataset.
     *
     * @param published the dataset {@link #PUBLISHED} (columns collective, roce_over_gse_jct_ratio, gse_over_roce_jct), not null
     * @param collective the collective, not null
     * @throws IllegalArgumentException if the dataset has no row for the collective
     */
    public static Target.Band publishedBand(Dataset published, Collective collective) {
        Parameters.notNull("published", published);
        Parameters.notNull("collective", collective);
        String row = collective == Collective.ALL_TO_ALL ? "alltoall" : "allreduce";
        Table t = published.table();
        for (int i = 0; i < t.rowCount(); i++) {
            if (t.stringColumn("collective").get(i).equals(row)) {
                double stated = t.doubleColumn("roce_over_gse_jct_ratio").get(i);
                double inverse = 1 / t.doubleColumn("gse_over_roce_jct").get(i);
                return Target.band(Math.min(stated, inverse), Math.max(stated, inverse));
            }
        }
        throw new IllegalArgumentException("published must have a row with collective \"" + row + "\" for " + collective
                + ", got the dataset " + published.name() + " without one");
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
    public static List<Result> fullSweep(int threads, ProgressSink sink) throws InterruptedException {
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
    public static List<Result> fullSweep(SweepExecutor executor, ProgressSink sink) throws InterruptedException {
        Parameters.notNull("executor", executor);
        return executor.run(fullSweepPlan(), sink);
    }

    /** The plan of {@link #fullSweep(SweepExecutor, ProgressSink)}: 240 parameter records in the order (speedup, collective, size, fabric, seed). */
    public static SweepPlan<Point, Result> fullSweepPlan() {
        long[] sizes = new long[10];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = (1L << 20) << i;
        }
        List<Point> points = points(new double[] {1.5, 2.0}, List.of(Collective.ALL_TO_ALL, Collective.RING_ALL_REDUCE), sizes,
                List.of(RoceOrGse.ROCE, RoceOrGse.GSE), new long[] {1, 2, 3});
        return new SweepPlan<>("GSE vs RoCE JCT sweep (" + points.size() + " runs)", Task.class, points);
    }

    /**
     * The runs of {@link #fullSweep(SweepExecutor, ProgressSink)} as the model dataset {@link #FULL_SWEEP}: the table of {@link #table}
     * with its provenance. The same runs give the same bytes when saved.
     *
     * @param runs the runs, not null
     */
    public static Dataset fullSweepDataset(List<Result> runs) {
        Parameters.noNullElements("runs", runs);
        return new Dataset(provenance(FULL_SWEEP,
                "Written by notebooks/08-gse-vs-roce-jct.ipynb or fabriclab.experiments.JctSweepMain (identical output); "
                        + runs.size() + " runs (deterministic: each run depends only on its seed)."), table(FULL_SWEEP, runs));
    }

    /** The columns of {@link #table}, with their units. */
    private static final Columns<Result> COLUMNS = JobMetrics.DeliveryCounters.appendTo(Columns.<Result>of()
            .stringColumn("collective", "", r -> r.collective().name().toLowerCase(Locale.ROOT))
            .doubleColumn("size_mb", "MiB per rank", r -> r.bufferBytes() / 1048576.0)
            .stringColumn("fabric", "", r -> r.fabric().name().toLowerCase(Locale.ROOT))
            .doubleColumn("speedup", "ratio", Result::speedup)
            .longColumn("seed", "", Result::seed)
            .doubleColumn("mean_jct_us", "us", Result::meanJctUs)
            .doubleColumn("max_jct_us", "us", Result::maxJctUs)
            .doubleColumn("bound_us", "us", Result::boundUs)
            .doubleColumn("uplink_max_over_mean", "ratio", Result::uplinkMaxOverMean)
            .longColumn("pfc_pauses", "frames", Result::pfcPauses)
            .longColumn("ecn_marks", "packets", Result::ecnMarks)
            .longColumn("drops", "packets", Result::drops)
            .longColumn("containers_reordered", "containers", Result::containersReordered), Result::delivery, false);

    /**
     * The runs as a table named {@code name}, one row per run in the order given: collective and fabric
     * in lower case, size_mb = data per rank [MiB], then the fields of {@link Result} (JCTs and bound in us), then the
     * delivery columns of {@link JobMetrics.DeliveryCounters#appendTo} (goodput_gbps ... failed_qps).
     */
    public static Table table(String name, List<Result> runs) {
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
