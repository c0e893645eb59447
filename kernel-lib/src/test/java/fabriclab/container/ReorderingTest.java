package fabriclab.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.rejects;

class ReorderingTest {
    private static final double SIGMA = 1e-6;          // 1 us path jitter
    private static final double GAP = 4096 * 8 / 100e9; // 4 KB at 100 Gb/s: 327.68 ns
    private static final DelayModel NORMAL = new DelayModel.Normal(10e-6, SIGMA);

    /** 5 sigma binomial bound, widened by 3 in variance for the lag-1 dependence of adjacent pairs. */
    private static double bound(double p, long n) {
        return 5 * Math.sqrt(3 * p * (1 - p) / n);
    }

    @Test
    void pairProbabilityIsPhiOfMinusGapOverSigmaRootTwo() {
        double expected = new NormalDistribution(0, SIGMA * Math.sqrt(2)).cumulativeProbability(-GAP);
        assertEquals(expected, Reordering.pairProbability(NORMAL, GAP), 1e-12);
        assertEquals(0.5, Reordering.pairProbability(NORMAL, 0), 1e-15, "the paper's high-load limit");
        assertEquals(0.5, Reordering.pairProbability(NORMAL, 1e-15), 1e-6, "g -> 0");
        assertEquals(0, Reordering.pairProbability(new DelayModel.Normal(1e-6, 0), GAP), 0, "no jitter, no reordering");
    }

    @Test
    void perPacketSprayingMonteCarloMatchesPairFormula() {
        ReorderSimulator sim = new ReorderSimulator(NORMAL, GAP, 1, 8, PathPolicy.ROUND_ROBIN, false);
        long n = 400_000;
        ReorderSimulator.Counts c = sim.run(n, 42);
        double p = Reordering.pairProbability(NORMAL, GAP);
        assertEquals(p, c.pairRate(), bound(p, n));
    }

    @Test
    void containersNeverReorderInsideAndBoundariesFollowThePairFormula() {
        int m = 4;
        ReorderSimulator sim = new ReorderSimulator(NORMAL, GAP, m, 8, PathPolicy.ROUND_ROBIN, false);
        long n = 800_000;
        ReorderSimulator.Counts c = sim.run(n, 43);
        assertEquals(c.invertedBoundaries(), c.invertedPairs(), "every inverted pair is a container boundary");
        assertEquals(n / m - 1, c.boundaries());
        double p = Reordering.boundaryProbability(NORMAL, GAP);
        assertEquals(p, c.boundaryRate(), bound(p, c.boundaries()));
        assertEquals(Reordering.perPairRate(NORMAL, GAP, m), c.pairRate(), bound(p, c.boundaries()) / m);
    }

    @Test
    void paperFormulaIsHalfThePerPairRateAtZeroGap() {
        for (int m = 1; m <= 64; m *= 2) {
            assertEquals(0.5 / m, Reordering.perPairRate(NORMAL, 0, m), 1e-15);
            assertEquals(Reordering.perPairRate(NORMAL, 0, m) / 2, Reordering.paperContainerFormula(m), 1e-15);
            assertEquals(m / 2.0, Reordering.expectedLatePacketsPerBoundary(NORMAL, 0, m), 1e-12, "blocks of m packets are late half the time");
        }
    }

    @Test
    void exponentialDelayDifferenceIsLaplace() {
        DelayModel.ShiftedExponential d = DelayModel.ShiftedExponential.mm1(5e-6, 1e6, 0.5); // mean queueing 2 us
        assertEquals(2e-6, d.meanQueueing(), 1e-18);
        assertEquals(0.5 * Math.exp(-GAP / 2e-6), Reordering.pairProbability(d, GAP), 1e-15);
        ReorderSimulator sim = new ReorderSimulator(d, GAP, 1, 4, PathPolicy.ROUND_ROBIN, false);
        long n = 400_000;
        double p = Reordering.pairProbability(d, GAP);
        assertEquals(p, sim.run(n, 5).pairRate(), bound(p, n));
    }

    @Test
    void rfc4737AndEarlySharesMatchMonteCarloBatchMeans() {
        DelayModel expo = new DelayModel.ShiftedExponential(5e-6, SIGMA);
        for (DelayModel d : new DelayModel[] {NORMAL, expo}) {
            for (int m : new int[] {1, 4}) {
                double g = 0.5 * SIGMA;
                double late = Reordering.rfc4737ReorderedFraction(d, g, m);
                double early = Reordering.earlyPacketFraction(d, g, m);
                ReorderSimulator sim = new ReorderSimulator(d, g, m, 16, PathPolicy.ROUND_ROBIN, false);
                SummaryStatistics lateMc = new SummaryStatistics();
                SummaryStatistics earlyMc = new SummaryStatistics();
                for (int b = 0; b < 16; b++) {
                    ReorderSimulator.Analysis a = sim.analyse(20_000, PacketSizes.fixed(4096), 100 + b);
                    lateMc.addValue(a.rfc4737Fraction());
                    earlyMc.addValue(a.counts().earlyFraction());
                }
                // 5 standard errors of the 16 batch means, plus the edge effect (the first and last
                // packets have fewer neighbours): below 20 packets out of 20,000
                String what = d.getClass().getSimpleName() + " m=" + m;
                assertEquals(late, lateMc.getMean(), 5 * lateMc.getStandardDeviation() / 4 + 1e-3, "late " + what);
                assertEquals(early, earlyMc.getMean(), 5 * earlyMc.getStandardDeviation() / 4 + 1e-3, "early " + what);
                if (d == NORMAL) {
                    assertEquals(late, early, 1e-6, "symmetric delays: late and early shares coincide");
                }
            }
        }
    }

