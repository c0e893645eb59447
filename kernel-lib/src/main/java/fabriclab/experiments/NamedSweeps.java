package fabriclab.experiments;

import fabriclab.Parameters;
import fabriclab.collectives.Collective;
import fabriclab.datasets.Dataset;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.progress.ProgressSink;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The sweeps of kernel-lib by name, for commands that run one on a cluster
 * ({@code fabriclab.spark.SweepMain}, {@code spark-submit}): each is a {@link SweepPlan} plus the function
 * that turns its results into a model dataset (table and provenance).
 *
 * <ul>
 *   <li>{@value GseVsRoceJct#FULL_SWEEP}: {@link GseVsRoceJct#fullSweepPlan()}, 240 runs (notebook 08);</li>
 *   <li>{@value Llama2Fabric#COMM_RUNS}: {@link Llama2Fabric#commRunsPlan()}, 24 runs (notebook 09);</li>
 *   <li>{@value #JCT_SMOKE}: {@link #jctSmokePlan()}, 8 runs of a second each, to try a cluster.</li>
 * </ul>
 */
public final class NamedSweeps {
    /** Name of the small sweep {@link #jctSmokePlan()}. */
    public static final String JCT_SMOKE = "jct-smoke";

    private NamedSweeps() {
    }

    /**
     * A sweep with a name: its plan and how its results become a dataset.
     *
     * @param name the name (also the dataset's name)
     * @param plan the sweep
     * @param dataset the results as a dataset (table in the plan's order, provenance)
     * @param <P> the parameter record
     * @param <R> the result record
     */
    public record Named<P extends Serializable, R extends Serializable>(String name, SweepPlan<P, R> plan,
            Function<List<R>, Dataset> dataset) {
        /** Validates. */
        public Named {
            Parameters.notBlank("name", name);
            Parameters.notNull("plan", plan);
            Parameters.notNull("dataset", dataset);
        }

        /** Runs the plan on {@code executor} and returns the dataset of its results. */
        public Dataset run(SweepExecutor executor, ProgressSink sink) throws InterruptedException {
            Parameters.notNull("executor", executor);
            return dataset.apply(executor.run(plan, sink));
        }
    }

    private static final Map<String, Supplier<Named<?, ?>>> SWEEPS = new TreeMap<>(Map.of(
            GseVsRoceJct.FULL_SWEEP, () -> new Named<>(GseVsRoceJct.FULL_SWEEP, GseVsRoceJct.fullSweepPlan(),
                    GseVsRoceJct::fullSweepDataset),
            Llama2Fabric.COMM_RUNS, () -> new Named<>(Llama2Fabric.COMM_RUNS, Llama2Fabric.commRunsPlan(),
                    Llama2Fabric::commRunsDataset),
            JCT_SMOKE, () -> new Named<>(JCT_SMOKE, jctSmokePlan(), runs -> new Dataset(GseVsRoceJct.provenance(JCT_SMOKE,
                    "A small sweep to try an executor: " + runs.size() + " runs of GseVsRoceJct (deterministic)."),
                    GseVsRoceJct.table(JCT_SMOKE, runs)))));

    /** The names, sorted. */
    public static List<String> names() {
        return List.copyOf(SWEEPS.keySet());
    }

    /**
     * The sweep called {@code name}.
     *
     * @throws IllegalArgumentException if there is none (the message lists the names)
     */
    public static Named<?, ?> byName(String name) {
        Parameters.notNull("name", name);
        Supplier<Named<?, ?>> s = SWEEPS.get(name);
        if (s == null) {
            throw new IllegalArgumentException("name must be one of " + names() + ", got \"" + name + "\"");
        }
        return s.get();
    }

    /**
     * A small sweep of the 000 JCT experiment: speedup 1.5, AlltoAll of 1 MiB per rank, RoCE and GSE,
     * seeds 1 to 4 (8 runs, in the order fabric, seed).
     */
    public static SweepPlan<GseVsRoceJct.Point, GseVsRoceJct.Result> jctSmokePlan() {
        return new GseVsRoceJct(1.5).sweepPlan(List.of(Collective.ALL_TO_ALL), new long[] {1L << 20},
                List.of(RoceOrGse.ROCE, RoceOrGse.GSE), new long[] {1, 2, 3, 4});
    }
}
