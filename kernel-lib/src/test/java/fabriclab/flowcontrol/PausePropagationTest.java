package fabriclab.flowcontrol;

import fabriclab.fabric.Pfc;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PausePropagationTest {
    private static final double STEP = 0.05e-6;
    private static final double DELAY = 1e-6;

    private static PausePropagationSimulator threeHops(double victim) {
        // 400G incast aggregate over 400G links into a 100G bottleneck; 50 KB headroom >= 400G x 1 us
        Pfc th = new Pfc(100_000, 80_000, 50_000, Pfc.MAX_QUANTA);
        return new PausePropagationSimulator(3, 400e9, victim, 400e9, 100e9, th, DELAY, STEP);
    }

    @Test
    void bottleneckHopPausesFirstAtTheFluidFillTime() {
        PausePropagationSimulator.Result r = threeHops(0).run(100e-6, 10);
        // data reach the last hop after 2 steps, then it fills at (400G - 100G) / 8 bytes/s
        double expected = 2 * STEP + 8 * 100e3 / (400e9 - 100e9);
        assertEquals(expected, r.firstPauseS().get(2).getAsDouble(), 2 * STEP);
        // pauses travel towards the sender: hop 2 first, then hop 1, then hop 0 pauses the NIC
        assertTrue(r.firstPauseS().get(1).getAsDouble() > r.firstPauseS().get(2).getAsDouble());
        assertTrue(r.firstPauseS().get(0).getAsDouble() > r.firstPauseS().get(1).getAsDouble());
        assertEquals(r.firstPauseS().get(0).getAsDouble() + DELAY, r.sendersStopS().getAsDouble(), 2 * STEP);
        // each upstream hop needs at least XOFF / (rate in) more time to fill once its egress stalls
        assertTrue(r.firstPauseS().get(1).getAsDouble() - r.firstPauseS().get(2).getAsDouble() >= 8 * 100e3 / 400e9 - 1e-12);
    }

    @Test
    void losslessEveryHopStaysWithinXoffPlusHeadroom() {
        PausePropagationSimulator.Result r = threeHops(0).run(200e-6, 10);
        for (double m : r.maxQueueBytes()) {
            assertTrue(m <= 100e3 + 50e3 + 400e9 * STEP / 8 + 1e-6, "max queue " + m);
        }
    }

    @Test
    void victimSharingThePausedNicIsThrottledToItsUnpausedFraction() {
        PausePropagationSimulator.Result r = threeHops(50e9).run(400e-6, 100);
        assertTrue(r.pausedFractionNic() > 0.5, "NIC paused fraction " + r.pausedFractionNic());
        assertEquals(50e9 * (1 - r.pausedFractionNic()), r.victimThroughputBitsPerSecond(), 1e-6 * 50e9);
        // in the long run the NIC may send only what the bottleneck drains: 100G of the 400G, so the
        // victim gets about a quarter of its rate (head-of-line blocking of an uncongested flow)
        assertEquals(0.25, r.victimThroughputBitsPerSecond() / 50e9, 0.05);
    }

    @Test
    void badInput() {
        Pfc th = new Pfc(100_000, 80_000, 50_000, Pfc.MAX_QUANTA);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PausePropagationSimulator(3, 400e9, 0, 400e9, 500e9, th, DELAY, STEP));
        assertTrue(e.getMessage().contains("bottleneckRateBitsPerSecond"));
        e = assertThrows(IllegalArgumentException.class,
                () -> new PausePropagationSimulator(3, 400e9, -1, 400e9, 100e9, th, DELAY, STEP));
        assertTrue(e.getMessage().contains("victimRateBitsPerSecond"));
        e = assertThrows(IllegalArgumentException.class,
                () -> new PausePropagationSimulator(3, 400e9, 0, 400e9, 100e9, th, 2e-6, STEP));
        assertTrue(e.getMessage().contains("headroomBytes"));
    }

    /** "Never" is an empty Optional, not NaN. */
    @Test
    void neverIsAnEmptyOptional() {
        // 400G into a 100G bottleneck fills 100 KB (XOFF) after 8 * 100e3 / 300e9 = 2.7 us: a 1 us run never pauses
        PausePropagationSimulator.Result r = new PausePropagationSimulator(3, 400e9, 0,
                400e9, 100e9, new Pfc(100_000, 80_000, 50_000, Pfc.MAX_QUANTA), 1e-6, 1e-7).run(1e-6, 1);
        assertTrue(r.sendersStopS().isEmpty());
        assertTrue(r.firstPauseS().stream().allMatch(java.util.OptionalDouble::isEmpty));
    }
}
