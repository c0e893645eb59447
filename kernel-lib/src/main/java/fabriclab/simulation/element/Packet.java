package fabriclab.simulation.element;

/**
 * A packet in flight (package-private runtime state): a data packet of a flow, or a control packet
 * of a transport (ACK, NACK, CNP, RTT probe, grant...) that travels through the same queues.
 *
 * <p>Packets are recycled: the simulator's transports hand a packet they have consumed back to the
 * run's {@link Pool} (the last thing they do with it), and the NICs take new packets from it, so a
 * run allocates about as many packets as it ever has in flight instead of one per packet sent, and
 * the heap stays small (nothing a long PFC pause kept alive is promoted and then dies). Field values
 * seen by the model are those of a new packet (its cost in memory and CPU: BENCH-RESULTS.md).
 *
 * <p>The fields are package-private: the elements, which handle a packet at every hop, read and write them
 * directly; the transports and engines read them through the accessors below and change only what the
 * mutators name (small methods of a final class, which the JIT inlines).
 */
public final class Packet {
    /** Data carrying {@link #payloadBytes} of the flow at sequence {@link #seq}. */
    static final byte DATA = 0;
    /** Cumulative acknowledgement: every sequence below {@link #seq} arrived. */
    public static final byte ACK = 1;
    /** Negative acknowledgement: {@link #seq} is the next expected sequence (go-back-N). */
    public static final byte NACK = 2;
    /** Congestion notification packet (DCQCN notification point to reaction point). */
    public static final byte CNP = 3;
    /** RTT probe from a sender; {@link #aux} is its send time. */
    public static final byte PROBE = 4;
    /** Reply to a probe; {@link #aux} echoes the probe's send time. */
    public static final byte PROBE_REPLY = 5;
    /** Credit from a receiver to a sender (Ultra Ethernet RCCC); {@link #aux} is the cumulative credit granted. */
    public static final byte CREDIT = 6;

