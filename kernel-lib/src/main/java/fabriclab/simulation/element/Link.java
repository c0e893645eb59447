package fabriclab.simulation.element;

import fabriclab.simulation.trace.DropReason;
import fabriclab.container.DelayModel;
import fabriclab.fabric.Time;
import fabriclab.simulation.event.EventHandler;
import java.util.SplittableRandom;

/**
 * One direction of a full-duplex link, from a port to the peer node: serialisation at the link rate,
 * propagation delay, optional random extra delay per packet (fabric jitter), and failure.
 *
 * <p>A packet of {@code w} wire bytes occupies the link for {@code ser = ceil(8 w / rate)} and reaches
 * the peer {@code ser + propagation} after its transmission started (store and forward). Packets in
 * propagation form a FIFO (every packet on a link has the same delay; with jitter, a packet whose
 * draw would overtake the one ahead arrives right after it instead), threaded through the packets, so the event queue holds one
 * arrival event per busy wire, not one per packet. The link handles both of its packet events in one
 * handler, which keeps the run loop's call to link code monomorphic: a {@link Packet} payload is the
 * end of that packet's transmission, a null payload the arrival of the packet at the head of the wire.
 *
 * <p>How a transmitted packet reaches the peer is its partition's choice ({@link Partition#carry}): onto this
 * wire FIFO ({@link #push}), or as an arrival event of its own at the receiving port ({@link Port#arrive}) where
 * the peer may run elsewhere. PAUSE frames go through the partition too ({@link Partition#deliver}).
 *
 * <p>Counters: packets and bytes transmitted, first packets of flows, busy time.
 */
public final class Link implements EventHandler {
    private final Network net;
    /** The partition of the sending node; its queue (kept apart: read at every packet). */
    private Partition part;
    private fabriclab.simulation.event.EventQueue events;
    /** The random source of jitter draws: the run's, or this link's own ({@link Network#elementRandom}) under the canonical order. */
    private SplittableRandom random;
    /**
     * The key of the events this link delivers (the receiver and the lane of its receiving port, {@link CanonicalOrder}):
     * given when the link joins its sender's partition ({@link Partition#arrivalKey}); 0 while that partition's queue is
     * FIFO (unused there). The link keeps it because it is read at every packet and PAUSE frame.
     */
    private long arrivalKey;
    /** Whether the sender's queue orders by keys (then arrivals are scheduled with {@link #arrivalKey}). */
    private boolean keyed;
    /** The sending port (its egress queue feeds this link). */
    final Port from;
    /** The receiving node and the port the packets arrive through. */
    Node to;
    Port toPort;
    public final long rateBitsPerSecond;
    final long propagationPs;
    /** Time from sending a PAUSE frame to its landing at the peer: ser(64 B) + propagation, ps. */
    private final long pauseFramePs;
    /** Extra per-packet delay in seconds (null: none). */
    DelayModel jitter;
    boolean down;
    // counters
    long txPackets;
    long txBytes;
    long flowHeads;
    long busyPs;
    private int lastWireBytes = -1;
    private long lastSerializationPs;
    // the wire: packets in propagation, in arrival order, a list threaded through them (Packet.next); each
    // carries its arrival time
    private Packet wireHead;
    private Packet wireTail;

    Link(Network net, Port from, long rateBitsPerSecond, long propagationPs) {
        this.net = net;
        this.part = from.part;
        this.events = part.events();
        this.random = net.random;
        this.from = from;
        this.rateBitsPerSecond = rateBitsPerSecond;
        this.propagationPs = propagationPs;
        this.pauseFramePs = Time.serializationPs(fabriclab.fabric.Pfc.PAUSE_FRAME_BYTES, rateBitsPerSecond) + propagationPs;
    }

    /** Starts transmitting {@code p} at {@code now}: schedules the end of its serialisation. */
    void transmit(Packet p, long now) {
        int w = p.wireBytes;
        long ser;
        if (w == lastWireBytes) { // most packets have the same size: skip the 64-bit division
            ser = lastSerializationPs;
        } else {
            ser = Time.serializationPs(w, rateBitsPerSecond);
            lastWireBytes = w;
            lastSerializationPs = ser;
        }
        busyPs += ser;
        events.schedule(now + ser, this, p);
    }

