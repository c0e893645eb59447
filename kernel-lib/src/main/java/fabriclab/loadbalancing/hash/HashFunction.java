package fabriclab.loadbalancing.hash;

import fabriclab.Parameters;
import fabriclab.loadbalancing.flow.FiveTuple;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The flow hash functions switch ASICs offer for ECMP and LAG member selection (seed 003, section
 * 4.3.1: the 5-tuple is the hash factor, a HASH-KEY selects the member). Each is exact and tested
 * against published check values where one exists.
 *
 * <p>Seeds, as ASICs apply them (fabriclab's model of the per-switch "hash seed"):
 * <ul>
 *   <li>CRCs: the seed is XORed into the initial register ({@link Crc#hash(FiveTuple, int)});</li>
 *   <li>XOR folding: the seed is XORed into the folded value;</li>
 *   <li>Toeplitz: seed 0 is the RSS verification key; another seed XORs every 32-bit word of that
 *       key with the seed, which changes the linear map itself.</li>
 * </ul>
 * With the first two, a seed only XORs a constant into every hash of a fixed-length tuple.
 */
public enum HashFunction {
    /** CRC-16/CCITT-FALSE of the 13 tuple bytes (16-bit). */
    CRC16_CCITT(16) {
        @Override
        public FlowHasher hasher(int seed) {
            return crcHasher(Crc.CRC16_CCITT_FALSE, seed);
        }
    },
    /** CRC-16/ARC (the "IBM" CRC-16, polynomial 0x8005) of the 13 tuple bytes (16-bit). */
    CRC16_ARC(16) {
        @Override
        public FlowHasher hasher(int seed) {
            return crcHasher(Crc.CRC16_ARC, seed);
        }
    },
    /** CRC-32 (Ethernet polynomial) of the 13 tuple bytes. */
    CRC32(32) {
        @Override
        public FlowHasher hasher(int seed) {
            return crcHasher(Crc.CRC32, seed);
        }
    },
    /** CRC-32C (Castagnoli) of the 13 tuple bytes. */
    CRC32C(32) {
        @Override
        public FlowHasher hasher(int seed) {
            return crcHasher(Crc.CRC32C, seed);
        }
    },
    /**
     * XOR folding to 16 bits: {@code x = srcIp ^ dstIp ^ (srcPort << 16 | dstPort) ^ protocol ^ seed},
     * then {@code (x >>> 16) ^ (x & 0xFFFF)}. The cheapest hash (a LAG "XOR" mode); symmetric in
     * source and destination.
     */
    XOR16(16) {
        @Override
        public FlowHasher hasher(int seed) {
            return new FlowHasher() {
                @Override
                public int hash(FiveTuple t) {
                    return xorFold16(t, seed);
                }

                @Override
                public int bits() {
                    return 16;
                }
            };
        }
    },
    /** Toeplitz (RSS) hash of source and destination address and ports (32-bit). */
    TOEPLITZ(32) {
        @Override
        public FlowHasher hasher(int seed) {
            byte[] key = Toeplitz.hex(Toeplitz.RSS_VERIFICATION_KEY);
            for (int i = 0; i < key.length; i++) {
                key[i] ^= (byte) (seed >>> (24 - 8 * (i & 3)));
            }
            Toeplitz tz = new Toeplitz(key, 12);
            return new FlowHasher() {
                @Override
                public int hash(FiveTuple t) {
                    return tz.hash(t);
                }

                @Override
                public int bits() {
                    return 32;
                }
            };
        }
    };

    private final int bits;

    HashFunction(int bits) {
        this.bits = bits;
    }

    /** Width of the hash value in bits. */
    public int bits() {
        return bits;
    }

    /** A prepared hasher of this function with the given seed. */
    public abstract FlowHasher hasher(int seed);

    /** The XOR-fold hash, see {@link #XOR16}. */
    public static int xorFold16(FiveTuple t, int seed) {
        Parameters.notNull("t", t);
        int x = t.sourceIp() ^ t.destinationIp() ^ ((t.sourcePort() << 16) | t.destinationPort()) ^ t.protocol() ^ seed;
        return ((x >>> 16) ^ x) & 0xFFFF;
    }

    private static FlowHasher crcHasher(Crc crc, int seed) {
        return crc.tupleHasher(seed);
    }

    /**
     * Looks a function up by name, ignoring case and the characters '-', '_' and '/'
     * ("crc32c", "CRC-32C", "toeplitz", "crc16-ccitt").
     *
     * @throws IllegalArgumentException naming {@code name} and listing the valid names
     */
    public static HashFunction byName(String name) {
        Parameters.notBlank("name", name);
        String key = name.toUpperCase(Locale.ROOT).replaceAll("[-_/ ]", "");
        for (HashFunction f : values()) {
            if (f.name().replace("_", "").equals(key)) {
                return f;
            }
        }
        throw new IllegalArgumentException("name must be one of " + Arrays.stream(values()).map(Enum::name)
                .collect(Collectors.joining(", ")) + " (case, '-' and '_' ignored), got \"" + name + "\"");
    }
}
