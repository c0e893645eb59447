package fabriclab.container;

/**
 * How the source edge chooses a path for each spraying unit (flow, packet, cell, frame or container)
 * among N equal-cost paths.
 */
public enum PathPolicy {
    /** Each unit picks a path uniformly at random, independently (hash of a random entropy field). */
    RANDOM,
    /** Units take paths 0, 1, ..., N-1, 0, 1, ... in turn (the container id as path index, 002 section 3.3). */
    ROUND_ROBIN,
    /** Each unit goes to the path with the fewest bytes sent so far (ties: lowest index). */
    LEAST_LOADED,
    /**
     * Each unit picks path i with probability w_i, independently: weights from grants (DGSQ, 000
     * section 2.2.2) or from path quality (seed 004). With equal weights this is {@link #RANDOM}.
     */
    WEIGHTED
}
