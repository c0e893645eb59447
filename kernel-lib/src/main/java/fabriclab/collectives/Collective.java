package fabriclab.collectives;

/** The collective operations of the papers' experiments (000 section 3). */
public enum Collective {
    /** Every rank sends a distinct 1/p of its buffer to every other rank. */
    ALL_TO_ALL,
    /** Ring AllReduce: a reduce-scatter ring followed by an all-gather ring. */
    RING_ALL_REDUCE,
    /** Recursive halving (reduce-scatter) then recursive doubling (all-gather) AllReduce; p a power of two. */
    HALVING_DOUBLING_ALL_REDUCE
}
