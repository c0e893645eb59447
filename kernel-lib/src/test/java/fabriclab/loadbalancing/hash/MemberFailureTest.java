package fabriclab.loadbalancing.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.loadbalancing.flow.FiveTuple;
import fabriclab.loadbalancing.flow.RoceJobTraffic;
import fabriclab.loadbalancing.flow.SourcePortPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.rejects;

class MemberFailureTest {
    private static final List<FiveTuple> FLOWS = RoceJobTraffic.of(128, 8, 4, SourcePortPolicy.RANDOM).flows(2); // 4096 flows

    @Test
    void resilientTableMovesExactlyTheFlowsOfTheFailedMember() {
        EcmpHasher h = EcmpHasher.of(HashFunction.CRC32, 5);
        // with B = 16 x 64 buckets, bucket = hash mod 1024 and member = bucket mod 16 = hash mod 16
        double onFailed = MemberFailure.fractionOnFailedMember(FLOWS, h, 16, 3);
        assertEquals(onFailed, MemberFailure.fractionMovedResilient(FLOWS, h, 16, 1024, 3), 0);
    }

    @Test
    void moduloMovesMostFlowsAndThresholdAboutHalf() {
        EcmpHasher mod = EcmpHasher.of(HashFunction.CRC32, 5);
        EcmpHasher thr = mod.withSelection(PathSelection.HASH_THRESHOLD);
        // uniform hashes, N = 16 -> 15 with member 15 failing: modulo keeps h mod 16 == h mod 15, a
        // fraction 15/240 = 1/16, so it moves 15/16; hash-threshold keeps the region overlap, 1/2 of
        // the flows in expectation for the last member failing (regions shift by j/240). 4096 flows:
        // binomial sd below 0.008, 5 sigma = 0.04
        assertEquals(15.0 / 16, MemberFailure.fractionMovedPlain(FLOWS, mod, 16, 15), 0.04);
        double expectedThreshold = 0;
        for (int j = 0; j < 16; j++) {
            // region j of 16 is [j/16, (j+1)/16); new region j of 15 is [j/15, (j+1)/15); kept = overlap
            double lo = Math.max(j / 16.0, j / 15.0);
            double hi = Math.min((j + 1) / 16.0, (j + 1) / 15.0);
            expectedThreshold += Math.max(0, hi - lo);
        }
        assertEquals(1 - expectedThreshold, MemberFailure.fractionMovedPlain(FLOWS, thr, 16, 15), 0.04);
        assertTrue(MemberFailure.fractionMovedPlain(FLOWS, thr, 16, 15) < MemberFailure.fractionMovedPlain(FLOWS, mod, 16, 15));
    }

    @Test
    void badInputsNameTheParameter() {
        EcmpHasher h = EcmpHasher.of(HashFunction.CRC32, 5);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MemberFailure.fractionMovedPlain(FLOWS, h, 1, 0))
                .getMessage().startsWith("members"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MemberFailure.fractionMovedPlain(FLOWS, h, 4, 4))
                .getMessage().startsWith("failed"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MemberFailure.fractionMovedPlain(List.of(), h, 4, 0))
                .getMessage().startsWith("flows"));
    }

    @Test
    void aBucketCountThatWouldExhaustMemoryIsRejected() {
        rejects("bucketCount", () -> ResilientHashGroup.create(4, Integer.MAX_VALUE));
    }
}
