package fabriclab.simulation.element;

import fabriclab.simulation.event.EventHandler;
import fabriclab.simulation.event.EventQueue;

/**
 * The execution context of a set of nodes: the event queue their events are scheduled on, their clock, the pool
 * their packets are recycled into, and how an event reaches another node. Every element reaches these through the
 * partition of its node, never through the {@link Network}, and does not know which engine runs it.
 *
 * <p>This class is the sequential engine's one partition, holding every node: a queue keyed for the {@link CanonicalOrder}
 * of simultaneous events (the rule both engines share, applied once {@link #applyCanonicalOrder asked}; until then
 * ties in scheduling order), every event scheduled directly with its node's key, and a
 * link's packets in propagation held as a FIFO on the link with one arrival event per busy wire ({@link Link}), on
 * the lane of the receiving port. An engine that spreads the nodes over several partitions subclasses it and
 * overrides {@link #deliver}, {@link #carry} and {@link #countDrop}.
 *
 * <p>The clock and the progress counters are package-private: the elements update them; the engines and transports
 * read them, and change them only through the final methods named for what they record.
 */
public class Partition {
    /** Index of this partition (0 for the sequential engine's only one). */
    public final int index;
    private EventQueue events;
    /** The order of simultaneous events of this partition's queue (applied once {@link #applyCanonicalOrder} asked). */
    final CanonicalOrder order;

    /** This partition's event queue: FIFO until the canonical order is applied ({@link #applyCanonicalOrder}), then keyed. */
    public final EventQueue events() {
        return events;
    }
    /** Packets no element of this partition holds any more, for reuse. */
    public final Packet.Pool packets;
    /** The current simulated time of this partition, ps: the instant being dispatched. */
    long now;
    /** Payload delivered to the receivers of this partition's hosts so far, bytes (first copies; for progress reports). */
    long deliveredBytes;
    /**
     * The last time a flow started or payload was delivered at this partition's hosts, ps (0 before any): what the
     * engines' progress watchdog measures from.
     */
    long lastProgressPs;
    /**
     * Events in this partition's queue known to do nothing when they fire (a transport's timer whose flow completed,
     * which an event queue cannot remove): when every pending event is one of them, the run is over, and the
     * engines stop at the last instant that did something.
     */
    long cancelledEvents;
    /** Flows started at this partition's hosts (their sources), and flows completed at them (their destinations). */
    long flowsStarted;
    long flowsCompleted;
    /** The last time a switch or link of this partition dropped a packet, ps (-1 before any): for the watchdog. */
    long lastDropPs = -1;

    /** The current simulated time of this partition, ps: the instant being dispatched. */
    public final long now() {
        return now;
    }

    /** The engine dispatches the events of instant {@code timePs} next: the clock moves to it. */
    public final void advanceClockTo(long timePs) {
        now = timePs;
    }

    /** Payload delivered to the receivers of this partition's hosts so far, bytes (first copies). */
    public final long deliveredBytes() {
        return deliveredBytes;
    }

    /** The last time a flow started, payload was delivered or a timeout acted at this partition's hosts, ps (0 before any). */
    public final long lastProgressPs() {
        return lastProgressPs;
    }

    /** Something at this partition's hosts made progress at {@code timePs} (the watchdog measures from it). */
    public final void progressAt(long timePs) {
        lastProgressPs = timePs;
    }

    /** The last time an element of this partition dropped a packet, ps (-1 before any). */
    public final long lastDropPs() {
        return lastDropPs;
    }

    /** Events in this partition's queue known to do nothing when they fire. */
    public final long cancelledEvents() {
        return cancelledEvents;
    }

    /** A pending event of this partition's queue will do nothing when it fires (a timer whose flow completed). */
    public final void eventCancelled() {
        cancelledEvents++;
    }

    /** A pending event counted by {@link #eventCancelled} fired (and did nothing). */
    public final void cancelledEventFired() {
        cancelledEvents--;
    }

    /** Flows started at this partition's hosts (their sources). */
    public final long flowsStarted() {
        return flowsStarted;
    }

    /** Flows completed at this partition's hosts (their destinations). */
    public final long flowsCompleted() {
        return flowsCompleted;
    }

