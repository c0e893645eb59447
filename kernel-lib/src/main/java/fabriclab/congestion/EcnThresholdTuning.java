package fabriclab.congestion;

import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.Incast;
import fabriclab.Parameters;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.sweep.Columns;
import fabriclab.sweep.Sweep;
import org.apache.commons.math3.analysis.MultivariateFunction;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.BOBYQAOptimizer;
import tech.tablesaw.api.Table;

import java.util.ArrayList;
import java.util.List;

/**
 * Tuning of the ECN thresholds (Kmin, Kmax, Pmax) of DCQCN on a fluid-model scenario: the idea behind
 * "AI ECN" in 003 (white paper: ECN thresholds tuned online from queue and throughput telemetry) and
 * 002 (optimised RoCE). Every setting is scored by running {@link DcqcnFluidModel} on the scenario
 * and taking
 * <pre>  cost = mean queueing delay [us] + lambda * 100 * (1 - utilisation)</pre>
 * so lambda [us per percentage point] prices one point of lost utilisation in microseconds of
 * queueing delay (a choice of the user; 10 by default). {@link #grid} evaluates a grid;
 * {@link #optimise} searches with Commons Math's BOBYQA (derivative-free, bounded) over
 * (Kmin [KB], Kmax - Kmin [KB], Pmax).
 *
 * @param params DCQCN parameters (their marking is replaced by each candidate)
 * @param port bottleneck
 * @param classes flow classes of the scenario
 * @param durationS length of each evaluation run [s]
 * @param stepS RK4 step [s]
 * @param lambdaUsPerPoint price of one percentage point of utilisation [us], {@code >= 0}
 */
