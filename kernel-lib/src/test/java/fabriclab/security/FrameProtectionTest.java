package fabriclab.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FrameProtectionTest {
    @Test
    void plainEthernetEfficiencyIsFrameOverFramePlus20() {
        // 64-byte frames: 64 / 84; 1518-byte frames: 1518 / 1538
        assertEquals(64.0 / 84, new FrameProtection.None().goodputEfficiency(64), 1e-15);
        assertEquals(1518.0 / 1538, new FrameProtection.None().goodputEfficiency(1518), 1e-15);
    }

    @Test
    void macsecAddsSectagPlusIcv() {
        assertEquals(24, new FrameProtection.Macsec(false, 0).addedBytesPerFrame(64));
        assertEquals(32, new FrameProtection.Macsec(true, 0).addedBytesPerFrame(1500));
        assertEquals(64.0 / 108, new FrameProtection.Macsec(false, 0).goodputEfficiency(64), 1e-15);
        // serialization of 24 extra bytes at 100 Gb/s: 1.92 ns, plus the stated pipeline latency
        assertEquals(1.92e-9 + 5e-9, new FrameProtection.Macsec(false, 5e-9).addedLatencySeconds(64, 100), 1e-18);
    }

    @Test
    void espPaddingAlignsPayloadPlusTrailerToFourBytes() {
        for (int payload = 0; payload < 64; payload++) {
            int pad = FrameProtection.IpsecEsp.padding(payload);
            assertTrue(pad >= 0 && pad <= 3);
            assertEquals(0, (payload + pad + 2) % 4, "payload " + payload);
        }
        // tunnel IPv4, 64-byte frame: payload 46 -> pad 0; 8 + 8 + 0 + 2 + 16 + 20 = 54
        assertEquals(54, new FrameProtection.IpsecEsp(true, false, 0).addedBytesPerFrame(64));
        // transport IPv4, 64-byte frame: payload 26 -> pad 0; 34
        assertEquals(34, new FrameProtection.IpsecEsp(false, false, 0).addedBytesPerFrame(64));
        // transport IPv6, 65-byte frame: payload 7 -> pad 3; 37
        assertEquals(37, new FrameProtection.IpsecEsp(false, true, 0).addedBytesPerFrame(65));
    }

    @Test
    void physecSegmentArithmetic() {
        // K = 64 blocks: 65 ciphertext blocks + D + S + T = 68
        FrameProtection.PhysecChannel p = new FrameProtection.PhysecChannel(64, 100e-9);
        assertEquals(68, p.outputBlocks());
        assertEquals(1 - 64.0 / 68, p.streamShare(), 1e-15);
        // long segments: the share tends to 1/65 (one extra bit per 64-bit payload)
        double share = new FrameProtection.PhysecChannel(1 << 20, 0).streamShare();
        assertEquals(1.0 / 65, share, 1e-5);
        // same relative cost for every frame size
        assertEquals(p.goodputEfficiency(64) / new FrameProtection.None().goodputEfficiency(64),
                p.goodputEfficiency(9000) / new FrameProtection.None().goodputEfficiency(9000), 1e-12);
    }

    @Test
    void mixOfOneSizeEqualsThatSizeAndTwoSizesWeighByFrames() {
        FrameProtection m = new FrameProtection.Macsec(false, 0);
        assertEquals(m.goodputEfficiency(512), m.goodputEfficiency(new int[] {512}, new double[] {3}), 1e-15);
        // one 64-byte and one 1500-byte frame: (64 + 1500) / (108 + 1544)
        assertEquals(1564.0 / 1652, m.goodputEfficiency(new int[] {64, 1500}, new double[] {0.5, 0.5}), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> m.goodputEfficiency(new int[] {64}, new double[] {0}));
    }

    @Test
    void badInputNamesTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FrameProtection.None().goodputEfficiency(63))
                .getMessage().startsWith("frameBytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FrameProtection.PhysecChannel(0, 0))
                .getMessage().startsWith("segmentBlocks"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FrameProtection.Macsec(false, -1))
                .getMessage().startsWith("pipelineLatencySeconds"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FrameProtection.None().addedLatencySeconds(64, 0))
                .getMessage().startsWith("lineGbps"));
    }
}
