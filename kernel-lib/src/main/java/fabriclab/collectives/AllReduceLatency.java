package fabriclab.collectives;

import fabriclab.Parameters;

/**
 * Alpha-beta (Hockney) completion time of AllReduce on a multi-tier switched fabric, for the
 * host-based algorithms and for in-network aggregation by the switches.
 *
 * <p>Source: seed 003 (intelligent lossless network white paper), section 6: over 80% of HPC MPI
 * messages carry under 16 bytes of payload, an Ethernet switch chip adds about 500 ns of static
 * latency and an InfiniBand chip about 90 ns; host-based AllReduce over 8 nodes needs log2 8 = 3
 * rounds, while leaf and spine aggregation makes the number of rounds depend only on the number of
 * tiers.
 *
 * <p>Model. One message between two hosts costs {@code alpha + bytes * beta} with
 * {@code beta = 8 / linkRate} and, worst case (peers under different leaves),
 * {@code alpha = hostOverhead + (2 tiers - 1) switchLatency + 2 tiers propagation}. For N nodes and
 * S bytes per node:
 * <ul>
 *   <li>ring: {@code 2 (N-1) alpha + 2 (N-1)/N S beta};</li>
 *   <li>recursive halving-doubling (Rabenseifner; N a power of two):
 *       {@code 2 log2 N alpha + 2 (N-1)/N S beta};</li>
 *   <li>binomial tree reduce then broadcast: {@code 2 ceil(log2 N) (alpha + S beta)};</li>
 *   <li>in-network aggregation: one pass up to the top tier and back,
 *       {@code hostOverhead + (2 tiers - 1) (switchLatency + aggregationLatency) + 2 tiers propagation + S beta}
 *       (each host sends S and receives the S-byte result, streamed, full duplex).</li>
 * </ul>
 * Assumptions: no congestion, no computation time for the reduction at hosts, all hops at the same
 * rate, switch aggregation at line rate.
 *
 * @param hostOverheadS per-message software and NIC overhead at the hosts, seconds (>= 0)
 * @param switchLatencyS static forwarding latency per switch, seconds (>= 0)
 * @param aggregationLatencyS extra latency of a switch that reduces in-network, seconds (>= 0)
 * @param propagationS propagation delay per link, seconds (>= 0)
 * @param linkGbps link rate, Gb/s (> 0)
 * @param tiers switch tiers of the fabric (1 = single switch, 2 = leaf-spine, ...; >= 1)
 */
public record AllReduceLatency(double hostOverheadS, double switchLatencyS, double aggregationLatencyS,
                               double propagationS, double linkGbps, int tiers) {
    /** Validates the parameters. */
    public AllReduceLatency {
        Parameters.nonNegative("hostOverheadS", hostOverheadS);
        Parameters.nonNegative("switchLatencyS", switchLatencyS);
        Parameters.nonNegative("aggregationLatencyS", aggregationLatencyS);
        Parameters.nonNegative("propagationS", propagationS);
        Parameters.positive("linkGbps", linkGbps);
        Parameters.atLeast("tiers", tiers, 1);
    }

    /** The algorithms compared. */
    public enum Algorithm {
        /** Ring reduce-scatter + all-gather. */
        RING,
        /** Recursive halving (reduce-scatter) + doubling (all-gather). */
        HALVING_DOUBLING,
        /** Binomial tree reduce, then broadcast. */
        BINOMIAL_TREE,
        /** Aggregation in the switches. */
        IN_NETWORK
    }

    /** Per-message latency between two hosts, seconds (the alpha term). */
    public double alpha() {
        return hostOverheadS + (2 * tiers - 1) * switchLatencyS + 2 * tiers * propagationS;
    }

    /** Time per byte, seconds (the beta term). */
    public double beta() {
        return 8 / (linkGbps * 1e9);
    }

    /** Communication rounds (messages on the critical path) of an algorithm on N nodes. */
    public int rounds(Algorithm algorithm, int nodes) {
        Parameters.notNull("algorithm", algorithm);
        checkNodes(algorithm, nodes);
        return switch (algorithm) {
            case RING -> 2 * (nodes - 1);
            case HALVING_DOUBLING, BINOMIAL_TREE -> 2 * ceilLog2(nodes);
            case IN_NETWORK -> 1;
        };
    }

    /** Completion time of AllReduce of {@code bytes} per node on {@code nodes} nodes, seconds. */
    public double seconds(Algorithm algorithm, int nodes, double bytes) {
        Parameters.notNull("algorithm", algorithm);
        checkNodes(algorithm, nodes);
        Parameters.nonNegative("bytes", bytes);
        double share = 2.0 * (nodes - 1) / nodes;
        return switch (algorithm) {
            case RING, HALVING_DOUBLING -> rounds(algorithm, nodes) * alpha() + share * bytes * beta();
            case BINOMIAL_TREE -> rounds(algorithm, nodes) * (alpha() + bytes * beta());
            case IN_NETWORK -> hostOverheadS + (2 * tiers - 1) * (switchLatencyS + aggregationLatencyS)
                    + 2 * tiers * propagationS + bytes * beta();
        };
    }

    private static void checkNodes(Algorithm algorithm, int nodes) {
        Parameters.atLeast("nodes", nodes, 2);
        if (algorithm == Algorithm.HALVING_DOUBLING && Integer.bitCount(nodes) != 1) {
            throw new IllegalArgumentException("nodes must be a power of two for HALVING_DOUBLING, got " + nodes);
        }
    }

    private static int ceilLog2(int n) {
        return 32 - Integer.numberOfLeadingZeros(n - 1);
    }
}