    FlowState flow;
    int seq;
    int payloadBytes;
    int wireBytes;
    /** Traffic class; a leaf that re-prioritises hook flows (see {@code Scenario.hookPriority()}) changes it. */
    int priority;
    byte kind;
    /** Destination host index (the flow's destination for data, its source for most replies). */
    int destination;
    /** Kind-specific value: a timestamp (ps). */
    long aux;
    boolean ecn;
    /**
     * The entropy value the sender wrote into the packet (Ultra Ethernet: the UDP source port a switch hashes to pick
     * among equal-cost egress ports), or -1 for none (the switch then forwards by the flow's own five-tuple).
     */
    int entropy = -1;
    /** Whether a switch cut the packet to its header (packet trimming): its payload is gone, its sequence stays. */
    boolean trimmed;
    /**
     * What a transport's switch function attaches to this packet while it crosses the fabric (GSE: the packet
     * container it travels in between the source and destination edges), or null; opaque to the elements.
     */
    Object attachment;
    /** The packet's place in {@link #attachment} (GSE: 0 = the container's first packet). */
    int attachmentIndex;
    /** Time the packet joined its current switch egress queue, ps. */
    long enqueuedPs;
    /** The port of the current node the packet arrived through (null at its source). */
    Port ingress;
    /**
     * The priority the packet arrived with at the current switch when the switch changed it (a hook
     * flow), else -1: PFC accounts a packet at its ingress under the priority it arrived with.
     */
    int ingressPriority = -1;
    /**
     * Index of the PFC ingress counters of {@link #ingress} in its switch's array (see
     * {@code Switch.ingressState}); set with {@link #ingress}, meaningless while that is null.
     */
    int ingressSlot;
    /** Whether the packet travels from the flow's destination back to its source (set once, read at every hop). */
    boolean reverse;
    /** While on a wire: the time it reaches the link's peer, ps. */
    long wireArrivalPs;
    /**
     * The packet behind this one in the FIFO it is in: an egress queue's priority ({@link EgressQueue})
     * or a link's wire ({@link Link}); null at the tail and outside them. A packet is in at most one of
     * them at a time, so one field threads both.
     */
    Packet next;

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
        reset(flow, kind, seq, payloadBytes, wireBytes, priority, destination);
    }

    /** Sets every field as the constructor does (a recycled packet starts afresh). */
    private void reset(FlowState flow, byte kind, int seq, int payloadBytes, int wireBytes, int priority, int destination) {
        this.flow = flow;
        this.kind = kind;
        this.seq = seq;
        this.payloadBytes = payloadBytes;
        this.wireBytes = wireBytes;
        this.priority = priority;
        this.destination = destination;
        this.aux = 0;
        this.ecn = false;
        this.entropy = -1;
        this.trimmed = false;
        this.attachment = null;
        this.attachmentIndex = 0;
        this.enqueuedPs = 0;
        this.ingress = null;
        this.ingressSlot = 0;
        this.ingressPriority = -1;
        this.reverse = destination == flow.spec.source();
        this.wireArrivalPs = 0;
        this.next = null;
    }

    /**
     * The packets of one run no element holds any more, reused last-in first-out. Only a packet's
     * final consumer may {@link #recycle} it (a transport, after handling it at a host).
     */
    public static final class Pool {
        private Packet[] free = new Packet[256];
        private int count;
        /**
         * At most this many free packets are kept (the rest are left to the collector). Unbounded for a
         * run's only pool, which never holds more than the packets once in flight; with a pool per partition a
         * packet is recycled where it ends, so traffic that flows mostly one way between partitions would
         * otherwise pile its packets up in one pool.
         */
        private final int capacity;

        /** A pool with no bound. */
        public Pool() {
            this(Integer.MAX_VALUE);
        }

        /** A pool keeping at most {@code capacity} free packets. */
        public Pool(int capacity) {
            this.capacity = capacity;
        }

        /** A data packet of {@code flow} (as {@link Packet#Packet(FlowState, int, int, int, int)}). */
        public Packet data(FlowState flow, int seq, int payloadBytes, int wireBytes, int priority) {
            return get(flow, DATA, seq, payloadBytes, wireBytes, priority, flow.spec.destination());
        }

        /** Any packet (as {@link Packet#Packet(FlowState, byte, int, int, int, int, int)}). */
        public Packet get(FlowState flow, byte kind, int seq, int payloadBytes, int wireBytes, int priority, int destination) {
            if (count == 0) {
                return new Packet(flow, kind, seq, payloadBytes, wireBytes, priority, destination);
            }
            Packet p = free[--count];
            free[count] = null;
            p.reset(flow, kind, seq, payloadBytes, wireBytes, priority, destination);
            return p;
        }

        /** {@code p} is no longer referenced by any element and may be handed out again. */
        public void recycle(Packet p) {
            if (count == free.length) {
                if (count >= capacity) {
                    return;
                }
                free = java.util.Arrays.copyOf(free, 2 * count);
            }
            free[count++] = p;
        }
    }

    /** The flow (queue pair) this packet belongs to. */
    public FlowState flow() {
        return flow;
    }

    /** Sequence number: of the data for a data packet; the acknowledged or expected one for an ACK or NACK. */
    public int seq() {
        return seq;
    }

    /** Payload carried, bytes (0 for a control packet). */
    public int payloadBytes() {
        return payloadBytes;
    }

    /** Bytes on the wire: payload and header, bytes. */
    public int wireBytes() {
        return wireBytes;
    }

    /** Traffic class the packet travels in now. */
    public int priority() {
        return priority;
    }

    /** What the packet is: {@link #ACK}, {@link #NACK}, {@link #CNP}, {@link #PROBE}, {@link #PROBE_REPLY}, {@link #CREDIT} or data. */
    public byte kind() {
        return kind;
    }

    /** Index of the host the packet travels to. */
    public int destination() {
        return destination;
    }

    /** The kind-specific value: a timestamp, ps (a probe's send time; GSE: the sending of a container's copy). */
    public long aux() {
        return aux;
    }

    /** Records time {@code timePs} in {@link #aux()}. */
    public void stamp(long timePs) {
        aux = timePs;
    }

    /** Whether a switch marked the packet Congestion Experienced (ECN). */
    public boolean ecnMarked() {
        return ecn;
    }

    /** Marks the packet Congestion Experienced, as a switch's ECN marking does. */
    public void markEcn() {
        ecn = true;
    }

    /** The entropy value the switches hash to choose among equal-cost ports, or -1 for none. */
    public int entropy() {
        return entropy;
    }

    /** Sets the entropy value (0..65535) the switches hash in place of the flow's UDP source port. */
    public void setEntropy(int entropy) {
        if (entropy < 0 || entropy > 0xFFFF) {
            throw new IllegalArgumentException("entropy must be in 0..65535, got " + entropy);
        }
        this.entropy = entropy;
    }

    /** Whether a switch trimmed this packet to its header (its payload was cut). */
    public boolean trimmed() {
        return trimmed;
    }

    /** A switch cuts this data packet to a header of {@code headerWireBytes} on the wire: no payload is left. */
    void trim(int headerWireBytes) {
        payloadBytes = 0;
        wireBytes = headerWireBytes;
        trimmed = true;
    }

    /** What a transport's switch function attached to this packet (GSE: its container), or null. */
    public Object attachment() {
        return attachment;
    }

    /** The packet's place in {@link #attachment()}. */
    public int attachmentIndex() {
        return attachmentIndex;
    }

    /** Attaches {@code attachment} to this packet, at place {@code index} in it. */
    public void attach(Object attachment, int index) {
        this.attachment = attachment;
        this.attachmentIndex = index;
    }

    /** Removes the attachment (its place index stays). */
    public void detach() {
        this.attachment = null;
    }

    /** The port of the current node the packet arrived through, or null at its source host. */
    public Port ingress() {
        return ingress;
    }

    public boolean isData() {
        return kind == DATA;
    }

    /** Whether the packet travels from the flow's destination back to its source. */
    boolean isReverse() {
        return reverse;
    }
}