    /**
     * The sequential engine's partition of a run seeded {@code seed}: a FIFO queue (ties in scheduling order) until
     * {@link #applyCanonicalOrder}.
     */
    public Partition(long seed) {
        this.index = 0;
        this.order = new CanonicalOrder(seed);
        this.events = new EventQueue(4096);
        this.packets = new Packet.Pool();
    }

    /** Partition {@code index} with a keyed queue in {@code order}, applied once asked, and a packet pool. */
    protected Partition(int index, CanonicalOrder order, Packet.Pool packets) {
        this.index = index;
        this.order = order;
        this.events = keyedQueue(order);
        this.packets = packets;
    }

    /** A queue in {@code order}: an event scheduled outside any handler (the run's set-up) is an own event of the largest node. */
    private static EventQueue keyedQueue(CanonicalOrder order) {
        return EventQueue.keyed(4096, order, CanonicalOrder.OWN_LANE, CanonicalOrder.MAX_KEY, CanonicalOrder.MAX_KEY);
    }

    /**
     * Applies the {@link CanonicalOrder} rule to this partition's queue from now on (nodes' port counts given): a FIFO
     * queue, which must be empty (before the run), is replaced by a keyed one. Elements that keep the queue take it
     * again ({@code Network.useCanonicalOrder}).
     *
     * @throws IllegalStateException if the FIFO queue holds events
     */
    public final void applyCanonicalOrder(int[] portsOfNode) {
        if (!events.isKeyed()) {
            if (!events.isEmpty()) {
                throw new IllegalStateException("the canonical order must be applied before any event is scheduled, "
                        + events.size() + " are pending");
            }
            events = keyedQueue(order);
        }
        order.activate(portsOfNode);
    }

    /**
     * Schedules {@code handler.handle(timePs, payload)} for a node of partition {@code to}, keyed {@code key} (from
     * {@link #arrivalKey} or {@link CanonicalOrder#key}). Here: on this queue.
     */
    public void deliver(long timePs, EventHandler handler, Object payload, Partition to, long key) {
        if (events.isKeyed()) {
            events.scheduleKeyed(timePs, handler, payload, key);
        } else {
            events.schedule(timePs, handler, payload);
        }
    }

    /**
     * Schedules {@code handler.handle(timePs, payload)} for node {@code to} on its event lane {@code lane}, for a
     * message that does not cross a link (GSE's requests and grants between edges): lanes after the ports' are the
     * transport's ({@code TransportRun.messageLanes()}), keyed {@link CanonicalOrder#key key(to, lane)}.
     */
    public final void deliverOnLane(long timePs, EventHandler handler, Object payload, Node to, int lane) {
        deliver(timePs, handler, payload, to.partition(), CanonicalOrder.key(to.id, lane));
    }

    /**
     * The key of the events that arrive at {@code receiver} through its port {@code receivingPort}: the receiver and
     * the port's lane ({@link CanonicalOrder#laneOf}); asked once per link when the link's sender joins a partition.
     */
    protected final long arrivalKey(Node receiver, Port receivingPort) {
        return CanonicalOrder.key(receiver.id, CanonicalOrder.laneOf(receivingPort));
    }

    /** Schedules an event of node {@code node} from outside any handler (a flow's start), on the node's own lane. */
    public final void scheduleFor(Node node, long timePs, EventHandler handler, Object payload) {
        if (events.isKeyed()) {
            events.scheduleKeyed(timePs, handler, payload, CanonicalOrder.key(node.id, CanonicalOrder.OWN_LANE));
        } else {
            events.schedule(timePs, handler, payload);
        }
    }

    /**
     * Link {@code link}, whose sender runs here, carries {@code p} to its peer, arriving at {@code arrivalPs}. Here:
     * onto the link's wire FIFO, which schedules one arrival event per busy wire.
     */
    protected void carry(Link link, long arrivalPs, Packet p) {
        link.push(arrivalPs, p);
    }

    /**
     * Counts packet {@code p} as lost in its flow's counters. Here directly; an engine whose switches in several
     * threads may count drops of one flow makes this safe for them.
     */
    public void countDrop(Packet p) {
        p.flow.packetDropped(p);
    }
}