    @Override
    public void handle(long timePs, Object payload) {
        if (payload == null) {
            arrive(timePs);
            return;
        }
        Packet p = (Packet) payload;
        from.transmitted(p);
        if (down) { // the link failed during transmission
            net.dropped(p, from.owner, from, DropReason.LINK_FAILURE);
            from.queue.drops++;
            from.idle();
            return;
        }
        txPackets++;
        txBytes += p.wireBytes;
        if (p.seq == 0 && p.kind == Packet.DATA) {
            flowHeads++;
        }
        long at = timePs + propagationPs;
        if (jitter != null) { // FIFO link: a packet never overtakes the one ahead of it
            at = Math.max(at + Math.round(jitter.sample(random) * 1e12), lastArrival());
        }
        part.carry(this, at, p);
        from.startNext(timePs);
    }

    /** The key of this link's arrival events at the peer, as its partition gave it ({@link Partition#arrivalKey}). */
    public long arrivalKey() {
        return arrivalKey;
    }

    /** The port of the peer node the packets arrive through. */
    public Port toPort() {
        return toPort;
    }

    /** Delays every packet by an extra draw of {@code jitter}, seconds (fabric jitter; null: none). */
    public void setJitter(DelayModel jitter) {
        this.jitter = jitter;
    }

    /** Whether the link failed. */
    public boolean isDown() {
        return down;
    }

    /** This link's sender runs in partition {@code p}; jitter draws from {@code r}. */
    void assign(Partition p, SplittableRandom r) {
        part = p;
        events = p.events();
        keyed = events.isKeyed();
        random = r;
        arrivalKey = keyed ? p.arrivalKey(to, toPort) : 0;
    }

    /** Sends a PAUSE frame (out of band of data) to the peer's egress: it lands after ser(64 B) + propagation. */
    void sendPause(int priority, int quanta) {
        if (down) {
            return;
        }
        part.deliver(part.now + pauseFramePs, toPort.pause, (priority << 16) | quanta, toPort.part, arrivalKey);
    }

    /** Schedules the wire's next arrival event, keyed on the receiver's lane where the queue orders by keys. */
    private void scheduleArrival(long arrivalPs) {
        if (keyed) {
            events.scheduleKeyed(arrivalPs, this, null, arrivalKey);
        } else {
            events.schedule(arrivalPs, this, null);
        }
    }

    /** Puts {@code p} on the wire FIFO, arriving at {@code arrivalPs}; the head's arrival is the wire's one event. */
    void push(long arrivalPs, Packet p) {
        p.wireArrivalPs = arrivalPs;
        p.next = null;
        Packet tail = wireTail;
        wireTail = p;
        if (tail == null) {
            wireHead = p;
            scheduleArrival(arrivalPs);
        } else {
            tail.next = p;
        }
    }

    private long lastArrival() {
        return wireTail == null ? Long.MIN_VALUE : wireTail.wireArrivalPs;
    }

    /** The link fails: packets on the wire are lost (counted as drops at the sending queue). */
    void fail() {
        down = true;
        Packet p = wireHead;
        wireHead = null;
        wireTail = null;
        while (p != null) {
            Packet n = p.next;
            p.next = null;
            net.dropped(p, from.owner, from, DropReason.LINK_FAILURE);
            from.queue.drops++;
            p = n;
        }
    }

    /** The head packet reaches the peer at {@code timePs}. */
    private void arrive(long timePs) {
        Packet p = wireHead;
        if (p == null) { // cleared by a link failure
            return;
        }
        Packet n = p.next;
        wireHead = n;
        if (n == null) {
            wireTail = null;
        } else {
            p.next = null;
            scheduleArrival(n.wireArrivalPs);
        }
        toPort.arrive(p, timePs);
    }

    /** Packets that finished crossing this link. */
    public long txPackets() {
        return txPackets;
    }

    /** First packets (sequence 0) of flows this link carried: the flows routed over it. */
    public long flowHeads() {
        return flowHeads;
    }

    /** Time this link spent transmitting, ps. */
    public long busyPs() {
        return busyPs;
    }
}
