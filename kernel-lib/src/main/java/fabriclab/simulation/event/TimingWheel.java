package fabriclab.simulation.event;

/**
 * The near future of an {@link EventQueue}: a timing wheel of the open slots (the pending events of one time each)
 * whose time lies within {@code 2^13} buckets of {@code 2^10} ps (8.39 us) from the current bucket. A slot is found by
 * indexing its bucket (the bucket's slots are chained in time order, nearly always one) and the earliest by a scan of
 * the buckets' occupancy bits from the current bucket, one 64-bit word per 64 buckets, with no hashing and no heap.
 * The queue extends this class, so that its hot path reads the wheel's fields as its own; the slots beyond the wheel's
 * reach wait in the queue's {@link FarEventHeap} and join the wheel when the current bucket comes within reach of them.
 */
abstract class TimingWheel {
    /** log2 of a wheel bucket's width in picoseconds (1.024 ns). */
    static final int BUCKET_BITS = 10;
    /** log2 of the number of buckets: the wheel covers 8,192 buckets, 8.39 us from the current bucket. */
    static final int WHEEL_BITS = 13;
    static final int WHEEL_BUCKETS = 1 << WHEEL_BITS;
    static final int WHEEL_MASK = WHEEL_BUCKETS - 1;
    /**
     * The near future, a timing wheel: the open slots whose time lies in the {@link #WHEEL_BUCKETS} buckets
     * from {@link #cursor} on; bucket {@code b & WHEEL_MASK} holds the slots of absolute bucket {@code b}
     * ({@code time >>> BUCKET_BITS}), chained through {@code Slot.next} in increasing time (nearly always one).
     */
    final EventQueue.Slot[] wheel = new EventQueue.Slot[WHEEL_BUCKETS];
    /**
     * The time of each bucket's first slot, {@link #EMPTY} while the bucket holds none: a dense array (64 KB) that a
     * lookup reads instead of the slot itself, so that finding that a time has no slot yet, or where a new slot goes,
     * does not load a slot object from memory.
     */
    final long[] headTime = emptyHeads();
    /** {@link #headTime} of an empty bucket: later than every time, so a new slot always goes before it. */
    static final long EMPTY = Long.MAX_VALUE;

    private static long[] emptyHeads() {
        long[] h = new long[WHEEL_BUCKETS];
        java.util.Arrays.fill(h, EMPTY);
        return h;
    }

    /** One bit per bucket of {@link #wheel}: set while the bucket holds a slot. */
    final long[] occupied = new long[WHEEL_BUCKETS / 64];
    /** Absolute bucket of the current time: {@code polledTime >>> BUCKET_BITS}. */
    long cursor;
    /** Number of slots in the wheel. */
    int wheelSlots;
    /**
     * The wheel's earliest slot when known, else null (the run loop asks for the earliest time, then dispatches it:
     * one scan of the occupancy bits per instant instead of three).
     */
    EventQueue.Slot earliest;

    /** Whether time {@code t} (not before the current bucket) lies in the wheel's window. */
    final boolean near(long t) {
        return (t >>> BUCKET_BITS) - cursor < WHEEL_BUCKETS;
    }

    /** The earliest slot of the wheel (which is not empty): the head of the first occupied bucket from the cursor. */
    final EventQueue.Slot wheelFirst() {
        EventQueue.Slot e = earliest;
        if (e != null) {
            return e;
        }
        int i = (int) (cursor & WHEEL_MASK);
        int w = i >>> 6;
        long bits = occupied[w] & (-1L << (i & 63));
        int words = occupied.length;
        for (int n = 0; n <= words; n++) { // one more than the words: back to the first word's buckets before i
            if (bits != 0) {
                return earliest = wheel[w << 6 | Long.numberOfTrailingZeros(bits)];
            }
            w = (w + 1) & (words - 1);
            bits = occupied[w];
        }
        throw new IllegalStateException("the event queue's wheel counts " + wheelSlots + " slots but holds none");
    }

    /** Enters slot {@code s} (its time within the window, no slot of that time in the wheel) in its bucket. */
    final void wheelInsert(EventQueue.Slot s) {
        int i = (int) ((s.time >>> BUCKET_BITS) & WHEEL_MASK);
        long t = s.time;
        if (t < headTime[i]) { // the bucket's first (an empty bucket's head time is later than any)
            s.next = wheel[i];
            wheel[i] = s;
            headTime[i] = t;
            occupied[i >>> 6] |= 1L << i;
        } else {
            EventQueue.Slot prev = wheel[i];
            EventQueue.Slot c = prev.next;
            while (c != null && c.time < t) {
                prev = c;
                c = c.next;
            }
            s.next = c;
            prev.next = s;
        }
        wheelSlots++;
        if (earliest != null && s.time < earliest.time) {
            earliest = s;
        }
    }

    /** The wheel's slot of time {@code t} (within the window), or null if it has none. */
    final EventQueue.Slot wheelSlotOf(long t) {
        int i = (int) ((t >>> BUCKET_BITS) & WHEEL_MASK);
        long h = headTime[i];
        if (h >= t) { // the bucket is empty, starts later, or starts with t's slot
            return h == t ? wheel[i] : null;
        }
        EventQueue.Slot c = wheel[i].next;
        while (c != null && c.time < t) {
            c = c.next;
        }
        return c != null && c.time == t ? c : null;
    }

    /** Takes slot {@code s}, the wheel's earliest, out of its bucket. */
    final void wheelRemoveEarliest(EventQueue.Slot s) {
        int i = (int) ((s.time >>> BUCKET_BITS) & WHEEL_MASK);
        EventQueue.Slot n = s.next;
        wheel[i] = n;
        if (n == null) {
            headTime[i] = EMPTY;
            occupied[i >>> 6] &= ~(1L << i);
        } else {
            headTime[i] = n.time;
        }
        earliest = n; // the next of the same bucket is the next earliest; none: unknown until the next scan
        s.next = null;
        wheelSlots--;
    }
}
