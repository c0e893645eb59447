package fabriclab.simulation.event;

import fabriclab.Parameters;
import java.util.Arrays;

/**
 * The pending-event set of a discrete-event simulation: events grouped by their exact time into
 * FIFO slots; the slots of the next 8.39 us in a timing wheel of 1.024 ns buckets ({@code TimingWheel}, which
 * this class extends), the later ones in a 4-ary min-heap over their times in picoseconds with a hash table to
 * find them by time ({@code FarEventHeap}). This class holds the slots themselves and what the two share: the
 * pool of slots and event arrays, the slot of the last schedule call and the slot being handled.
 *
 * <p>Order: events leave in increasing time; events with equal times leave in the order they were
 * scheduled (FIFO). A run therefore does not depend on hash codes or identity, only on the order of
 * {@link #schedule} calls. The order is exactly that of a heap keyed by (time, sequence number); the
 * tests check it event for event against such a heap.
 *
 * <p>Monotone: like simulated time, the queue only moves forward. {@link #schedule} accepts any time
 * at or after the time of the last polled event (the current simulated time) and rejects an earlier
 * one, which in a discrete-event simulation would be an event in the past.
 *
 * <p>Why slots: in a packet simulation many events fall on the same instants. Packets of one size on
 * links of one rate finish their serialisation on a common lattice of times (every 80 ns for 1000 B
 * at 100 Gb/s), so line-rate senders put tens to hundreds of events on each distinct time, fewer where
 * pacing (DCQCN) spreads the times (counts per scenario: {@code BENCH-RESULTS.md}). Each event is appended once to the slot of its time and polled once from it; ties need no
 * sequence numbers, since a slot keeps its events in scheduling order.
 *
 * <p>Why a wheel: nearly every event of a packet simulation falls within a serialisation time plus a
 * link delay of the current time (the end of a transmission, the arrival at the peer), but where the
 * times do not share a lattice (ACKs of 64 B between data packets of 1064 B, 64 hosts whose phases
 * differ) nearly every event has a distinct time, and tens of thousands of distinct times can be
 * pending, many far ahead (PFC's pause expiries, a pause time ahead). A slot of the next {@code 2^13} buckets of
 * {@code 2^10} ps is found by indexing its bucket (the bucket's slots are chained in time order, nearly
 * always one) and the earliest by a scan of the buckets' occupancy bits from the current bucket, with
 * no hashing and no heap; a later slot is found through an open-addressing hash table and ordered by
 * the heap, and joins the wheel when the current time comes within the wheel's reach of it. A
 * one-entry cache of the last slot used saves the lookup for runs of events of one time. Cost: O(1)
 * per event for events within the reach (the scan, per distinct time, reads one 64-bit word per 64
 * buckets it passes), O(log d) per later distinct time, d the number of those pending.
 *
 * <p>Two ways to consume events: {@link #poll()} one at a time, or {@link #dispatchNextInstant} a whole
 * instant at a time, which runs the handlers itself in a loop over the slot (the simulator's way: one
 * call per instant instead of one per event).
 *
 * <p>No allocation per event once the slots have grown: used-up slots are recycled. Time is a
 * {@code long} in picoseconds (see {@code fabriclab.fabric.Time}).
 *
 * <p>Keyed order ({@link #keyed}, the parallel engine's queues): every event carries a {@code long} key. When an
 * instant's slot is taken for handling, the queue's {@link InstantOrder} permutes the events pending in it (the
 * parallel engine's canonical order by node and lane); events
 * scheduled for that instant while it is being handled are appended after them in scheduling order.
 * {@link #schedule} gives an event the key of the event being handled ({@link #currentKey}) with the queue's own-key
 * bits set. Cost: a key per event and one call of the order per instant of 2 or more events; the FIFO queue pays
 * none of it (one branch per schedule call and one per instant).
 */
public final class EventQueue extends TimingWheel {

    /** The pending events of one time, in scheduling order. */
    final class Slot {
        long time;
        Object[] refs; // [2j] = handler, [2j+1] = payload; null while the slot is pooled
        int head;      // next event to poll
        int tail;      // number of events appended
        long[] keys;   // keyed mode only: [j] = key of event j
        Slot next;     // in the wheel: the next slot of the same bucket (a later time), or null

        void appendKeyed(Object handler, Object payload, long key) {
            if (keys == null || tail == keys.length) {
                keys = grownKeys(keys, Math.max(refs.length / 2, 2 * tail));
            }
            keys[tail] = key;
            append(handler, payload);
        }

