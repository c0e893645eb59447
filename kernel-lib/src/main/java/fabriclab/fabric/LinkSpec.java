package fabriclab.fabric;

import fabriclab.Parameters;

/**
 * One full-duplex point-to-point link between two nodes of a {@link Topology}: both directions have
 * the same rate and propagation delay.
 *
 * @param nodeA one end (node index)
 * @param nodeB other end (node index), different from {@code nodeA}
 * @param rateBitsPerSecond line rate of each direction in bit/s, positive
 * @param propagationPs propagation delay in picoseconds, 0 to {@link #MAX_PROPAGATION_PS} (about 5 ns per metre of fibre)
 */
public record LinkSpec(int nodeA, int nodeB, long rateBitsPerSecond, long propagationPs) {
    /**
     * The longest propagation delay of a link, 1000 s in picoseconds: far beyond any cable (light crosses 300,000 km
     * a second), and short enough that a run's times, its delays added up, stay within a long of picoseconds.
     */
    public static final long MAX_PROPAGATION_PS = 1_000 * Time.S;

    /** Validates the link. */
    public LinkSpec {
        Parameters.atLeast("nodeA", nodeA, 0);
        Parameters.atLeast("nodeB", nodeB, 0);
        if (nodeA == nodeB) {
            throw new IllegalArgumentException("nodeB must differ from nodeA (no self-loops), got " + nodeA);
        }
        Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
        Parameters.inRange("propagationPs", propagationPs, 0L, MAX_PROPAGATION_PS);
    }
}
