package fabriclab.simulation.element;

/**
 * Sender and receiver logic of one flow (package-private SPI; the public choice is a
 * {@code TransportModel}, whose {@code TransportRun} creates one per flow). The host NIC
 * ({@link HostNic}) owns the mechanics: it asks the transport
 * whether the flow may send ({@link #canSend}), respects the pacing time {@link #nextSendPs} and
 * PFC, serves the flows that may send round robin, and hands arriving packets to
 * {@link #onData} (at the destination) and {@link #onControl} (at either end). A transport that
 * stops sending (window full, waiting for a grant) calls {@link #wake} when it can send again.
 *
 * <p>Its mutable fields are protected: the transports in {@code fabriclab.simulation.transport} subclass it and
 * set the pacing time and use the partitions of the flow's two ends at every packet they handle.
 */
public abstract class Transport {
    protected final Network net;
    public final FlowState flow;
    /**
     * Earliest time the sender may start its next data packet (rate pacing), ps. Set it in
     * {@link #onSent}; to move it earlier while the flow waits, call {@link #advancePacing} (the
     * NIC keeps waiting flows in a heap ordered by this value).
     */
    protected long nextSendPs;
    /**
     * Whether the NIC should serve this flow again, before the others, when it may send now: set in {@link #onSent} by
     * a transport whose rate limiter sends bursts (the deficit round robin of the RDMA reference's NIC; see
     * {@code RoceTransport.TokenBucket}). False (the default): after each packet the flow goes behind the others.
     */
    protected boolean keepsNic;
    /** Set by the NIC before {@link #onSent}: this packet continues the burst of the flow it served last ({@link #keepsNic}). */
    boolean burstContinues;
    /** Wire bytes the transport adds to each of its data packets beyond the run's headers ({@link #addHeaderBytes}). */
    int extraHeaderBytes;
    /** The partitions of the flow's source and destination hosts (timers and packets at each end). */
    protected Partition source;
    protected Partition destination;
    /** The flow's source host (read when choosing the partition a control packet arrived in). */
    private final int sourceHost;

    protected Transport(Network net, FlowState flow) {
        this.net = net;
        this.flow = flow;
        this.source = net.main;
        this.destination = net.main;
        this.sourceHost = flow.spec.source();
    }

    /** The partition of the host a packet of this flow arrived at (its destination host). */
    protected final Partition at(Packet p) {
        return p.destination == sourceHost ? source : destination;
    }

    /**
     * Every data packet of this flow carries {@code bytes} more on the wire than the run's headers (HPCC's in-band
     * telemetry header); called once, before the run.
     */
    protected final void addHeaderBytes(int bytes) {
        extraHeaderBytes = fabriclab.Parameters.inRange("bytes", bytes, 0, 1_000_000);
    }

    /** The flow starts at {@code now} (before its first packet is requested). */
    protected void onStart(long now) {
    }

    /** Whether the sender has a data packet it may send now, ignoring pacing and PFC. */
    protected abstract boolean canSend();

    /** Claims the sequence number of the next data packet; called only when {@link #canSend()}. */
    protected abstract int takeSequence();

    /** Data packet {@code p} starts its transmission at the source NIC at {@code now}. */
    protected void onSent(Packet p, long now) {
    }

    /** A data packet arrived at the destination host. Default: accept every first copy. */
    protected void onData(Packet p, long now) {
        net.workload.deliver(p, now);
        destination.packets.recycle(p); // consumed: the last use of p
    }

    /** A control packet of this flow arrived at one of its hosts. */
    protected void onControl(Packet p, long now) {
    }

    /** The receiver has every byte of the flow (called once, after the last delivery). */
    protected void onCompleted(long now) {
    }

    /**
     * Moves the pacing time earlier (the sender's rate went up while it waited): a flow sending at a
     * low rate must not wait out a gap computed at that rate after its rate recovers.
     */
    protected final void advancePacing(long nextPs) {
        if (nextPs < nextSendPs) {
            nextSendPs = nextPs;
            net.hosts[flow.spec.source()].repaced(flow);
        }
    }

    /** Whether the packet being sent continues this flow's burst: the NIC served it last and {@link #keepsNic} was set. */
    protected final boolean continuesBurst() {
        return burstContinues;
    }

    /** Tells the source NIC that this flow may be able to send again. */
    protected final void wake() {
        net.hosts[flow.spec.source()].wake(flow);
    }

    /**
     * Sends a control packet of this flow from one of its hosts: toward the source if
     * {@code toSource}, otherwise toward the destination.
     */
    protected final Packet sendControl(byte kind, int seq, int wireBytes, int priority, boolean toSource, long aux) {
        return sendControl(kind, seq, wireBytes, priority, toSource, aux, null);
    }

    /**
     * As {@link #sendControl(byte, int, int, int, boolean, long)}, the packet carrying {@code attachment} (what the
     * transport echoes back to the sender, such as HPCC's in-band telemetry; null: nothing).
     */
    protected final Packet sendControl(byte kind, int seq, int wireBytes, int priority, boolean toSource, long aux,
            Object attachment) {
        int from = toSource ? flow.spec.destination() : flow.spec.source();
        int to = toSource ? flow.spec.source() : flow.spec.destination();
        Packet p = (toSource ? destination : source).packets.get(flow, kind, seq, 0, wireBytes, priority, to);
        p.aux = aux;
        p.attachment = attachment;
        net.hosts[from].sendControl(p);
        return p;
    }

    /** No congestion control, no retransmission: every packet at line rate (the default). */
    public static final class LineRate extends Transport {
        public LineRate(Network net, FlowState flow) {
            super(net, flow);
        }

        @Override
        protected boolean canSend() {
            return flow.nextSeq < flow.packets;
        }

        @Override
        protected int takeSequence() {
            return flow.nextSeq++;
        }
    }
}
