package fabriclab.congestion;

import fabriclab.fabric.EcnMarking;
import fabriclab.progress.Progress;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

import java.util.List;

import static fabriclab.congestion.EcnMarkingTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static fabriclab.TestArguments.rejects;

class EcnThresholdTuningTest {
    private final EcnThresholdTuning tuning = new EcnThresholdTuning(DcqcnParameters.zhu2015(),
            Bottleneck.of(40e9), List.of(FlowClass.of(4)), 5e-3, 1e-6, 10);

    /** The cost is the queueing delay plus lambda per lost percentage point, from the run's metrics. */
    @Test
    void costFromMetrics() {
        EcnThresholdTuning.Evaluation e = tuning.evaluate(EcnMarking.dcqcnDefaults());
        double queueingUs = e.metrics().meanQueueBytes() * 8 / 40e9 * 1e6;
        assertEquals(queueingUs + 10 * 100 * (1 - e.metrics().utilisation()), e.cost(), 1e-9);
    }

    /** The optimiser's answer is never worse than its starting point (it evaluates the start first). */
    @Test
    void optimiserNoWorseThanStart() {
        double start = tuning.evaluate(EcnMarking.dcqcnDefaults()).cost();
        EcnThresholdTuning.Evaluation best = tuning.optimise(EcnMarking.dcqcnDefaults(), 12, Progress.silent());
        assertTrue(best.cost() <= start + 1e-12);
    }

    /** The grid skips Kmax <= Kmin and has one row per valid combination. */
    @Test
    void gridShape() throws InterruptedException {
        Table g = tuning.grid(new double[]{5e3, 300e3}, new double[]{200e3, 400e3}, new double[]{0.01},
                Progress.silent());
        assertEquals(3, g.rowCount());
    }

    @Test
    void sweepsAndBadInput() throws InterruptedException {
        Table s = DcqcnSweeps.stability(DcqcnParameters.zhu2015(), Bottleneck.of(40e9), new int[]{2, 10},
                new double[]{4e-6, 100e-6}, Progress.silent());
        assertEquals(4, s.rowCount());
        assertMessage("flows[0]", () -> DcqcnSweeps.stability(DcqcnParameters.zhu2015(), Bottleneck.of(40e9),
                new int[]{0}, new double[]{4e-6}, Progress.silent()));
        assertMessage("delaysS[0]", () -> DcqcnSweeps.stability(DcqcnParameters.zhu2015(), Bottleneck.of(40e9),
                new int[]{1}, new double[]{-4e-6}, Progress.silent()));
        assertMessage("maxEvaluations", () -> tuning.optimise(EcnMarking.dcqcnDefaults(), 2, Progress.silent()));
        assertMessage("lambdaUsPerPoint", () -> new EcnThresholdTuning(DcqcnParameters.zhu2015(),
                Bottleneck.of(40e9), List.of(FlowClass.of(4)), 5e-3, 1e-6, -1));
    }

    @Test
    void aNanThresholdIsRejected() {
        EcnThresholdTuning tuning = new EcnThresholdTuning(DcqcnParameters.zhu2015(), Bottleneck.of(40e9),
                List.of(FlowClass.of(4)), 1e-4, 1e-6, 10);
        rejects("kMinBytes", () -> tuning.grid(new double[] {Double.NaN}, new double[] {100e3}, new double[] {0.01},
                Progress.silent()));
    }
}
