package fabriclab.congestion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * TIMELY's rule (Mittal et al. 2015, algorithm 1) on a hand-computed RTT sequence with HPCC's 100 Gb/s settings
 * (delta 100 Mb/s, beta 0.8, EWMA 0.875, T_low 50 us, T_high 500 us, minRTT 20 us, N = 5 after 5 steps, at most half
 * per cut). Each expected value was worked out by hand from the algorithm, step by step in the comments.
 */
class TimelyUpdateTest {
    static final RttControlParameters P = new RttControlParameters(RttRule.TIMELY_GRADIENT, 10e-6, 15e-6, 100e6, 0.8, 0.5,
            50e-6, 500e-6, 0.875, 20e-6, 5, 1e9);

    @Test
    void aHandComputedSequenceGivesTheHandComputedRates() {
        TimelyUpdate u = TimelyUpdate.start(50e9);
        u = u.next(P, 30e-6); // below T_low: + delta
        assertEquals(50.1e9, u.rateBitsPerSecond(), 1);
        u = u.next(P, 60e-6); // d 30 us, diff 26.25 us, gradient 1.3125: cut min(0.5, 1.05) = half
        assertEquals(26.25e-6, u.rttDiffS(), 1e-12);
        assertEquals(25.05e9, u.rateBitsPerSecond(), 1);
        u = u.next(P, 70e-6); // d 10, diff 0.125 x 26.25 + 8.75 = 12.03125 us, gradient 0.6015625: x (1 - 0.48125)
        assertEquals(12.03125e-6, u.rttDiffS(), 1e-12);
        assertEquals(12.9946875e9, u.rateBitsPerSecond(), 1);
        u = u.next(P, 65e-6); // d -5, diff 1.50390625 - 4.375 < 0: + delta, first of the run
        assertEquals(-2.87109375e-6, u.rttDiffS(), 1e-12);
        assertEquals(13.0946875e9, u.rateBitsPerSecond(), 1);
        assertEquals(1, u.nonPositiveGradients());
        for (int i = 2; i <= 4; i++) { // d 0, diff stays negative: + delta each
            u = u.next(P, 65e-6);
            assertEquals(i, u.nonPositiveGradients());
        }
        assertEquals(13.3946875e9, u.rateBitsPerSecond(), 1);
        u = u.next(P, 65e-6); // the fifth in a row: hyper-active, + 5 delta
        assertEquals(13.8946875e9, u.rateBitsPerSecond(), 1);
        u = u.next(P, 600e-6); // above T_high: x (1 - 0.8 (1 - 500/600)) = x (1 - 2/15)
        assertEquals(13.8946875e9 * 13 / 15, u.rateBitsPerSecond(), 1);
        assertEquals(0, u.nonPositiveGradients());
    }

    @Test
    void aRisingRttCutsAndAFallingOneRaisesWithinTheBand() {
        TimelyUpdate base = TimelyUpdate.start(10e9).next(P, 100e-6);
        assertTrue(base.next(P, 110e-6).rateBitsPerSecond() < base.rateBitsPerSecond(), "positive gradient");
        assertTrue(base.next(P, 90e-6).rateBitsPerSecond() > base.rateBitsPerSecond(), "negative gradient");
        // no cut is ever more than maxDecrease, however steep the gradient
        assertEquals(base.rateBitsPerSecond() / 2, base.next(P, 400e-6).rateBitsPerSecond(), 1); // 10 G + delta (a first sample in the band, gradient 0), halved
    }

    @Test
    void badSamplesAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TimelyUpdate.start(1e9).next(P, 0));
        assertTrue(e.getMessage().contains("rttS"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> TimelyUpdate.start(Double.NaN));
        assertTrue(e.getMessage().contains("rateBitsPerSecond"), e.getMessage());
    }
}
