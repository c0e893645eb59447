package fabriclab.loadbalancing.hash;

import fabriclab.Parameters;
import fabriclab.loadbalancing.flow.FiveTuple;

/**
 * A cyclic redundancy check of width 8..32 bits in the usual parametric ("Rocksoft") model: generator
 * polynomial, initial register, input/output reflection and final XOR. Switch ASICs compute ECMP and
 * LAG hashes as CRCs of the packet's 5-tuple (seed 003, section 4.3.1, "HASH-KEY"); the catalogue
 * below holds the common ones with their published check values (CRC of the ASCII bytes
 * "123456789").
 *
 * <p>Seeds: an ASIC "hash seed" is modelled as an XOR into the initial register. Note a
 * consequence that matters for polarization: a CRC is affine over GF(2), so for messages of one fixed
 * length (5-tuples) changing the seed XORs the same constant into every hash. A seed therefore
 * relabels paths but cannot decorrelate two tiers whose member counts are powers of two (the
 * tier-to-tier polarization model, which builds on this package, measures it).
 *
 * <p>Implementation: byte-wise table lookup (256 entries); the register is kept reflected for
 * reflected CRCs and left-aligned in 32 bits otherwise. Only {@code refIn == refOut} is supported,
 * which covers every catalogued CRC. Immutable and thread-safe.
 */
public final class Crc {
    /** CRC-16/CCITT-FALSE (CRC-16/IBM-3740): poly 0x1021, init 0xFFFF, not reflected; check 0x29B1. */
    public static final Crc CRC16_CCITT_FALSE = new Crc("CRC-16/CCITT-FALSE", 16, 0x1021, 0xFFFF, false, 0x0000);
    /** CRC-16/XMODEM: poly 0x1021, init 0, not reflected; check 0x31C3. */
    public static final Crc CRC16_XMODEM = new Crc("CRC-16/XMODEM", 16, 0x1021, 0x0000, false, 0x0000);
    /** CRC-16/ARC ("CRC-16", IBM): poly 0x8005, init 0, reflected; check 0xBB3D. */
    public static final Crc CRC16_ARC = new Crc("CRC-16/ARC", 16, 0x8005, 0x0000, true, 0x0000);
    /** CRC-32 (ISO-HDLC, Ethernet FCS): poly 0x04C11DB7, init and xorout 0xFFFFFFFF, reflected; check 0xCBF43926. */
    public static final Crc CRC32 = new Crc("CRC-32", 32, 0x04C11DB7, 0xFFFFFFFF, true, 0xFFFFFFFF);
    /** CRC-32C (Castagnoli, iSCSI): poly 0x1EDC6F41, init and xorout 0xFFFFFFFF, reflected; check 0xE3069283. */
    public static final Crc CRC32C = new Crc("CRC-32C", 32, 0x1EDC6F41, 0xFFFFFFFF, true, 0xFFFFFFFF);

    private final String name;
    private final int width;
    private final int poly;
    private final int init;
    private final boolean reflected;
    private final int xorOut;
    private final int mask;
    private final int[] table = new int[256];

    /**
     * A CRC with the given parameters.
     *
     * @param name label
     * @param width register width in bits, 8..32
     * @param poly generator polynomial, normal (MSB-first) form, without the top bit
     * @param init initial register value (normal form)
     * @param reflected whether input bytes and the output are reflected
     * @param xorOut value XORed into the final register
     */
    public Crc(String name, int width, int poly, int init, boolean reflected, int xorOut) {
        this.name = Parameters.notBlank("name", name);
        this.width = Parameters.inRange("width", width, 8, 32);
        this.mask = width == 32 ? -1 : (1 << width) - 1;
        this.poly = poly & mask;
        this.init = init & mask;
        this.reflected = reflected;
        this.xorOut = xorOut & mask;
        if (reflected) {
            int rpoly = reflect(this.poly, width);
            for (int b = 0; b < 256; b++) {
                int x = b;
                for (int k = 0; k < 8; k++) {
                    x = (x & 1) != 0 ? (x >>> 1) ^ rpoly : x >>> 1;
                }
                table[b] = x;
            }
        } else {
            int tpoly = this.poly << (32 - width);
            for (int b = 0; b < 256; b++) {
                int x = b << 24;
                for (int k = 0; k < 8; k++) {
                    x = x < 0 ? (x << 1) ^ tpoly : x << 1;
                }
                table[b] = x;
            }
        }
    }

