package fabriclab.container;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.rejects;

class PacketSizesAndAssemblyTest {

    @Test
    void uniformMomentsAreTheDiscreteUniformClosedForm() {
        PacketSizes u = PacketSizes.uniform(64, 1500);
        double n = 1500 - 64 + 1;
        assertEquals((64 + 1500) / 2.0, u.mean(), 1e-9);
        assertEquals((n * n - 1) / 12.0, u.variance(), 1e-6);
        assertEquals(64, u.min());
        assertEquals(1500, u.max());
    }

    @Test
    void empiricalMergesRepeatedSizesAndNormalises() {
        PacketSizes e = PacketSizes.empirical(new int[] {100, 200, 100}, new double[] {1, 2, 1});
        assertArrayEquals(new int[] {100, 200}, e.support());
        assertEquals(0.5, e.pmf(100), 1e-15);
        assertEquals(150, e.mean(), 1e-12);
        assertEquals(0.5, e.tail(100), 1e-15);
    }

    @Test
    void sameSeedSameSample() {
        PacketSizes u = PacketSizes.uniform(64, 1500);
        assertArrayEquals(u.sample(new SplittableRandom(7), 1000), u.sample(new SplittableRandom(7), 1000));
    }

    @Test
    void fixedFourKilobytePacketsFillSixteenKilobyteContainersExactly() {
        // 000 section 3: 16 KB containers, about 4 KB packets: 4 packets per container
        int[] p = new int[12];
        Arrays.fill(p, 4096);
        for (AssemblyRule r : AssemblyRule.values()) {
            assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, ContainerAssembly.assign(r, p, 16384), r.name());
            ContainerFill f = ContainerAssembly.fillDistribution(r, PacketSizes.fixed(4096), 16384);
            assertEquals(16384, f.mean(), 1e-9, r.name());
            assertEquals(0, f.variance(), 1e-6, r.name());
        }
    }

    @Test
    void cumulativeRuleIsQuotientOfBytesBeforeThePacket() {
        int[] p = {1500, 1500, 1500, 1500, 1500, 1500};
        int[] ids = ContainerAssembly.assign(AssemblyRule.CUMULATIVE_BYTES, p, 4096);
        // starts at 0,1500,3000,4500,6000,7500 -> floor(/4096) = 0,0,0,1,1,1
        assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1}, ids);
        int[] ov = ContainerAssembly.assign(AssemblyRule.OVERFLOW_STARTS_NEXT, p, 4096);
        // 1500+1500=3000 fits, +1500 = 4500 > 4096 overflows: two packets per container
        assertArrayEquals(new int[] {0, 0, 1, 1, 2, 2}, ov);
    }

    @Test
    void assemblyConservesBytesNeverSplitsAndOverflowRuleNeverExceedsC() {
        PacketSizes u = PacketSizes.uniform(64, 1500);
        int[] p = u.sample(new SplittableRandom(3), 20_000);
        long total = Arrays.stream(p).asLongStream().sum();
        for (AssemblyRule r : AssemblyRule.values()) {
            int[] ids = ContainerAssembly.assign(r, p, 8192);
            for (int i = 1; i < ids.length; i++) {
                int step = ids[i] - ids[i - 1];
                assertTrue(step == 0 || step == 1, "ids increase by 0 or 1");
            }
            long[] b = ContainerAssembly.containerBytes(p, ids);
            assertEquals(total, Arrays.stream(b).sum(), r.name());
            for (long x : b) {
                assertTrue(x > 0);
                if (r == AssemblyRule.OVERFLOW_STARTS_NEXT) {
                    assertTrue(x <= 8192);
                } else {
                    assertTrue(x <= 8192 + 1500 - 1);
                }
            }
        }
    }

    @Test
    void overflowFillLawMatchesHandDerivedTwoSizeChain() {
        // sizes {1,2} equiprobable, C = 2. Container starting with 2 is full; one starting with 1
        // takes a 1 (fill 2) or is overflowed by a 2 (fill 1, next starts with 2). Stationary first
        // sizes nu(1)=0.4, nu(2)=0.6, so P(fill=1) = 0.4 * 0.5 = 0.2 (derived by hand).
        PacketSizes s = PacketSizes.empirical(new int[] {1, 2}, new double[] {1, 1});
        ContainerFill f = ContainerAssembly.fillDistribution(AssemblyRule.OVERFLOW_STARTS_NEXT, s, 2);
        assertArrayEquals(new int[] {1, 2}, f.bytes());
        assertEquals(0.2, f.probability()[0], 1e-12);
        assertEquals(0.8, f.probability()[1], 1e-12);
        assertTrue(f.exact());
    }

    @Test
    void overflowFillLawAgreesWithMonteCarloWithinFiveSigma() {
        PacketSizes u = PacketSizes.uniform(64, 1500);
        int c = 16384;
        ContainerFill f = ContainerAssembly.fillDistribution(AssemblyRule.OVERFLOW_STARTS_NEXT, u, c);
        long[] b = ContainerAssembly.simulateContainerBytes(AssemblyRule.OVERFLOW_STARTS_NEXT, u, c, 300_000, 11);
        double mean = Arrays.stream(b).average().orElseThrow();
        double var = Arrays.stream(b).mapToDouble(x -> (x - mean) * (x - mean)).sum() / (b.length - 1);
        // 5 sigma of a mean over n containers; effective n halved for the weak lag-1 correlation
        double n = b.length / 2.0;
        assertEquals(f.mean(), mean, 5 * Math.sqrt(f.variance() / n));
        // sample variance: sd about var * sqrt(2/n) for a bounded, roughly unimodal law; 6 sigma allowance
        assertEquals(f.variance(), var, 6 * f.variance() * Math.sqrt(2 / n) + 1);
        assertTrue(f.bytes()[0] > c - 1500, "a container is short of C by less than the largest packet");
        assertTrue(f.maxBytes() <= c);
    }

    @Test
    void cumulativeRuleMeanLoadIsExactlyC() {
        PacketSizes u = PacketSizes.uniform(64, 1500);
        ContainerFill f = ContainerAssembly.fillDistribution(AssemblyRule.CUMULATIVE_BYTES, u, 16384);
        assertEquals(16384, f.mean(), 1e-6);
        long[] b = ContainerAssembly.simulateContainerBytes(AssemblyRule.CUMULATIVE_BYTES, u, 16384, 300_000, 5);
        double mean = Arrays.stream(b).average().orElseThrow();
        // telescoping: the mean over k windows is C + (o_k - o_1)/k, |.| < 1500/k
        assertEquals(16384, mean, 1500.0 / b.length + 1e-9);
        double var = Arrays.stream(b).mapToDouble(x -> (x - mean) * (x - mean)).average().orElseThrow();
        // independence approximation of consecutive offsets: within 10% at 16 KB (about 21 packets)
        assertEquals(f.variance(), var, 0.1 * f.variance());
    }

    @Test
    void badInputsNameTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ContainerAssembly.fillDistribution(AssemblyRule.OVERFLOW_STARTS_NEXT, PacketSizes.uniform(64, 1500), 1000));
        assertTrue(e.getMessage().contains("containerLength"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ContainerAssembly.assign(AssemblyRule.CUMULATIVE_BYTES, new int[] {5000}, 4096));
        assertTrue(e.getMessage().contains("packetBytes[0]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PacketSizes.empirical(new int[0], new double[0]));
        assertTrue(e.getMessage().contains("sizes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PacketSizes.uniform(64, 10));
        assertTrue(e.getMessage().contains("maxBytes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PacketSizes.empirical(new int[] {1}, new double[] {-1}));
        assertTrue(e.getMessage().contains("weights[0]"), e.getMessage());
    }

    @Test
    void aSizeRangeThatWouldExhaustMemoryIsRejected() {
        rejects("maxBytes", () -> PacketSizes.uniform(64, Integer.MAX_VALUE));
    }
}
