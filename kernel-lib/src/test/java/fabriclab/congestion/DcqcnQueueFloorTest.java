package fabriclab.congestion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.congestion.dde.DdeSolver;
import fabriclab.fabric.EcnMarking;
import fabriclab.progress.Progress;
import org.junit.jupiter.api.Test;

/**
 * The queue's floor at 0 holds in both solvers on cases where an adaptive step could take it below 0:
 * 10 flows at 40 Gb/s for 200 ms with a feedback delay tau* of 85 us.
 */
class DcqcnQueueFloorTest {
    private static final double DURATION_S = 0.2;
    private static final double TAU_STAR_S = 85e-6;

    private static FluidRun run(DcqcnParameters p, DdeSolver solver) {
        return DcqcnFluidModel.of(p, Bottleneck.of(40e9), 10).simulate(DURATION_S, solver, 1e-6, Progress.silent());
    }

    private static FluidRun adaptive(DcqcnParameters p) {
        return run(p, DdeSolver.adaptive(1e-6, 1e-8));
    }

    private static FluidRun rk4(DcqcnParameters p) {
        return run(p, DdeSolver.rk4(1e-6));
    }

    /** Times [us] at which the queue rises above 100 B from empty (0.001 KB or less). */
    private static double[] bursts(FluidRun r) {
        double[] t = r.trajectory().doubleColumn("time_us").asDoubleArray();
        double[] q = r.trajectory().doubleColumn("queue_kb").asDoubleArray();
        java.util.List<Double> out = new java.util.ArrayList<>();
        boolean empty = true;
        for (int i = 0; i < q.length; i++) {
            assertTrue(q[i] >= 0, "queue below 0 at " + t[i] + " us: " + q[i] + " KB");
            if (empty && q[i] > 0.1) {
                out.add(t[i]);
                empty = false;
            }
            if (q[i] <= 0.001) {
                empty = true;
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * Zhu et al.'s parameters with tau* 85 us do not settle: the queue fills and drains in a cycle. The two solvers solve
     * the same equations, but along a cycle their phases drift apart, so they are compared over the run: the same number
     * of cycles (give or take one), and time averages within the bound of a phase shift, a mean over T of a quantity of
     * period P differing between two phases by at most its range times P / T (P measured as the mean gap between the
     * queue's rises from empty, about 3.5 ms here, so P / T is under 2%).
     */
    @Test
    void oscillatingCaseAgreesWithRk4() {
        DcqcnParameters p = DcqcnParameters.zhu2015().withFeedbackDelay(TAU_STAR_S);
        FluidRun a = adaptive(p);
        FluidRun f = rk4(p);
        double[] ba = bursts(a);
        double[] bf = bursts(f);
        assertTrue(ba.length > 10, "a cycle, not a settled queue: " + ba.length + " rises from empty");
        assertTrue(Math.abs(ba.length - bf.length) <= 1, ba.length + " cycles against RK4's " + bf.length);
        double period = Math.max((ba[ba.length - 1] - ba[0]) / (ba.length - 1), (bf[bf.length - 1] - bf[0]) / (bf.length - 1))
                * 1e-6;
        double share = period / DURATION_S;
        assertEquals(0, a.metrics().minQueueBytes());
        assertEquals(0, f.metrics().minQueueBytes());
        double range = Math.max(a.metrics().maxQueueBytes(), f.metrics().maxQueueBytes());
        assertEquals(f.metrics().meanQueueBytes(), a.metrics().meanQueueBytes(), range * share);
        assertEquals(f.metrics().utilisation(), a.metrics().utilisation(), share);
        assertEquals(f.metrics().deliveredThroughputBitsPerSecond(), a.metrics().deliveredThroughputBitsPerSecond(),
                40e9 * share);
    }

    /**
     * With Kmax 2 MB (and with the default 200 KB at the default tau* of 4 us) the same flows settle: both solvers end at
     * the fixed point's queue ({@link DcqcnFixedPoint}, solved apart from either), within 1%, and deliver the line rate.
     */
    @Test
    void settlingCasesReachTheFixedPoint() {
        DcqcnParameters[] cases = {
            DcqcnParameters.zhu2015().withFeedbackDelay(TAU_STAR_S).withMarking(new EcnMarking(5e3, 2e6, 0.01)),
            DcqcnParameters.zhu2015(),
        };
        for (DcqcnParameters p : cases) {
            double qStar = DcqcnFixedPoint.solve(p, Bottleneck.of(40e9), 10).queueBytes();
            for (FluidRun r : new FluidRun[] {adaptive(p), rk4(p)}) {
                double[] q = r.trajectory().doubleColumn("queue_kb").asDoubleArray();
                assertEquals(qStar, q[q.length - 1] * 1000, qStar * 0.01, p.marking() + ", tau* " + p.feedbackDelayS());
                assertTrue(r.metrics().minQueueBytes() >= 0);
                assertEquals(1.0, r.metrics().utilisation(), 1e-3);
            }
        }
    }
}
