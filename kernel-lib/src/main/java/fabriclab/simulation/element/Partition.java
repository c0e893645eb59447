package fabriclab.simulation.element;

import fabriclab.simulation.event.EventHandler;
import fabriclab.simulation.event.EventQueue;
import java.util.Arrays;

/**
 * The execution context of a set of nodes: the event queue their events are scheduled on, their
 * clock, and the pool their packets are recycled into. Every element reaches these through the
 * partition of its node, never through the {@link Network}.
 *
 * <p>The sequential engine ({@code Simulator.run(long, fabriclab.progress.ProgressSink)}) has one
 * partition holding every node, with a FIFO queue: exactly the single event loop of a run. The
 * parallel engine ({@code ParallelEngine}) has one partition per thread, each with a queue in the
 * canonical tie order ({@link EventQueue#canonical}); an event for a node of another partition (a
 * packet arriving over a link, a PAUSE frame) is not scheduled but put in the outbox toward that
 * partition, which takes it in at the next barrier.
 */
public final class Partition {
    /** Index of this partition (0 for the sequential engine's only one). */
    final int index;
    public final EventQueue events;
    /** Packets no element of this partition holds any more, for reuse (parallel engine: at most 2^16 kept). */
    public final Packet.Pool packets;
    /** The current simulated time of this partition, ps: the instant being dispatched. */
    public long now;
    /** Parallel engine: per destination partition, two outboxes (by window parity); null for the sequential engine. */
    public final Outbox[][] outboxes;
    /** Parallel engine: the parity of the current window (which outbox of each pair is written). */
    public int parity;
    /** Parallel engine: events sent to other partitions. */
    public long messagesSent;
    /** Parallel engine: the earliest arrival time of the events sent to other partitions in this window. */
    public long earliestSentPs = Long.MAX_VALUE;
    /**
     * Payload delivered to the receivers of this partition's hosts so far, bytes (first copies; for progress reports:
     * the parallel engine's first thread reads every partition's after a barrier).
     */
    public long deliveredBytes;

    /** The sequential engine's partition (FIFO ties). */
    public Partition() {
        this.index = 0;
        this.events = new EventQueue(4096);
        this.packets = new Packet.Pool();
        this.outboxes = null;
    }

    /** Partition {@code index} of {@code count} of the parallel engine (canonical ties). */
    public Partition(int index, int count) {
        this.index = index;
        this.events = EventQueue.canonical(4096);
        this.packets = new Packet.Pool(1 << 16);
        this.outboxes = new Outbox[count][];
        for (int d = 0; d < count; d++) {
            outboxes[d] = d == index ? null : new Outbox[] {new Outbox(), new Outbox()};
        }
    }

    /**
     * Schedules {@code handler.handle(timePs, payload)} for node {@code to} with key {@code key}
     * (parallel engine: in this partition's queue if {@code to} is one of its nodes, else in the
     * outbox toward the node's partition; sequential engine: FIFO, the key unused).
     */
    public void deliver(long timePs, EventHandler handler, Object payload, Partition to, long key) {
        if (outboxes == null) {
            events.schedule(timePs, handler, payload);
        } else if (to == this) {
            events.scheduleKeyed(timePs, handler, payload, key);
        } else {
            outboxes[to.index][parity].add(timePs, handler, payload, key);
            messagesSent++;
            if (timePs < earliestSentPs) {
                earliestSentPs = timePs;
            }
        }
    }

    /** Schedules an event of node {@code node} from outside any handler (a flow's start): the node's own lane. */
    void scheduleFor(Node node, long timePs, EventHandler handler, Object payload) {
        if (outboxes == null) {
            events.schedule(timePs, handler, payload);
        } else {
            events.scheduleKeyed(timePs, handler, payload, EventQueue.key(node.id, EventQueue.OWN_LANE));
        }
    }

    /** Events sent from one partition to another in one window, in sending order (parallel arrays). */
    public static final class Outbox {
        long[] times = new long[64];
        long[] keys = new long[64];
        Object[] refs = new Object[128];
        int count;

        void add(long t, EventHandler h, Object payload, long key) {
            if (count == times.length) {
                times = Arrays.copyOf(times, 2 * count);
                keys = Arrays.copyOf(keys, 2 * count);
                refs = Arrays.copyOf(refs, 4 * count);
            }
            times[count] = t;
            keys[count] = key;
            refs[2 * count] = h;
            refs[2 * count + 1] = payload;
            count++;
        }

        /** Schedules every event of this outbox in {@code q}, in sending order, and empties it. */
        public void drainInto(EventQueue q) {
            for (int i = 0; i < count; i++) {
                q.scheduleKeyed(times[i], (EventHandler) refs[2 * i], refs[2 * i + 1], keys[i]);
            }
            Arrays.fill(refs, 0, 2 * count, null);
            count = 0;
        }
    }
}