        void append(Object handler, Object payload) {
            int j = 2 * tail;
            if (j == refs.length) {
                refs = grown(refs);
            }
            refs[j] = handler;
            refs[j + 1] = payload;
            tail++;
        }
    }

    /** The open slots beyond the wheel's reach. */
    private final FarEventHeap far;
    /**
     * Number of slots in {@link #far}, kept here: the queue asks whether there is any at every move of the current
     * bucket, and reads the count without going through the heap object.
     */
    private int farSlots;

    private Slot current; // the slot being polled (time == polledTime), null between slots
    private Slot recent;  // the slot of the last schedule call, or null
    private Slot[] pool = new Slot[16];
    private int pooled;
    private final int slotCapacity;
    /**
     * Event arrays not in use, by size class (index: log2 of the length), each a stack. A slot takes an array of
     * the smallest class when it opens, trades it for one twice as long when it fills (the copy is the only
     * cost), and gives it back when it closes, so once the queue has seen its busiest instants it allocates
     * nothing; otherwise every instant on the common lattice of serialisation times (thousands of events at
     * 3456 hosts) would grow a small recycled slot again, garbage in proportion to the run's events.
     */
    private final Object[][][] freeArrays = new Object[32][][];
    private final int[] freeCount = new int[32];

    /** An empty event array of {@code length} (a power of two) from the free stacks, or a new one. */
    private Object[] takeArray(int length) {
        int c = Integer.numberOfTrailingZeros(length);
        int n = freeCount[c];
        if (n == 0) {
            return new Object[length];
        }
        Object[][] stack = freeArrays[c];
        Object[] a = stack[--n];
        stack[n] = null;
        freeCount[c] = n;
        return a;
    }

    /** Returns the event array {@code a} (its entries already null) to its free stack. */
    private void giveArray(Object[] a) {
        int c = Integer.numberOfTrailingZeros(a.length);
        Object[][] stack = freeArrays[c];
        int n = freeCount[c];
        if (stack == null || n == stack.length) {
            stack = freeArrays[c] = stack == null ? new Object[16][] : Arrays.copyOf(stack, 2 * n);
        }
        stack[n] = a;
        freeCount[c] = n + 1;
    }

    /** Key arrays not in use, by size class (index: log2 of the length), each a stack (keyed mode; see freeArrays). */
    private final long[][][] freeKeys = new long[32][][];
    private final int[] freeKeyCount = new int[32];

    /**
     * A key array of at least {@code length} (rounded up to a power of two) from the free stacks or new, holding
     * {@code old}'s keys; {@code old} (null or full) goes back to its stack. Key arrays are recycled as the event arrays
     * are: a slot kept in the pool would otherwise keep the largest key array it ever needed.
     */
    private long[] grownKeys(long[] old, int length) {
        int size = Integer.highestOneBit(Math.max(1, length - 1)) << 1;
        int c = Integer.numberOfTrailingZeros(size);
        long[] a;
        int n = freeKeyCount[c];
        if (n == 0) {
            a = new long[size];
        } else {
            a = freeKeys[c][--n];
            freeKeys[c][n] = null;
            freeKeyCount[c] = n;
        }
        if (old != null) {
            System.arraycopy(old, 0, a, 0, old.length);
            giveKeys(old);
        }
        return a;
    }

    /** Returns the key array {@code a} (a power of two long) to its free stack. */
    private void giveKeys(long[] a) {
        int c = Integer.numberOfTrailingZeros(a.length);
        long[][] stack = freeKeys[c];
        int n = freeKeyCount[c];
        if (stack == null || n == stack.length) {
            stack = freeKeys[c] = stack == null ? new long[16][] : Arrays.copyOf(stack, 2 * n);
        }
        stack[n] = a;
        freeKeyCount[c] = n + 1;
    }

    /** The full array {@code a}'s entries in an array twice as long; {@code a} is cleared and freed. */
    private Object[] grown(Object[] a) {
        Object[] b = takeArray(2 * a.length);
        System.arraycopy(a, 0, b, 0, a.length);
        Arrays.fill(a, null);
        giveArray(a);
        return b;
    }
    /** Keyed order (see the class comment); false: FIFO. */
    private final boolean keyed;
    /** Keyed mode: the order of each instant's events; null for FIFO. */
    private final InstantOrder order;
    /** Keyed mode: the bits {@link #schedule} sets in the current key for the events a handler schedules. */
    private final long ownKeyBits;
    /** Keyed mode: the largest key {@link #scheduleKeyed} accepts. */
    private final long maxKey;
    /** Keyed mode: the key of an event {@link #schedule}d outside any handler, or -1: such a call fails. */
    private final long outsideKey;
    /** Keyed mode: the key of the event being handled, or -1 outside a handler. */
    private long currentKey = -1;

