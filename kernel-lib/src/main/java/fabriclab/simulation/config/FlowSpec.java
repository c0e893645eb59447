package fabriclab.simulation.config;

import fabriclab.Parameters;

/**
 * One flow to simulate: {@code bytes} of payload from host {@code source} to host
 * {@code destination}, starting at {@code startPs}, on traffic class {@code priority}
 * (0 = highest, served first by strict priority), carried by {@code queuePairs} queue pairs.
 *
 * <p>Queue pairs (QPs). The flow's bytes are split over its N QPs evenly: each carries
 * {@code floor(bytes / N)} bytes and the first {@code bytes mod N} carry one byte more
 * ({@link #queuePairBytes}); every QP carries at least one byte, so N is at most {@code bytes}. QP q
 * sends from UDP source port {@code (sourcePort + q) mod 65536} ({@link #queuePairSourcePort}): a
 * RoCEv2 NIC gives each QP its own source port, the entropy ECMP hashes. All QPs start together at
 * {@code startPs} (or when the flow's predecessors completed), each is a connection of its own (its own
 * transport state, sequence numbers and counters), and the source NIC serves its ready QPs round robin,
 * one packet at a time, like any of its flows. The flow is complete when all its QPs are.
 *
 * @param source sending host index
 * @param destination receiving host index, different from {@code source}
 * @param bytes payload bytes, at least 1 (and at least {@code queuePairs})
 * @param startPs start time in picoseconds, not negative
 * @param priority traffic class, 0 to {@link SimulationConfig#priorities()} - 1
 * @param sourcePort UDP source port of the flow's first queue pair (its ECMP entropy), 0..65535
 * @param queuePairs queue pairs the flow is split over, 1 to {@link #MAX_QUEUE_PAIRS}, at most {@code bytes}
 */
public record FlowSpec(int source, int destination, long bytes, long startPs, int priority, int sourcePort,
        int queuePairs) {
    /** The most queue pairs a flow may have: one per UDP source port. */
    public static final int MAX_QUEUE_PAIRS = 65536;

    /** Validates. */
    public FlowSpec {
        Parameters.atLeast("source", source, 0);
        Parameters.atLeast("destination", destination, 0);
        if (source == destination) {
            throw new IllegalArgumentException("destination must differ from source, got " + source);
        }
        Parameters.atLeast("bytes", bytes, 1L);
        Parameters.atLeast("startPs", startPs, 0L);
        Parameters.atLeast("priority", priority, 0);
        Parameters.inRange("sourcePort", sourcePort, 0, 65535);
        Parameters.inRange("queuePairs", queuePairs, 1, MAX_QUEUE_PAIRS);
        if (queuePairs > bytes) {
            throw new IllegalArgumentException("queuePairs must be at most bytes = " + bytes
                    + " (each queue pair carries at least one byte), got " + queuePairs);
        }
    }

    /** A flow on one queue pair. */
    public FlowSpec(int source, int destination, long bytes, long startPs, int priority, int sourcePort) {
        this(source, destination, bytes, startPs, priority, sourcePort, 1);
    }

    /** A flow at priority 0, on one queue pair, whose source port is derived from its endpoints: 49152 + (31 source + destination) mod 16384. */
    public static FlowSpec of(int source, int destination, long bytes, long startPs) {
        return new FlowSpec(source, destination, bytes, startPs, 0, 49152 + Math.floorMod(31 * source + destination, 16384));
    }

    /**
     * This flow split over {@code n} queue pairs (the rest unchanged).
     *
     * @param n queue pairs, 1 to {@link #MAX_QUEUE_PAIRS}, at most {@link #bytes()}
     */
    public FlowSpec withQueuePairs(int n) {
        return new FlowSpec(source, destination, bytes, startPs, priority, sourcePort, n);
    }

    /**
     * Payload bytes queue pair {@code q} carries: {@code floor(bytes / queuePairs)}, plus one for the first
     * {@code bytes mod queuePairs} queue pairs.
     *
     * @param q queue pair, 0 to {@code queuePairs - 1}
     */
    public long queuePairBytes(int q) {
        Parameters.inRange("q", q, 0, queuePairs - 1);
        return bytes / queuePairs + (q < bytes % queuePairs ? 1 : 0);
    }

    /**
     * UDP source port of queue pair {@code q}: {@code (sourcePort + q) mod 65536}.
     *
     * @param q queue pair, 0 to {@code queuePairs - 1}
     */
    public int queuePairSourcePort(int q) {
        Parameters.inRange("q", q, 0, queuePairs - 1);
        return (sourcePort + q) & 0xFFFF;
    }

    /**
     * Queue pair {@code q} as a flow of its own: the same endpoints, start and priority, its
     * {@link #queuePairBytes bytes} and {@link #queuePairSourcePort source port}, one queue pair.
     *
     * @param q queue pair, 0 to {@code queuePairs - 1}
     */
    public FlowSpec queuePair(int q) {
        return new FlowSpec(source, destination, queuePairBytes(q), startPs, priority, queuePairSourcePort(q), 1);
    }
}
