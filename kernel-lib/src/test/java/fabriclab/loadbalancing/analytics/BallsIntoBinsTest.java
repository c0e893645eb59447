package fabriclab.loadbalancing.analytics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.rejects;

class BallsIntoBinsTest {
    /** P(max <= k) by enumerating all m^n placements. */
    private static double[] bruteForceCdf(int n, int m) {
        int total = (int) Math.pow(m, n);
        double[] counts = new double[n + 1];
        int[] bins = new int[m];
        for (int code = 0; code < total; code++) {
            java.util.Arrays.fill(bins, 0);
            int c = code;
            int max = 0;
            for (int i = 0; i < n; i++) {
                max = Math.max(max, ++bins[c % m]);
                c /= m;
            }
            counts[max]++;
        }
        double[] cdf = new double[n + 1];
        double acc = 0;
        for (int k = 0; k <= n; k++) {
            acc += counts[k] / total;
            cdf[k] = acc;
        }
        return cdf;
    }

    @Test
    void twoFlowsOnTwoPathsCollideWithProbabilityOneHalf() {
        assertEquals(0.5, BallsIntoBins.collisionProbability(2, 2), 1e-15);
        assertEquals(0.5, BallsIntoBins.maxLoad(2, 2).probabilityAtLeast(2), 1e-12);
        assertEquals(0.5, BallsIntoBins.probabilityAnyPathAtLeast(2, 2, 2), 1e-12);
        // birthday: 23 flows on 365 paths collide with probability 0.5073
        assertEquals(0.507297, BallsIntoBins.collisionProbability(23, 365), 1e-6);
        assertEquals(1.0, BallsIntoBins.collisionProbability(5, 4));
    }

    @Test
    void exactMaxLoadMatchesEnumerationOfAllPlacements() {
        int[][] cases = {{1, 1}, {3, 1}, {2, 2}, {5, 3}, {7, 4}, {6, 6}, {8, 5}, {10, 2}};
        for (int[] c : cases) {
            double[] bf = bruteForceCdf(c[0], c[1]);
            MaxLoadDistribution d = BallsIntoBins.maxLoad(c[0], c[1]);
            MaxLoadDistribution rec = BallsIntoBins.maxLoadByRecursion(c[0], c[1]);
            for (int k = 0; k <= c[0]; k++) {
                assertEquals(bf[k], d.cdf(k), 1e-12, "fft n=" + c[0] + " m=" + c[1] + " k=" + k);
                assertEquals(bf[k], rec.cdf(k), 1e-12, "recursion n=" + c[0] + " m=" + c[1] + " k=" + k);
            }
        }
    }

    @Test
    void fftMethodAgreesWithTheRecursionOnLargerCases() {
        int[][] cases = {{200, 16}, {120, 64}, {64, 8}, {300, 3}, {1000, 128}, {1000, 2}};
        for (int[] c : cases) {
            MaxLoadDistribution a = BallsIntoBins.maxLoad(c[0], c[1]);
            MaxLoadDistribution b = BallsIntoBins.maxLoadByRecursion(c[0], c[1]);
            for (int k = 0; k <= c[0]; k++) {
                assertEquals(b.cdf(k), a.cdf(k), 1e-10, "n=" + c[0] + " m=" + c[1] + " k=" + k);
            }
            assertEquals(b.mean(), a.mean(), 1e-8);
        }
    }

    @Test
    void exactMaxLoadAgreesWithMonteCarloWithinFiveSigma() {
        int n = 1000;
        int m = 128;
        int trials = 4000;
        MaxLoadDistribution d = BallsIntoBins.maxLoad(n, m);
        int[] mc = EcmpMonteCarlo.maxCounts(n, m, trials, 42);
        double mean = 0;
        for (int v : mc) {
            mean += v;
        }
        mean /= trials;
        double var = d.expectation(k -> k * k) - d.mean() * d.mean();
        assertEquals(d.mean(), mean, 5 * Math.sqrt(var / trials));
        // each point of the CDF: a binomial proportion, 5 sigma
        for (int k = d.quantile(0.01); k <= d.quantile(0.99); k++) {
            final int kk = k;
            double p = d.cdf(k);
            double frac = java.util.Arrays.stream(mc).filter(v -> v <= kk).count() / (double) trials;
            assertEquals(p, frac, 5 * Math.sqrt(p * (1 - p) / trials) + 1e-9, "k=" + k);
        }
    }