    private int size;
    private long scheduled;

    // last polled event
    private long polledTime;
    private EventHandler polledHandler;
    private Object polledPayload;

    /**
     * An empty queue sized for about {@code initialCapacity} pending events; it grows as needed.
     *
     * @param initialCapacity expected number of pending events, at least 1
     */
    public EventQueue(int initialCapacity) {
        this(initialCapacity, null, 0, 0, -1);
    }

    private EventQueue(int initialCapacity, InstantOrder order, long ownKeyBits, long maxKey, long outsideKey) {
        Parameters.atLeast("initialCapacity", initialCapacity, 1);
        this.keyed = order != null;
        this.order = order;
        this.ownKeyBits = ownKeyBits;
        this.maxKey = maxKey;
        this.outsideKey = outsideKey;
        int c = Math.min(initialCapacity, 1 << 16);
        int tableSize = Integer.highestOneBit(Math.max(16, c)) * 2;
        far = new FarEventHeap(tableSize);
        slotCapacity = Integer.highestOneBit(Math.min(c, 16)); // a power of two: the arrays' size classes
    }

    /** An empty queue. */
    public EventQueue() {
        this(64);
    }

    /**
     * An empty queue in a keyed order instead of FIFO (see the class comment): every event carries a key; of the
     * events of one time that are pending when that time's first event is taken, {@code order} decides the order;
     * events scheduled for that same time while it is being handled follow, in scheduling order. {@link #schedule}
     * gives an event the key of the event being handled with the bits {@code ownKeyBits} set; {@link #scheduleKeyed}
     * gives any key from 0 to {@code maxKey}.
     *
     * @param initialCapacity expected number of pending events, at least 1
     * @param order the order of each instant's events, not null; this queue's own (it may keep scratch arrays)
     * @param ownKeyBits the bits set in the current key for the events a handler schedules, not negative
     * @param maxKey the largest key, not negative
     */
    public static EventQueue keyed(int initialCapacity, InstantOrder order, long ownKeyBits, long maxKey) {
        Parameters.notNull("order", order);
        Parameters.inRange("ownKeyBits", ownKeyBits, 0L, Long.MAX_VALUE);
        Parameters.inRange("maxKey", maxKey, 0L, Long.MAX_VALUE);
        return new EventQueue(initialCapacity, order, ownKeyBits, maxKey, -1);
    }

    /**
     * As {@link #keyed(int, InstantOrder, long, long)}, but an event {@link #schedule}d before the first event is handled
     * (a run's set-up) gets the key {@code outsideKey} instead of failing.
     *
     * @param initialCapacity expected number of pending events, at least 1
     * @param order the order of each instant's events, not null; this queue's own (it may keep scratch arrays)
     * @param ownKeyBits the bits set in the current key for the events a handler schedules, not negative
     * @param maxKey the largest key, not negative
     * @param outsideKey the key of events scheduled outside a handler, 0 to {@code maxKey}
     */
    public static EventQueue keyed(int initialCapacity, InstantOrder order, long ownKeyBits, long maxKey, long outsideKey) {
        Parameters.notNull("order", order);
        Parameters.inRange("ownKeyBits", ownKeyBits, 0L, Long.MAX_VALUE);
        Parameters.inRange("maxKey", maxKey, 0L, Long.MAX_VALUE);
        Parameters.inRange("outsideKey", outsideKey, 0L, maxKey);
        return new EventQueue(initialCapacity, order, ownKeyBits, maxKey, outsideKey);
    }

    /** Whether this queue has a keyed order ({@link #keyed}). */
    public boolean isKeyed() {
        return keyed;
    }

    /** Keyed mode: the key of the event being handled (or last polled); -1 before the first. */
    public long currentKey() {
        return currentKey;
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
        if (current != null) {
            return current.time;
        }
        if (wheelSlots > 0) {
            return wheelFirst().time;
        }
        return farSlots == 0 ? Long.MAX_VALUE : far.firstTime();
    }

    /**
     * Takes the earliest open slot for handling: the wheel's first, or if the wheel is empty the far heap's
     * first. Moves the cursor to its bucket, and the far slots the window now reaches into the wheel.
     */
    private Slot takeEarliestSlot() {
        if (wheelSlots == 0) {
            advanceTo(far.firstTime() >>> BUCKET_BITS);
        }
        Slot s = wheelFirst();
        long b = s.time >>> BUCKET_BITS;
        if (b != cursor) {
            advanceTo(b);
        }
        return s;
    }

