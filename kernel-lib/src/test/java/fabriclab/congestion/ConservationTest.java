package fabriclab.congestion;

import fabriclab.progress.Progress;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Conservation of bytes at the bottleneck, checked from the trajectories: bytes sent = bytes
 * forwarded + bytes queued at the end + bytes dropped. Forwarded is C while the queue is non-empty
 * and the arrival rate (at most C) otherwise.
 */
class ConservationTest {

    private static double[] balance(Table t, int flows, double lineRateBitsPerSecond, double dt) {
        double[] rate = t.doubleColumn(t.columnNames().get(1)).asDoubleArray();
        double[] q = t.doubleColumn("queue_kb").asDoubleArray();
        double sent = 0;
        double forwarded = 0;
        for (int i = 0; i + 1 < rate.length; i++) {
            double a0 = flows * rate[i] * 1e9 / 8;
            double a1 = flows * rate[i + 1] * 1e9 / 8;
            sent += (a0 + a1) / 2 * dt;
            double c = lineRateBitsPerSecond / 8;
            double d0 = q[i] > 0 ? c : Math.min(a0, c);
            double d1 = q[i + 1] > 0 ? c : Math.min(a1, c);
            forwarded += (d0 + d1) / 2 * dt;
        }
        return new double[]{sent, forwarded, q[q.length - 1] * 1000};
    }

    @Test
    void dcqcnConservesBytes() {
        double dt = 1e-7;
        FluidRun run = DcqcnFluidModel.of(DcqcnParameters.zhu2015(), Bottleneck.of(40e9).withBuffer(50e3), 4)
                .simulate(2e-3, dt, dt, Progress.silent());
        double[] b = balance(run.trajectory(), 4, 40e9, dt);
        double dropped = run.metrics().droppedBytes();
        assertTrue(dropped > 0, "the start-up burst must overflow the 50 KB buffer");
        assertEquals(b[0], b[1] + b[2] + dropped, 1e-3 * b[0]);
    }

    @Test
    void ctccConservesBytes() {
        double dt = 1e-7;
        FluidRun run = new RttFluidModel(RttControlParameters.ctcc(), Bottleneck.of(100e9).withBuffer(100e3),
                List.of(FlowClass.of(4))).simulate(1e-3, dt, dt, Progress.silent());
        double[] b = balance(run.trajectory(), 4, 100e9, dt);
        double dropped = run.metrics().droppedBytes();
        assertTrue(dropped > 0);
        assertEquals(b[0], b[1] + b[2] + dropped, 1e-3 * b[0]);
    }
}