    @Test
    void largeCaseIsANormalisedDistribution() {
        MaxLoadDistribution d = BallsIntoBins.maxLoad(10_000, 1024);
        double total = 0;
        for (int k = 0; k <= 10_000; k++) {
            total += d.pmf(k);
        }
        assertEquals(1.0, total, 1e-9);
        assertEquals(0.0, d.cdf(9), 0.0); // ceil(10000/1024) = 10 is the least possible maximum
        assertTrue(d.mean() > 10_000 / 1024.0);
        // union bound brackets the exact tail: S1 - S1^2/2 <= P(max >= k) <= S1
        int k = d.quantile(0.5) + 2;
        double s1 = 1024 * (1 - BallsIntoBins.flowsPerPath(10_000, 1024).cumulativeProbability(k - 1));
        double p = d.probabilityAtLeast(k);
        assertTrue(p <= s1 + 1e-12 && p >= s1 - s1 * s1 / 2 - 1e-12, "p=" + p + " s1=" + s1);
    }

    @Test
    void perPathCountsAreBinomialAndTotalsAreConserved() {
        int n = 40;
        int m = 8;
        int trials = 20000;
        SplittableRandom r = new SplittableRandom(9);
        double[] pmf = BallsIntoBins.flowsPerPathPmf(n, m);
        long[] hist = new long[n + 1];
        double idle = 0;
        for (int t = 0; t < trials; t++) {
            int[] c = new int[m];
            for (int i = 0; i < n; i++) {
                c[r.nextInt(m)]++;
            }
            assertEquals(n, java.util.Arrays.stream(c).sum());
            hist[c[0]]++;
            idle += java.util.Arrays.stream(c).filter(v -> v == 0).count();
        }
        for (int j = 0; j <= n; j++) {
            double expected = pmf[j];
            assertEquals(expected, hist[j] / (double) trials, 5 * Math.sqrt(expected * (1 - expected) / trials) + 1e-9, "j=" + j);
        }
        // E[idle paths] = m (1 - 1/m)^n; the idle count is at most m, so its sd is below m/2
        assertEquals(m * Math.pow(1 - 1.0 / m, n), idle / trials, 5 * (m / 2.0) / Math.sqrt(trials));
        assertEquals(1 - Math.pow(7.0 / 8, 40), BallsIntoBins.expectedUsedFraction(40, 8), 1e-14);
    }

    @Test
    void loadVarianceMatchesItsClosedFormAndMonteCarlo() {
        double[] sizes = {100, 100, 100, 1, 1, 1, 1, 1, 1, 1};
        int m = 4;
        double exact = BallsIntoBins.expectedLoadVariance(sizes, m);
        assertEquals((3 * 10000 + 7) * 0.25 * 0.75, exact, 1e-9);
        SplittableRandom r = new SplittableRandom(21);
        int trials = 40000;
        double sum = 0;
        double sumSq = 0;
        double total = java.util.Arrays.stream(sizes).sum();
        for (int t = 0; t < trials; t++) {
            double[] l = new double[m];
            for (double s : sizes) {
                l[r.nextInt(m)] += s;
            }
            double v = 0;
            for (double x : l) {
                v += (x - total / m) * (x - total / m) / m;
            }
            sum += v;
            sumSq += v * v;
        }
        double mean = sum / trials;
        double sd = Math.sqrt(sumSq / trials - mean * mean);
        assertEquals(exact, mean, 5 * sd / Math.sqrt(trials));
    }

