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
 * <p>Build one with {@link #builder()}, which names every setting.
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

    /**
     * A builder with every setting named: {@link Builder#hostOverheadS}, {@link Builder#switchLatencyS},
     * {@link Builder#propagationS}, {@link Builder#linkGbps} and {@link Builder#tiers} are required;
     * {@link Builder#aggregationLatencyS} defaults to 0 (switches reduce at line rate with no added latency).
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this model's settings, to change some of them. */
    public Builder toBuilder() {
        return new Builder().hostOverheadS(hostOverheadS).switchLatencyS(switchLatencyS)
                .aggregationLatencyS(aggregationLatencyS).propagationS(propagationS).linkGbps(linkGbps).tiers(tiers);
    }

    /**
     * Named settings of an {@link AllReduceLatency}; units and ranges as the record's parameters. Setters only
     * record; {@link #build()} checks.
     */
    public static final class Builder {
        private Double hostOverheadS;
        private Double switchLatencyS;
        private double aggregationLatencyS = 0;
        private Double propagationS;
        private Double linkGbps;
        private Integer tiers;

        private Builder() {
        }

        /** Per-message software and NIC overhead at the hosts [s], &gt;= 0; required. */
        public Builder hostOverheadS(double seconds) {
            this.hostOverheadS = Parameters.nonNegative("hostOverheadS", seconds);
            return this;
        }

        /** Static forwarding latency per switch [s], &gt;= 0 (003: about 500e-9 Ethernet, 90e-9 InfiniBand); required. */
        public Builder switchLatencyS(double seconds) {
            this.switchLatencyS = Parameters.nonNegative("switchLatencyS", seconds);
            return this;
        }

        /** Extra latency of a switch that reduces in-network [s], &gt;= 0 (default 0). */
        public Builder aggregationLatencyS(double seconds) {
            this.aggregationLatencyS = Parameters.nonNegative("aggregationLatencyS", seconds);
            return this;
        }

        /** Propagation delay per link [s], &gt;= 0 (5 ns per metre of fibre); required. */
        public Builder propagationS(double seconds) {
            this.propagationS = Parameters.nonNegative("propagationS", seconds);
            return this;
        }

        /** Link rate [Gb/s], &gt; 0; required. */
        public Builder linkGbps(double gbps) {
            this.linkGbps = Parameters.positive("linkGbps", gbps);
            return this;
        }

        /** Switch tiers (1 = single switch, 2 = leaf-spine, ...), &gt;= 1; required. */
        public Builder tiers(int tiers) {
            this.tiers = tiers;
            return this;
        }

        /**
         * The model.
         *
         * @throws IllegalStateException naming the first required setting that was not set
         * @throws IllegalArgumentException naming the first setting out of its range
         */
        public AllReduceLatency build() {
            required("hostOverheadS", hostOverheadS, "per-message host overhead [s]");
            required("switchLatencyS", switchLatencyS, "static latency per switch [s]");
            required("propagationS", propagationS, "propagation delay per link [s]");
            required("linkGbps", linkGbps, "link rate [Gb/s]");
            required("tiers", tiers, "switch tiers");
            return new AllReduceLatency(hostOverheadS, switchLatencyS, aggregationLatencyS, propagationS, linkGbps, tiers);
        }

        private static void required(String name, Object value, String what) {
            if (value == null) {
                throw new IllegalStateException(name + " is required: set the " + what + " with " + name + "(...)");
            }
        }
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
        Parameters.inRange("bytes", bytes, 0, BandwidthBound.MAX_BYTES);
        double share = 2.0 * (nodes - 1) / nodes;
        return switch (algorithm) {
            case RING, HALVING_DOUBLING -> rounds(algorithm, nodes) * alpha() + share * bytes * beta();
            case BINOMIAL_TREE -> rounds(algorithm, nodes) * (alpha() + bytes * beta());
            case IN_NETWORK -> hostOverheadS + (2 * tiers - 1) * (switchLatencyS + aggregationLatencyS)
                    + 2 * tiers * propagationS + bytes * beta();
        };
    }

    /** The largest number of nodes the model takes (2^24: far beyond any cluster, well inside int arithmetic). */
    public static final int MAX_NODES = 1 << 24;

    private static void checkNodes(Algorithm algorithm, int nodes) {
        Parameters.inRange("nodes", nodes, 2, MAX_NODES);
        if (algorithm == Algorithm.HALVING_DOUBLING && Integer.bitCount(nodes) != 1) {
            throw new IllegalArgumentException("nodes must be a power of two for HALVING_DOUBLING, got " + nodes);
        }
    }

    private static int ceilLog2(int n) {
        return 32 - Integer.numberOfLeadingZeros(n - 1);
    }
}
