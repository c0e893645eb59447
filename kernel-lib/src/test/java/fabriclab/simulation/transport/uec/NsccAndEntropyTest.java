package fabriclab.simulation.transport.uec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** NSCC's constants at the reference fabric of the specification's formulas, and the senders' entropy choices. */
class NsccAndEntropyTest {
    /**
     * At the reference fabric (100 Gb/s, 12 us) both scaling factors are 1 and 0.75 (a = BDP / 150 KB = 1, b = target /
     * 12 us), so section 3.6.13.3's formulas give, with 4096-byte payloads in 4160-byte packets and trimming: target
     * 9 us, maximum window 1.5 x 150,000 B, fair increase 5 MSS, eta 0.15 MSS, alpha x target = 4 MSS x 0.75, fast
     * increase 0.25, quick adapt above 36 us, adjustments every 12 us or 8 packets.
     */
    @Test
    void theReferenceFabricsConstantsAreTheSpecificationsUnscaledOnes() {
        Nscc.Constants k = Nscc.defaults().derive(100_000_000_000L, 12 * Time.US, 4096, 4160, true);
        assertEquals(9 * Time.US, k.targetPs());
        assertEquals(225_000, k.maxWindowBytes(), 1e-6);
        assertEquals(4160, k.minWindowBytes(), 0);
        assertEquals(5 * 4096, k.fairIncrease(), 1e-9);
        assertEquals(0.15 * 4096, k.eta(), 1e-9);
        assertEquals(4 * 4096 * 0.75, k.alphaPerPs() * k.targetPs(), 1e-6);
        assertEquals(0.25, k.fastIncreaseScale(), 1e-12);
        assertEquals(36 * Time.US, k.quickAdaptThresholdPs());
        assertEquals(12 * Time.US, k.adjustPeriodPs());
        assertEquals(8 * 4160, k.adjustBytes());
        // without trimming the target is the base RTT; at 400 Gb/s and 6 us the BDP doubles: a = 2
        Nscc.Constants fast = Nscc.defaults().derive(400_000_000_000L, 6 * Time.US, 4096, 4160, false);
        assertEquals(6 * Time.US, fast.targetPs());
        assertEquals(10 * 4096, fast.fairIncrease(), 1e-9);
        assertEquals(1.5 * 300_000, fast.maxWindowBytes(), 1e-6);
    }

    @Test
    void badSettingsAreRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Nscc(0, 0, 0.0125, true, 3, 1.5));
        assertTrue(e.getMessage().contains("gamma"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> UecTransport.defaults().withEntropies(0));
        assertTrue(e.getMessage().contains("entropies"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> EntropySpraying.named("random"));
        assertTrue(e.getMessage().contains("random"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Nscc.defaults().derive(0, 1, 1, 1, true));
        assertTrue(e.getMessage().contains("lineRateBitsPerSecond"), e.getMessage());
    }

    /** REPS reuses the entropies acknowledged without a mark, oldest first, each once; a marked one is not kept. */
    @Test
    void repsRecyclesUnmarkedEntropiesOldestFirst() {
        EntropySource reps = new EntropySource(EntropySpraying.REPS, 64, 4, new SplittableRandom(1));
        reps.acknowledged(5, false);
        reps.acknowledged(9, true);
        reps.acknowledged(7, false);
        assertEquals(5, reps.next());
        assertEquals(7, reps.next());
        assertEquals(0, reps.explored);
        int explored = reps.next(); // none left: a draw
        assertTrue(explored >= 0 && explored < 64);
        assertEquals(1, reps.explored);
        assertEquals(2, reps.recycled);
        for (int e = 10; e < 16; e++) { // a ring of 4 keeps the last 4
            reps.acknowledged(e, false);
        }
        assertEquals(12, reps.next());
        assertEquals(13, reps.next());
    }

    /** Oblivious spraying draws every entropy uniformly: 64,000 draws over 64 values, each within 5 sigma of 1000. */
    @Test
    void obliviousSprayingIsUniform() {
        EntropySource o = new EntropySource(EntropySpraying.OBLIVIOUS, 64, 8, new SplittableRandom(7));
        int[] count = new int[64];
        for (int i = 0; i < 64_000; i++) {
            o.acknowledged(3, false); // ignored
            count[o.next()]++;
        }
        double sigma = Math.sqrt(64_000 * (1.0 / 64) * (63.0 / 64));
        for (int c : count) {
            assertTrue(Math.abs(c - 1000) < 5 * sigma, "count " + c);
        }
        assertEquals(0, o.recycled);
    }
}