    @Test
    void singleFifoPathNeverReorders() {
        ReorderSimulator one = new ReorderSimulator(NORMAL, GAP, 1, 1, PathPolicy.RANDOM, true);
        assertEquals(0, one.run(100_000, 8).invertedPairs());
        ReorderSimulator fifo = new ReorderSimulator(NORMAL, GAP, 1, 8, PathPolicy.RANDOM, true);
        ReorderSimulator free = new ReorderSimulator(NORMAL, GAP, 1, 8, PathPolicy.RANDOM, false);
        assertTrue(fifo.run(100_000, 8).pairRate() < free.run(100_000, 8).pairRate(), "same-path pairs cannot invert");
    }

    @Test
    void analysisIsConsistentWithStreamingCountsAndBuffersAreSane() {
        PacketSizes four = PacketSizes.fixed(4096);
        ReorderSimulator sim = new ReorderSimulator(NORMAL, GAP, 4, 8, PathPolicy.ROUND_ROBIN, false);
        ReorderSimulator.Analysis a = sim.analyse(50_000, four, 3);
        assertTrue(a.rfc4737Reordered() > 0);
        assertEquals(50_000, java.util.Arrays.stream(a.bufferOccupancyPackets()).sum());
        assertEquals(4096L * a.maxBufferPackets(), a.maxBufferBytes());
        assertTrue(a.maxBufferContainers() <= a.maxBufferPackets());
        assertTrue(a.maxBufferContainers() * 4 >= a.maxBufferPackets(), "held packets fit in the held containers");
        assertTrue(a.maxExtent() >= 1 && a.meanExtent() >= 1);
        assertEquals(a.maxBufferBytes(), sim.analyse(50_000, four, 3).maxBufferBytes(), "same seed, same result");
        ReorderSimulator calm = new ReorderSimulator(new DelayModel.Normal(1e-6, 0), GAP, 4, 8, PathPolicy.ROUND_ROBIN, false);
        ReorderSimulator.Analysis none = calm.analyse(10_000, four, 3);
        assertEquals(0, none.maxBufferPackets());
        assertEquals(0, none.maxExtent());
        assertEquals(0, none.rfc4737Reordered());
        assertEquals(0, none.counts().earlyPackets());
    }

    @Test
    void builderSettingsLandOnTheirComponents() {
        assertEquals(new ReorderSimulator(NORMAL, GAP, 1, 8, PathPolicy.ROUND_ROBIN, false),
                ReorderSimulator.builder().delay(NORMAL).gap(GAP).paths(8).build());   // m = 1, round robin, independent delays
        assertEquals(new ReorderSimulator(NORMAL, GAP, 4, 2, PathPolicy.RANDOM, true), ReorderSimulator.builder()
                .delay(NORMAL).gap(GAP).packetsPerContainer(4).paths(2).policy(PathPolicy.RANDOM).fifoPaths(true).build());
    }

    @Test
    void builderNamesTheMissingOrBadSetting() {
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> ReorderSimulator.builder().delay(NORMAL).paths(8).build());
        assertTrue(missing.getMessage().startsWith("gap is required"), missing.getMessage());
        missing = assertThrows(IllegalStateException.class, () -> ReorderSimulator.builder().gap(GAP).paths(8).build());
        assertTrue(missing.getMessage().startsWith("delay is required"), missing.getMessage());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReorderSimulator.builder().delay(NORMAL).gap(-1e-9).paths(8).build());
        assertEquals("gap must be a finite number >= 0, got -1.0E-9", e.getMessage());
    }

    @Test
    void badInputsNameTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DelayModel.Normal(1e-6, -1e-9));
        assertTrue(e.getMessage().contains("sigma"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Reordering.perPairRate(NORMAL, GAP, 0));
        assertTrue(e.getMessage().contains("packetsPerContainer"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ReorderSimulator(NORMAL, GAP, 0, 2, PathPolicy.RANDOM, false));
        assertTrue(e.getMessage().contains("packetsPerContainer"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ReorderSimulator(NORMAL, GAP, 1, 0, PathPolicy.RANDOM, false));
        assertTrue(e.getMessage().contains("paths"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Reordering.pairProbability(NORMAL, -1));
        assertTrue(e.getMessage().contains("gap"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Reordering.rfc4737ReorderedFraction(NORMAL, 0, 1));
        assertTrue(e.getMessage().contains("gap"), e.getMessage());
    }

    @Test
    void aHugePacketCountIsRejectedUpFront() {
        rejects("packets", () -> ReorderSimulator.builder().delay(new DelayModel.Normal(1e-6, 1e-7)).gap(1e-7).paths(4).build().run(Long.MAX_VALUE, 1));
    }
}
