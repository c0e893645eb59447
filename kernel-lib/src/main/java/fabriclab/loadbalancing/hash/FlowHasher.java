package fabriclab.loadbalancing.hash;

import fabriclab.loadbalancing.flow.FiveTuple;

/**
 * A prepared flow hash: one function with one seed, ready to hash 5-tuples fast. Obtained from
 * {@link HashFunction#hasher(int)}. Implementations are immutable and thread-safe.
 */
public interface FlowHasher {
    /** The hash of the 5-tuple {@code t} (not null), in the low {@link #bits()} bits (higher bits zero). */
    int hash(FiveTuple t);

    /** Width of the hash value in bits (16 or 32). */
    int bits();
}
