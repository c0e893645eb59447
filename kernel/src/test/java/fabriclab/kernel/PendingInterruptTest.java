package fabriclab.kernel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** An interrupt that came between cells stops the next cell only if the kernel received that cell first or at once. */
class PendingInterruptTest {
    private static final long MS = 1_000_000L;

    @Test
    void aCellFoundBeforeTheInterruptOrAtOnceAfterIsStopped() {
        FabriclabKernel.PendingInterrupt p = new FabriclabKernel.PendingInterrupt(5_000 * MS);
        assertTrue(p.stops(4_990 * MS), "found 10 ms before the interrupt");
        assertTrue(p.stops(5_000 * MS));
        assertTrue(p.stops(5_100 * MS), "found 100 ms after");
    }

    @Test
    void aCellFoundLaterRuns() {
        FabriclabKernel.PendingInterrupt p = new FabriclabKernel.PendingInterrupt(5_000 * MS);
        assertFalse(p.stops(5_101 * MS), "found 101 ms after");
        assertFalse(p.stops(5_500 * MS), "found half a second after: a person's Stop, then Run");
        assertFalse(p.stops(65_000 * MS), "found a minute after");
    }

    @Test
    void theKernelsClockMayWrapAround() {
        long arrived = Long.MAX_VALUE - 30 * MS;
        FabriclabKernel.PendingInterrupt p = new FabriclabKernel.PendingInterrupt(arrived);
        assertTrue(p.stops(arrived + 50 * MS), "50 ms after, past the wrap");
        assertFalse(p.stops(arrived + 500 * MS), "500 ms after, past the wrap");
        assertTrue(p.stops(arrived - 10 * MS));
    }
}
