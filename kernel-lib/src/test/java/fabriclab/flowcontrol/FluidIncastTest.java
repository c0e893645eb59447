package fabriclab.flowcontrol;

import fabriclab.fabric.Incast;
import fabriclab.scheduling.IncastBounds;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FluidIncastTest {
    private static final double G100 = 100e9;
    private static final long G100L = 100_000_000_000L;

    @Test
    void synchronizedQueueGrowsAsExcessRateTimesTimeUntilOverflow() {
        // 8 senders x 100G into 100G, 1 MB each, 4 MB buffer
        FluidQueue.Trajectory tr = FluidQueue.incast(Incast.of(8, 1_000_000, G100L), 4e6);
        double slope = (8 * G100 - G100) / 8.0; // bytes/s
        double tOverflow = 4e6 / slope;
        assertEquals(tOverflow, tr.overflowTimeS().getAsDouble(), 1e-15);
        for (double f : new double[] {0.1, 0.5, 0.9}) {
            double t = f * tOverflow;
            assertEquals(slope * t, tr.queueAt(t), 1e-6);
        }
        // senders stop at 8M/r = 80 us; loss while full = slope * (80us - tOverflow)
        double tEnd = 8 * 1e6 / G100;
        assertEquals(slope * (tEnd - tOverflow), tr.lostBytes(), 1e-3);
        // conservation: delivered bytes leave at R with no idle time from 0 to completion
        assertEquals(8e6, tr.arrivedBytes(), 1e-6);
        assertEquals(8 * tr.deliveredBytes() / G100, tr.completionS(), 1e-12);
        assertEquals(4e6, tr.maxQueueBytes(), 1e-6);
    }

    @Test
    void unboundedBufferPeaksAtMTimesNMinusRatio() {
        Incast in = new Incast(16, 1, 64_000, 25_000_000_000L, G100L, 0);
        // 16 x 25G = 4 x R: peak = M (16 - 4) = 768 KB at t = 8M/r
        assertEquals(4.0, in.overload(), 0);
        assertEquals(64e3 * 12, IncastBounds.noControlPeakQueueBytes(in), 1e-9);
        FluidQueue.Trajectory tr = FluidQueue.incast(in, Double.POSITIVE_INFINITY);
        assertEquals(64e3 * 12, tr.maxQueueBytes(), 1e-6);
        assertEquals(0, tr.lostBytes());
        assertTrue(tr.overflowTimeS().isEmpty());
        assertEquals(8 * 16 * 64e3 / G100, tr.completionS(), 1e-12);
    }

    @Test
    void staggeredStartsThatDoNotOverlapNeverQueue() {
        // each message lasts 8M/r = 5.12 us at 100G; stagger 6 us: never two at once, r = R
        Incast in = Incast.of(10, 64_000, G100L).withStagger(6_000_000L);
        FluidQueue.Trajectory tr = FluidQueue.incast(in, 1e5);
        assertEquals(0, tr.maxQueueBytes(), 1e-9);
        assertEquals(9 * 6e-6 + 8 * 64e3 / G100, tr.completionS(), 1e-12);
    }

    @Test
    void twoOverlappingIntervalsByHand() {
        // A: 0..10us at 80G, B: 5..15us at 80G, R = 100G. Queue grows at 60G/8 from 5 to 10 us
        // (37.5 KB), then drains at 20G/8 = 2.5 GB/s until 15 us -> 25 KB, then drains at R.
        List<RateInterval> a = List.of(new RateInterval(0, 10e-6, 80e9), new RateInterval(5e-6, 15e-6, 80e9));
        FluidQueue.Trajectory tr = FluidQueue.run(a, G100, Double.POSITIVE_INFINITY);
        assertEquals(37_500, tr.maxQueueBytes(), 1e-6);
        assertEquals(25_000, tr.queueAt(15e-6), 1e-6);
        assertEquals(15e-6 + 8 * 25_000 / G100, tr.completionS(), 1e-15);
        assertEquals(tr.arrivedBytes(), tr.deliveredBytes());
    }

    @Test
    void badInputNamesTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FluidQueue.incast(Incast.of(2, 1_000_000, G100L), 0));
        assertTrue(e.getMessage().contains("bufferBytes"));
        e = assertThrows(IllegalArgumentException.class, () -> FluidQueue.incast(null, 1e6));
        assertTrue(e.getMessage().contains("incast"));
        e = assertThrows(IllegalArgumentException.class, () -> new RateInterval(2, 1, 1));
        assertTrue(e.getMessage().contains("endS"));
        e = assertThrows(IllegalArgumentException.class, () -> FluidQueue.run(List.of(), G100, 1));
        assertTrue(e.getMessage().contains("arrivals"));
    }
}