    /**
     * The current time moved to absolute bucket {@code b}: the far slots now within the window join the wheel
     * (they are later than every slot already there, and no wheel slot has their time: a time joins the wheel
     * only once the window reaches it).
     */
    private void advanceTo(long b) {
        cursor = b;
        while (farSlots > 0 && near(far.firstTime())) {
            Slot s = far.takeFirst();
            farSlots--;
            wheelInsert(s);
        }
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
            if (timePs < 0 && polledTime >= 0) { // a time past Long.MAX_VALUE wraps to a negative number
                throw new IllegalArgumentException("timePs must be >= 0, got " + timePs + ": an event after the current "
                        + polledTime + " ps fell beyond the last simulated time a long holds, 2^63 - 1 ps (106 days), and"
                        + " wrapped; a start, delay, serialisation at a very low rate, pause or timeout of the run is too long");
            }
            if (timePs < 0) {
                Parameters.atLeast("timePs", timePs, 0L);
            }
            throw new IllegalArgumentException("timePs = " + timePs + " is before the current simulated time "
                    + polledTime + " ps (allowed: timePs >= " + polledTime + ")");
        }
        if (handler == null) {
            Parameters.notNull("handler", handler);
        }
        if (keyed) { // (out of line: keeps this method small enough for the JIT to inline it everywhere)
            scheduleOwn(timePs, handler, payload);
            return;
        }
        Slot s = recent;
        if (s == null || s.time != timePs) {
            s = slotOf(timePs);
            recent = s;
        }
        s.append(handler, payload);
        size++;
        scheduled++;
    }

    /**
     * Keyed mode: schedules {@code handler.handle(timePs, payload)} with the key {@code key}.
     *
     * @param timePs simulated time in picoseconds, not before the last polled event's time
     * @param handler the handler, not null
     * @param payload any object or null
     * @param key the event's key, 0 to the queue's largest key
     * @throws IllegalStateException if this queue is not keyed
     */
    public void scheduleKeyed(long timePs, EventHandler handler, Object payload, long key) {
        if (!keyed) {
            throw new IllegalStateException("scheduleKeyed needs a keyed queue (EventQueue.keyed)");
        }
        if (timePs < polledTime) {
            Parameters.atLeast("timePs", timePs, polledTime);
        }
        if (handler == null) {
            Parameters.notNull("handler", handler);
        }
        if (key < 0 || key > maxKey) {
            Parameters.inRange("key", key, 0L, maxKey);
        }
        appendKeyed(timePs, handler, payload, key);
    }

    /** Keyed mode: an event a handler schedules gets the handler's key with the own-key bits set. */
    private void scheduleOwn(long timePs, EventHandler handler, Object payload) {
        long key = currentKey;
        if (key < 0) {
            if (outsideKey < 0) {
                throw new IllegalStateException("a keyed queue needs a key for an event scheduled outside a handler:"
                        + " use scheduleKeyed");
            }
            appendKeyed(timePs, handler, payload, outsideKey);
            return;
        }
        appendKeyed(timePs, handler, payload, key | ownKeyBits);
    }

    private void appendKeyed(long timePs, EventHandler handler, Object payload, long key) {
        Slot s = recent;
        if (s == null || s.time != timePs) {
            s = slotOf(timePs);
            recent = s;
        }
        s.appendKeyed(handler, payload, key);
        size++;
        scheduled++;
    }

    /** Keyed mode: puts the pending events of slot {@code s} (just taken) in the queue's {@link InstantOrder}. */
    private void orderSlot(Slot s) {
        int n = s.tail - s.head;
        if (n >= 2) {
            order.order(s.time, s.keys, s.refs, s.head, n);
        }
    }

    /** The open slot of time {@code t}, opened (in the wheel, or in the far table and heap) if there is none. */
    private Slot slotOf(long t) {
        if (near(t)) {
            Slot c = wheelSlotOf(t);
            if (c != null) {
                return c;
            }
            Slot s = openSlot(t);
            wheelInsert(s);
            return s;
        }
        Slot c = far.slotOf(t);
        if (c != null) {
            return c;
        }
        Slot s = openSlot(t);
        far.add(s);
        farSlots++;
        return s;
    }

    /** A pooled (or new) slot of time {@code t} with an empty event array. */
    private Slot openSlot(long t) {
        Slot s = pooled == 0 ? new Slot() : pool[--pooled];
        s.refs = takeArray(2 * slotCapacity);
        s.time = t;
        return s;
    }

    /** Removes the used-up slot {@code s}, the wheel's earliest, from the wheel and recycles it. */
    private void close(Slot s) {
        wheelRemoveEarliest(s);
        Arrays.fill(s.refs, 0, 2 * s.tail, null); // let the handled payloads be collected
        giveArray(s.refs);
        s.refs = null;
        if (s.keys != null) {
            giveKeys(s.keys);
            s.keys = null;
        }
        s.head = 0;
        s.tail = 0;
        if (recent == s) {
            recent = null;
        }
        if (pooled == pool.length) {
            pool = Arrays.copyOf(pool, 2 * pooled);
        }
        pool[pooled++] = s;
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
        Slot s = current;
        if (s == null) {
            s = current = takeEarliestSlot();
            if (keyed) {
                orderSlot(s);
            }
        }
        int h = s.head;
        Object[] r = s.refs;
        if (keyed) {
            currentKey = s.keys[h];
        }
        polledTime = s.time;
        polledHandler = (EventHandler) r[2 * h];
        polledPayload = r[2 * h + 1];
        if (++h == s.tail) {
            current = null;
            close(s);
        } else {
            s.head = h;
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

    /**
     * Handles every pending event of the earliest time {@code t}, if {@code t <= limitPs}: calls
     * {@code handler.handle(t, payload)} for each, in scheduling order, including the events that those
     * handlers schedule for the same time {@code t} (they join the end of the same FIFO). The order is
     * exactly that of calling {@link #poll()} and handling each polled event, but the loop runs here,
     * over the slot's array, instead of once per event in the caller. While the handlers run,
     * {@link #polledTime()} is {@code t}; {@link #polledHandler()} and {@link #polledPayload()} are
     * not updated.
     *
     * <p>If a handler throws, the exception propagates; the events of {@code t} not yet handled stay
     * pending.
     *
     * @param limitPs the latest time to handle, picoseconds
     * @return the number of events handled: 0 if the queue is empty or its earliest event is after
     *     {@code limitPs}
     */
    public int dispatchNextInstant(long limitPs) {
        return dispatchNextInstant(limitPs, Integer.MAX_VALUE);
    }

    /**
     * As {@link #dispatchNextInstant(long)}, but returns after at most {@code maxEvents} events: the events of the
     * instant not yet handled then stay pending, in order, and the next call goes on with them (the progress
     * watchdog's bound on an instant that never ends, handlers that keep scheduling events at the same time).
     *
     * @param limitPs the latest time to handle, picoseconds
     * @param maxEvents the most events to handle in this call, positive
     * @return the number of events handled
     */
    public int dispatchNextInstant(long limitPs, int maxEvents) {
        if (size == 0) {
            return 0;
        }
        Slot s = current;
        if (s == null) {
            s = wheelSlots > 0 ? wheelFirst() : null;
            if ((s == null ? far.firstTime() : s.time) > limitPs) {
                return 0;
            }
            s = current = takeEarliestSlot();
            if (keyed) {
                orderSlot(s);
            }
        } else if (s.time > limitPs) {
            return 0;
        }
        if (keyed) {
            return dispatchKeyed(s, maxEvents);
        }
        long t = s.time;
        polledTime = t;
        int handled = 0;
        int h;
        while ((h = s.head) < s.tail) { // the tail grows when a handler schedules at time t
            if (handled == maxEvents) {
                return handled; // the rest of the instant stays pending in the current slot
            }
            Object[] r = s.refs; // re-read: appending may have grown the array
            EventHandler handler = (EventHandler) r[2 * h];
            Object payload = r[2 * h + 1];
            s.head = h + 1;
            size--;
            handled++;
            handler.handle(t, payload);
        }
        current = null;
        close(s);
        return handled;
    }

    /**
     * The loop of {@link #dispatchNextInstant} for a keyed queue (its slot already ordered when it was taken): sets
     * the current key per event. A loop of its own, so that the FIFO queue's dispatch, the sequential simulator's
     * hot loop, pays no branch on the mode per event.
     */
    private int dispatchKeyed(Slot s, int maxEvents) {
        long t = s.time;
        polledTime = t;
        int handled = 0;
        int h;
        while ((h = s.head) < s.tail) {
            if (handled == maxEvents) {
                return handled;
            }
            Object[] r = s.refs;
            EventHandler handler = (EventHandler) r[2 * h];
            Object payload = r[2 * h + 1];
            currentKey = s.keys[h];
            s.head = h + 1;
            size--;
            handled++;
            handler.handle(t, payload);
        }
        current = null;
        close(s);
        return handled;
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
