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
 * The comparison of the five schemes of HPCC's figure with its published curves, WebSearch and FB-Hadoop at load 0.3
 * on the leaf-spine, at one of two sizes, written as a model dataset with the tenths
 * ({@link HpccComparison#schemeTenths}), the pass counts printed:
 * <ul>
 *   <li>{@code full} (default): {@link HpccEvaluation#forSteps} with 100 flows per 1% step, seeds 1 to 3, as notebook 14
 *       runs DCQCN+w; dataset {@value #DATASET}; with a seed count n below 3, seeds 1 to n, dataset
 *       {@value #DATASET}-{@code n}seed (the tolerance then has a smaller seeds' spread, none at one seed);</li>
 *   <li>{@code notebook}: 2 ms of arrivals, seeds 1 and 2, as notebook 14 runs the other four schemes
 *       ({@link HpccComparison#evaluationsOver}); dataset {@value #DATASET}-2ms.</li>
 * </ul>
 *
 * <p>Run: {@code ./bench --main fabriclab.validation.HpccSchemesMain [full|notebook [<datasets dir> [<seeds>]]]}
 * (defaults {@code full}, {@code datasets}, 3; the seed count only for {@code full}, 1 to 3), from the repository's root. A full run is 30 simulations of about a hundred seconds
 * of one core each.
 */
public final class HpccSchemesMain {
    /** The dataset written at the full size. */
    public static final String DATASET = "hpcc-schemes-tenths";
    /** The notebook's arrival window, ps. */
    public static final long NOTEBOOK_WINDOW_PS = 2 * fabriclab.fabric.Time.MS;

    private HpccSchemesMain() {
    }

    /** The evaluations of {@code size} ({@code full} or {@code notebook}). */
    static List<HpccEvaluation> evaluations(String size) {
        return evaluations(size, 3);
    }

    /** The evaluations of {@code size} with seeds 1 to {@code seeds} at the full size (1 to 3). */
    static List<HpccEvaluation> evaluations(String size, int seeds) {
        if (size.equals("notebook")) {
            return HpccComparison.evaluationsOver(List.of("websearch", "fb-hadoop"), 0.3, List.of(1L, 2L), NOTEBOOK_WINDOW_PS);
        }
        if (!size.equals("full")) {
            throw new IllegalArgumentException("size must be full or notebook, got \"" + size + "\"");
        }
        fabriclab.Parameters.inRange("seeds", seeds, 1, 3);
        return HpccComparison.evaluations(List.of("websearch", "fb-hadoop"), 0.3, List.of(1L, 2L, 3L).subList(0, seeds));
    }

    public static void main(String[] args) throws Exception {
        String size = args.length > 0 ? args[0] : "full";
        Path root = Path.of(args.length > 1 ? args[1] : "datasets");
        int seeds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        List<HpccEvaluation> evaluations = evaluations(size, seeds);
        long t0 = System.nanoTime();
        Table t = HpccComparison.schemeTenths(evaluations, HpccComparison.FIGURE_SCHEMES, HpccComparison.published(),
                SweepExecutors.configured(Runtime.getRuntime().availableProcessors()), Progress.defaultSink());
        System.out.println(HpccComparison.passCounts(t).print());
        System.out.printf("%d runs in %.1f s%n", evaluations.size() * HpccComparison.FIGURE_SCHEMES.size(), (System.nanoTime() - t0) / 1e9);
        Map<String, String> units = new LinkedHashMap<>();
        for (String c : t.columnNames()) {
            units.put(c, c.equals("largest_bytes") ? "bytes" : "");
        }
        String name = size.equals("full") ? (seeds == 3 ? DATASET : DATASET + "-" + seeds + "seed") : DATASET + "-2ms";
        Provenance p = new Provenance(name, "FCT slowdown per tenth of flows of the five schemes of HPCC's figure (HPCC-PINT,"
                + " HPCC-INT, DCQCN+w, TIMELY+w, DCTCP), ours on the leaf-spine against the published curves, WebSearch and FB-Hadoop"
                + " at load 0.3", "model",
                new Provenance.Paper("outside reference (not a seed paper)", "Yuliang Li et al.", "HPCC: High Precision Congestion Control",
                        "ACM SIGCOMM 2019", null),
                "hpcc-group.github.io results.md, figures fct_wb30_*pct and fct_fb30_*pct (dataset hpcc-fct-slowdown-30pct)", units,
                "Written by ./bench --main fabriclab.validation.HpccSchemesMain " + size + (seeds == 3 ? "" : " datasets " + seeds) + ": " + (size.equals("full")
                        ? "HpccEvaluation.forSteps with 100 flows per 1% step, seeds 1 to " + seeds : "2 ms of arrivals, seeds 1 and 2")
                        + "; HpccComparison.schemeTenths: per scheme, workload, percentile and tenth the median over seeds of the"
                        + " median of the tenth's ten 1% steps (ours), its range over seeds, the published value, the tolerance"
                        + " (the seeds' spread plus the reading's uncertainty) and pass or miss.");
        System.out.println(Datasets.write(root, t, p));
    }
}
