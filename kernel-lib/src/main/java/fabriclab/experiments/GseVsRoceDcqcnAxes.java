package fabriclab.experiments;

import fabriclab.Parameters;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Datasets;
import fabriclab.datasets.Provenance;
import fabriclab.datasets.Target;
import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.experiments.testbed.Duan2024Testbed.Marking;
import fabriclab.experiments.testbed.Duan2024Testbed.Recovery;
import fabriclab.experiments.testbed.Duan2024Testbed.Uplinks;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.experiments.testbed.Spread;
import fabriclab.progress.ProgressSink;
import fabriclab.sweep.Columns;
import fabriclab.sweep.LocalThreads;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import fabriclab.sweep.SweepTask;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tech.tablesaw.api.Table;

/**
 * 000's verdict (RoCE/GSE job completion time, figures 11 and 12) on the 4 x 100G members, where DCQCN's cuts carry
 * the ratio into 000's band, over the two DCQCN settings 000 does not give: the switches' ECN marking thresholds at
 * today's port speeds ({@link Marking}: Zhu et al.'s 40G-era values unscaled or scaled with the port rate, the RDMA
 * reference simulator's per-speed map, NVIDIA's switch default) and the NICs' recovery values ({@link Recovery}:
 * NVIDIA's documented defaults, with and without clamping the target rate at every cut, and the reference simulator's).
 *
 * <p>Everything else is {@link GseVsRoceTestbed#documentedDefaults()} with {@link Uplinks#BREAKOUT_4X100G} at leaf
 * speedup 1.5 (3 spines): one QP per rank pair kept for the collective, dynamic PFC with alpha 1, 32 MB of shared
 * buffer per switch, 4096-byte packets; every port runs at 100 Gb/s, so each marking profile is one curve at every
 * port. GSE runs on the same members (it has no marking and no DCQCN, and its runs do not depend on the seed: once
 * per algorithm and size). {@code Marking.ZHU_UNSCALED} with {@code Recovery.NVIDIA_CLAMPED} is the 4 x 100G
 * configuration of {@link GseVsRoceTestbed#canonicalPoints}, run for run.
 */
public final class GseVsRoceDcqcnAxes {
    /** Leaf speedup of every run (3 spines). */
    public static final double SPEEDUP = 1.5;
    /** The uplinks of every run: each 400GE port as 4 x 100G members hashed per flow. */
    public static final Uplinks UPLINKS = Uplinks.BREAKOUT_4X100G;

    private GseVsRoceDcqcnAxes() {
    }

    /** The testbed every run uses ({@link GseVsRoceTestbed#documentedDefaults()} on {@link #UPLINKS}). */
    public static GseVsRoceTestbed testbed() {
        return GseVsRoceTestbed.documentedDefaults().withUplinks(UPLINKS);
    }

    /**
     * One run: RoCE with a marking profile and recovery values, or GSE (then both are null).
     *
     * @param marking the switches' marking per port speed (RoCE), null for GSE
     * @param recovery the NICs' DCQCN recovery values (RoCE), null for GSE
     * @param algorithm the collective algorithm, not null
     * @param fabric RoCE or GSE, not null
     * @param bufferBytes data per rank [bytes], 4096 to {@link GseVsRoceJct#MAX_BUFFER_BYTES}
     * @param seed the seed (ECMP hash seeds, source ports, marking draws)
     */
    public record Point(Marking marking, Recovery recovery, Algorithm algorithm, RoceOrGse fabric, long bufferBytes, long seed)
            implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates: RoCE needs both axes, GSE takes neither. */
        public Point {
            Parameters.notNull("algorithm", algorithm);
            Parameters.notNull("fabric", fabric);
            Parameters.inRange("bufferBytes", bufferBytes, 4096L, GseVsRoceJct.MAX_BUFFER_BYTES);
            if (fabric == RoceOrGse.ROCE) {
                Parameters.notNull("marking", marking);
                Parameters.notNull("recovery", recovery);
            } else if (marking != null || recovery != null) {
                throw new IllegalArgumentException("marking and recovery must be null for GSE (it neither marks nor runs DCQCN), got "
                        + marking + " and " + recovery);
            }
        }

