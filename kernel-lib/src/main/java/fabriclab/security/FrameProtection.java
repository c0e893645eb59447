package fabriclab.security;

import fabriclab.Parameters;

/**
 * What a link-security scheme costs a stream of Ethernet frames: bytes added on the wire per frame,
 * the fraction of the line's code-block capacity it takes, and the latency it adds.
 *
 * <p>Context: seed 000 (Duan et al., Telecommunications Science 2024, doi:10.11959/j.issn.1000-0801.2024171),
 * sections 1.2.3 and 2.2.3: MACsec and IPsec add per-frame headers and trailers, which hurts small
 * frames; PHYSec encrypts the 64B/66B block stream inside the PHY and adds one D block (and S, T
 * blocks) per encrypted segment instead.
 *
 * <p>Goodput is counted as the original frame's bytes (MAC header to FCS). On the wire every frame
 * also carries {@link #PREAMBLE_AND_MIN_IFG_BYTES} (8 bytes preamble/SFD, 12 bytes minimum
 * inter-frame gap), so the goodput efficiency of frames of L bytes at full load is
 * {@code L / (L + 20 + added(L)) * (1 - streamShare)}.
 */
public sealed interface FrameProtection permits FrameProtection.None, FrameProtection.Macsec,
        FrameProtection.IpsecEsp, FrameProtection.PhysecChannel {

    /** Preamble + SFD (8 bytes) + minimum inter-frame gap (12 bytes), IEEE 802.3. */
    int PREAMBLE_AND_MIN_IFG_BYTES = 20;
    /** Smallest Ethernet frame, bytes (header to FCS). */
    int MIN_FRAME_BYTES = 64;
    /** Largest frame accepted here (jumbo), bytes. */
    int MAX_FRAME_BYTES = 16_384;

    /** Short name for tables and legends. */
    String name();

    /** Bytes this scheme adds to one frame of {@code frameBytes} bytes (0 for PHYSec, which works below frames). */
    int addedBytesPerFrame(int frameBytes);

    /** Fraction of the line's block capacity the scheme takes independently of frames, in [0, 1) (0 unless it works below frames). */
    default double streamShare() {
        return 0;
    }

    /** Fixed processing latency the scheme adds per hop, seconds (a stated parameter, not derived). */
    double pipelineLatencySeconds();

    /** Goodput efficiency of back-to-back frames of {@code frameBytes} bytes: original bytes / line capacity. */
    default double goodputEfficiency(int frameBytes) {
        checkFrame(frameBytes);
        double wire = frameBytes + PREAMBLE_AND_MIN_IFG_BYTES + addedBytesPerFrame(frameBytes);
        return frameBytes / wire * (1 - streamShare());
    }

    /**
     * Goodput efficiency of a mix of frame sizes: sum of original bytes / sum of line capacity used,
     * with {@code weights[i]} the share of frames (not bytes) of size {@code frameBytes[i]}.
     */
    default double goodputEfficiency(int[] frameBytes, double[] weights) {
        Parameters.notNull("frameBytes", frameBytes);
        Parameters.notNull("weights", weights);
        if (frameBytes.length == 0 || frameBytes.length != weights.length) {
            throw new IllegalArgumentException("frameBytes and weights must be non-empty and of equal length, got "
                    + frameBytes.length + " and " + weights.length);
        }
        double original = 0;
        double wire = 0;
        double total = 0;
        for (int i = 0; i < frameBytes.length; i++) {
            checkFrame(frameBytes[i]);
            Parameters.nonNegative("weights[" + i + "]", weights[i]);
            original += weights[i] * frameBytes[i];
            wire += weights[i] * (frameBytes[i] + PREAMBLE_AND_MIN_IFG_BYTES + addedBytesPerFrame(frameBytes[i]));
            total += weights[i];
        }
        if (total <= 0) {
            throw new IllegalArgumentException("weights must not all be 0");
        }
        return original / wire * (1 - streamShare());
    }

    /**
     * Latency added to one frame of {@code frameBytes} bytes at {@code lineGbps}: the pipeline latency
     * plus the serialization of the added bytes (and of the stream share), seconds.
     */
    default double addedLatencySeconds(int frameBytes, double lineGbps) {
        checkFrame(frameBytes);
        Parameters.positive("lineGbps", lineGbps);
        double bits = 8.0 * (addedBytesPerFrame(frameBytes) + streamShare() / (1 - streamShare()) * (frameBytes + PREAMBLE_AND_MIN_IFG_BYTES));
        return pipelineLatencySeconds() + bits / (lineGbps * 1e9);
    }

    /** Checks a frame size. */
    static void checkFrame(int frameBytes) {
        Parameters.inRange("frameBytes", frameBytes, MIN_FRAME_BYTES, MAX_FRAME_BYTES);
    }

    /** No protection: the reference. */
    record None() implements FrameProtection {
        @Override
        public String name() {
            return "none";
        }

        @Override
        public int addedBytesPerFrame(int frameBytes) {
            checkFrame(frameBytes);
            return 0;
        }

        @Override
        public double pipelineLatencySeconds() {
            return 0;
        }
    }

    /**
     * MACsec (IEEE 802.1AE): a SecTAG of 8 bytes (16 with the optional 8-byte SCI) after the source
     * address, and a 16-byte ICV before the FCS (the GCM-AES cipher suites).
     *
     * @param withSci whether the SecTAG carries the SCI
     * @param pipelineLatencySeconds processing latency per hop, seconds (>= 0; the papers give none)
     */
    record Macsec(boolean withSci, double pipelineLatencySeconds) implements FrameProtection {
        /** SecTAG without SCI, bytes. */
        public static final int SECTAG_BYTES = 8;
        /** Optional SCI, bytes. */
        public static final int SCI_BYTES = 8;
        /** Integrity check value of GCM-AES, bytes. */
        public static final int ICV_BYTES = 16;

        /** Validates the latency. */
        public Macsec {
            Parameters.nonNegative("pipelineLatencySeconds", pipelineLatencySeconds);
        }

        @Override
        public String name() {
            return withSci ? "MACsec (SecTAG with SCI)" : "MACsec";
        }

        @Override
        public int addedBytesPerFrame(int frameBytes) {
            checkFrame(frameBytes);
            return SECTAG_BYTES + (withSci ? SCI_BYTES : 0) + ICV_BYTES;
        }
    }

    /**
     * IPsec ESP (RFC 4303) with AES-GCM (RFC 4106): an 8-byte ESP header (SPI, sequence number), an
     * 8-byte IV, padding so that payload + 2 is a multiple of 4, pad length and next header (2
     * bytes), a 16-byte ICV, and in tunnel mode a new outer IP header (20 bytes IPv4, 40 IPv6).
     * The protected payload is the frame minus the Ethernet header and FCS (18 bytes) in tunnel mode,
     * and additionally minus the IP header in transport mode.
     *
     * @param tunnel tunnel mode (else transport mode)
     * @param ipv6 IPv6 (else IPv4)
     * @param pipelineLatencySeconds processing latency per hop, seconds (>= 0; the papers give none)
     */
    record IpsecEsp(boolean tunnel, boolean ipv6, double pipelineLatencySeconds) implements FrameProtection {
        /** ESP header: SPI + sequence number, bytes. */
        public static final int ESP_HEADER_BYTES = 8;
        /** Explicit IV of AES-GCM-ESP, bytes. */
        public static final int IV_BYTES = 8;
        /** Pad length + next header, bytes. */
        public static final int TRAILER_BYTES = 2;
        /** ICV of AES-GCM with a 16-byte tag, bytes. */
        public static final int ICV_BYTES = 16;
        /** Ethernet header + FCS, bytes. */
        public static final int ETHERNET_HEADER_AND_FCS = 18;

        /** Validates the latency. */
        public IpsecEsp {
            Parameters.nonNegative("pipelineLatencySeconds", pipelineLatencySeconds);
        }

        @Override
        public String name() {
            return "IPsec ESP " + (tunnel ? "tunnel" : "transport") + (ipv6 ? " IPv6" : " IPv4");
        }

        private int ipHeader() {
            return ipv6 ? 40 : 20;
        }

        /** Padding bytes for a protected payload of {@code payloadBytes}. */
        public static int padding(int payloadBytes) {
            Parameters.atLeast("payloadBytes", payloadBytes, 0);
            return Math.floorMod(-(payloadBytes + TRAILER_BYTES), 4);
        }

        @Override
        public int addedBytesPerFrame(int frameBytes) {
            checkFrame(frameBytes);
            int payload = frameBytes - ETHERNET_HEADER_AND_FCS - (tunnel ? 0 : ipHeader());
            return ESP_HEADER_BYTES + IV_BYTES + padding(payload) + TRAILER_BYTES + ICV_BYTES + (tunnel ? ipHeader() : 0);
        }
    }

    /**
     * PHYSec channel-level encryption (000 section 2.2.3, figure 9), as read from the text: a segment
     * of K 64B/66B blocks is compressed to 65 bits per block, encrypted, and the 65K ciphertext bits
     * are carried in the 64-bit payload of ordinary 66-bit data blocks, plus one D block with the
     * decryption parameters and S and T blocks delimiting the segment. Output blocks per segment:
     * {@code ceil(65 K / 64) + 3}; the share of the line it takes is {@code 1 - K / output}. The
     * frames themselves are not changed, so the cost is the same for every frame size; it has to be
     * found in idle blocks (PCS idle deletion), so at full load it is a goodput loss.
     *
     * @param segmentBlocks K, 64B/66B blocks per encrypted segment (>= 1; the paper gives no value)
     * @param pipelineLatencySeconds processing latency per hop, seconds (>= 0)
     */
    record PhysecChannel(int segmentBlocks, double pipelineLatencySeconds) implements FrameProtection {
        /** Extra blocks per segment: D (parameters), S (start), T (terminate). */
        public static final int EXTRA_BLOCKS = 3;

        /** Validates the parameters. */
        public PhysecChannel {
            Parameters.atLeast("segmentBlocks", segmentBlocks, 1);
            Parameters.nonNegative("pipelineLatencySeconds", pipelineLatencySeconds);
        }

        /** 66-bit blocks on the wire for one segment of {@code segmentBlocks} source blocks. */
        public long outputBlocks() {
            return (65L * segmentBlocks + 63) / 64 + EXTRA_BLOCKS;
        }

        @Override
        public String name() {
            return "PHYSec (" + segmentBlocks + "-block segments)";
        }

        @Override
        public int addedBytesPerFrame(int frameBytes) {
            checkFrame(frameBytes);
            return 0;
        }

        @Override
        public double streamShare() {
            return 1 - segmentBlocks / (double) outputBlocks();
        }
    }
}
