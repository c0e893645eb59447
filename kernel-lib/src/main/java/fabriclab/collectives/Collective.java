package fabriclab.collectives;

import fabriclab.Parameters;

/** The collective operations of the papers' experiments (000 section 3). */
public enum Collective {
    /** Every rank sends a distinct 1/p of its buffer to every other rank. */
    ALL_TO_ALL,
    /** Ring AllReduce: a reduce-scatter ring followed by an all-gather ring. */
    RING_ALL_REDUCE,
    /** Recursive halving (reduce-scatter) then recursive doubling (all-gather) AllReduce; p a power of two. */
    HALVING_DOUBLING_ALL_REDUCE;

    /**
     * The transfers each rank sends in this collective's schedule among {@code ranks} ranks ({@link CollectiveSchedule#of}):
     * p - 1 (all-to-all), 2 (p - 1) (ring: p - 1 reduce-scatter and p - 1 all-gather steps), 2 log2 p
     * (halving-doubling).
     *
     * @param ranks p, at least 2 (a power of two for halving-doubling)
     */
    public int transfersPerRank(int ranks) {
        Parameters.atLeast("ranks", ranks, 2);
        return switch (this) {
            case ALL_TO_ALL -> ranks - 1;
            case RING_ALL_REDUCE -> 2 * (ranks - 1);
            case HALVING_DOUBLING_ALL_REDUCE -> {
                if (Integer.bitCount(ranks) != 1) {
                    throw new IllegalArgumentException("ranks must be a power of two for halving-doubling, got " + ranks);
                }
                yield 2 * Integer.numberOfTrailingZeros(ranks);
            }
        };
    }
}
