package fabriclab.collectives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.refused;

class CollectiveScheduleTest {
    @Test
    void transfersPerRankCountTheAlgorithmsSteps() {
        // all-to-all: one transfer to each other rank; ring: p - 1 reduce-scatter and p - 1 all-gather steps;
        // halving-doubling: log2 p halving and log2 p doubling steps
        assertEquals(4, Collective.ALL_TO_ALL.transfersPerRank(5));
        assertEquals(6, Collective.RING_ALL_REDUCE.transfersPerRank(4));
        assertEquals(6, Collective.HALVING_DOUBLING_ALL_REDUCE.transfersPerRank(8));
        assertEquals(2, Collective.HALVING_DOUBLING_ALL_REDUCE.transfersPerRank(2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Collective.HALVING_DOUBLING_ALL_REDUCE.transfersPerRank(6));
        assertTrue(e.getMessage().contains("ranks") && e.getMessage().contains("6"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Collective.RING_ALL_REDUCE.transfersPerRank(1));
        assertTrue(e.getMessage().contains("ranks") && e.getMessage().contains("1"), e.getMessage());
    }

    @Test
    void everyAlgorithmMovesWhatItPrescribes() {
        int p = 8;
        long s = 8L << 20; // 8 MiB, divisible by p
        for (int r = 0; r < p; r++) {
            assertEquals((p - 1) * s / p, CollectiveSchedule.of(Collective.ALL_TO_ALL, p, s).bytesSentBy(r));
            assertEquals(2 * (p - 1) * s / p, CollectiveSchedule.of(Collective.RING_ALL_REDUCE, p, s).bytesSentBy(r));
            // halving-doubling: S/2 + S/4 + S/8 twice = 2 (1 - 1/p) S
            assertEquals(2 * (p - 1) * s / p, CollectiveSchedule.of(Collective.HALVING_DOUBLING_ALL_REDUCE, p, s).bytesSentBy(r));
        }
    }

    @Test
    void dependenciesPointAtTheDataARankReceivedInTheStepBefore() {
        for (Collective c : new Collective[] {Collective.RING_ALL_REDUCE, Collective.HALVING_DOUBLING_ALL_REDUCE}) {
            CollectiveSchedule sch = CollectiveSchedule.of(c, 4, 1 << 20);
            for (CollectiveSchedule.Transfer t : sch.transfers()) {
                for (int a : t.after()) {
                    CollectiveSchedule.Transfer pre = sch.transfers().get(a);
                    assertEquals(t.from(), pre.to(), c + ": a step waits for data into its sender");
                    assertEquals(t.step() - 1, pre.step());
                }
                assertEquals(t.step() == 0 ? 0 : 1, t.after().length);
            }
        }
    }

    @Test
    void rejectsBadInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CollectiveSchedule.of(Collective.HALVING_DOUBLING_ALL_REDUCE, 6, 1 << 20));
        assertTrue(e.getMessage().contains("ranks"));
        e = assertThrows(IllegalArgumentException.class, () -> CollectiveSchedule.of(Collective.ALL_TO_ALL, 1, 100));
        assertTrue(e.getMessage().contains("ranks"));
    }

    /** Sizes are refused before anything is built, not with an OutOfMemoryError. */
    @Test
    void collectiveSchedulesBeyondTheirTransferLimitAreRefused() {
        refused(() -> CollectiveSchedule.of(Collective.HALVING_DOUBLING_ALL_REDUCE, 1 << 30, 1L << 40),
                "ranks", "16,777,216", "got 1073741824", "60 per rank");
        refused(() -> CollectiveSchedule.of(Collective.ALL_TO_ALL, 100_000, 1_000_000_000_000L), "ranks", "got 100000",
                "99999 per rank");
        // p (p - 1) <= 2^24 up to p = 4096: 4097 x 4096 = 16,781,312 is one rank too many
        refused(() -> CollectiveSchedule.pairwiseAllToAll(4097, 1L << 20), "ranks", "got 4097", "16,781,312");
        assertEquals(2 * 2 * 3, CollectiveSchedule.of(Collective.RING_ALL_REDUCE, 3, 3).transfers().size());
    }
}
