package fabriclab.simulation.event;

import java.util.Arrays;

/**
 * The far future of an {@link EventQueue}: its open slots beyond the timing wheel's reach, found by time through an
 * open-addressing hash table (linear probing, backward-shift deletion) and ordered by a 4-ary min-heap over their
 * (distinct) times in picoseconds. Cost: O(1) to find a slot, O(log d) to enter or take one, d the number of far
 * slots pending.
 */
final class FarEventHeap {
    private static final long HASH_MULTIPLIER = 0x9E3779B97F4A7C15L; // 2^64 / golden ratio

    // the far future: 4-ary min-heap of the open slots beyond the wheel, keyed by their (distinct) times
    private long[] heapTimes = new long[16];
    private EventQueue.Slot[] heapSlots = new EventQueue.Slot[16];
    private int heapSize;

    // the far slots by time: open addressing with linear probing, capacity a power of two
    private long[] keys;
    private EventQueue.Slot[] values;
    private int shift; // 64 - log2(capacity)
    private int open;

    /** An empty heap whose table starts with {@code tableSize} entries (a power of two, at least 16). */
    FarEventHeap(int tableSize) {
        keys = new long[tableSize];
        values = new EventQueue.Slot[tableSize];
        shift = 64 - Integer.numberOfTrailingZeros(tableSize);
    }

    /** Time of the earliest far slot, ps (the heap is not empty). */
    long firstTime() {
        return heapTimes[0];
    }

    /** The far slot of time {@code t}, or null if there is none. */
    EventQueue.Slot slotOf(long t) {
        int mask = values.length - 1;
        int i = (int) ((t * HASH_MULTIPLIER) >>> shift);
        EventQueue.Slot s;
        while ((s = values[i]) != null) {
            if (keys[i] == t) {
                return s;
            }
            i = (i + 1) & mask;
        }
        return null;
    }

    /** Enters slot {@code s}, whose time has no far slot yet, in the table and the heap. */
    void add(EventQueue.Slot s) {
        long t = s.time;
        int mask = values.length - 1;
        int i = (int) ((t * HASH_MULTIPLIER) >>> shift);
        while (values[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = t;
        values[i] = s;
        if (++open * 2 > values.length) {
            growTable();
        }
        heapAdd(t, s);
    }

    /** Takes the slot of the smallest time out of the heap and the table (the heap is not empty). */
    EventQueue.Slot takeFirst() {
        EventQueue.Slot s = heapTakeFirst();
        removeFar(s);
        return s;
    }

    private void growTable() {
        long[] oldKeys = keys;
        EventQueue.Slot[] oldValues = values;
        keys = new long[2 * oldKeys.length];
        values = new EventQueue.Slot[2 * oldValues.length];
        shift--;
        int mask = values.length - 1;
        for (int j = 0; j < oldValues.length; j++) {
            if (oldValues[j] != null) {
                int i = (int) ((oldKeys[j] * HASH_MULTIPLIER) >>> shift);
                while (values[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }

    /** Removes the far slot {@code s} (just taken from the heap) from the far table (backward-shift deletion). */
    private void removeFar(EventQueue.Slot s) {
        int mask = values.length - 1;
        int i = (int) ((s.time * HASH_MULTIPLIER) >>> shift);
        while (values[i] != s) {
            i = (i + 1) & mask;
        }
        // shift later entries of the probe run back over the hole so every lookup still finds them
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            EventQueue.Slot v = values[j];
            if (v == null) {
                break;
            }
            int home = (int) ((keys[j] * HASH_MULTIPLIER) >>> shift);
            if (((j - home) & mask) >= ((j - i) & mask)) { // home is not in (i, j]: v may move to i
                keys[i] = keys[j];
                values[i] = v;
                i = j;
            }
        }
        values[i] = null;
        open--;
    }

    private void heapAdd(long t, EventQueue.Slot s) {
        int i = heapSize++;
        if (i == heapTimes.length) {
            heapTimes = Arrays.copyOf(heapTimes, 2 * i);
            heapSlots = Arrays.copyOf(heapSlots, 2 * i);
        }
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = heapTimes[parent];
            if (pt <= t) {
                break;
            }
            heapTimes[i] = pt;
            heapSlots[i] = heapSlots[parent];
            i = parent;
        }
        heapTimes[i] = t;
        heapSlots[i] = s;
    }

    /** Takes the slot of the smallest time out of the far heap (which is not empty). */
    private EventQueue.Slot heapTakeFirst() {
        EventQueue.Slot top = heapSlots[0];
        int n = --heapSize;
        long t = heapTimes[n];
        EventQueue.Slot s = heapSlots[n];
        heapSlots[n] = null;
        int i = 0;
        while (true) {
            int c = 4 * i + 1;
            if (c >= n) {
                break;
            }
            int end = Math.min(c + 4, n);
            int m = c;
            long mt = heapTimes[c];
            for (int k = c + 1; k < end; k++) {
                long kt = heapTimes[k];
                if (kt < mt) {
                    mt = kt;
                    m = k;
                }
            }
            if (mt >= t) {
                break;
            }
            heapTimes[i] = mt;
            heapSlots[i] = heapSlots[m];
            i = m;
        }
        if (n > 0) {
            heapTimes[i] = t;
            heapSlots[i] = s;
        }
        return top;
    }
}
