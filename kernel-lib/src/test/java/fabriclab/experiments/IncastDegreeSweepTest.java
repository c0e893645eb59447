package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Incast;
import fabriclab.fabric.Pfc;
import fabriclab.progress.Progress;
import fabriclab.scheduling.DgsqConfig;
import fabriclab.scheduling.GrantPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

class IncastDegreeSweepTest {
    static final double R = 100e9;
    static final double M = 64_000;
    static final double TAU = 1e-6;
    static final IncastDegreeSweep SWEEP = new IncastDegreeSweep(Incast.of(7, 64_000, 100_000_000_000L),
            new Pfc(20_000, 15_000, 30_000, Pfc.MAX_QUANTA), TAU, new DgsqConfig(R, R, 16e3, 2e-6, 3e-6, GrantPolicy.EQUAL));

    /**
     * Without control and with an unbounded buffer, n synchronized senders at the port's rate fill the queue at
     * (n - 1) R while sending: peak M (n - 1); the port never idles, so the last byte leaves at 8 n M / R.
     */
    @Test
    void noControlMatchesItsClosedForms() {
        for (int n : new int[] {1, 2, 8, 64}) {
            IncastDegreeSweep.Result p = SWEEP.run(n, 1);
            assertEquals(M * (n - 1), p.noControlPeakBytes(), 1e-6 * M * n, "peak at n = " + n);
            assertEquals(M * (n - 1), p.noControlBoundBytes(), 1e-6 * M * n);
            assertEquals(8 * n * M / R, p.noControlCompletionS(), 1e-9 * 8 * n * M / R, "completion at n = " + n);
            assertEquals(8 * n * M / R, p.completionLowerBoundS(), 1e-12);
        }
    }

    /** PFC's bound n (XOFF + r tau' / 8), tau' = 1.5 tau; every control completes no sooner than 8 n M / R; queues within their bounds. */
    @Test
    void everyControlStaysWithinItsBounds() {
        for (IncastDegreeSweep.Result p : SWEEP.sweep(new int[] {2, 16, 128}, 1000, Progress.silent())) {
            int n = p.senders();
            assertEquals(n * (20_000 + R * 1.5 * TAU / 8), p.pfcBoundBytes(), 1e-6);
            assertTrue(p.pfcMaxQueueBytes() <= p.pfcBoundBytes() * (1 + 1e-9), "PFC at n = " + n);
            assertTrue(p.grantsMaxQueueBytes() <= p.grantsBoundBytes() * (1 + 1e-9), "grants at n = " + n);
            double floor = 8 * n * M / R * (1 - 1e-9);
            assertTrue(p.pfcCompletionS() >= floor && p.grantsCompletionS() >= floor, "completion at n = " + n);
            assertTrue(p.grantsCompletionS() <= p.grantsCompletionBoundS() * (1 + 1e-9), "grant completion at n = " + n);
        }
    }

    /** The grant bound g + g C / r + C Delta / 8 does not depend on n: with C = r and Delta = 3 - 2 us, 16e3 + 16e3 + 100e9 x 1e-6 / 8 bytes. */
    @Test
    void theGrantBoundIsIndependentOfTheDegree() {
        List<IncastDegreeSweep.Result> points = SWEEP.sweep(new int[] {2, 512}, 7, Progress.silent());
        for (IncastDegreeSweep.Result p : points) {
            assertEquals(16e3 + 16e3 + R * 1e-6 / 8, p.grantsBoundBytes(), 1e-6);
        }
        assertEquals(SWEEP.run(512, 8), points.get(1));
    }

    @Test
    void rejectsBadInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SWEEP.sweep(new int[] {4, 0}, 1, Progress.silent()));
        assertTrue(e.getMessage().contains("senders[1]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new IncastDegreeSweep(Incast.of(2, 1000, 1_000_000_000L),
                new Pfc(20_000, 15_000, 30_000, Pfc.MAX_QUANTA), 0, SWEEP.grants()));
    }
}
