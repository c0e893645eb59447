package fabriclab.congestion;

import fabriclab.progress.Progress;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One DCQCN flow into a port of its own line rate. The flow's rate is capped at C, so arrivals never
 * exceed the service: the fluid model, run independently of the fixed-point solver, keeps the queue
 * empty and marks nothing, and the fixed point must say the same.
 */
class DcqcnOneFlowTest {
    @Test
    void oneFlowNeverQueuesInTheFluidModelAndTheFixedPointAgrees() {
        for (double c : new double[] {40e9, 100e9}) {
            FluidMetrics m = DcqcnFluidModel.of(DcqcnParameters.zhu2015(), Bottleneck.of(c), 1)
                    .simulate(0.01, 1e-6, 1e-3, Progress.silent()).metrics();
            assertEquals(0.0, m.peakQueueBytes(), 1e-6, "fluid model, peak queue at " + c);
            assertEquals(1.0, m.utilisation(), 1e-9, "fluid model, utilisation at " + c);

            DcqcnFixedPoint fp = DcqcnFixedPoint.solve(DcqcnParameters.zhu2015(), Bottleneck.of(c), 1);
            assertEquals(0.0, fp.queueBytes(), "q*");
            assertEquals(0.0, fp.markingProbability(), "p*");
            assertEquals(0.0, fp.alpha(), "alpha*");
            assertEquals(c, fp.rateBitsPerSecond(), "R_C");
            assertEquals(c, fp.targetRateBitsPerSecond(), "R_T");
        }
    }

    /** Nothing is marked at the one-flow fixed point, so the loop has no gain: |L| never reaches 1. */
    @Test
    void oneFlowHasNoLoopGain() {
        DcqcnStability s = DcqcnStability.analyse(DcqcnParameters.zhu2015(), Bottleneck.of(100e9), 1);
        assertEquals(180.0, s.phaseMarginDeg());
        assertEquals(0.0, s.crossoverRadPerS());
        assertTrue(s.onRamp());
    }

    @Test
    void oneDcqcnFlowHasNoStandingQueue() {
        DcqcnFixedPoint fp = DcqcnFixedPoint.solve(DcqcnParameters.zhu2015(), Bottleneck.of(40e9), 1);
        assertEquals(0.0, fp.queueBytes()); // one flow is capped at line rate: the queue never grows
        assertEquals(40e9, fp.rateBitsPerSecond());
    }
}
