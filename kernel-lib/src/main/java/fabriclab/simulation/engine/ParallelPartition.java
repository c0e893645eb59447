package fabriclab.simulation.engine;

import fabriclab.simulation.element.CanonicalOrder;
import fabriclab.simulation.element.Link;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.element.Partition;
import fabriclab.simulation.event.EventHandler;
import fabriclab.simulation.event.EventQueue;
import java.util.Arrays;

/**
 * A partition of the parallel engine: a queue in the canonical tie order ({@link CanonicalOrder}, the rule both
 * engines share); an event
 * for a node of another partition (a packet arriving over a link, a PAUSE frame, a GSE message) is not scheduled
 * but put in the outbox toward that partition, which takes it in at the next barrier; every packet's arrival is
 * its own event, on the lane of the receiving port; drops of one flow, counted by switches of several threads, are
 * summed under the flow's lock (sums: any order gives the same).
 */
final class ParallelPartition extends Partition {
    /** Per destination partition, two outboxes (by window parity); null toward itself. */
    final Outbox[][] outboxes;
    /** The parity of the current window (which outbox of each pair is written). */
    int parity;
    /** Events sent to other partitions in the current window. */
    long messagesSent;
    /** The earliest arrival time of the events sent to other partitions in this window. */
    long earliestSentPs = Long.MAX_VALUE;

    /** Partition {@code index} of {@code count} of a run seeded {@code seed} (at most 2^16 packets kept for reuse). */
    ParallelPartition(int index, int count, long seed, int[] portsOfNode) {
        super(index, new CanonicalOrder(seed), new Packet.Pool(1 << 16));
        applyCanonicalOrder(portsOfNode);
        this.outboxes = new Outbox[count][];
        for (int d = 0; d < count; d++) {
            outboxes[d] = d == index ? null : new Outbox[] {new Outbox(), new Outbox()};
        }
    }

    /** In this partition's queue if {@code to} is this partition, else in the outbox toward it. */
    @Override
    public void deliver(long timePs, EventHandler handler, Object payload, Partition to, long key) {
        if (to == this) {
            events().scheduleKeyed(timePs, handler, payload, key);
        } else {
            outboxes[to.index][parity].add(timePs, handler, payload, key);
            messagesSent++;
            if (timePs < earliestSentPs) {
                earliestSentPs = timePs;
            }
        }
    }

    /** Each packet's arrival is an event of the receiving port's lane at the peer, which may run in another thread. */
    @Override
    protected void carry(Link link, long arrivalPs, Packet p) {
        deliver(arrivalPs, link.toPort().arrival, p, link.toPort().partition(), link.arrivalKey());
    }

    @Override
    public void countDrop(Packet p) {
        synchronized (p.flow()) {
            p.flow().packetDropped(p);
        }
    }

    /** Events sent from one partition to another in one window, in sending order (parallel arrays). */
    static final class Outbox {
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
        void drainInto(EventQueue q) {
            for (int i = 0; i < count; i++) {
                q.scheduleKeyed(times[i], (EventHandler) refs[2 * i], refs[2 * i + 1], keys[i]);
            }
            Arrays.fill(refs, 0, 2 * count, null);
            count = 0;
        }
    }
}
