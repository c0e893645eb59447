package fabriclab.validation;

import fabriclab.datasets.Datasets;
import fabriclab.datasets.Provenance;
import fabriclab.progress.Progress;
import fabriclab.sweep.SweepExecutors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.Table;

/**
 * The full-size comparison of the five schemes of HPCC's figure with its published curves: both workloads at load 0.3,
 * {@link HpccEvaluation#forSteps} with 100 flows per 1% step, seeds 1 to 3, on the leaf-spine; writes the tenths
 * ({@link HpccComparison#schemeTenths}) as the model dataset {@value #DATASET} and prints the pass counts.
 *
 * <p>Run: {@code ./bench --main fabriclab.validation.HpccSchemesMain [<datasets dir> [<flows per step> [<seeds>]]]}
 * (defaults {@code datasets}, 100, 3), from the repository's root. Notebook 14 runs the same comparison at 20 flows
 * per step and two seeds ({@link #NOTEBOOK_FLOWS_PER_STEP}, {@link #NOTEBOOK_SEEDS}).
 */
public final class HpccSchemesMain {
    /** The dataset written. */
    public static final String DATASET = "hpcc-schemes-tenths";
    /** The notebook's size: flows per 1% step and seeds. */
    public static final int NOTEBOOK_FLOWS_PER_STEP = 20;
    public static final int NOTEBOOK_SEEDS = 2;

    private HpccSchemesMain() {
    }

    /** The evaluations at {@code flowsPerStep} and seeds 1..{@code seeds}, both workloads. */
    static List<HpccEvaluation> evaluations(int flowsPerStep, int seeds) {
        List<Long> s = new ArrayList<>();
        for (long i = 1; i <= seeds; i++) {
            s.add(i);
        }
        List<HpccEvaluation> out = new ArrayList<>();
        for (String w : List.of("websearch", "fb-hadoop")) {
            for (long seed : s) {
                out.add(HpccEvaluation.forSteps(w, 0.3, flowsPerStep, seed));
            }
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : "datasets");
        int flowsPerStep = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int seeds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        long t0 = System.nanoTime();
        Table t = HpccComparison.schemeTenths(evaluations(flowsPerStep, seeds), HpccComparison.FIGURE_SCHEMES,
                HpccComparison.published(), SweepExecutors.configured(Runtime.getRuntime().availableProcessors()),
                Progress.defaultSink());
        System.out.println(HpccComparison.passCounts(t).print());
        System.out.printf("%d runs in %.1f s%n", 2 * seeds * HpccComparison.FIGURE_SCHEMES.size(), (System.nanoTime() - t0) / 1e9);
        Map<String, String> units = new LinkedHashMap<>();
        for (String c : t.columnNames()) {
            units.put(c, c.equals("largest_bytes") ? "bytes" : "");
        }
        Provenance p = new Provenance(DATASET, "FCT slowdown per tenth of flows of the five schemes of HPCC's figure (HPCC-PINT,"
                + " HPCC-INT, DCQCN+w, TIMELY+w, DCTCP), ours on the leaf-spine against the published curves, WebSearch and FB-Hadoop"
                + " at load 0.3", "model",
                new Provenance.Paper("outside reference (not a seed paper)", "Yuliang Li et al.", "HPCC: High Precision Congestion Control",
                        "ACM SIGCOMM 2019", null),
                "hpcc-group.github.io results.md, figures fct_wb30_*pct and fct_fb30_*pct (dataset hpcc-fct-slowdown-30pct)", units,
                String.format(java.util.Locale.ROOT, "Written by ./bench --main fabriclab.validation.HpccSchemesMain: %d flows per 1%% step"
                        + " (HpccEvaluation.forSteps), seeds 1 to %d, HpccComparison.schemeTenths; per scheme, workload, percentile and"
                        + " tenth the median over seeds of the median of the tenth's ten 1%% steps (ours), its range over seeds, the"
                        + " published value, the tolerance (the seeds' spread plus the reading's uncertainty) and pass or miss.",
                        flowsPerStep, seeds));
        System.out.println(Datasets.write(root, t, p));
    }
}
