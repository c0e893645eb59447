package fabriclab.loadbalancing.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.loadbalancing.flow.FiveTuple;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class HashFunctionTest {
    private static final byte[] CHECK = "123456789".getBytes(StandardCharsets.US_ASCII);

    @Test
    void crcCheckValuesMatchThePublishedCatalogue() {
        // check values of the CRC catalogue (CRC of ASCII "123456789")
        assertEquals(0x29B1, Crc.CRC16_CCITT_FALSE.checksum(CHECK));
        assertEquals(0x31C3, Crc.CRC16_XMODEM.checksum(CHECK));
        assertEquals(0xBB3D, Crc.CRC16_ARC.checksum(CHECK));
        assertEquals(0xCBF43926, Crc.CRC32.checksum(CHECK));
        assertEquals(0xE3069283, Crc.CRC32C.checksum(CHECK));
    }

    @Test
    void crc32AndCrc32cAgreeWithTheJdkOnRandomTuples() {
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 2000; i++) {
            FiveTuple t = new FiveTuple(r.nextInt(), r.nextInt(), r.nextInt(65536), r.nextInt(65536), r.nextInt(256));
            CRC32 a = new CRC32();
            a.update(t.bytes());
            CRC32C c = new CRC32C();
            c.update(t.bytes());
            assertEquals((int) a.getValue(), Crc.CRC32.hash(t, 0));
            assertEquals((int) c.getValue(), Crc.CRC32C.hash(t, 0));
            // the allocation-free tuple path equals the byte-array path, also with a seed
            int seed = r.nextInt();
            assertEquals(Crc.CRC16_ARC.checksum(t.bytes(), seed), Crc.CRC16_ARC.hash(t, seed));
            assertEquals(Crc.CRC16_CCITT_FALSE.checksum(t.bytes(), seed), Crc.CRC16_CCITT_FALSE.hash(t, seed));

        }
    }

    @Test
    void tablePerByteHashersEqualTheSerialCrc() {
        // the affine (one table per tuple byte) hashers used by HashFunction equal the serial CRC
        SplittableRandom r = new SplittableRandom(13);
        for (int seed : new int[] {0, 1, 0xFFFF, 0x12345678, r.nextInt()}) {
            FlowHasher c32 = HashFunction.CRC32.hasher(seed);
            FlowHasher c32c = HashFunction.CRC32C.hasher(seed);
            FlowHasher arc = HashFunction.CRC16_ARC.hasher(seed);
            FlowHasher ccitt = HashFunction.CRC16_CCITT.hasher(seed);
            for (int i = 0; i < 500; i++) {
                FiveTuple t = new FiveTuple(r.nextInt(), r.nextInt(), r.nextInt(65536), r.nextInt(65536), r.nextInt(256));
                assertEquals(Crc.CRC32.hash(t, seed), c32.hash(t));
                assertEquals(Crc.CRC32C.hash(t, seed), c32c.hash(t));
                assertEquals(Crc.CRC16_ARC.hash(t, seed), arc.hash(t));
                assertEquals(Crc.CRC16_CCITT_FALSE.hash(t, seed), ccitt.hash(t));
            }
        }
    }

    @Test
    void crcSeedIsAnAffineShiftForFixedLengthInput() {
        // CRC is affine over GF(2): crc_s(x) ^ crc_0(x) depends on s and the length only
        SplittableRandom r = new SplittableRandom(11);
        int seed = 0x5A5A;
        FiveTuple first = new FiveTuple(r.nextInt(), r.nextInt(), 1, 2, 17);
        int shift = Crc.CRC16_CCITT_FALSE.hash(first, seed) ^ Crc.CRC16_CCITT_FALSE.hash(first, 0);
        for (int i = 0; i < 100; i++) {
            FiveTuple t = new FiveTuple(r.nextInt(), r.nextInt(), r.nextInt(65536), 4791, 17);
            assertEquals(shift, Crc.CRC16_CCITT_FALSE.hash(t, seed) ^ Crc.CRC16_CCITT_FALSE.hash(t, 0));
        }
    }

    @Test
    void toeplitzMatchesTheRssVerificationVectors() {
        // Microsoft RSS specification verification suite, IPv4 with TCP ports and IPv4 only
        String[][] v = {
            {"66.9.149.187", "2794", "161.142.100.80", "1766", "51ccc178", "323e8fc2"},
            {"199.92.111.2", "14230", "65.69.140.83", "4739", "c626b0ea", "d718262a"},
            {"24.19.198.95", "12898", "12.22.207.184", "38024", "5c2b394a", "d2d0a5de"},
            {"38.27.205.30", "48228", "209.142.163.6", "2217", "afc7327f", "82989176"},
            {"153.39.163.191", "44251", "202.188.127.2", "1303", "10e828a2", "5d1809c5"},
        };
        Toeplitz tz = Toeplitz.rss();
        for (String[] row : v) {
            FiveTuple t = new FiveTuple(FiveTuple.ipv4(row[0]), FiveTuple.ipv4(row[2]), Integer.parseInt(row[1]),
                    Integer.parseInt(row[3]), FiveTuple.TCP);
            assertEquals((int) Long.parseLong(row[4], 16), tz.hash(t), row[0]);
            assertEquals((int) Long.parseLong(row[5], 16), tz.hashAddresses(t), row[0]);
            // the bit-serial reference form agrees with the table-driven one
            byte[] b = java.util.Arrays.copyOf(t.bytes(), 12);
            assertEquals(tz.hash(b), tz.hash(t));
        }
        assertEquals(Toeplitz.rss().hash(new FiveTuple(FiveTuple.ipv4("66.9.149.187"), FiveTuple.ipv4("161.142.100.80"), 2794, 1766, 6)),
                HashFunction.TOEPLITZ.hasher(0).hash(new FiveTuple(FiveTuple.ipv4("66.9.149.187"), FiveTuple.ipv4("161.142.100.80"), 2794, 1766, 6)));
    }

    @Test
    void xorFoldFollowsItsDefinitionAndIsSymmetric() {
        FiveTuple t = new FiveTuple(0x0A000001, 0x0A800002, 0xC001, 4791, 17);
        int x = 0x0A000001 ^ 0x0A800002 ^ ((0xC001 << 16) | 4791) ^ 17;
        assertEquals(((x >>> 16) ^ x) & 0xFFFF, HashFunction.XOR16.hasher(0).hash(t));
        FiveTuple swapped = new FiveTuple(0x0A800002, 0x0A000001, 0xC001, 4791, 17);
        assertEquals(HashFunction.XOR16.hasher(3).hash(t), HashFunction.XOR16.hasher(3).hash(swapped));
    }

    @Test
    void hashValuesFitTheirWidth() {
        SplittableRandom r = new SplittableRandom(3);
        for (HashFunction f : HashFunction.values()) {
            FlowHasher h = f.hasher(r.nextInt());
            assertEquals(f.bits(), h.bits());
            for (int i = 0; i < 200; i++) {
                int v = h.hash(new FiveTuple(r.nextInt(), r.nextInt(), r.nextInt(65536), 4791, 17));
                if (f.bits() < 32) {
                    assertEquals(0, v >>> f.bits(), f.name());
                }
            }
        }
    }

    @Test
    void byNameAcceptsCommonSpellingsAndRejectsUnknownNames() {
        assertEquals(HashFunction.CRC32C, HashFunction.byName("crc-32c"));
        assertEquals(HashFunction.CRC16_CCITT, HashFunction.byName("CRC16-CCITT"));
        assertEquals(HashFunction.TOEPLITZ, HashFunction.byName("toeplitz"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HashFunction.byName("md5"));
        assertTrue(e.getMessage().startsWith("name must be one of"), e.getMessage());
        assertTrue(e.getMessage().contains("CRC32C"));
    }

    @Test
    void badInputsNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FiveTuple(1, 2, 70000, 4791, 17))
                .getMessage().startsWith("sourcePort"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Crc("x", 40, 1, 0, false, 0))
                .getMessage().startsWith("width"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FiveTuple.ipv4("10.0.0.256"))
                .getMessage().startsWith("address"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Toeplitz(new byte[10], 12))
                .getMessage().startsWith("key"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> EcmpHasher.of(HashFunction.CRC32, 0).path(
                FiveTuple.roceV2(1, 2, 3), 0)).getMessage().startsWith("members"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> EcmpHasher.of(HashFunction.XOR16, 0, 16, PathSelection.MODULO))
                .getMessage().startsWith("rotation"));
    }
}
