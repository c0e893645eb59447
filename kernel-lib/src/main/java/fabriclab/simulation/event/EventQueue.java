package fabriclab.simulation.event;

import fabriclab.Parameters;
import java.util.Arrays;

/**
 * The pending-event set of a discrete-event simulation: a radix heap (a monotone priority queue)
 * over event times in picoseconds, with ties in scheduling order.
 *
 * <p>Order: events leave in increasing time; events with equal times leave in the order they were
 * scheduled (FIFO). A run therefore does not depend on hash codes or identity, only on the order of
 * {@link #schedule} calls. The order is exactly that of a binary or d-ary heap keyed by (time,
 * sequence number); the tests check it event for event against such a heap.
 *
 * <p>Monotone: like simulated time, the queue only moves forward. {@link #schedule} accepts any time
 * at or after the time of the last polled event (the current simulated time) and rejects an earlier
 * one, which in a discrete-event simulation would be an event in the past.
 *
 * <p>How: let {@code last} be the time of the last event taken out (0 at first). An event at time
 * {@code t} is kept in bucket {@code b(t) = 64 - numberOfLeadingZeros(t ^ last)}, the position of
 * the highest bit in which {@code t} differs from {@code last} (bucket 0 holds {@code t == last}).
 * Each bucket is an append-only array, and remembers its smallest time. {@link #poll} takes the
 * head of bucket 0; if bucket 0 is empty, it finds the lowest non-empty bucket {@code i} (one bit
 * scan), sets {@code last} to that bucket's smallest time and redistributes the bucket's events into
 * lower buckets in their stored order. Because {@code last} only grows and shares all bits above
 * {@code i} with the old value, every other event keeps its bucket, equal times always share a
 * bucket, and every bucket stays in scheduling order among equal times, which gives the FIFO ties.
 * An event moves down at most 64 times over its life (in practice a few times, since the simulator's
 * delays span a few bits), so schedule is O(1) and poll is O(1) amortised, with sequential memory
 * access and predictable branches, where a heap pays O(log n) unpredictable comparisons per event.
 * Reference: Ahuja, Mehlhorn, Orlin, Tarjan, "Faster algorithms for the shortest path problem",
 * J. ACM 37(2), 1990 (radix heaps).
 *
 * <p>No allocation per event once the bucket arrays have grown. Time is a {@code long} in
 * picoseconds (see {@code fabriclab.simulation.Time}).
 */
public final class EventQueue {
    private static final int BUCKETS = 65;

    private final long[][] times = new long[BUCKETS][];
    private final Object[][] refs = new Object[BUCKETS][]; // [2j] = handler, [2j+1] = payload
    private final int[] counts = new int[BUCKETS];
    private final long[] minTime = new long[BUCKETS];
    private long nonEmpty; // bit b set when bucket b holds an event
    private int head0;     // next event of bucket 0 to poll
    private long last;
    private int size;
    private long scheduled;

    // last polled event
    private long polledTime;
    private EventHandler polledHandler;
    private Object polledPayload;

    /** An empty queue whose buckets start with room for {@code initialCapacity} events each. */
    public EventQueue(int initialCapacity) {
        Parameters.atLeast("initialCapacity", initialCapacity, 1);
        int c = Math.min(initialCapacity, 1 << 20);
        for (int b = 0; b < BUCKETS; b++) {
            times[b] = new long[c];
            refs[b] = new Object[2 * c];
        }
    }

    /** An empty queue. */
    public EventQueue() {
        this(64);
    }

    /** Number of pending events. */
    public int size() {
        return size;
    }

    /** Whether no event is pending. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** Total number of events ever scheduled. */
    public long scheduledCount() {
        return scheduled;
    }

    /** Time of the earliest pending event; {@link Long#MAX_VALUE} if none. Does not change the queue. */
    public long peekTime() {
        if (size == 0) {
            return Long.MAX_VALUE;
        }
        return minTime[Long.numberOfTrailingZeros(nonEmpty)];
    }

    /**
     * Schedules {@code handler.handle(timePs, payload)}.
     *
     * @param timePs simulated time in picoseconds, not before the last polled event's time
     * @param handler the handler, not null
     * @param payload any object or null
     */
    public void schedule(long timePs, EventHandler handler, Object payload) {
        if (timePs < polledTime) {
            if (timePs < 0) {
                Parameters.atLeast("timePs", timePs, 0L);
            }
            throw new IllegalArgumentException("timePs = " + timePs + " is before the current simulated time "
                    + polledTime + " ps (allowed: timePs >= " + polledTime + ")");
        }
        if (handler == null) {
            Parameters.notNull("handler", handler);
        }
        append(64 - Long.numberOfLeadingZeros(timePs ^ last), timePs, handler, payload);
        size++;
        scheduled++;
    }

    private void append(int b, long t, Object handler, Object payload) {
        int n = counts[b];
        long[] tb = times[b];
        if (n == tb.length) {
            tb = times[b] = Arrays.copyOf(tb, 2 * n);
            refs[b] = Arrays.copyOf(refs[b], 4 * n);
        }
        tb[n] = t;
        Object[] rb = refs[b];
        rb[2 * n] = handler;
        rb[2 * n + 1] = payload;
        if (n == 0) {
            minTime[b] = t;
            nonEmpty |= 1L << b;
        } else if (t < minTime[b]) {
            minTime[b] = t;
        }
        counts[b] = n + 1;
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
        if ((nonEmpty & 1L) == 0) {
            redistributeLowest();
        }
        Object[] r0 = refs[0];
        int h = head0;
        polledTime = last;
        polledHandler = (EventHandler) r0[2 * h];
        polledPayload = r0[2 * h + 1];
        r0[2 * h] = null;
        r0[2 * h + 1] = null;
        if (++h == counts[0]) {
            head0 = 0;
            counts[0] = 0;
            nonEmpty &= ~1L;
        } else {
            head0 = h;
        }
        size--;
        return true;
    }

    /**
     * {@link #poll()} if the earliest event is due at or before {@code limitPs}; otherwise leaves the
     * queue as it is.
     *
     * @param limitPs the latest time to poll, picoseconds
     * @return false if the queue is empty or its earliest event is after {@code limitPs}
     */
    public boolean pollUntil(long limitPs) {
        return size != 0 && peekTime() <= limitPs && poll();
    }

    /** Bucket 0 is empty: moves the events of the lowest non-empty bucket down, its minimum into bucket 0. */
    private void redistributeLowest() {
        int i = Long.numberOfTrailingZeros(nonEmpty);
        long m = minTime[i];
        last = m;
        int n = counts[i];
        long[] ti = times[i];
        Object[] ri = refs[i];
        counts[i] = 0;
        nonEmpty &= ~(1L << i);
        for (int j = 0; j < n; j++) {
            long t = ti[j];
            append(64 - Long.numberOfLeadingZeros(t ^ m), t, ri[2 * j], ri[2 * j + 1]);
            ri[2 * j] = null;
            ri[2 * j + 1] = null;
        }
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
