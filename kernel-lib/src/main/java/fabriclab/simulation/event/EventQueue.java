package fabriclab.simulation.event;

import fabriclab.Parameters;
import java.util.Arrays;

/**
 * The pending-event set of a discrete-event simulation: a 4-ary min-heap ordered by
 * (time, sequence number), stored in parallel primitive/object arrays.
 *
 * <p>Determinism: every scheduled event receives the next value of a 64-bit counter, and events
 * with equal times leave the queue in the order they were scheduled (FIFO). A run therefore does
 * not depend on heap layout, hash codes or identity, only on the order of {@link #schedule} calls.
 *
 * <p>Cost: {@code O(log4 n)} per schedule and per poll, no allocation per event once the arrays
 * have grown; a 4-ary heap touches fewer cache lines than a binary heap at millions of pending
 * events. Time is a {@code long} in picoseconds (see {@code fabriclab.simulation.Time}).
 */
public final class EventQueue {
    private long[] times;
    private long[] seqs;
    private EventHandler[] handlers;
    private Object[] payloads;
    private int size;
    private long nextSeq;

    // last polled event
    private long polledTime;
    private EventHandler polledHandler;
    private Object polledPayload;

    /** An empty queue with room for {@code initialCapacity} events before it grows. */
    public EventQueue(int initialCapacity) {
        Parameters.atLeast("initialCapacity", initialCapacity, 1);
        times = new long[initialCapacity];
        seqs = new long[initialCapacity];
        handlers = new EventHandler[initialCapacity];
        payloads = new Object[initialCapacity];
    }

    /** An empty queue. */
    public EventQueue() {
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
        return size == 0 ? Long.MAX_VALUE : times[0];
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
        if (size == times.length) {
            grow();
        }
        long seq = nextSeq++;
        int i = size++;
        // sift up
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = times[parent];
            if (pt < timePs || (pt == timePs && seqs[parent] < seq)) {
                break;
            }
            times[i] = pt;
            seqs[i] = seqs[parent];
            handlers[i] = handlers[parent];
            payloads[i] = payloads[parent];
            i = parent;
        }
        times[i] = timePs;
        seqs[i] = seq;
        handlers[i] = handler;
        payloads[i] = payload;
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
        polledTime = times[0];
        polledHandler = handlers[0];
        polledPayload = payloads[0];
        int last = --size;
        long t = times[last];
        long s = seqs[last];
        EventHandler h = handlers[last];
        Object p = payloads[last];
        handlers[last] = null;
        payloads[last] = null;
        if (last > 0) {
            int i = 0;
            while (true) {
                int c = 4 * i + 1;
                if (c >= last) {
                    break;
                }
                int best = c;
                long bt = times[c];
                long bs = seqs[c];
                int end = Math.min(c + 4, last);
                for (int k = c + 1; k < end; k++) {
                    long kt = times[k];
                    if (kt < bt || (kt == bt && seqs[k] < bs)) {
                        best = k;
                        bt = kt;
                        bs = seqs[k];
                    }
                }
                if (t < bt || (t == bt && s < bs)) {
                    break;
                }
                times[i] = bt;
                seqs[i] = bs;
                handlers[i] = handlers[best];
                payloads[i] = payloads[best];
                i = best;
            }
            times[i] = t;
            seqs[i] = s;
            handlers[i] = h;
            payloads[i] = p;
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

    private void grow() {
        int n = times.length * 2;
        times = Arrays.copyOf(times, n);
        seqs = Arrays.copyOf(seqs, n);
        handlers = Arrays.copyOf(handlers, n);
        payloads = Arrays.copyOf(payloads, n);
    }
}
