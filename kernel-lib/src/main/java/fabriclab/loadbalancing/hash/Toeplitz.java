package fabriclab.loadbalancing.hash;

import fabriclab.Parameters;
import fabriclab.loadbalancing.flow.FiveTuple;

/**
 * The Toeplitz hash of receive-side scaling (RSS): for each set bit of the input, read MSB first,
 * XOR in the 32-bit window of the key that starts at that bit position. It is linear over GF(2) in
 * the input. NICs use it for RSS and several switch ASICs offer it as an ECMP hash.
 *
 * <p>The IPv4 input is source address, destination address, source port, destination port
 * (12 bytes, network order; the protocol is not hashed), as in Microsoft's RSS specification, whose
 * 40-byte verification key is {@link #RSS_VERIFICATION_KEY}.
 *
 * <p>Implementation: the 32-bit window for every bit position is precomputed and folded into one
 * 256-entry table per input byte, so a 12-byte hash is 12 lookups. Immutable and thread-safe.
 */
public final class Toeplitz {
    /** The RSS verification key (40 bytes) published with the RSS specification's test vectors. */
    public static final String RSS_VERIFICATION_KEY =
            "6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa";

    private final byte[] key;
    private final int[][] tables;

    /**
     * A Toeplitz hash with the given key.
     *
     * @param key the key, at least {@code inputBytes + 4} bytes long
     * @param inputBytes longest input that will be hashed, 1..64
     */
    public Toeplitz(byte[] key, int inputBytes) {
        Parameters.notNull("key", key);
        Parameters.inRange("inputBytes", inputBytes, 1, 64);
        if (key.length < inputBytes + 4) {
            throw new IllegalArgumentException("key must be at least inputBytes + 4 = " + (inputBytes + 4) + " bytes long, got " + key.length);
        }
        this.key = key.clone();
        this.tables = new int[inputBytes][256];
        for (int i = 0; i < inputBytes; i++) {
            int[] windows = new int[8];
            for (int bit = 0; bit < 8; bit++) {
                windows[bit] = window(this.key, i * 8 + bit);
            }
            for (int b = 0; b < 256; b++) {
                int h = 0;
                for (int bit = 0; bit < 8; bit++) {
                    if ((b & (0x80 >>> bit)) != 0) {
                        h ^= windows[bit];
                    }
                }
                tables[i][b] = h;
            }
        }
    }

    /** The Toeplitz hash with the RSS verification key, for 5-tuples (12-byte input). */
    public static Toeplitz rss() {
        return new Toeplitz(hex(RSS_VERIFICATION_KEY), 12);
    }

    /** Bytes of a hex string (two digits per byte). */
    public static byte[] hex(String hex) {
        Parameters.notNull("hex", hex);
        if (hex.length() % 2 != 0 || !hex.matches("[0-9a-fA-F]*")) {
            throw new IllegalArgumentException("hex must be an even number of hex digits, got \"" + hex + "\"");
        }
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    /** The 32 key bits starting at bit position {@code pos} (MSB of key[0] is position 0). */
    private static int window(byte[] key, int pos) {
        int w = 0;
        for (int j = 0; j < 32; j++) {
            int p = pos + j;
            int bit = (key[p >>> 3] >>> (7 - (p & 7))) & 1;
            w = (w << 1) | bit;
        }
        return w;
    }

    /** A copy of the key. */
    public byte[] key() {
        return key.clone();
    }

    /**
     * The hash of {@code input}, bit by bit as the specification states it (reference form).
     *
     * @param input at most {@code inputBytes} bytes
     */
    public int hash(byte[] input) {
        Parameters.notNull("input", input);
        if (input.length > tables.length) {
            throw new IllegalArgumentException("input must be at most " + tables.length + " bytes, got " + input.length);
        }
        int result = 0;
        for (int i = 0; i < input.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                if ((input[i] & (0x80 >>> bit)) != 0) {
                    result ^= window(key, i * 8 + bit);
                }
            }
        }
        return result;
    }

    /** The RSS IPv4+ports hash of a 5-tuple (12 input bytes), table-driven. */
    public int hash(FiveTuple t) {
        Parameters.notNull("t", t);
        int[][] tb = tables;
        int s = t.sourceIp();
        int d = t.destinationIp();
        int sp = t.sourcePort();
        int dp = t.destinationPort();
        return tb[0][s >>> 24] ^ tb[1][(s >>> 16) & 0xFF] ^ tb[2][(s >>> 8) & 0xFF] ^ tb[3][s & 0xFF]
                ^ tb[4][d >>> 24] ^ tb[5][(d >>> 16) & 0xFF] ^ tb[6][(d >>> 8) & 0xFF] ^ tb[7][d & 0xFF]
                ^ tb[8][sp >>> 8] ^ tb[9][sp & 0xFF] ^ tb[10][dp >>> 8] ^ tb[11][dp & 0xFF];
    }

    /** The RSS IPv4-only hash (8 input bytes: the two addresses). */
    public int hashAddresses(FiveTuple t) {
        Parameters.notNull("t", t);
        int[][] tb = tables;
        int s = t.sourceIp();
        int d = t.destinationIp();
        return tb[0][s >>> 24] ^ tb[1][(s >>> 16) & 0xFF] ^ tb[2][(s >>> 8) & 0xFF] ^ tb[3][s & 0xFF]
                ^ tb[4][d >>> 24] ^ tb[5][(d >>> 16) & 0xFF] ^ tb[6][(d >>> 8) & 0xFF] ^ tb[7][d & 0xFF];
    }
}
