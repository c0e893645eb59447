package fabriclab.simulation;

/**
 * A packet in flight (package-private runtime state): a data packet of a flow, or a control packet
 * of a transport (ACK, NACK, CNP, RTT probe, grant...) that travels through the same queues.
 */
final class Packet {
    /** Data carrying {@link #payloadBytes} of the flow at sequence {@link #seq}. */
    static final byte DATA = 0;
    /** Cumulative acknowledgement: every sequence below {@link #seq} arrived. */
    static final byte ACK = 1;
    /** Negative acknowledgement: {@link #seq} is the next expected sequence (go-back-N). */
    static final byte NACK = 2;
    /** Congestion notification packet (DCQCN notification point to reaction point). */
    static final byte CNP = 3;
    /** RTT probe from a sender; {@link #aux} is its send time. */
    static final byte PROBE = 4;
    /** Reply to a probe; {@link #aux} echoes the probe's send time. */
    static final byte PROBE_REPLY = 5;

    final FlowState flow;
    final int seq;
    final int payloadBytes;
    final int wireBytes;
    /** Traffic class; a leaf that re-prioritises hook flows (see {@link Scenario#hookPriority()}) changes it. */
    int priority;
    final byte kind;
    /** Destination host index (the flow's destination for data, its source for most replies). */
    final int destination;
    /** Kind-specific value: a timestamp (ps). */
    long aux;
    boolean ecn;
    /** The GSE packet container this packet travels in between the source and destination edges, or null. */
    GseEdge.Container container;
    /** Time the packet joined its current switch egress queue, ps. */
    long enqueuedPs;
    /** The port of the current node the packet arrived through (null at its source). */
    Port ingress;
    /**
     * The priority the packet arrived with at the current switch when the switch changed it (a hook
     * flow), else -1: PFC accounts a packet at its ingress under the priority it arrived with.
     */
    int ingressPriority = -1;

    /** The priority under which the current switch accounts this packet at its ingress port. */
    int ingressPriority() {
        return ingressPriority < 0 ? priority : ingressPriority;
    }

    /** A data packet of {@code flow}. */
    Packet(FlowState flow, int seq, int payloadBytes, int wireBytes, int priority) {
        this(flow, DATA, seq, payloadBytes, wireBytes, priority, flow.spec.destination());
    }

    /** Any packet. */
    Packet(FlowState flow, byte kind, int seq, int payloadBytes, int wireBytes, int priority, int destination) {
        this.flow = flow;
        this.kind = kind;
        this.seq = seq;
        this.payloadBytes = payloadBytes;
        this.wireBytes = wireBytes;
        this.priority = priority;
        this.destination = destination;
    }

    boolean isData() {
        return kind == DATA;
    }

    /** Whether the packet travels from the flow's destination back to its source. */
    boolean isReverse() {
        return destination == flow.spec.source();
    }
}
