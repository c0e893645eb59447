package fabriclab.experiments;

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
 * <p>The fabric and the jobs are {@link Paper000Testbed}'s (our reading of the partly garbled text) with
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
    /** Servers ({@link Paper000Testbed#SERVERS}). */
    public static final int SERVERS = Paper000Testbed.SERVERS;
    /** NICs per server (one per GPU) and jobs ({@link Paper000Testbed#NICS}). */
    public static final int NICS = Paper000Testbed.NICS;

    /** Validates: only the two speedups of 000. */
    public GseVsRoceJct {
        Paper000Testbed.checkSpeedup(speedup);
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
        return testbed().spines();
    }

    /** 000's testbed at this speedup, one 400G link per leaf-spine pair. */
    public Paper000Testbed testbed() {
        return Paper000Testbed.of(speedup);
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
    public record Run(Collective collective, long bufferBytes, Fabric fabric, double speedup, long seed, double meanJctUs,
            double maxJctUs, double boundUs, double uplinkMaxOverMean, long pfcPauses, long ecnMarks, long drops,
            long containersReordered, JobMetrics.DeliveryCounters delivery) implements Serializable {
        private static final long serialVersionUID = 2L;

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
    public Run run(Collective collective, long bufferBytes, Fabric fabric, long seed) {
        Parameters.notNull("collective", collective);
        Parameters.inRange("bufferBytes", bufferBytes, 4096L, MAX_BUFFER_BYTES);
        Parameters.notNull("fabric", fabric);
        JobMetrics m = JobSimulation.run(fabric(), JobSimulation.FabricSettings.firstReading(fabric), seed,
                JobSimulation.collectives(Paper000Testbed.jobGroups(), collective, bufferBytes), NICS, new int[0], sim -> { });
        if (!m.allFinished()) {
            throw new IllegalStateException("a job of " + collective + " with " + bufferBytes + " bytes per rank on " + fabric
                    + " did not finish within the simulated 10 s (seed " + seed + "): no JCT to report");
        }
        double bound = new BandwidthBound(SERVERS, 100).seconds(collective, bufferBytes) * 1e6;
        return new Run(collective, bufferBytes, fabric, speedup, seed, m.meanJctUs(), m.maxJctUs(), bound, m.uplinkMaxOverMean(),
                m.pfc().pauses(), m.ecnMarks(), m.drops(), m.counter(GseTransport.CONTAINERS_REORDERED),
                m.delivery());
    }

    /**
     * The largest data per rank a run takes, bytes (1 GiB, twice the sweep's largest size): larger
     * sizes would take hours of packet-level simulation and may not finish within the simulated 10 s.
     */
    public static final long MAX_BUFFER_BYTES = 1L << 30;

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
    private static final Columns<Run> COLUMNS = JobMetrics.DeliveryCounters.appendTo(Columns.<Run>of()
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
            .longColumn("containers_reordered", "containers", Run::containersReordered), Run::delivery, false);

    /**
     * The runs as a table named {@code name}, one row per run in the order given: collective and fabric
     * in lower case, size_mb = data per rank [MiB], then the fields of {@link Run} (JCTs and bound in us), then the
     * delivery columns of {@link JobMetrics.DeliveryCounters#appendTo} (goodput_gbps ... failed_qps).
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
