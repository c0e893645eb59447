package fabriclab.simulation.event;

import fabriclab.Parameters;
import java.util.Arrays;

/**
 * Test reference for {@link EventQueue}: the simulator's former pending-event set, a 4-ary min-heap
 * ordered by (time, sequence number), kept to check the slot queue's order event for event and to
 * measure the speed ratio in one run ({@code EventQueueBenchMain}).
 *
 * <p>Determinism: every scheduled event receives the next value of a 64-bit counter, and events
 * with equal times leave the queue in the order they were scheduled (FIFO). A run therefore does
 * not depend on heap layout, hash codes or identity, only on the order of {@link #schedule} calls.
 *
 * <p>Cost: {@code O(log4 n)} per schedule and per poll, no allocation per event once the arrays
 * have grown; a 4-ary heap touches fewer cache lines than a binary heap at millions of pending
 * events, and each entry's (time, sequence) and (handler, payload) are stored side by side in two
 * interleaved arrays so that comparing and moving an entry touches two cache lines, not four. Time is a {@code long} in picoseconds (see {@code fabriclab.fabric.Time}).
 */
final class HeapEventQueue {
    private long[] keys;      // [2i] = time, [2i+1] = sequence number
    private Object[] refs;    // [2i] = handler, [2i+1] = payload
    private int size;
    private long nextSeq;

    // last polled event
    private long polledTime;
    private EventHandler polledHandler;
    private Object polledPayload;

    /** An empty queue with room for {@code initialCapacity} events before it grows. */
    HeapEventQueue(int initialCapacity) {
        Parameters.atLeast("initialCapacity", initialCapacity, 1);
        keys = new long[2 * initialCapacity];
        refs = new Object[2 * initialCapacity];
    }

    /** An empty queue. */
    HeapEventQueue() {
        this(1024);
    }

    /** Number of pending events. */
    public int size() {
        return size;
    }

    /** Whether no event is pending. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** Total number of events ever scheduled (the next sequence number). */
    public long scheduledCount() {
        return nextSeq;
    }

    /** Time of the earliest pending event; {@link Long#MAX_VALUE} if none. */
    public long peekTime() {
        return size == 0 ? Long.MAX_VALUE : keys[0];
    }

    /**
     * Schedules {@code handler.handle(timePs, payload)}.
     *
     * @param timePs simulated time in picoseconds, not negative
     * @param handler the handler, not null
     * @param payload any object or null
     */
    public void schedule(long timePs, EventHandler handler, Object payload) {
        if (timePs < 0) {
            Parameters.atLeast("timePs", timePs, 0L);
        }
        if (handler == null) {
            Parameters.notNull("handler", handler);
        }
        if (2 * size == keys.length) {
            keys = Arrays.copyOf(keys, 2 * keys.length);
            refs = Arrays.copyOf(refs, 2 * refs.length);
        }
        long seq = nextSeq++;
        int i = size++;
        long[] k = keys;
        Object[] r = refs;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = k[2 * parent];
            if (pt < timePs || (pt == timePs && k[2 * parent + 1] < seq)) {
                break;
            }
            k[2 * i] = pt;
            k[2 * i + 1] = k[2 * parent + 1];
            r[2 * i] = r[2 * parent];
            r[2 * i + 1] = r[2 * parent + 1];
            i = parent;
        }
        k[2 * i] = timePs;
        k[2 * i + 1] = seq;
        r[2 * i] = handler;
        r[2 * i + 1] = payload;
    }

    /**
     * Removes the earliest event and makes it available through {@link #polledTime()},
     * {@link #polledHandler()} and {@link #polledPayload()}.
     *
     * @return false if the queue was empty
     */
    public boolean poll() {
        if (size == 0) {
            return false;
        }
        long[] k = keys;
        Object[] r = refs;
        polledTime = k[0];
        polledHandler = (EventHandler) r[0];
        polledPayload = r[1];
        int last = --size;
        long t = k[2 * last];
        long s = k[2 * last + 1];
        Object h = r[2 * last];
        Object p = r[2 * last + 1];
        r[2 * last] = null;
        r[2 * last + 1] = null;
        if (last > 0) {
            int i = 0;
            while (true) {
                int c = 4 * i + 1;
                if (c >= last) {
                    break;
                }
                int best = c;
                long bt = k[2 * c];
                long bs = k[2 * c + 1];
                int end = Math.min(c + 4, last);
                for (int j = c + 1; j < end; j++) {
                    long jt = k[2 * j];
                    if (jt < bt || (jt == bt && k[2 * j + 1] < bs)) {
                        best = j;
                        bt = jt;
                        bs = k[2 * j + 1];
                    }
                }
                if (t < bt || (t == bt && s < bs)) {
                    break;
                }
                k[2 * i] = bt;
                k[2 * i + 1] = bs;
                r[2 * i] = r[2 * best];
                r[2 * i + 1] = r[2 * best + 1];
                i = best;
            }
            k[2 * i] = t;
            k[2 * i + 1] = s;
            r[2 * i] = h;
            r[2 * i + 1] = p;
        }
        return true;
    }

    /** Time of the last polled event in picoseconds. */
    public long polledTime() {
        return polledTime;
    }

    /** Handler of the last polled event. */
    public EventHandler polledHandler() {
        return polledHandler;
    }

    /** Payload of the last polled event. */
    public Object polledPayload() {
        return polledPayload;
    }
}
