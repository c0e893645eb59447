package fabriclab.loadbalancing.hash;

import fabriclab.Parameters;

/**
 * How a switch turns a flow hash into one of N equal-cost members.
 */
public enum PathSelection {
    /** Member = hash mod N (unsigned). Uses the low-order bits of the hash. */
    MODULO {
        @Override
        public int select(int hash, int bits, int members) {
            check(bits, members);
            return bits < 32 ? (hash & ((1 << bits) - 1)) % members : Integer.remainderUnsigned(hash, members);
        }
    },
    /**
     * Hash-threshold (RFC 2992): the hash space [0, 2^bits) is cut into N equal regions and the
     * member is the region the hash falls in, {@code floor(hash x N / 2^bits)}. Uses the high-order
     * bits of the hash; adding or removing a member moves fewer flows than modulo (RFC 2992 section 4).
     */
    HASH_THRESHOLD {
        @Override
        public int select(int hash, int bits, int members) {
            check(bits, members);
            return (int) (((hash & mask(bits)) * (long) members) >>> bits);
        }
    };

    private static void check(int bits, int members) {
        if (bits < 1 || bits > 32 || members < 1) { // the fast test first: select runs once per flow
            Parameters.inRange("bits", bits, 1, 32);
            Parameters.atLeast("members", members, 1);
        }
    }

    private static long mask(int bits) {
        return bits == 32 ? 0xFFFFFFFFL : (1L << bits) - 1;
    }

    /**
     * The member index in [0, members) for a hash of the given width.
     *
     * @param hash the hash value (only its low {@code bits} bits are used)
     * @param bits hash width, 1..32
     * @param members number of equal-cost members N, at least 1
     */
    public abstract int select(int hash, int bits, int members);

    /** {@link #select} with its arguments validated (the hot path skips validation). */
    public int selectChecked(int hash, int bits, int members) {
        Parameters.inRange("bits", bits, 1, 32);
        Parameters.atLeast("members", members, 1);
        return select(hash, bits, members);
    }
}
