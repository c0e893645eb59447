package fabriclab.fabric;

import fabriclab.Parameters;

/**
 * One full-duplex point-to-point link between two nodes of a {@link Topology}: both directions have
 * the same rate and propagation delay.
 *
 * @param nodeA one end (node index)
 * @param nodeB other end (node index), different from {@code nodeA}
 * @param rateBitsPerSecond line rate of each direction in bit/s, positive
 * @param propagationPs propagation delay in picoseconds, not negative (about 5 ns per metre of fibre)
 */
public record LinkSpec(int nodeA, int nodeB, long rateBitsPerSecond, long propagationPs) {
    /** Validates the link. */
    public LinkSpec {
        Parameters.atLeast("nodeA", nodeA, 0);
        Parameters.atLeast("nodeB", nodeB, 0);
        if (nodeA == nodeB) {
            throw new IllegalArgumentException("nodeB must differ from nodeA (no self-loops), got " + nodeA);
        }
        Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
        Parameters.atLeast("propagationPs", propagationPs, 0L);
    }
}
