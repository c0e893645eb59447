package fabriclab.loadbalancing.polarization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.loadbalancing.flow.FiveTuple;
import fabriclab.loadbalancing.flow.RoceJobTraffic;
import fabriclab.loadbalancing.flow.SourcePortPolicy;
import fabriclab.loadbalancing.hash.EcmpHasher;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.loadbalancing.hash.PathSelection;
import java.util.List;
import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.rejects;

class TierPolarizationTest {
    private static final List<FiveTuple> FLOWS = RoceJobTraffic.of(64, 8, 4, SourcePortPolicy.RANDOM).flows(1); // 2048 flows

    private static double tier2Used(EcmpHasher a, int m1, EcmpHasher b, int m2) {
        return TierPolarization.simulate(FLOWS, List.of(new HashStage(a, m1), new HashStage(b, m2))).get(1).usedFraction();
    }

    @Test
    void sameHashModuloUsesOneOverGcdOfTheLinks() {
        for (HashFunction f : HashFunction.values()) {
            EcmpHasher h = EcmpHasher.of(f, 0x1234);
            assertEquals(1.0 / 8, tier2Used(h, 8, h, 8), 0, f.name());
            assertEquals(1.0 / 2, tier2Used(h, 4, h, 6), 0, f.name());
            assertEquals(1.0, tier2Used(h, 3, h, 8), 1e-12, f.name()); // gcd 1: no polarization
        }
        assertEquals(1.0 / 8, TierPolarization.reachableFractionSameHashModulo(8, 8));
        assertEquals(1.0 / 2, TierPolarization.reachableFractionSameHashModulo(4, 6));
        // 2048 flows on 8 reachable links: all used
        assertEquals(1.0 / 8, TierPolarization.expectedUsedFractionSameHashModulo(2048, 8, 8), 1e-12);
    }

    @Test
    void aNewSeedDoesNotDepolarizeAnAffineHashButANewFunctionDoes() {
        for (HashFunction f : new HashFunction[] {HashFunction.CRC16_CCITT, HashFunction.CRC32, HashFunction.CRC32C, HashFunction.XOR16}) {
            assertEquals(1.0 / 8, tier2Used(EcmpHasher.of(f, 1), 8, EcmpHasher.of(f, 0xBEEF), 8), 0, f.name());
        }
        // Toeplitz: the seed changes the key, hence the linear map itself
        double tz = tier2Used(EcmpHasher.of(HashFunction.TOEPLITZ, 0), 8, EcmpHasher.of(HashFunction.TOEPLITZ, 0x5EED), 8);
        // a different function, or a different bit window of the same one
        double fn = tier2Used(EcmpHasher.of(HashFunction.CRC32, 1), 8, EcmpHasher.of(HashFunction.CRC16_CCITT, 1), 8);
        double rot = tier2Used(EcmpHasher.of(HashFunction.CRC32, 1), 8, EcmpHasher.of(HashFunction.CRC32, 1, 16, PathSelection.MODULO), 8);
        // independent tiers: 2048 flows on 64 links leave a link idle with probability (63/64)^2048 ~ 1e-14
        double independent = TierPolarization.expectedUsedFractionIndependent(2048, 8, 8);
        assertEquals(1.0, independent, 1e-12);
        assertEquals(independent, tz, 1e-12);
        assertEquals(independent, fn, 1e-12);
        assertEquals(independent, rot, 1e-12);
    }

    @Test
    void threeTiersWithTheSameHashCompoundThePolarization() {
        // same hash modulo 4 at every tier: tier 1 fixes h mod 4, which fixes the choice of tiers 2 and 3,
        // so only 4 of the 4 x 4 x 4 = 64 third-tier links carry traffic; a new function per tier uses all
        EcmpHasher h = EcmpHasher.of(HashFunction.CRC32C, 9);
        List<PolarizationResult> same = TierPolarization.simulate(FLOWS, List.of(new HashStage(h, 4), new HashStage(h, 4), new HashStage(h, 4)));
        assertEquals(1.0, same.get(0).usedFraction(), 0);
        assertEquals(1.0 / 4, same.get(1).usedFraction(), 0);
        assertEquals(1.0 / 16, same.get(2).usedFraction(), 0);
        List<PolarizationResult> mixed = TierPolarization.simulate(FLOWS, List.of(new HashStage(h, 4),
                new HashStage(EcmpHasher.of(HashFunction.CRC16_ARC, 9), 4), new HashStage(EcmpHasher.of(HashFunction.TOEPLITZ, 9), 4)));
        assertEquals(1.0, mixed.get(2).usedFraction(), 0);
    }

    @Test
    void hashThresholdReachIsTheIntervalOverlap() {
        assertEquals(4.0 / 6, TierPolarization.reachableFractionSameHashThreshold(2, 3), 1e-15);
        assertEquals(1.0 / 8, TierPolarization.reachableFractionSameHashThreshold(8, 8), 1e-15);
        EcmpHasher h = EcmpHasher.of(HashFunction.CRC32, 7, 0, PathSelection.HASH_THRESHOLD);
        assertEquals(4.0 / 6, tier2Used(h, 2, h, 3), 0);
        assertEquals(1.0 / 8, tier2Used(h, 8, h, 8), 0);
    }

    @Test
    void polarizedLoadConcentratesOnTheReachableLinks() {
        EcmpHasher h = EcmpHasher.of(HashFunction.CRC32, 0);
        PolarizationResult r = TierPolarization.simulate(FLOWS, List.of(new HashStage(h, 8), new HashStage(h, 8))).get(1);
        assertEquals(64, r.links());
        assertEquals(2048, java.util.Arrays.stream(r.flowsPerLink()).sum()); // conservation
        // 8 of 64 links carry everything: max / mean >= 8
        assertTrue(r.maxOverMean() >= 8, "max/mean " + r.maxOverMean());
        assertEquals(8 * fabriclab.loadbalancing.analytics.BallsIntoBins.maxLoad(2048, 8).meanMaxOverMean(),
                TierPolarization.expectedMaxOverMeanSameHashModulo(2048, 8, 8), 1e-12);
    }

    @Test
    void badInputsNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TierPolarization.reachableFractionSameHashModulo(0, 4))
                .getMessage().startsWith("m1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TierPolarization.simulate(List.of(), List.of()))
                .getMessage().startsWith("flows"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TierPolarization.simulate(FLOWS, List.of()))
                .getMessage().startsWith("tiers"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new HashStage(EcmpHasher.of(HashFunction.CRC32, 0), 0))
                .getMessage().startsWith("members"));
    }

    @Test
    void aResultWithANanFractionOrANegativeTierIsRejected() {
        rejects("usedFraction", () -> new PolarizationResult(1, 4, Double.NaN, 1, new int[] {1, 1, 1, 1}));
        rejects("tier", () -> new PolarizationResult(-1, 4, 0.5, 1, new int[] {1, 1, 1, 1}));
    }
}
