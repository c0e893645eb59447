package fabriclab.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.progress.Progress;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LoadVarianceTest {
    private static final PacketSizes UNIFORM = PacketSizes.uniform(64, 1500);

    @Test
    void roundRobinPerPacketVarianceIsMOverNTimesVarP() {
        int m = 800, n = 8;
        LoadStats s = LoadVariance.of(SprayUnits.packets(UNIFORM, m), n, PathPolicy.ROUND_ROBIN);
        assertEquals((double) m / n * UNIFORM.variance(), s.variancePerPath(), 1e-6);
        // independent paths: E[(1/N) sum (L_i - Lbar)^2] = (1 - 1/N) Var(L_i)
        assertEquals((1 - 1.0 / n) * m / n * UNIFORM.variance(), s.acrossPathVariance(), 1e-6);
    }

    @Test
    void randomPerPacketAcrossPathVarianceMatchesMonteCarlo() {
        int m = 800, n = 8;
        LoadStats s = LoadVariance.of(SprayUnits.packets(UNIFORM, m), n, PathPolicy.RANDOM);
        assertEquals((1 - 1.0 / n) * m * UNIFORM.secondMoment() / n, s.acrossPathVariance(), 1e-3);
        Spraying.Estimate e = Spraying.monteCarlo(UNIFORM, m, Spraying::packetUnits, n, PathPolicy.RANDOM, null, 3000, 1, Progress.silent());
        assertEquals(s.acrossPathVariance(), e.meanVariance(), 5 * e.stdErrVariance());
        assertEquals(s.maxOverMean(), e.meanMaxOverMean(), 0.02 * s.maxOverMean(), "Gaussian max/mean within 2%");
    }

    @Test
    void roundRobinPerPacketMatchesMonteCarlo() {
        int m = 800, n = 8;
        LoadStats s = LoadVariance.of(SprayUnits.packets(UNIFORM, m), n, PathPolicy.ROUND_ROBIN);
        Spraying.Estimate e = Spraying.monteCarlo(UNIFORM, m, Spraying::packetUnits, n, PathPolicy.ROUND_ROBIN, null, 3000, 2, Progress.silent());
        assertEquals(s.acrossPathVariance(), e.meanVariance(), 5 * e.stdErrVariance());
    }

    @Test
    void weightedMatchesMonteCarloAndEqualWeightsEqualRandom() {
        int m = 800;
        double[] w = {4, 2, 1, 1};
        LoadStats s = LoadVariance.of(SprayUnits.packets(UNIFORM, m), w);
        SplittableRandom rng = new SplittableRandom(9);
        int trials = 3000;
        double sum = 0, sum2 = 0;
        for (int t = 0; t < trials; t++) {
            long[] load = Spraying.spray(Spraying.packetUnits(UNIFORM.sample(rng, m)), 4, PathPolicy.WEIGHTED, w, rng);
            double total = Arrays.stream(load).sum();
            double v = 0;
            for (int i = 0; i < 4; i++) {
                double d = load[i] - w[i] / 8.0 * total;
                v += d * d;
            }
            v /= 4;
            assertEquals(v, Spraying.acrossPathVariance(load, w), 1e-6 * v + 1e-6);
            sum += v;
            sum2 += v * v;
        }
        double mean = sum / trials;
        double se = Math.sqrt((sum2 / trials - mean * mean) / trials);
        assertEquals(s.acrossPathVariance(), mean, 5 * se);
        Spraying.Estimate e = Spraying.monteCarlo(UNIFORM, m, Spraying::packetUnits, 4, PathPolicy.WEIGHTED, w, 2000, 10, Progress.silent());
        assertEquals(s.acrossPathVariance(), e.meanVariance(), 5 * e.stdErrVariance());
        LoadStats eq = LoadVariance.of(SprayUnits.packets(UNIFORM, m), new double[] {1, 1, 1, 1});
        assertEquals(LoadVariance.of(SprayUnits.packets(UNIFORM, m), 4, PathPolicy.RANDOM).acrossPathVariance(), eq.acrossPathVariance(), 1e-6);
    }

    @Test
    void fixedContainersRoundRobinHaveZeroVarianceWhenCountDividesN() {
        // 000 scenario: 4 KB packets, 16 KB containers; 64 containers over 8 paths
        SprayUnits u = SprayUnits.containers(PacketSizes.fixed(4096), 256, AssemblyRule.OVERFLOW_STARTS_NEXT, 16384);
        assertEquals(64, u.count(), 1e-9);
        LoadStats s = LoadVariance.of(u, 8, PathPolicy.ROUND_ROBIN);
        assertEquals(0, s.acrossPathVariance(), 1e-9);
        int[] p = new int[256];
        Arrays.fill(p, 4096);
        long[] load = Spraying.spray(Spraying.containerUnits(p, AssemblyRule.OVERFLOW_STARTS_NEXT, 16384), 8, PathPolicy.ROUND_ROBIN, null, new SplittableRandom(1));
        assertEquals(0, Spraying.acrossPathVariance(load), 0);
    }

    @Test
    void uniformContainersMatchMonteCarloForRandomAndRoundRobin() {
        int packets = 21_000; // about 1000 16 KB containers
        for (PathPolicy pol : new PathPolicy[] {PathPolicy.RANDOM, PathPolicy.ROUND_ROBIN}) {
            Spraying.Estimate e = Spraying.monteCarlo(UNIFORM, packets, p -> Spraying.containerUnits(p, AssemblyRule.OVERFLOW_STARTS_NEXT, 16384),
                    8, pol, null, 400, 4, Progress.silent());
            SprayUnits u = SprayUnits.containers(UNIFORM, packets, AssemblyRule.OVERFLOW_STARTS_NEXT, 16384);
            LoadStats s = LoadVariance.of(u, 8, pol);
            if (pol == PathPolicy.RANDOM) {
                assertEquals(s.acrossPathVariance(), e.meanVariance(), 5 * e.stdErrVariance(), pol.name());
            } else {
                // the container count varies between trials, so the remainder term is averaged:
                // E[mu^2 r(N-r)/N^2] with r uniform on 0..N-1 is mu^2 (N^2-1)/(6N^2)
                double expected = (1 - 1 / 8.0) * u.count() / 8 * u.varianceBytes() + u.meanBytes() * u.meanBytes() * 63 / (6 * 64.0);
                assertEquals(expected, LoadVariance.roundRobinUnknownCount(u, 8).acrossPathVariance(), 1e-6 * expected);
                assertEquals(expected, e.meanVariance(), 5 * e.stdErrVariance() + 0.05 * expected, pol.name());
            }
        }
    }

    @Test
    void cumulativeRuleRoundRobinMatchesMonteCarlo() {
        int packets = 21_000;
        for (int len : new int[] {4096, 16384}) {
            LoadStats s = LoadVariance.roundRobinCumulativeRule(UNIFORM, packets, len, 8);
            Spraying.Estimate e = Spraying.monteCarlo(UNIFORM, packets, p -> Spraying.containerUnits(p, AssemblyRule.CUMULATIVE_BYTES, len),
                    8, PathPolicy.ROUND_ROBIN, null, 400, 6, Progress.silent());
            // independence of window offsets is an approximation: 5 sigma plus 10%
            assertEquals(s.acrossPathVariance(), e.meanVariance(), 5 * e.stdErrVariance() + 0.1 * s.acrossPathVariance(), "C=" + len);
        }
    }

    @Test
    void containersCutVarianceByOrdersOfMagnitudeAgainstPackets() {
        long m = 100_000;
        double perPacket = LoadVariance.of(SprayUnits.packets(UNIFORM, m), 8, PathPolicy.RANDOM).coefficientOfVariation();
        double containersRr = LoadVariance.of(SprayUnits.containers(UNIFORM, m, AssemblyRule.OVERFLOW_STARTS_NEXT, 16384), 8, PathPolicy.ROUND_ROBIN)
                .coefficientOfVariation();
        assertTrue(containersRr < perPacket / 5, perPacket + " vs " + containersRr);
    }

    @Test
    void everyPolicyConservesBytesAndLeastLoadedStaysInsideItsBound() {
        int[] p = UNIFORM.sample(new SplittableRandom(2), 5000);
        long total = Arrays.stream(p).asLongStream().sum();
        for (PathPolicy pol : PathPolicy.values()) {
            long[] load = Spraying.spray(Spraying.packetUnits(p), 6, pol, new double[] {1, 2, 3, 1, 2, 3}, new SplittableRandom(3));
            assertEquals(total, Arrays.stream(load).sum(), pol.name());
        }
        long[] cells = Spraying.cellUnits(p, 256, 16);
        long expectedCells = Arrays.stream(p).mapToLong(x -> (x + 255) / 256).sum();
        assertEquals(expectedCells * 272, Arrays.stream(cells).sum());
        long[] load = Spraying.spray(Spraying.packetUnits(p), 6, PathPolicy.LEAST_LOADED, null, new SplittableRandom(3));
        LoadStats bound = LoadVariance.of(SprayUnits.packets(UNIFORM, 5000), 6, PathPolicy.LEAST_LOADED);
        assertFalse(bound.exact());
        assertTrue(Spraying.acrossPathVariance(load) <= bound.acrossPathVariance());
        assertTrue(Arrays.stream(load).max().getAsLong() - Arrays.stream(load).min().getAsLong() <= 1500);
    }

    @Test
    void expectedMaxOfNormalsMatchesKnownValues() {
        assertEquals(0, LoadVariance.expectedMaxOfStandardNormals(1), 0);
        assertEquals(1 / Math.sqrt(Math.PI), LoadVariance.expectedMaxOfStandardNormals(2), 1e-9);
        assertEquals(1.5 / Math.sqrt(Math.PI), LoadVariance.expectedMaxOfStandardNormals(3), 1e-9);
    }

    @Test
    void badInputsNameTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LoadVariance.of(SprayUnits.packets(UNIFORM, 10), 0, PathPolicy.RANDOM));
        assertTrue(e.getMessage().contains("paths"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Spraying.spray(new long[] {1}, 0, PathPolicy.RANDOM, null, new SplittableRandom(1)));
        assertTrue(e.getMessage().contains("paths"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LoadVariance.of(SprayUnits.packets(UNIFORM, 10), new double[] {0, 0}));
        assertTrue(e.getMessage().contains("sum of weights"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SprayUnits.containers(UNIFORM, 10, AssemblyRule.CUMULATIVE_BYTES, 1024));
        assertTrue(e.getMessage().contains("containerLength"), e.getMessage());
    }
}