    @Test
    void flowMixApproximationIsExactWithoutMiceAndCloseWithManyMice() {
        FlowMix onlyElephants = new FlowMix(16, 1e6, 0, 1);
        assertEquals(BallsIntoBins.maxLoad(16, 8).meanMaxOverMean(), onlyElephants.approximateMaxOverMean(8), 1e-12);
        FlowMix mix = new FlowMix(8, 1e8, 20000, 1e4);
        double[] mc = EcmpMonteCarlo.maxLoads(mix.sizes(), 8, 2000, 5);
        double mean = java.util.Arrays.stream(mc).average().orElseThrow() / (mix.totalBytes() / 8);
        // mice fluctuation: sd of one path's mice load / mean load ~ sqrt(m/mice) = 2%; allow 3%
        assertEquals(mix.approximateMaxOverMean(8), mean, 0.03 * mean);
        assertEquals(mix.expectedLoadVariance(8), BallsIntoBins.expectedLoadVariance(mix.sizes(), 8), 1e-6 * mix.expectedLoadVariance(8));
    }

    @Test
    void sameSeedGivesIdenticalSamples() {
        assertArrayEquals(EcmpMonteCarlo.maxCounts(50, 7, 100, 3), EcmpMonteCarlo.maxCounts(50, 7, 100, 3));
    }

    /**
     * Counting by hand: n flows cannot put more than n on one path, so P(some path >= k) = 0 for
     * k > n, (2, 2, 3) included; three flows on two paths all land on one path with
     * probability 2 (1/2)^3 = 1/4. The maximum is never negative, so P(max >= k) = 1 for k <= 0,
     * also for Integer.MIN_VALUE (where k - 1 overflows).
     */
    @Test
    void thresholdsBeyondTheFlowCountAreImpossibleAndBelowZeroCertain() {
        assertEquals(0.0, BallsIntoBins.probabilityAnyPathAtLeast(2, 2, 3));
        assertEquals(0.0, BallsIntoBins.probabilityAnyPathAtLeast(10, 3, 11));
        assertEquals(0.25, BallsIntoBins.probabilityAnyPathAtLeast(3, 2, 3), 1e-12);
        assertEquals(1.0, BallsIntoBins.maxLoad(5, 3).probabilityAtLeast(Integer.MIN_VALUE));
        assertEquals(1.0, BallsIntoBins.maxLoad(5, 3).probabilityAtLeast(0));
    }

    @Test
    void badInputsNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BallsIntoBins.maxLoad(10, 0)).getMessage().startsWith("m (paths)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BallsIntoBins.maxLoad(0, 3)).getMessage().startsWith("n (flows)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BallsIntoBins.probabilityAnyPathAtLeast(10, 3, -1)).getMessage().startsWith("k"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BallsIntoBins.maxLoad(16, Integer.MAX_VALUE)).getMessage()
                .startsWith("m (paths) must be in [1, 16777216]"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BallsIntoBins.expectedLoadVariance(new double[0], 3)).getMessage().startsWith("sizes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BallsIntoBins.expectedLoadVariance(new double[] {1, -2}, 3)).getMessage().startsWith("sizes[1]"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FlowMix(0, 1, 0, 1)).getMessage().startsWith("elephants + mice"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FlowMix(1, -1, 0, 1)).getMessage().startsWith("elephantBytes"));
    }

    @Test
    void aHugeFlowCountIsRejectedUpFront() {
        rejects("m", () -> BallsIntoBins.maxLoad(16, Integer.MAX_VALUE));
    }

    @Test
    void aLoadOfAtLeastAnyNegativeCountIsCertain() {
        assertEquals(1.0, BallsIntoBins.maxLoad(8, 4).probabilityAtLeast(Integer.MIN_VALUE));
    }

    @Test
    void moreFlowsPerPathThanFlowsHasProbabilityZero() {
        assertEquals(0.0, BallsIntoBins.probabilityAnyPathAtLeast(2, 2, 3));
    }
}
