package fabriclab.collectives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BandwidthBoundTest {
    /** Counts the bytes one rank sends by walking the ring algorithm step by step. */
    static double ringBytesByWalking(int p, double s) {
        double chunk = s / p;
        double sent = 0;
        for (int step = 0; step < p - 1; step++) {
            sent += chunk; // reduce-scatter: pass one partially reduced chunk to the right neighbour
        }
        for (int step = 0; step < p - 1; step++) {
            sent += chunk; // all-gather: pass one fully reduced chunk on
        }
        return sent;
    }

    /** Counts the bytes one rank sends in AlltoAll by listing its destinations. */
    static double allToAllBytesByListing(int p, double s) {
        double sent = 0;
        for (int dst = 0; dst < p; dst++) {
            if (dst != 0) {
                sent += s / p;
            }
        }
        return sent;
    }

    @Test
    void bytesMatchTheAlgorithms() {
        for (int p : new int[] {2, 3, 4, 8, 32}) {
            BandwidthBound b = new BandwidthBound(p, 100);
            assertEquals(ringBytesByWalking(p, 1e6), b.bytesSentPerRank(Collective.RING_ALL_REDUCE, 1e6), 1e-6);
            assertEquals(allToAllBytesByListing(p, 1e6), b.bytesSentPerRank(Collective.ALL_TO_ALL, 1e6), 1e-6);
        }
    }

    @Test
    void limitsAndUnits() {
        // two ranks exchange half of the buffer; 1 MB at 8 Gb/s takes 0.5 MB * 8 / 8e9 = 0.5 ms
        assertEquals(0.5e-3, new BandwidthBound(2, 8).seconds(Collective.ALL_TO_ALL, 1e6), 1e-15);
        // many ranks: ring AllReduce approaches 2 S
        double big = new BandwidthBound(100_000, 1).bytesSentPerRank(Collective.RING_ALL_REDUCE, 1);
        assertTrue(Math.abs(big - 2) < 1e-4);
        assertEquals(0, new BandwidthBound(4, 100).seconds(Collective.ALL_TO_ALL, 0));
    }

    @Test
    void badInputNamesTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new BandwidthBound(1, 100)).getMessage().startsWith("ranks"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new BandwidthBound(4, 0)).getMessage().startsWith("nicGbps"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new BandwidthBound(4, 100).seconds(Collective.ALL_TO_ALL, -1)).getMessage().startsWith("bufferBytes"));
    }
}
