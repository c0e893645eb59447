package fabriclab.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HighDelayCaptureTest {
    @Test
    void countsAHandComputedTrace() {
        // delays 1..10 us over 1 ms; threshold 7 us captures 8, 9, 10 us (3 packets)
        long[] d = new long[10];
        for (int i = 0; i < 10; i++) {
            d[i] = (i + 1) * 1_000_000L;
        }
        HighDelayCapture.Result r = HighDelayCapture.of(7_000_000L).evaluate(d, 1_000_000_000L, 0.9);
        assertEquals(3, r.captured());
        assertEquals(3 / 1e-3, r.exportRatePps(), 1e-6);
        assertEquals(3 * 171 * 8 / 1e-3, r.exportBitsPerSecond(), 1e-6);
        // tail at the 0.9 quantile = the 10 us packet: captured
        assertEquals(1.0, r.tailCoverage(), 0);
        assertEquals((8 + 9 + 10) / 55.0, r.delayShare(), 1e-12);
        // a threshold above every delay captures nothing and explains none of the tail
        HighDelayCapture.Result none = HighDelayCapture.of(20_000_000L).evaluate(d, 1_000_000_000L, 0.9);
        assertEquals(0, none.captured());
        assertEquals(0.0, none.tailCoverage(), 0);
    }

    @Test
    void rejectsBadInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HighDelayCapture.of(0));
        assertTrue(e.getMessage().contains("thresholdPs"));
        e = assertThrows(IllegalArgumentException.class,
                () -> HighDelayCapture.of(1).evaluate(new long[] {1}, 1, 1.0));
        assertTrue(e.getMessage().contains("tailQuantile"));
    }
}
