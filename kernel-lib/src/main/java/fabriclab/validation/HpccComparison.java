package fabriclab.validation;

import fabriclab.Parameters;
import fabriclab.datasets.Datasets;
import fabriclab.datasets.Target;
import fabriclab.experiments.testbed.Spread;
import fabriclab.notebook.Figures;
import fabriclab.notebook.PaperComparison;
import fabriclab.fabric.Time;
import fabriclab.progress.ProgressSink;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import fabriclab.sweep.SweepTask;
import fabriclab.simulation.SimulationResult;
import fabriclab.workload.FctSteps;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Our DCQCN+w beside HPCC's published DCQCN+w curves (dataset {@value #DATASET}: the HPCC authors' ns-3 results at load
 * 0.3, read from their figures), and the same for the other schemes of the figure that {@link HpccScheme} runs (the
 * methods with a scheme argument; those without are DCQCN+w's). A flow's slowdown is HPCC's: from its start to the sender's receipt of the ACK of its last
 * byte, over the same on the empty fabric ({@link HpccEvaluation.Result#slowdown}). Both sides are reduced the same way:
 * the completed flows sorted by size in steps of 1%
 * of the flows, the p50, p95 and p99 of slowdown per step ({@link FctSteps}, HPCC's analysis), then per tenth of the
 * flows the median of its ten steps. A tenth is compared when ours and theirs agree within a tolerance stated per row:
 * the spread of our seeds around their median (the larger side, relative) plus the published reading's uncertainty.
 * A difference beyond that is not explained by our sampling or by the reading, so it is a miss, and notebook 14 names
 * its mechanism.
 */
public final class HpccComparison {
    /** The published dataset. */
    public static final String DATASET = "hpcc-fct-slowdown-30pct";
    /** The outside reference, as comparison rows name it. */
    public static final String REFERENCE = "HPCC's ns-3 simulator (Li et al., SIGCOMM 2019), hpcc-group.github.io figures";
    /** The published scheme compared: DCQCN with HPCC's window. */
    public static final String SCHEME = "dcqcn_w";
    /** The percentiles of the figures. */
    public static final List<String> PERCENTILES = List.of("p50", "p95", "p99");

    private HpccComparison() {
    }

    /**
     * Evaluations of a fixed arrival window: for each workload and seed, {@code new HpccEvaluation(workload, load,
     * durationPs, seed)} on the leaf-spine. A shorter window than {@link #evaluations(List, double, List)}'s runs
     * the same first flows (the arrivals are drawn in time order from the seed) and fewer of them.
     *
     * @param workloads {@code websearch} and/or {@code fb-hadoop}, not empty
     * @param seeds the seeds, not empty
     * @param durationPs the arrival window, ps
     */
    public static List<HpccEvaluation> evaluationsOver(List<String> workloads, double load, List<Long> seeds, long durationPs) {
        Parameters.noNullElements("workloads", workloads);
        Parameters.noNullElements("seeds", seeds);
        if (workloads.isEmpty() || seeds.isEmpty()) {
            throw new IllegalArgumentException("workloads and seeds must not be empty, got " + workloads + " and " + seeds);
        }
        List<HpccEvaluation> out = new ArrayList<>();
        for (String w : workloads) {
            for (long s : seeds) {
                out.add(new HpccEvaluation(w, load, durationPs, s));
            }
        }
        return out;
    }

    /** A fabric as the tables name it: {@code leaf-spine}, {@code fat tree}. */
    static String fabricName(HpccEvaluation.FabricTopology f) {
        return f == HpccEvaluation.FabricTopology.FAT_TREE ? "fat tree" : "leaf-spine";
    }

    /** The dataset's name of {@code workload} ({@code websearch}, {@code fb_hadoop}). */
    static String datasetWorkload(String workload) {
        return workload.replace('-', '_');
    }

    /**
     * The evaluations notebook 14 runs: for each seed, each workload at {@code load} with a window that gives at least
     * about 100 flows per 1% step ({@link HpccEvaluation#forSteps}).
     *
     * @param workloads {@code websearch} and/or {@code fb-hadoop}, not empty
     * @param seeds the seeds, not empty
     */
    public static List<HpccEvaluation> evaluations(List<String> workloads, double load, List<Long> seeds) {
        return evaluations(workloads, load, seeds, HpccEvaluation.FabricTopology.LEAF_SPINE);
    }

    /** The same on {@code fabric}. */
    public static List<HpccEvaluation> evaluations(List<String> workloads, double load, List<Long> seeds,
            HpccEvaluation.FabricTopology fabric) {
        Parameters.notNull("fabric", fabric);
        Parameters.noNullElements("workloads", workloads);
        Parameters.noNullElements("seeds", seeds);
        if (workloads.isEmpty() || seeds.isEmpty()) {
            throw new IllegalArgumentException("workloads and seeds must not be empty, got " + workloads + " and " + seeds);
        }
        List<HpccEvaluation> out = new ArrayList<>();
        for (String w : workloads) {
            for (long s : seeds) {
                out.add(HpccEvaluation.forSteps(w, load, 100, s).on(fabric));
            }
        }
        return out;
    }

    /**
     * What one evaluation gives: its 1% steps ({@link FctSteps}, slowdowns as HPCC defines them) and what produced
     * them.
     *
     * @param evaluation the run's settings
     * @param flows flows in the run
     * @param notCompleted flows whose last ACK never came (left out of the steps)
     * @param drops packets dropped in the fabric
     * @param timeouts retransmission timeouts
     * @param pausedUs time paused by PFC, summed over ports, us
     * @param cnps CNPs the receivers sent
     * @param rateCuts DCQCN rate cuts at the senders
     * @param steps the 1% steps, in size order
     */
    public record Result(HpccEvaluation evaluation, int flows, int notCompleted, long drops, long timeouts,
            double pausedUs, long cnps, long rateCuts, List<FctSteps.Step> steps) implements java.io.Serializable {
        /** Validates. */
        public Result {
            Parameters.notNull("evaluation", evaluation);
            Parameters.atLeast("flows", flows, 0);
            Parameters.inRange("notCompleted", notCompleted, 0, flows);
            Parameters.atLeast("drops", drops, 0L);
            Parameters.atLeast("timeouts", timeouts, 0L);
            Parameters.inRange("pausedUs", pausedUs, 0.0, Double.MAX_VALUE);
            Parameters.atLeast("cnps", cnps, 0L);
            Parameters.atLeast("rateCuts", rateCuts, 0L);
            Parameters.noNullElements("steps", steps);
            steps = List.copyOf(steps);
        }

        /** Runs {@code e} (DCQCN+w) and reduces it to its steps. */
        public static Result of(HpccEvaluation e) {
            return of(e, HpccScheme.DCQCN_W);
        }

        /**
         * Runs {@code e} with {@code scheme} and reduces it to its steps; {@code cnps} are DCQCN's (0 for the others),
         * {@code rateCuts} the scheme's cuts ({@link HpccScheme#cuts}).
         */
        public static Result of(HpccEvaluation e, HpccScheme scheme) {
            Parameters.notNull("scheme", scheme);
            HpccEvaluation.Result run = Parameters.notNull("e", e).run(scheme);
            SimulationResult r = run.result();
            int n = r.flows().size();
            long[] sizes = new long[n];
            double[] slowdowns = new double[n];
            int notCompleted = 0;
            for (int i = 0; i < n; i++) {
                sizes[i] = r.flows().get(i).spec().bytes();
                slowdowns[i] = run.slowdown(i);
                if (Double.isNaN(slowdowns[i])) {
                    notCompleted++;
                }
            }
            return new Result(e, n, notCompleted, r.droppedPackets(), r.timeouts(), r.pausedPs() / 1e6,
                    scheme.cnps(r), scheme.cuts(r), FctSteps.of(sizes, slowdowns, 1).steps());
        }
    }

    /**
     * One evaluation of one scheme, the input of {@link Task}.
     *
     * @param evaluation the run's settings
     * @param scheme the scheme it runs
     */
    public record Point(HpccEvaluation evaluation, HpccScheme scheme) implements java.io.Serializable {
        /** Validates. */
        public Point {
            Parameters.notNull("evaluation", evaluation);
            Parameters.notNull("scheme", scheme);
        }
    }

    /** One evaluation of one scheme as a named library function (what a sweep executor instantiates). */
    public static final class Task implements SweepTask<Point, Result> {
        /** Used by the executors. */
        public Task() {
        }

        @Override
        public Result run(Point p) {
            Parameters.notNull("p", p);
            return Result.of(p.evaluation(), p.scheme());
        }
    }

    /** {@link #runs(List, HpccScheme, SweepExecutor, ProgressSink)} of DCQCN+w. */
    public static Table runs(List<HpccEvaluation> evaluations, SweepExecutor executor, ProgressSink sink)
            throws InterruptedException {
        return runs(evaluations, HpccScheme.DCQCN_W, executor, sink);
    }

    /**
     * Runs {@code evaluations} of {@code scheme} on {@code executor} (local threads or a cluster: the same rows in the same order) and
     * tabulates them: one row per run and 1% step, columns {@code fabric} ({@code leaf-spine} or {@code fat tree}),
     * {@code workload}, {@code seed}, {@code window_us},
     * {@code from_pct}, {@code largest_bytes}, {@code flows}, {@code p50}, {@code p95}, {@code p99}, and the run's
     * {@code run_flows}, {@code not_completed}, {@code drops}, {@code timeouts}, {@code paused_us}, {@code cnps} and
     * {@code rate_cuts} on each of its rows. Progress goes to {@code sink}, a unit per run.
     *
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static Table runs(List<HpccEvaluation> evaluations, HpccScheme scheme, SweepExecutor executor, ProgressSink sink)
            throws InterruptedException {
        Parameters.notNull("scheme", scheme);
        return tabulate(runAll(evaluations, List.of(scheme), scheme.label(), executor, sink), scheme);
    }

    /**
     * Every evaluation under every scheme as one sweep, labelled {@code "HPCC's evaluation, <what> (<n> runs)"}: the
     * results scheme by scheme, each in the order of {@code evaluations}.
     */
    private static List<Result> runAll(List<HpccEvaluation> evaluations, List<HpccScheme> schemes, String what,
            SweepExecutor executor, ProgressSink sink) throws InterruptedException {
        Parameters.noNullElements("evaluations", evaluations);
        Parameters.notNull("executor", executor);
        Parameters.notNull("sink", sink);
        if (evaluations.isEmpty()) {
            throw new IllegalArgumentException("evaluations must not be empty");
        }
        List<Point> points = new ArrayList<>();
        for (HpccScheme scheme : schemes) {
            for (HpccEvaluation e : evaluations) {
                points.add(new Point(e, scheme));
            }
        }
        return executor.run(new SweepPlan<>("HPCC's evaluation, " + what + " (" + points.size() + " runs)", Task.class,
                points), sink);
    }

    /**
     * The rows of a {@link #runs} table that came from the runs on {@code fabric}, in their order, under the table's
     * name: how a notebook that ran both fabrics as one sweep (so that both cores stay busy to its end) shows each.
     *
     * @param runs a table of {@link #runs} (a {@code fabric} column)
     * @param fabric the fabric whose rows are kept
     */
    public static Table onFabric(Table runs, HpccEvaluation.FabricTopology fabric) {
        Parameters.notNull("runs", runs);
        Parameters.notNull("fabric", fabric);
        if (!runs.columnNames().contains("fabric")) {
            throw new IllegalArgumentException("runs must be a table of HpccComparison.runs, with a fabric column; got the columns "
                    + runs.columnNames());
        }
        Table t = runs.where(runs.stringColumn("fabric").isEqualTo(fabricName(fabric)));
        t.setName(runs.name());
        return t;
    }

    /** The table of {@link #runs} from the results of its runs. */
    private static Table tabulate(List<Result> done, HpccScheme scheme) {
        StringColumn fab = StringColumn.create("fabric");
        StringColumn wl = StringColumn.create("workload");
        LongColumn sd = LongColumn.create("seed");
        LongColumn window = LongColumn.create("window_us");
        DoubleColumn from = DoubleColumn.create("from_pct");
        LongColumn largest = LongColumn.create("largest_bytes");
        IntColumn flows = IntColumn.create("flows");
        DoubleColumn p50 = DoubleColumn.create("p50");
        DoubleColumn p95 = DoubleColumn.create("p95");
        DoubleColumn p99 = DoubleColumn.create("p99");
        IntColumn runFlows = IntColumn.create("run_flows");
        IntColumn missing = IntColumn.create("not_completed");
        LongColumn drops = LongColumn.create("drops");
        LongColumn timeouts = LongColumn.create("timeouts");
        DoubleColumn paused = DoubleColumn.create("paused_us");
        LongColumn cnps = LongColumn.create("cnps");
        LongColumn cuts = LongColumn.create("rate_cuts");
        for (Result run : done) {
            for (FctSteps.Step s : run.steps()) {
                fab.append(fabricName(run.evaluation().fabric()));
                wl.append(run.evaluation().workload());
                sd.append(run.evaluation().seed());
                window.append(run.evaluation().durationPs() / Time.US);
                from.append(s.fromPercent());
                largest.append(s.largestBytes());
                flows.append(s.flows());
                p50.append(s.p50());
                p95.append(s.p95());
                p99.append(s.p99());
                runFlows.append(run.flows());
                missing.append(run.notCompleted());
                drops.append(run.drops());
                timeouts.append(run.timeouts());
                paused.append(run.pausedUs());
                cnps.append(run.cnps());
                cuts.append(run.rateCuts());
            }
        }
        return Table.create(scheme.label() + " on HPCC's evaluation: FCT slowdown per 1% of flows", fab, wl, sd, window, from,
                largest, flows, p50, p95, p99, runFlows, missing, drops, timeouts, paused, cnps, cuts);
    }

    /**
     * What produced each run of a {@link #runs} table: one row per workload and seed, columns {@code fabric}, {@code workload},
     * {@code seed}, {@code window_us}, {@code flows}, {@code not_completed}, {@code drops}, {@code timeouts}, {@code paused_us},
     * {@code cnps}, {@code rate_cuts}.
     */
    public static Table runSummary(Table runs) {
        return runSummary(runs, HpccScheme.DCQCN_W);
    }

    /** {@link #runSummary(Table)} of a {@link #runs} table of {@code scheme} ({@code rate_cuts}: its cuts). */
    public static Table runSummary(Table runs, HpccScheme scheme) {
        Parameters.notNull("runs", runs);
        Parameters.notNull("scheme", scheme);
        Table first = runs.where(runs.doubleColumn("from_pct").isEqualTo(0));
        Table t = first.selectColumns("fabric", "workload", "seed", "window_us", "run_flows", "not_completed", "drops", "timeouts",
                "paused_us", "cnps", "rate_cuts");
        t.column("run_flows").setName("flows");
        return t.setName(scheme.label() + " on HPCC's evaluation: what each run did");
    }

    /** The published DCQCN+w curve of {@code workload} and {@code percentile}: {from_pct, slowdown} per step, in order. */
    static double[][] published(Table pub, String workload, String percentile) {
        return published(pub, workload, percentile, HpccScheme.DCQCN_W);
    }

    /** The published curve of {@code scheme}, {@code workload} and {@code percentile}. */
    static double[][] published(Table pub, String workload, String percentile, HpccScheme scheme) {
        int pct = Integer.parseInt(percentile.substring(1));
        Table t = pub.where(pub.stringColumn("workload").isEqualTo(datasetWorkload(workload))
                .and(pub.stringColumn("scheme").isEqualTo(scheme.datasetName()))
                .and(pub.numberColumn("percentile").isEqualTo(pct)));
        if (t.rowCount() == 0) {
            throw new IllegalArgumentException("no published " + scheme.datasetName() + " curve for " + workload + " " + percentile);
        }
        double[][] out = new double[t.rowCount()][];
        for (int i = 0; i < t.rowCount(); i++) {
            out[i] = new double[] {t.numberColumn("flows_from_pct").getDouble(i), t.numberColumn("slowdown").getDouble(i)};
        }
        java.util.Arrays.sort(out, java.util.Comparator.comparingDouble(x -> x[0]));
        return out;
    }

    /** The median over the published steps starting in [from, to) percent. */
    static double publishedTenth(double[][] curve, double from, double to) {
        List<Double> v = new ArrayList<>();
        for (double[] x : curve) {
            if (x[0] >= from && x[0] < to) {
                v.add(x[1]);
            }
        }
        if (v.isEmpty()) {
            throw new IllegalArgumentException("no published step in [" + from + ", " + to + ")");
        }
        return spread(v).median();
    }

    /** Our median over steps in [from, to) of one seed's rows of {@code runs}. */
    static double oursTenth(Table runs, String workload, long seed, String percentile, double from, double to) {
        List<Double> v = new ArrayList<>();
        for (int i = 0; i < runs.rowCount(); i++) {
            double f = runs.doubleColumn("from_pct").get(i);
            if (runs.stringColumn("workload").get(i).equals(workload) && runs.longColumn("seed").get(i) == seed
                    && f >= from && f < to) {
                v.add(runs.doubleColumn(percentile).get(i));
            }
        }
        if (v.isEmpty()) {
            throw new IllegalArgumentException("no step of " + workload + " seed " + seed + " in [" + from + ", " + to + ")");
        }
        return spread(v).median();
    }

    /** A size as the figures label it, three significant digits: 6.72K, 1M, 30M; below 1000, bytes: 327B. */
    static String bytes(long b) {
        if (b < 1_000) {
            return b + "B";
        }
        boolean mega = b >= 999_500;
        java.math.BigDecimal v = java.math.BigDecimal.valueOf(b, mega ? 6 : 3).round(new java.math.MathContext(3));
        return v.stripTrailingZeros().toPlainString() + (mega ? "M" : "K");
    }

    /** The spread (median, lowest, highest) of {@code values}, not empty. */
    private static Spread spread(List<Double> values) {
        return Spread.of(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * Per workload, percentile and tenth of the flows: the published value, ours (median over seeds), our least and
     * largest seed, and the tolerance; columns {@code fabric} (the runs', one fabric a table), {@code workload}, {@code percentile}, {@code tenth} (1 to 10),
     * {@code largest_bytes} (the largest size in the tenth, from our first seed), {@code published}, {@code ours},
     * {@code ours_min}, {@code ours_max}, {@code tolerance} (relative), {@code pass}; its name counts the tenths that
     * pass.
     *
     * @param runs a {@link #runs} table
     * @param published the {@value #DATASET} table
     * @param readingUncertainty the published reading's relative uncertainty, in [0, 1)
     */
    public static Table tenths(Table runs, Table published, double readingUncertainty) {
        return tenths(runs, published, readingUncertainty, HpccScheme.DCQCN_W);
    }

    /** {@link #tenths(Table, Table, double)} of a {@link #runs} table of {@code scheme}, against its published curves. */
    public static Table tenths(Table runs, Table published, double readingUncertainty, HpccScheme scheme) {
        Parameters.notNull("scheme", scheme);
        Parameters.notNull("runs", runs);
        Parameters.notNull("published", published);
        Parameters.inRange("readingUncertainty", readingUncertainty, 0.0, 0.99);
        List<String> fabrics = runs.stringColumn("fabric").unique().asList();
        if (fabrics.size() != 1) {
            throw new IllegalArgumentException("runs must hold runs of one fabric, got " + fabrics);
        }
        StringColumn fab = StringColumn.create("fabric");
        StringColumn wl = StringColumn.create("workload");
        StringColumn pc = StringColumn.create("percentile");
        IntColumn tenth = IntColumn.create("tenth");
        LongColumn largest = LongColumn.create("largest_bytes");
        DoubleColumn pub = DoubleColumn.create("published");
        DoubleColumn ours = DoubleColumn.create("ours");
        DoubleColumn lo = DoubleColumn.create("ours_min");
        DoubleColumn hi = DoubleColumn.create("ours_max");
        DoubleColumn tol = DoubleColumn.create("tolerance");
        StringColumn pass = StringColumn.create("pass");
        for (String w : runs.stringColumn("workload").asList().stream().distinct().toList()) {
            List<Long> seeds = new ArrayList<>();
            for (int i = 0; i < runs.rowCount(); i++) {
                if (runs.stringColumn("workload").get(i).equals(w) && !seeds.contains(runs.longColumn("seed").get(i))) {
                    seeds.add(runs.longColumn("seed").get(i));
                }
            }
            for (String p : PERCENTILES) {
                double[][] curve = published(published, w, p, scheme);
                for (int k = 0; k < 10; k++) {
                    List<Double> v = new ArrayList<>();
                    for (long s : seeds) {
                        v.add(oursTenth(runs, w, s, p, 10 * k, 10 * k + 10));
                    }
                    Spread over = spread(v);
                    double med = over.median();
                    double min = over.min();
                    double max = over.max();
                    double t = Math.min(0.99, Math.max(med - min, max - med) / med + readingUncertainty);
                    double value = publishedTenth(curve, 10 * k, 10 * k + 10);
                    fab.append(fabrics.get(0));
                    wl.append(w);
                    pc.append(p);
                    tenth.append(k + 1);
                    largest.append(largestInTenth(runs, w, seeds.get(0), 10 * k + 9));
                    pub.append(value);
                    ours.append(med);
                    lo.append(min);
                    hi.append(max);
                    tol.append(t);
                    pass.append(Math.abs(med - value) <= t * value ? "pass" : "miss");
                }
            }
        }
        long passed = pass.asList().stream().filter("pass"::equals).count();
        return Table.create(String.format(Locale.ROOT,
                "%s, ours against HPCC's published curves (median of each tenth's 1%% steps): %d of %d within tolerance",
                scheme.label(), passed, pass.size()), fab, wl, pc, tenth, largest, pub, ours, lo, hi, tol, pass);
    }

    private static long largestInTenth(Table runs, String workload, long seed, double lastStep) {
        for (int i = 0; i < runs.rowCount(); i++) {
            if (runs.stringColumn("workload").get(i).equals(workload) && runs.longColumn("seed").get(i) == seed
                    && runs.doubleColumn("from_pct").get(i) == lastStep) {
                return runs.longColumn("largest_bytes").get(i);
            }
        }
        throw new IllegalArgumentException("no step " + lastStep + " of " + workload + " seed " + seed);
    }

    /**
     * One validation row per line of a {@link #tenths} table, the published value as the target with the row's
     * tolerance; the note gives our seeds' range and the tenth's largest flow.
     */
    public static void addTo(PaperComparison cmp, Table tenths) {
        addTo(cmp, tenths, HpccScheme.DCQCN_W);
    }

    /** {@link #addTo(PaperComparison, Table)} for a {@link #tenths} table of {@code scheme} over three seeds. */
    public static void addTo(PaperComparison cmp, Table tenths, HpccScheme scheme) {
        addTo(cmp, tenths, scheme, 3, "");
    }

    /**
     * {@link #addTo(PaperComparison, Table)} for a {@link #tenths} table of {@code scheme} over {@code seeds} seeds,
     * {@code size} (blank, or a few words such as "2 ms of arrivals") added to each row's quantity.
     */
    public static void addTo(PaperComparison cmp, Table tenths, HpccScheme scheme, int seeds, String size) {
        Parameters.notNull("scheme", scheme);
        Parameters.atLeast("seeds", seeds, 1);
        Parameters.notNull("size", size);
        Parameters.notNull("cmp", cmp);
        Parameters.notNull("tenths", tenths);
        for (int i = 0; i < tenths.rowCount(); i++) {
            String w = tenths.stringColumn("workload").get(i);
            String on = tenths.stringColumn("fabric").get(i).equals(fabricName(HpccEvaluation.FabricTopology.FAT_TREE))
                    ? " on HPCC's fat tree" : "";
            String p = tenths.stringColumn("percentile").get(i);
            int k = tenths.intColumn("tenth").get(i);
            cmp.validation(REFERENCE, String.format(Locale.ROOT, "%s %s at load 0.3%s%s, %s FCT slowdown, tenth %d of flows by size",
                    scheme.label(), w, on, size.isBlank() ? "" : " (" + size + ")", p, k), "",
                    Target.point(tenths.doubleColumn("published").get(i), tenths.doubleColumn("tolerance").get(i)),
                    tenths.doubleColumn("ours").get(i), String.format(Locale.ROOT,
                            "flows up to %,d B; ours median of %d seeds, range %.2f-%.2f; tolerance = seed spread + reading",
                            tenths.longColumn("largest_bytes").get(i), seeds, tenths.doubleColumn("ours_min").get(i),
                            tenths.doubleColumn("ours_max").get(i)));
        }
    }

    /**
     * HPCC's figure drawn for one workload and percentile: x the flows' rank by size (percent of flows, each tick with
     * the largest size up to it), y the slowdown from 1; ours per 1% step (median over seeds) beside the published DCQCN+w curve.
     */
    public static XYChart chart(Table runs, Table published, String workload, String percentile) {
        return chart(runs, published, workload, percentile, HpccScheme.DCQCN_W);
    }

    /** {@link #chart(Table, Table, String, String)} of a {@link #runs} table of {@code scheme}, beside its published curve. */
    public static XYChart chart(Table runs, Table published, String workload, String percentile, HpccScheme scheme) {
        Parameters.notNull("scheme", scheme);
        Parameters.notNull("runs", runs);
        Parameters.notNull("published", published);
        Parameters.notNull("workload", workload);
        if (!runs.stringColumn("workload").asList().contains(workload)) {
            throw new IllegalArgumentException("workload must be one in runs " + runs.stringColumn("workload").unique().asList()
                    + ", got \"" + workload + "\"");
        }
        if (percentile == null || !PERCENTILES.contains(percentile)) {
            throw new IllegalArgumentException("percentile must be one of " + PERCENTILES + ", got \"" + percentile + "\"");
        }
        XYChart c = Figures.xy(String.format(Locale.ROOT, "%s at load 0.3: %s FCT slowdown per 1%% of flows", workload, percentile),
                "flows sorted by size [% of flows] (largest size up to there, bytes)", percentile + " FCT slowdown");
        c.getStyler().setYAxisMin(1.0).setXAxisMin(0.0).setXAxisMax(100.0)
                .setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (double f = 0; f < 100; f += 1) {
            List<Double> v = new ArrayList<>();
            for (int i = 0; i < runs.rowCount(); i++) {
                if (runs.stringColumn("workload").get(i).equals(workload) && runs.doubleColumn("from_pct").get(i) == f) {
                    v.add(runs.doubleColumn(percentile).get(i));
                }
            }
            if (!v.isEmpty()) {
                x.add(f + 0.5);
                y.add(spread(v).median());
            }
        }
        c.addSeries("ours: " + scheme.label() + ", " + runs.stringColumn("fabric").get(0) + " (median of seeds)", x, y).setMarker(SeriesMarkers.NONE);
        java.util.Map<Long, Long> sizeAt = new java.util.HashMap<>(); // the largest size up to each whole percent
        for (int i = 0; i < runs.rowCount(); i++) {
            if (runs.stringColumn("workload").get(i).equals(workload)) {
                long at = Math.round(runs.doubleColumn("from_pct").get(i)) + 1;
                sizeAt.merge(at, runs.longColumn("largest_bytes").get(i), Math::max);
            }
        }
        c.getStyler().setxAxisTickLabelsFormattingFunction(v -> {
            long pct = Math.round(v);
            Long size = sizeAt.get(pct);
            return size == null ? String.format(Locale.ROOT, "%d%%", pct) : String.format(Locale.ROOT, "%d%% (%s)", pct, bytes(size));
            // (0% has no size: no flow is below it)
        });
        double[][] pub = published(published, workload, percentile, scheme);
        XYSeries s = c.addSeries("HPCC's ns-3: " + scheme.label() + " (published)", java.util.Arrays.stream(pub).mapToDouble(a -> a[0] + 0.5).toArray(),
                java.util.Arrays.stream(pub).mapToDouble(a -> a[1]).toArray());
        s.setMarker(SeriesMarkers.NONE).setLineStyle(SeriesLines.DASH_DASH).setLineColor(Figures.PAPER_COLOR);
        return c;
    }

    /**
     * The relative uncertainty of a published value: half the width of a drawn line (4 pixels), where a curve hidden
     * under another is read at the other's centre, times the largest relative change of slowdown for one pixel on the
     * figures' log axes (the dataset's {@code one_pixel}, the change of slowdown for one pixel at the value read,
     * over the value).
     */
    public static double readingUncertainty(Table published) {
        Parameters.notNull("published", published);
        double onePixel = 0;
        for (int i = 0; i < published.rowCount(); i++) {
            onePixel = Math.max(onePixel, published.numberColumn("one_pixel").getDouble(i)
                    / published.numberColumn("slowdown").getDouble(i));
        }
        return 4 * onePixel;
    }

    /** The published table ({@value #DATASET}). */
    public static Table published() {
        return Datasets.load(DATASET).table();
    }

    /** The five schemes of HPCC's figure, in its legend's order. */
    public static final List<HpccScheme> FIGURE_SCHEMES = List.of(HpccScheme.HPCC_PINT, HpccScheme.HPCC_INT, HpccScheme.DCQCN_W,
            HpccScheme.TIMELY_W, HpccScheme.DCTCP);

    /**
     * Runs {@code evaluations} under each of {@code schemes} (every run in one sweep, so that the schemes' runs overlap
     * instead of each scheme waiting for its longest) and compares each tenth with the scheme's published curves
     * ({@link #tenths(Table, Table, double, HpccScheme)}): one table, the tenths tables of the schemes one after the
     * other with a first column {@code scheme} (its {@link HpccScheme#label()}).
     *
     * @param evaluations the runs' settings (one fabric), not empty
     * @param schemes the schemes, not empty, no null
     * @param published the {@value #DATASET} table
     * @param executor local threads or a cluster (the same rows on any)
     * @param sink progress, a unit per run
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static Table schemeTenths(List<HpccEvaluation> evaluations, List<HpccScheme> schemes, Table published,
            SweepExecutor executor, ProgressSink sink) throws InterruptedException {
        Parameters.noNullElements("schemes", schemes);
        Parameters.notNull("published", published);
        if (schemes.isEmpty()) {
            throw new IllegalArgumentException("schemes must not be empty");
        }
        // every scheme's runs as one plan: a scheme's few runs of unequal length would leave a core idle at its end
        List<Result> done = runAll(evaluations, schemes, schemes.size() + " schemes", executor, sink);
        Table all = null;
        for (int k = 0; k < schemes.size(); k++) {
            HpccScheme scheme = schemes.get(k);
            Table runs = tabulate(done.subList(k * evaluations.size(), (k + 1) * evaluations.size()), scheme);
            Table t = tenths(runs, published, readingUncertainty(published), scheme);
            StringColumn name = StringColumn.create("scheme");
            for (int i = 0; i < t.rowCount(); i++) {
                name.append(scheme.label());
            }
            t.insertColumn(0, name);
            all = all == null ? t : all.append(t);
        }
        all.setName(String.format(Locale.ROOT, "%d schemes of HPCC's figure, ours against its published curves per tenth of flows",
                schemes.size()));
        return all;
    }

    /**
     * Pass counts of a {@link #schemeTenths} table: one row per scheme, workload and percentile (in the table's
     * order), columns {@code scheme}, {@code workload}, {@code percentile}, {@code passed}, {@code tenths}.
     */
    public static Table passCounts(Table schemeTenths) {
        Parameters.notNull("schemeTenths", schemeTenths);
        StringColumn scheme = StringColumn.create("scheme");
        StringColumn workload = StringColumn.create("workload");
        StringColumn percentile = StringColumn.create("percentile");
        IntColumn passed = IntColumn.create("passed");
        IntColumn of = IntColumn.create("tenths");
        java.util.Map<String, int[]> counts = new java.util.LinkedHashMap<>();
        for (int i = 0; i < schemeTenths.rowCount(); i++) {
            String key = schemeTenths.stringColumn("scheme").get(i) + "\t" + schemeTenths.stringColumn("workload").get(i) + "\t"
                    + schemeTenths.stringColumn("percentile").get(i);
            int[] c = counts.computeIfAbsent(key, k -> new int[2]);
            c[0] += schemeTenths.stringColumn("pass").get(i).equals("pass") ? 1 : 0;
            c[1]++;
        }
        counts.forEach((k, c) -> {
            String[] f = k.split("\t");
            scheme.append(f[0]);
            workload.append(f[1]);
            percentile.append(f[2]);
            passed.append(c[0]);
            of.append(c[1]);
        });
        return Table.create("tenths within tolerance per scheme, workload and percentile", scheme, workload, percentile, passed, of);
    }

    /**
     * Adds the rows of {@code schemes} in a {@link #schemeTenths} table as validation rows
     * ({@link #addTo(PaperComparison, Table, HpccScheme, int, String)} with {@code seeds} and {@code size}).
     */
    public static void addSchemesTo(PaperComparison cmp, Table schemeTenths, List<HpccScheme> schemes, int seeds, String size) {
        Parameters.notNull("cmp", cmp);
        Parameters.notNull("schemeTenths", schemeTenths);
        Parameters.noNullElements("schemes", schemes);
        for (HpccScheme scheme : schemes) {
            Table t = schemeTenths.where(schemeTenths.stringColumn("scheme").isEqualTo(scheme.label()));
            if (t.rowCount() == 0) {
                throw new IllegalArgumentException("schemeTenths has no row of " + scheme.label());
            }
            addTo(cmp, t.removeColumns("scheme"), scheme, seeds, size);
        }
    }
}
