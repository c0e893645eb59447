package fabriclab.collectives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.collectives.AllReduceLatency.Algorithm;
import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.rejects;

class AllReduceLatencyTest {
    static final AllReduceLatency LEAF_SPINE = new AllReduceLatency(1e-6, 500e-9, 0, 50e-9, 100, 2);

    @Test
    void alphaCountsThreeSwitchesAndFourLinksOnALeafSpine() {
        assertEquals(1e-6 + 3 * 500e-9 + 4 * 50e-9, LEAF_SPINE.alpha(), 1e-18);
        assertEquals(8e-11, LEAF_SPINE.beta(), 1e-24);
    }

    /** Ring by walking its steps: 2 (N-1) messages of S/N bytes, one after the other. */
    static double ringByWalking(AllReduceLatency m, int n, double s) {
        double t = 0;
        for (int step = 0; step < 2 * (n - 1); step++) {
            t += m.alpha() + (s / n) * m.beta();
        }
        return t;
    }

    /** Halving-doubling by walking: halving sends S/2, S/4, ...; doubling sends them back. */
    static double halvingDoublingByWalking(AllReduceLatency m, int n, double s) {
        double t = 0;
        for (double chunk = s / 2; chunk >= s / n - 1e-9; chunk /= 2) {
            t += 2 * (m.alpha() + chunk * m.beta());
        }
        return t;
    }

    @Test
    void formulasAgreeWithWalkingTheAlgorithms() {
        for (int n : new int[] {2, 4, 8, 64, 1024}) {
            for (double s : new double[] {16, 1 << 20}) {
                assertEquals(ringByWalking(LEAF_SPINE, n, s), LEAF_SPINE.seconds(Algorithm.RING, n, s), 1e-15);
                assertEquals(halvingDoublingByWalking(LEAF_SPINE, n, s), LEAF_SPINE.seconds(Algorithm.HALVING_DOUBLING, n, s), 1e-15);
            }
        }
    }

    @Test
    void roundsMatchTheWhitePaperExample() {
        // 003 section 6.1: 8 nodes need 3 rounds of reduction with log N algorithms (6 with the broadcast back)
        assertEquals(6, LEAF_SPINE.rounds(Algorithm.HALVING_DOUBLING, 8));
        assertEquals(1, LEAF_SPINE.rounds(Algorithm.IN_NETWORK, 8));
        assertEquals(1, LEAF_SPINE.rounds(Algorithm.IN_NETWORK, 4096));
    }

    @Test
    void twoNodesRingEqualsHalvingDoublingAndInNetworkMovesHalfTheBytes() {
        double s = 1 << 20;
        assertEquals(LEAF_SPINE.seconds(Algorithm.RING, 2, s), LEAF_SPINE.seconds(Algorithm.HALVING_DOUBLING, 2, s), 1e-15);
        // large messages: in-network moves S per host instead of 2 (N-1)/N S
        double big = 1e10;
        double ratio = LEAF_SPINE.seconds(Algorithm.RING, 64, big) / LEAF_SPINE.seconds(Algorithm.IN_NETWORK, 64, big);
        assertEquals(2.0 * 63 / 64, ratio, 1e-3);
        // small messages: in-network beats log-N rounds by about 2 log2 N
        double small = LEAF_SPINE.seconds(Algorithm.HALVING_DOUBLING, 64, 16) / LEAF_SPINE.seconds(Algorithm.IN_NETWORK, 64, 16);
        assertTrue(small > 11 && small < 12.1, "ratio " + small);
    }

    @Test
    void builderSettingsLandOnTheirComponents() {
        AllReduceLatency built = AllReduceLatency.builder().hostOverheadS(1e-6).switchLatencyS(500e-9).propagationS(50e-9)
                .linkGbps(100).tiers(2).build();
        assertEquals(LEAF_SPINE, built);   // aggregationLatencyS defaults to 0
        AllReduceLatency all = AllReduceLatency.builder().hostOverheadS(2e-6).switchLatencyS(3e-7).aggregationLatencyS(4e-8)
                .propagationS(5e-9).linkGbps(400).tiers(3).build();
        assertEquals(new AllReduceLatency(2e-6, 3e-7, 4e-8, 5e-9, 400, 3), all);
        assertEquals(all, all.toBuilder().build());
        assertEquals(new AllReduceLatency(1e-6, 90e-9, 0, 50e-9, 100, 2), LEAF_SPINE.toBuilder().switchLatencyS(90e-9).build());
    }

    @Test
    void builderNamesTheMissingSetting() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> AllReduceLatency.builder().hostOverheadS(1e-6).switchLatencyS(500e-9).linkGbps(100).tiers(2).build());
        assertTrue(e.getMessage().startsWith("propagationS is required"), e.getMessage());
        e = assertThrows(IllegalStateException.class,
                () -> AllReduceLatency.builder().hostOverheadS(1e-6).switchLatencyS(500e-9).propagationS(0).linkGbps(100).build());
        assertTrue(e.getMessage().startsWith("tiers is required"), e.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> LEAF_SPINE.toBuilder().linkGbps(0).build());
        assertEquals("linkGbps must be a finite number > 0, got 0.0", bad.getMessage());
    }

    @Test
    void badInputNamesTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LEAF_SPINE.seconds(Algorithm.HALVING_DOUBLING, 6, 1))
                .getMessage().contains("power of two"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LEAF_SPINE.seconds(Algorithm.RING, 1, 1))
                .getMessage().startsWith("nodes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new AllReduceLatency(0, 0, 0, 0, 100, 0))
                .getMessage().startsWith("tiers"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new AllReduceLatency(-1, 0, 0, 0, 100, 1))
                .getMessage().startsWith("hostOverheadS"));
    }

    @Test
    void aHugeNodeCountIsRejected() {
        AllReduceLatency lat = new AllReduceLatency(1e-6, 1e-6, 1e-6, 1e-6, 100, 2);
        rejects("nodes", () -> lat.rounds(AllReduceLatency.Algorithm.RING, Integer.MAX_VALUE));
    }
}