public record EcnThresholdTuning(DcqcnParameters params, Bottleneck port, List<FlowClass> classes, double durationS,
                                 double stepS, double lambdaUsPerPoint) {
    /** Validates the fields. */
    public EcnThresholdTuning {
        Parameters.notNull("params", params);
        Parameters.notNull("port", port);
        classes = List.copyOf(Parameters.noNullElements("classes", classes));
        Parameters.positive("durationS", durationS);
        Parameters.positive("stepS", stepS);
        Parameters.nonNegative("lambdaUsPerPoint", lambdaUsPerPoint);
    }

    /**
     * The tuning of an incast into its receiver's port (the flow classes of
     * {@link DcqcnFluidModel#incast}, labelled "incast").
     *
     * @param params DCQCN parameters (their marking is replaced by each candidate)
     * @param port the receiver's port, line rate equal to {@code incast.receiverRateBitsPerSecond()}
     * @param incast the incast; its sender rate must equal the receiver's
     * @param durationS length of each evaluation run [s]
     * @param stepS RK4 step [s]
     * @param lambdaUsPerPoint price of one percentage point of utilisation [us], {@code >= 0}
     */
    public static EcnThresholdTuning incast(DcqcnParameters params, Bottleneck port, Incast incast, double durationS,
                                            double stepS, double lambdaUsPerPoint) {
        return new EcnThresholdTuning(params, port, FlowClass.forIncast(port, incast), durationS, stepS,
                lambdaUsPerPoint);
    }

    /** Result of one evaluation: the marking curve, its run's metrics and its cost. */
    public record Evaluation(EcnMarking marking, FluidMetrics metrics, double cost) {
        /** Validates: marking and metrics not null, cost finite. */
        public Evaluation {
            Parameters.notNull("marking", marking);
            Parameters.notNull("metrics", metrics);
            Parameters.finite("cost", cost);
        }
    }

    /** Runs the scenario with {@code marking} and scores it. */
    public Evaluation evaluate(EcnMarking marking) {
        Parameters.notNull("marking", marking);
        FluidMetrics m = new DcqcnFluidModel(params.withMarking(marking), port, classes)
                .simulate(durationS, stepS, durationS / 10, Progress.silent()).metrics();
        double queueingUs = (m.meanProbeLatencyS() - port.baseRttS()) * 1e6;
        return new Evaluation(marking, m, queueingUs + lambdaUsPerPoint * 100 * (1 - m.utilisation()));
    }

    private static final Columns<Evaluation> GRID = Columns.<Evaluation>of()
            .doubleColumn("kmin_kb", "KB", e -> e.marking().kMinBytes() / 1000)
            .doubleColumn("kmax_kb", "KB", e -> e.marking().kMaxBytes() / 1000)
            .doubleColumn("pmax", "probability", e -> e.marking().pMax())
            .doubleColumn("mean_queue_kb", "KB", e -> e.metrics().meanQueueBytes() / 1000)
            .doubleColumn("max_queue_kb", "KB", e -> e.metrics().maxQueueBytes() / 1000)
            .doubleColumn("throughput_gbps", "Gb/s", e -> e.metrics().deliveredThroughputBitsPerSecond() / 1e9)
            .doubleColumn("utilisation", "fraction", e -> e.metrics().utilisation())
            .doubleColumn("cost", "us", Evaluation::cost);

    /**
     * Evaluates every combination with Kmin &lt; Kmax, one {@link Sweep} point each, in the order Kmin,
     * Kmax, Pmax.
     *
     * @param kMinBytes Kmin values [bytes]
     * @param kMaxBytes Kmax values [bytes]
     * @param pMax Pmax values
     * @param sink progress sink (one step per valid combination)
     * @return table: kmin_kb, kmax_kb, pmax, mean_queue_kb, max_queue_kb, throughput_gbps,
     *         utilisation, cost
     * @throws InterruptedException if the calling thread is interrupted
     */
    public Table grid(double[] kMinBytes, double[] kMaxBytes, double[] pMax, ProgressSink sink) throws InterruptedException {
        Parameters.finiteElements("kMinBytes", kMinBytes);
        Parameters.finiteElements("kMaxBytes", kMaxBytes);
        Parameters.finiteElements("pMax", pMax);
        Parameters.notNull("sink", sink);
        List<EcnMarking> points = new ArrayList<>();
        for (double lo : kMinBytes) {
            for (double hi : kMaxBytes) {
                for (double p : pMax) {
                    if (hi > lo) {
                        points.add(new EcnMarking(lo, hi, p));
                    }
                }
            }
        }
        if (points.isEmpty()) {
            throw new IllegalArgumentException("kMinBytes " + java.util.Arrays.toString(kMinBytes) + ", kMaxBytes "
                    + java.util.Arrays.toString(kMaxBytes) + " and pMax " + java.util.Arrays.toString(pMax)
                    + " must give at least one point with kMax > kMin");
        }
        return GRID.table("ECN threshold grid", Sweep.run("ECN threshold grid", points, this::evaluate, 1, sink));
    }

    /**
     * BOBYQA search from {@code start} within Kmin in [0.5, 2000] KB, Kmax - Kmin in [1, 5000] KB,
     * Pmax in [0.001, 1] (each on a logarithmic scale mapped to [0, 1]; initial trust radius 0.2,
     * final 1e-3). The cost is noisy where the loop oscillates, so the result is a good setting
     * found within the budget, not a certified optimum.
     *
     * @param start initial marking curve (inside the bounds)
     * @param maxEvaluations budget of model runs, {@code >= 10}
     * @param sink progress sink (one step per run)
     * @return the best evaluation found
     */
    public Evaluation optimise(EcnMarking start, int maxEvaluations, ProgressSink sink) {
        Parameters.notNull("start", start);
        Parameters.atLeast("maxEvaluations", maxEvaluations, 10);
        Parameters.notNull("sink", sink);
        double[] lower = {0.5, 1, 0.001};
        double[] upper = {2000, 5000, 1};
        double[] natural = {start.kMinBytes() / 1000, (start.kMaxBytes() - start.kMinBytes()) / 1000, start.pMax()};
        String[] names = {"start.kMinBytes / 1000 [KB]", "(start.kMaxBytes - start.kMinBytes) / 1000 [KB]", "start.pMax"};
        double[] x0 = new double[3];
        for (int i = 0; i < 3; i++) {
            Parameters.inRange(names[i], natural[i], lower[i], upper[i]);
            // the search runs on log scales mapped to [0, 1], so the three variables weigh alike
            x0[i] = Math.log(natural[i] / lower[i]) / Math.log(upper[i] / lower[i]);
        }
        Evaluation[] best = {null};
        try (Progress progress = Progress.start("ECN threshold optimiser", maxEvaluations, sink)) {
            MultivariateFunction f = u -> {
                double[] x = new double[3];
                for (int i = 0; i < 3; i++) {
                    x[i] = lower[i] * Math.pow(upper[i] / lower[i], Math.min(1, Math.max(0, u[i])));
                }
                EcnMarking w = new EcnMarking(x[0] * 1000, (x[0] + x[1]) * 1000, x[2]);
                Evaluation e = evaluate(w);
                if (best[0] == null || e.cost() < best[0].cost()) {
                    best[0] = e;
                }
                progress.step();
                return e.cost();
            };
            try {
                new BOBYQAOptimizer(7, 0.2, 1e-3).optimize(new MaxEval(maxEvaluations),
                        new ObjectiveFunction(f), GoalType.MINIMIZE, new InitialGuess(x0),
                        new SimpleBounds(new double[]{0, 0, 0}, new double[]{1, 1, 1}));
            } catch (org.apache.commons.math3.exception.TooManyEvaluationsException budgetSpent) {
                // the budget is the user's stopping rule; keep the best point seen
            }
        }
        return best[0];
    }
}
