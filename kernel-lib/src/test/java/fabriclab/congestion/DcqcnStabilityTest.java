package fabriclab.congestion;

import fabriclab.progress.Progress;
import org.junit.jupiter.api.Test;

import static fabriclab.congestion.EcnMarkingTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DcqcnStabilityTest {
    private static final DcqcnParameters ZHU = DcqcnParameters.zhu2015();

    /**
     * The fixed point balances the rate equations: with R_C = C/N, alpha = 1 - (1-p)^(tau' R) and
     * R_T as returned, both rate derivatives vanish (checked with the terms written out here).
     */
    @Test
    void fixedPointZeroesTheDerivatives() {
        Bottleneck port = Bottleneck.of(40e9);
        DcqcnFixedPoint fp = DcqcnFixedPoint.solve(ZHU, port, 10);
        double pkt = 1000;
        double r = fp.rateBitsPerSecond() / (8 * pkt);
        double rt = fp.targetRateBitsPerSecond() / (8 * pkt);
        double p = fp.markingProbability();
        double tau = 50e-6;
        double a = 1 - Math.pow(1 - p, tau * r);
        double bPk = 10e6 / pkt;
        double b = p / (Math.pow(1 - p, -bPk) - 1);
        double c = b * Math.pow(1 - p, 5 * bPk);
        double d = p / (Math.pow(1 - p, -55e-6 * r) - 1);
        double e = d * Math.pow(1 - p, 5 * 55e-6 * r);
        double alpha = 1 - Math.pow(1 - p, 55e-6 * r);
        double rai = 40e6 / (8 * pkt);
        double dRc = -r * alpha * a / (2 * tau) + (rt - r) * r * (b + d) / 2;
        double dRt = -(rt - r) * a / tau + rai * r * (c + e);
        assertEquals(alpha, fp.alpha(), 1e-12);
        assertEquals(0.0, dRc / (r * a / tau), 1e-9);
        assertEquals(0.0, dRt / (rai * r * (c + e)), 1e-9);
        assertEquals(4e9, fp.rateBitsPerSecond(), 1e-3);
        assertEquals(5_000 + p / 0.01 * 195_000, fp.queueBytes(), 1e-6);
    }

    /** With many flows p* exceeds Pmax: the fixed point is reported at Kmax, off the ramp. */
    @Test
    void offRampFixedPoint() {
        DcqcnFixedPoint fp = DcqcnFixedPoint.solve(ZHU, Bottleneck.of(100e9), 7000);
        assertFalse(fp.onRamp());
        assertTrue(fp.markingProbability() > 0.01 && fp.markingProbability() < 1);
        assertEquals(200_000, fp.queueBytes(), 0);
    }

    /**
     * The phase margin's sign agrees with a second method, the nonlinear simulation: positive
     * margin (tau* = 4 us) gives a queue that settles (second-half swing under 5% of its mean);
     * negative margin (tau* = 100 us) gives a sustained oscillation that empties the queue.
     */
    @Test
    void phaseMarginSignAgreesWithSimulation() {
        Bottleneck port = Bottleneck.of(40e9);
        DcqcnStability stable = DcqcnStability.analyse(ZHU, port, 10);
        DcqcnParameters slow = ZHU.withFeedbackDelay(100e-6);
        DcqcnStability unstable = DcqcnStability.analyse(slow, port, 10);
        assertTrue(stable.onRamp() && unstable.onRamp());
        assertTrue(stable.phaseMarginDeg() > 0, "stable margin " + stable.phaseMarginDeg());
        assertTrue(unstable.phaseMarginDeg() < 0, "unstable margin " + unstable.phaseMarginDeg());
        FluidMetrics ms = DcqcnFluidModel.of(ZHU, port, 10).simulate(0.1, 1e-6, 1e-3, Progress.silent()).metrics();
        FluidMetrics mu = DcqcnFluidModel.of(slow, port, 10).simulate(0.1, 1e-6, 1e-3, Progress.silent()).metrics();
        assertTrue((ms.maxQueueBytes() - ms.minQueueBytes()) < 0.05 * ms.meanQueueBytes());
        assertTrue((mu.maxQueueBytes() - mu.minQueueBytes()) > 1.0 * mu.meanQueueBytes());
    }

    /** The margin falls as the loop delay grows (more phase lag at the same crossover). */
    @Test
    void marginFallsWithDelay() {
        Bottleneck port = Bottleneck.of(40e9);
        double prev = Double.POSITIVE_INFINITY;
        for (double d : new double[]{1e-6, 10e-6, 50e-6, 100e-6}) {
            double pm = DcqcnStability.analyse(ZHU.withFeedbackDelay(d), port, 10).phaseMarginDeg();
            assertTrue(pm < prev, "margin at " + d + " = " + pm);
            prev = pm;
        }
    }

    @Test
    void badInputNamesTheParameter() {
        assertMessage("flows", () -> DcqcnStability.analyse(ZHU, Bottleneck.of(40e9), 0));
        assertMessage("params", () -> DcqcnFixedPoint.solve(null, Bottleneck.of(40e9), 1));
    }
}