    /** The CRC's name, e.g. "CRC-32C". */
    public String name() {
        return name;
    }

    /** Register width in bits. */
    public int width() {
        return width;
    }

    /** Reverses the low {@code bits} bits of {@code v}. */
    static int reflect(int v, int bits) {
        return Integer.reverse(v) >>> (32 - bits);
    }

    /** The register after the initial value XOR seed, in the internal form. */
    private int start(int seed) {
        int r = (init ^ seed) & mask;
        return reflected ? reflect(r, width) : r << (32 - width);
    }

    private int update(int reg, int b) {
        return reflected ? (reg >>> 8) ^ table[(reg ^ b) & 0xFF] : (reg << 8) ^ table[((reg >>> 24) ^ b) & 0xFF];
    }

    private int finish(int reg) {
        int out = reflected ? reg : reg >>> (32 - width);
        return (out ^ xorOut) & mask;
    }

    /** The CRC of {@code data} (seed 0). The result is in the low {@link #width()} bits. */
    public int checksum(byte[] data) {
        return checksum(data, 0);
    }

    /**
     * The CRC of {@code data} with the initial register XORed with {@code seed}.
     *
     * @param data bytes, not null (may be empty)
     * @param seed hash seed; only its low {@link #width()} bits matter
     */
    public int checksum(byte[] data, int seed) {
        Parameters.notNull("data", data);
        int reg = start(seed);
        for (byte b : data) {
            reg = update(reg, b);
        }
        return finish(reg);
    }

    /**
     * The CRC of the 13 bytes of {@link FiveTuple#bytes()}, computed without allocating.
     *
     * @param t the 5-tuple, not null
     * @param seed hash seed (XOR into the initial register)
     */
    public int hash(FiveTuple t, int seed) {
        Parameters.notNull("t", t);
        int reg = start(seed);
        int s = t.sourceIp();
        int d = t.destinationIp();
        reg = update(reg, s >>> 24);
        reg = update(reg, s >>> 16);
        reg = update(reg, s >>> 8);
        reg = update(reg, s);
        reg = update(reg, d >>> 24);
        reg = update(reg, d >>> 16);
        reg = update(reg, d >>> 8);
        reg = update(reg, d);
        reg = update(reg, t.sourcePort() >>> 8);
        reg = update(reg, t.sourcePort());
        reg = update(reg, t.destinationPort() >>> 8);
        reg = update(reg, t.destinationPort());
        reg = update(reg, t.protocol());
        return finish(reg);
    }

    /**
     * A fast 5-tuple hasher for one seed, using that a CRC of fixed-length input is affine over
     * GF(2): {@code crc_seed(x) = crc_seed(0) ^ XOR_i (crc_0(x_i at byte i) ^ crc_0(0))}. It
     * precomputes one 256-entry table per tuple byte (13 tables) and the constant, so a hash is 13
     * independent lookups instead of a 13-step dependent chain. Equal to {@link #hash(FiveTuple, int)}
     * for every tuple (tested).
     */
    public FlowHasher tupleHasher(int seed) {
        byte[] zero = new byte[13];
        int base = checksum(zero, 0);
        int constant = checksum(zero, seed);
        int[][] t = new int[13][256];
        byte[] msg = new byte[13];
        for (int i = 0; i < 13; i++) {
            for (int b = 0; b < 256; b++) {
                msg[i] = (byte) b;
                t[i][b] = checksum(msg, 0) ^ base;
            }
            msg[i] = 0;
        }
        int w = width;
        return new FlowHasher() {
            @Override
            public int hash(FiveTuple f) {
                Parameters.notNull("t (the 5-tuple)", f);
                int s = f.sourceIp();
                int d = f.destinationIp();
                int sp = f.sourcePort();
                int dp = f.destinationPort();
                return constant ^ t[0][s >>> 24] ^ t[1][(s >>> 16) & 0xFF] ^ t[2][(s >>> 8) & 0xFF] ^ t[3][s & 0xFF]
                        ^ t[4][d >>> 24] ^ t[5][(d >>> 16) & 0xFF] ^ t[6][(d >>> 8) & 0xFF] ^ t[7][d & 0xFF]
                        ^ t[8][sp >>> 8] ^ t[9][sp & 0xFF] ^ t[10][dp >>> 8] ^ t[11][dp & 0xFF] ^ t[12][f.protocol()];
            }

            @Override
            public int bits() {
                return w;
            }
        };
    }

    @Override
    public String toString() {
        return name;
    }
}
