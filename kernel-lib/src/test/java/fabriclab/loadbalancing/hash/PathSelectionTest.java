package fabriclab.loadbalancing.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PathSelectionTest {
    @Test
    void moduloAndThresholdCoverEveryMemberEquallyOverTheHashSpace() {
        // enumerate the whole 16-bit hash space: each of N members gets floor or ceil of 2^16/N hashes
        for (int n : new int[] {1, 3, 7, 8, 12}) {
            for (PathSelection s : PathSelection.values()) {
                int[] c = new int[n];
                for (int h = 0; h < 65536; h++) {
                    c[s.select(h, 16, n)]++;
                }
                for (int v : c) {
                    assertTrue(v == 65536 / n || v == 65536 / n + 1, s + " n=" + n);
                }
            }
        }
    }

    @Test
    void hashThresholdIsTheRegionIndex() {
        // RFC 2992: region size 2^16/4 = 16384, so hash 16383 is region 0 and 16384 region 1
        assertEquals(0, PathSelection.HASH_THRESHOLD.select(16383, 16, 4));
        assertEquals(1, PathSelection.HASH_THRESHOLD.select(16384, 16, 4));
        assertEquals(3, PathSelection.HASH_THRESHOLD.select(0xFFFFFFFF, 32, 4));
        assertEquals(3, PathSelection.MODULO.select(0xFFFFFFFF, 32, 4)); // unsigned 2^32 - 1 mod 4
    }

    @Test
    void hashThresholdMovesFewerFlowsThanModuloWhenAMemberIsAdded() {
        // exact count over the 16-bit space when N goes 4 -> 5. RFC 2992 section 4: hash-threshold
        // moves between 1/4 and 1/2 of the flows; modulo keeps h with h mod 4 == h mod 5,
        // which is 4 residues in every 20, so it moves 80%.
        int movedMod = 0;
        int movedThr = 0;
        for (int h = 0; h < 65536; h++) {
            movedMod += PathSelection.MODULO.select(h, 16, 4) != PathSelection.MODULO.select(h, 16, 5) ? 1 : 0;
            movedThr += PathSelection.HASH_THRESHOLD.select(h, 16, 4) != PathSelection.HASH_THRESHOLD.select(h, 16, 5) ? 1 : 0;
        }
        assertEquals(0.8, movedMod / 65536.0, 1e-3);
        assertTrue(movedThr / 65536.0 >= 0.25 && movedThr / 65536.0 <= 0.5, "moved " + movedThr / 65536.0);
    }

    @Test
    void resilientGroupMovesOnlyTheFailedMembersFlows() {
        int members = 8;
        ResilientHashGroup g = ResilientHashGroup.create(members, 256);
        ResilientHashGroup after = g.withoutMember(3);
        SplittableRandom r = new SplittableRandom(5);
        int moved = 0;
        int onFailed = 0;
        int flows = 20000;
        for (int i = 0; i < flows; i++) {
            int h = r.nextInt();
            int before = g.select(h);
            int now = after.select(h);
            assertTrue(now != 3);
            if (before == 3) {
                onFailed++;
            } else {
                assertEquals(before, now, "a flow on a live member must keep its path");
            }
            moved += before != now ? 1 : 0;
        }
        assertEquals(onFailed, moved);
        // exactly 32 of 256 buckets belonged to member 3: survivors gain 32/7 -> 4 or 5 each
        int[] c = after.bucketsPerMember();
        assertEquals(0, c[3]);
        for (int m = 0; m < members; m++) {
            if (m != 3) {
                assertTrue(c[m] == 36 || c[m] == 37, "member " + m + " has " + c[m]);
            }
        }
        // the member returns: it takes back floor(256/8) = 32 buckets, the others lose only those
        ResilientHashGroup back = after.withMember(3);
        assertEquals(32, back.bucketsPerMember()[3]);
        int changed = 0;
        for (int b = 0; b < 256; b++) {
            changed += back.bucket(b) != after.bucket(b) ? 1 : 0;
        }
        assertEquals(32, changed);
    }

    @Test
    void resilientGroupRejectsBadOperations() {
        ResilientHashGroup g = ResilientHashGroup.create(2, 4);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ResilientHashGroup.create(0, 4)).getMessage().startsWith("members"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ResilientHashGroup.create(8, 4)).getMessage().startsWith("bucketCount"));
        ResilientHashGroup one = g.withoutMember(0);
        assertThrows(IllegalArgumentException.class, () -> one.withoutMember(1));
        assertThrows(IllegalArgumentException.class, () -> one.withoutMember(0));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> g.withoutMember(5)).getMessage().startsWith("m (member)"));
    }

    @Test
    void aRotationMayUseEveryBitOfTheFunctionAndNoMore() {
        // CRC-32 has 32 hash bits: rotations 0..31 are bit windows of it (notebook 01 uses 16); CRC-16 has 16
        EcmpHasher crc32 = EcmpHasher.of(HashFunction.CRC32, 1);
        assertEquals(16, crc32.withRotation(16).rotation());
        assertEquals(31, crc32.withRotation(31).rotation());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> crc32.withRotation(32));
        assertTrue(e.getMessage().contains("newRotation") && e.getMessage().contains("31"), e.getMessage());
        EcmpHasher crc16 = EcmpHasher.of(HashFunction.CRC16_CCITT, 1);
        assertEquals(15, crc16.withRotation(15).rotation());
        assertThrows(IllegalArgumentException.class, () -> crc16.withRotation(16));
        assertThrows(IllegalArgumentException.class, () -> crc32.withRotation(-1));
    }
}