        /** Runs it. */
        public Result run() {
            GseVsRoceTestbed tb = testbed();
            JobSimulation.FabricSettings settings = fabric == RoceOrGse.GSE ? tb.fabricSettings(RoceOrGse.GSE, false)
                    : new JobSimulation.FabricSettings(RoceOrGse.ROCE, recovery.parameters(), tb.pfc(), tb.pfcDynamicThreshold(),
                            false, marking, recovery.clampTargetRate());
            return new Result(this, tb.run(algorithm, fabric, SPEEDUP, bufferBytes, seed, settings));
        }
    }

    /**
     * A run's outcome.
     *
     * @param point what ran
     * @param run the JCTs and counters ({@link GseVsRoceTestbed.Result}: ECN marks, rate cuts, PFC, retransmissions,
     *        delivery); its {@code testbed} is {@link #testbed()}, whose own DCQCN label the point's axes replace
     */
    public record Result(Point point, GseVsRoceTestbed.Result run) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates. */
        public Result {
            Parameters.notNull("point", point);
            Parameters.notNull("run", run);
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
     * The points: for each algorithm, every marking x recovery for each seed (RoCE), then GSE once; in the order
     * (algorithm, marking, recovery, seed).
     *
     * @param markings the marking profiles, not empty, no null
     * @param recoveries the recovery settings, not empty, no null
     * @param algorithms the algorithms, not empty, no null
     * @param bufferBytes data per rank [bytes], 4096 to {@link GseVsRoceJct#MAX_BUFFER_BYTES}
     * @param seeds the seeds, not empty
     */
    public static List<Point> points(List<Marking> markings, List<Recovery> recoveries, List<Algorithm> algorithms, long bufferBytes,
            long[] seeds) {
        nonEmpty("markings", markings);
        nonEmpty("recoveries", recoveries);
        nonEmpty("algorithms", algorithms);
        Parameters.inRange("bufferBytes", bufferBytes, 4096L, GseVsRoceJct.MAX_BUFFER_BYTES);
        Parameters.notNull("seeds", seeds);
        if (seeds.length == 0) {
            throw new IllegalArgumentException("seeds must hold at least one seed, got none");
        }
        List<Point> points = new ArrayList<>();
        for (Algorithm a : algorithms) {
            for (Marking m : markings) {
                for (Recovery r : recoveries) {
                    for (long seed : seeds) {
                        points.add(new Point(m, r, a, RoceOrGse.ROCE, bufferBytes, seed));
                    }
                }
            }
            points.add(new Point(null, null, a, RoceOrGse.GSE, bufferBytes, seeds[0]));
        }
        return points;
    }

    /**
     * The notebook's grid: every marking x recovery, AlltoAll at once and H-D_R AllReduce, at {@code bufferBytes} per
     * rank and the given seeds.
     *
     * @param bufferBytes data per rank [bytes]
     * @param seeds the seeds, not empty
     */
    public static List<Point> grid(long bufferBytes, long[] seeds) {
        return points(List.of(Marking.values()), List.of(Recovery.values()),
                List.of(Algorithm.ALL_TO_ALL_AT_ONCE, Algorithm.HALVING_DOUBLING_ALL_REDUCE), bufferBytes, seeds);
    }

    private static <T> void nonEmpty(String name, List<T> list) {
        Parameters.noNullElements(name, list);
        if (list.isEmpty()) {
            throw new IllegalArgumentException(name + " must not be empty");
        }
    }

    /**
     * Runs {@code points} on {@code executor}; results in point order whatever the executor (each run depends only on its
     * point).
     *
     * @param points the points, no null element
     * @param executor local threads or a cluster
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static List<Result> sweep(List<Point> points, SweepExecutor executor, ProgressSink sink) throws InterruptedException {
        Parameters.notNull("executor", executor);
        return executor.run(sweepPlan(points), sink);
    }

    /** {@link #sweep(List, SweepExecutor, ProgressSink)} on {@code threads} local threads. */
    public static List<Result> sweep(List<Point> points, int threads, ProgressSink sink) throws InterruptedException {
        return sweep(points, new LocalThreads(threads), sink);
    }

    /** The plan of a sweep over {@code points}, run by {@link Task}. */
    public static SweepPlan<Point, Result> sweepPlan(List<Point> points) {
        Parameters.noNullElements("points", points);
        return new SweepPlan<>("000 on 4x100G: marking x DCQCN recovery (" + points.size() + " runs)", Task.class, points);
    }

    /** The key pairing a RoCE run with its GSE run: algorithm and size. */
    private static String gseKey(Point p) {
        return p.algorithm() + " " + p.bufferBytes();
    }

    /**
     * The RoCE/GSE ratio of the mean JCT over the 8 jobs, one row per RoCE run (in run order) that has a GSE run of the
     * same algorithm and size, with whether it lies in 000's band ({@link GseVsRoceJct#publishedBand}, its ends without
     * tolerance) and the RoCE run's ECN marks, rate cuts and PFC pause time.
     *
     * @param runs runs of {@link #sweep}, no null element
     */
    public static Table ratios(List<Result> runs) {
        Parameters.noNullElements("runs", runs);
        Map<String, Result> gse = new LinkedHashMap<>();
        for (Result r : runs) {
            if (r.point().fabric() == RoceOrGse.GSE) {
                gse.put(gseKey(r.point()), r);
            }
        }
        List<Result[]> pairs = new ArrayList<>();
        for (Result r : runs) {
            Result g = gse.get(gseKey(r.point()));
            if (r.point().fabric() == RoceOrGse.ROCE && g != null) {
                pairs.add(new Result[] {r, g});
            }
        }
        Dataset published = Datasets.load(GseVsRoceJct.PUBLISHED);
        return Columns.<Result[]>of()
                .stringColumn("algorithm", "", p -> p[0].point().algorithm().name().toLowerCase(Locale.ROOT))
                .stringColumn("marking", "", p -> p[0].point().marking().name().toLowerCase(Locale.ROOT))
                .stringColumn("recovery", "", p -> p[0].point().recovery().name().toLowerCase(Locale.ROOT))
                .longColumn("seed", "", p -> p[0].point().seed())
                .doubleColumn("ratio_mean", "RoCE/GSE", p -> ratio(p))
                .stringColumn("in_band", "", p -> {
                    Target.Band b = GseVsRoceJct.publishedBand(published, p[0].point().algorithm().collective);
                    double x = ratio(p);
                    return x >= b.published() && x <= b.publishedHigh() ? "yes" : "no";
                })
                .longColumn("ecn_marks", "packets", p -> p[0].run().ecnMarks())
                .longColumn("rate_cuts", "cuts", p -> p[0].run().rateCuts())
                .doubleColumn("pfc_paused_ms", "ms (sum over ports)", p -> p[0].run().pfcPausedUs() / 1000)
                .table("RoCE/GSE over marking and recovery", pairs);
    }

    private static double ratio(Result[] p) {
        return p[0].run().meanJctUs() / p[1].run().meanJctUs();
    }

    /**
     * The spread of RoCE/GSE over seeds: one row per (algorithm, marking, recovery) of {@link #ratios} in first-seen
     * order, with the number of seeds, the median ratio, its minimum and maximum ({@link Spread}), how many seeds put it
     * in 000's band, and the median ECN marks and rate cuts.
     *
     * @param runs runs of {@link #sweep}
     */
    public static Table ratioSpread(List<Result> runs) {
        Table r = ratios(runs);
        Map<String, List<Integer>> rows = new LinkedHashMap<>();
        for (int i = 0; i < r.rowCount(); i++) {
            String key = r.stringColumn("algorithm").get(i) + "\u0000" + r.stringColumn("marking").get(i) + "\u0000"
                    + r.stringColumn("recovery").get(i);
            rows.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
        }
        List<Object[]> out = new ArrayList<>();
        for (List<Integer> idx : rows.values()) {
            Spread x = Spread.of(idx.stream().mapToDouble(i -> r.doubleColumn("ratio_mean").get(i)).toArray());
            Spread marks = Spread.of(idx.stream().mapToDouble(i -> r.longColumn("ecn_marks").get(i)).toArray());
            Spread cuts = Spread.of(idx.stream().mapToDouble(i -> r.longColumn("rate_cuts").get(i)).toArray());
            long inBand = idx.stream().filter(i -> r.stringColumn("in_band").get(i).equals("yes")).count();
            int first = idx.get(0);
            out.add(new Object[] {r.stringColumn("algorithm").get(first), r.stringColumn("marking").get(first),
                r.stringColumn("recovery").get(first), idx.size(), x.median(), x.min(), x.max(), inBand, marks.median(),
                cuts.median()});
        }
        return Columns.<Object[]>of()
                .stringColumn("algorithm", "", o -> (String) o[0])
                .stringColumn("marking", "", o -> (String) o[1])
                .stringColumn("recovery", "", o -> (String) o[2])
                .longColumn("seeds", "", o -> (Integer) o[3])
                .doubleColumn("ratio_median", "RoCE/GSE", o -> (Double) o[4])
                .doubleColumn("ratio_min", "RoCE/GSE", o -> (Double) o[5])
                .doubleColumn("ratio_max", "RoCE/GSE", o -> (Double) o[6])
                .longColumn("seeds_in_band", "", o -> (Long) o[7])
                .doubleColumn("ecn_marks_median", "packets", o -> (Double) o[8])
                .doubleColumn("rate_cuts_median", "cuts", o -> (Double) o[9])
                .table("RoCE/GSE over seeds, by marking and recovery", out);
    }

    /** Name of the model dataset of these runs. */
    public static final String DATASET = "jct-gse-vs-roce-dcqcn-axes";

    private static final Columns<Result> COLUMNS = JobMetrics.DeliveryCounters.appendTo(Columns.<Result>of()
            .stringColumn("algorithm", "", r -> r.point().algorithm().name().toLowerCase(Locale.ROOT))
            .stringColumn("fabric", "", r -> r.point().fabric().name().toLowerCase(Locale.ROOT))
            .doubleColumn("speedup", "ratio", r -> r.run().speedup())
            .doubleColumn("size_mb", "MiB per rank", r -> r.point().bufferBytes() / 1048576.0)
            .stringColumn("uplinks", "", r -> UPLINKS.name().toLowerCase(Locale.ROOT))
            .stringColumn("marking", "", r -> r.point().marking() == null ? "none" : r.point().marking().name().toLowerCase(Locale.ROOT))
            .stringColumn("recovery", "", r -> r.point().recovery() == null ? "none"
                    : r.point().recovery().name().toLowerCase(Locale.ROOT))
            .longColumn("seed", "", r -> r.point().seed())
            .doubleColumn("mean_jct_us", "us", r -> r.run().meanJctUs())
            .doubleColumn("max_jct_us", "us", r -> r.run().maxJctUs())
            .doubleColumn("bound_us", "us", r -> r.run().boundUs())
            .doubleColumn("uplink_max_over_mean", "ratio", r -> r.run().uplinkMaxOverMean())
            .longColumn("ecn_marks", "packets", r -> r.run().ecnMarks())
            .longColumn("rate_cuts", "cuts", r -> r.run().rateCuts())
            .longColumn("pfc_pauses", "frames", r -> r.run().pfcPauses())
            .doubleColumn("pfc_paused_us", "us (sum over ports)", r -> r.run().pfcPausedUs())
            .longColumn("retransmits", "packets", r -> r.run().retransmits())
            .longColumn("timeouts", "timeouts", r -> r.run().timeouts())
            .longColumn("drops", "packets", r -> r.run().drops()), r -> r.run().delivery(), true);

    /** The runs as a table, one row per run in the order given; marking and recovery "none" for GSE. */
    public static Table table(List<Result> runs) {
        Parameters.noNullElements("runs", runs);
        return COLUMNS.table(DATASET, runs);
    }

    /**
     * The runs as the model dataset {@link #DATASET} with its provenance; the same runs give the same bytes.
     *
     * @param runs the runs
     * @param notes how they were made (sizes, seeds)
     */
    public static Dataset dataset(List<Result> runs, String notes) {
        Parameters.noNullElements("runs", runs);
        Parameters.notNull("notes", notes);
        return new Dataset(new Provenance(DATASET,
                "GSE vs RoCE JCT on 4 x 100G members over ECN marking thresholds and DCQCN recovery values, packet-level model",
                "model", new Provenance.Paper("000_5f64c80d7629dca1.txt", null, null, null, null),
                "000 section 3, figures 11 and 12 (what-if over the switch marking and NIC recovery settings 000 leaves unstated)",
                COLUMNS.units(), notes + " " + runs.size() + " runs (deterministic: each run depends only on its point)."),
                table(runs));
    }
}
