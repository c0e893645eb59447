package fabriclab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.Datasets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlowSizeDistributionTest {
    /** Tests run in kernel-lib/: the project's datasets are one level up. */
    static final Path DATASETS = Path.of("..", "datasets");

    static FlowSizeDistribution websearch() {
        return FlowSizeDistribution.fromDataset(Datasets.load(DATASETS, "websearch-flow-sizes"));
    }

    static FlowSizeDistribution fbHadoop() {
        return FlowSizeDistribution.fromDataset(Datasets.load(DATASETS, "fb-hadoop-flow-sizes"));
    }

    @Test
    void meanOfATwoSegmentCdfIsTheWeightedMidpoints() {
        // uniform on [0, 100] with probability 0.5, uniform on [100, 300] with 0.5: mean 0.5 * 50 + 0.5 * 200
        FlowSizeDistribution d = FlowSizeDistribution.of("two", new double[] {0, 100, 300}, new double[] {0, 0.5, 1});
        assertEquals(125.0, d.meanBytes(), 1e-12);
        assertEquals(50.0, d.quantileBytes(0.25), 1e-12);
        assertEquals(200.0, d.quantileBytes(0.75), 1e-12);
        // a point mass of 0.2 at 10, then uniform on [10, 20]: 0.2 * 10 + 0.8 * 15
        FlowSizeDistribution m = FlowSizeDistribution.of("mass", new double[] {10, 20}, new double[] {0.2, 1});
        assertEquals(14.0, m.meanBytes(), 1e-12);
        assertEquals(10.0, m.quantileBytes(0.1), 0);
    }

    @Test
    void websearchMeanMatchesItsSegmentsWorkedByHand() {
        // segments of the DCTCP web-search CDF (KB, percent): midpoint times probability, summed
        double kb = 0.15 * 5 + 0.05 * 15 + 0.10 * 25 + 0.10 * 40 + 0.13 * 65 + 0.07 * 140 + 0.10 * 600 + 0.10 * 1500
                + 0.10 * 3500 + 0.07 * 7500 + 0.03 * 20000;
        assertEquals(kb * 1000, websearch().meanBytes(), 1e-6);
        double fb = 0.01 * 50 + 0.01 * 150 + 0.03 * 250 + 0.10 * 325 + 0.05 * 375 + 0.10 * 450 + 0.10 * 550 + 0.10 * 650
                + 0.10 * 850 + 0.07 * 1500 + 0.03 * 4500 + 0.02 * 18500 + 0.10 * 40000 + 0.05 * 65000 + 0.03 * 100000
                + 0.05 * 210000 + 0.025 * 650000 + 0.015 * 1500000 + 0.01 * 6000000;
        assertEquals(fb, fbHadoop().meanBytes(), 1e-6);
    }

    /** E[X^2] of the piecewise-linear CDF: each segment uniform on [a, b], E = (a^2 + ab + b^2) / 3. */
    static double secondMoment(FlowSizeDistribution d) {
        double[] s = d.sizesBytes();
        double[] f = d.cumulativeProbabilities();
        double m2 = f[0] * s[0] * s[0];
        for (int i = 1; i < s.length; i++) {
            m2 += (f[i] - f[i - 1]) * (s[i - 1] * s[i - 1] + s[i - 1] * s[i] + s[i] * s[i]) / 3;
        }
        return m2;
    }

    @Test
    void sampleMeanOf200000DrawsIsWithinFourStandardErrors() {
        for (FlowSizeDistribution d : new FlowSizeDistribution[] {websearch(), fbHadoop()}) {
            SplittableRandom r = new SplittableRandom(11);
            int n = 200_000;
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += d.sample(r);
            }
            double mean = d.meanBytes();
            double se = Math.sqrt((secondMoment(d) - mean * mean) / n);
            assertTrue(Math.abs(sum / n - mean) < 4 * se, d.name() + ": sample mean " + sum / n + " vs " + mean + ", SE " + se);
        }
    }

    @Test
    void readsHpccsLayoutInPercent(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("WebSearch_distribution.txt");
        Files.writeString(f, "0 0\n10000 15\n20000 20\n30000 30\n50000 40\n80000 53\n200000 60\n1000000 70\n2000000 80\n"
                + "5000000 90\n10000000 97\n30000000 100\n");
        FlowSizeDistribution d = FlowSizeDistribution.read(f);
        assertEquals(websearch().meanBytes(), d.meanBytes(), 1e-6);
        Files.writeString(f, "0 0\n100 0.5\n200 1\n"); // a fraction where a percentage belongs
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlowSizeDistribution.read(f));
        assertTrue(e.getMessage().contains("end at 1") && e.getMessage().contains("percentage"), e.getMessage());
        Files.writeString(f, "0 0\n100 50\n50 100\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FlowSizeDistribution.read(f)).getMessage()
                .contains("non-decreasing"));
        Files.writeString(f, "0 0\n100 fifty\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FlowSizeDistribution.read(f)).getMessage()
                .contains("line 2"));
    }

    @Test
    void refusesABadCdf() {
        assertThrows(IllegalArgumentException.class, () -> FlowSizeDistribution.of("x", new double[] {1, 2}, new double[] {0.5, 0.9}));
        assertThrows(IllegalArgumentException.class, () -> FlowSizeDistribution.of("x", new double[] {1, 2}, new double[] {0.6, 0.5}));
        assertThrows(IllegalArgumentException.class, () -> FlowSizeDistribution.of("x", new double[] {1, Double.NaN}, new double[] {0, 1}));
        assertThrows(IllegalArgumentException.class, () -> FlowSizeDistribution.published("hadoop"));
    }
}
