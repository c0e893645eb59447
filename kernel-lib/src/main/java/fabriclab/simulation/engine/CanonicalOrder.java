package fabriclab.simulation.engine;

import fabriclab.Parameters;
import fabriclab.simulation.element.Node;
import fabriclab.simulation.element.Port;
import fabriclab.simulation.event.InstantOrder;
import java.util.Arrays;

/**
 * The parallel engine's canonical order of simultaneous events, the {@link InstantOrder} of its partitions' queues.
 * Every event carries a key {@code node << LANE_BITS | lane} ({@link #key}): lane {@code k} of a node holds the events
 * that arrived through its port {@code k} (parallel links from one peer share the lane of the first,
 * {@link #laneOf}), the lanes after the ports' hold the transport's messages between switches (GSE: one per sending
 * edge), and the last lane, {@link #OWN_LANE}, the node's own events.
 *
 * <p>When an instant is taken, each node's events in it are put in key order, stably (equal keys keep their
 * scheduling order): the instant is left as it is when every node's lanes already come in order along it, else it is
 * sorted by key (each key with its position). How the events of different nodes interleave is left open. The point:
 * if every event of a node at an instant comes either from earlier instants or from the node itself, and each lane is
 * filled by one source in its own order, then each node sees its events in an order that does not depend on which
 * other nodes share the queue (and nodes share no state at an instant, which leaves the interleaving of nodes free).
 * Cost per instant: a check of each instant of 3 or more events (two small arrays indexed by node), and a sort when
 * some node's lanes are out of order (a stable radix sort on the key's bytes from 64 events, the lattice instants of
 * spraying hold thousands). Not thread-safe: each queue has its own (the scratch arrays).
 */
final class CanonicalOrder implements InstantOrder {
    /** Bits of a key's lane (the low bits); the node is the key shifted right by this. */
    static final int LANE_BITS = 12;
    /** Largest lane of a key. */
    static final int MAX_LANE = (1 << LANE_BITS) - 1;
    /** The lane of a node's own events (those its handlers schedule): the last. */
    static final int OWN_LANE = MAX_LANE;
    /** Largest node of a key. */
    static final long MAX_NODE = (1L << 27) - 1;
    /** Largest key. */
    static final long MAX_KEY = (MAX_NODE << LANE_BITS) | MAX_LANE;

    /** The key {@code node << LANE_BITS | lane}; fails naming an argument out of range. */
    static long key(long node, int lane) {
        Parameters.inRange("node", node, 0L, MAX_NODE);
        Parameters.inRange("lane", lane, 0, MAX_LANE);
        return node << LANE_BITS | lane;
    }

    /**
     * The lane of the events arriving at {@code receiver} through its port {@code port}: the index of the receiver's
     * first port to the same peer node, so that parallel links from one peer share a lane, filled in the order that
     * peer sent on them.
     */
    static int laneOf(Node receiver, Port port) {
        for (Port q : receiver.ports) {
            if (q.peer() == port.peer()) {
                return q.index;
            }
        }
        return port.index;
    }

    // scratch arrays of the sort
    private long[] sortKeys = new long[0];
    private Object[] sortRefs = new Object[0];

    /**
     * Puts the pending events of an instant in key order per node, equal keys in scheduling order (a stable sort: each
     * key is sorted together with its position).
     */
    @Override
    public void order(long[] keys, Object[] refs, int head, int n) {
        if (n < 2 || eachNodeInOrder(keys, head, n)) {
            return;
        }
        if (n >= 1 << 24) {
            throw new IllegalStateException("a canonical queue sorts at most 2^24 events of one time, got " + n);
        }
        if (sortKeys.length < n) {
            sortKeys = new long[Math.max(n, 2 * sortKeys.length)];
        }
        if (sortRefs.length < 2 * n) {
            sortRefs = new Object[2 * sortKeys.length];
        }
        long[] k = sortKeys;
        boolean sorted = true;
        long anyKeyBits = 0;
        for (int j = 0; j < n; j++) {
            long key = keys[head + j];
            anyKeyBits |= key;
            k[j] = key << 24 | j;
            if (j > 0 && k[j] < k[j - 1]) {
                sorted = false;
            }
        }
        if (sorted) {
            return;
        }
        if (n < RADIX_FROM) {
            Arrays.sort(k, 0, n);
        } else {
            k = radixSort(k, n, 64 - Long.numberOfLeadingZeros(anyKeyBits));
        }
        Object[] r = sortRefs;
        System.arraycopy(refs, 2 * head, r, 0, 2 * n);
        for (int j = 0; j < n; j++) {
            int from = (int) (k[j] & ((1 << 24) - 1));
            refs[2 * (head + j)] = r[2 * from];
            refs[2 * (head + j) + 1] = r[2 * from + 1];
            keys[head + j] = k[j] >>> 24;
        }
        Arrays.fill(r, 0, 2 * n, null);
    }

    /** Nodes below this are checked by {@link #eachNodeInOrder} (a key of a larger node makes its instant sorted). */
    private static final int CHECKED_NODES = 1 << 20;
    // per node, for eachNodeInOrder: the instant it last had an event in (a stamp) and that event's lane
    private int[] nodeStamp = new int[0];
    private int[] nodeLane = new int[0];
    private int stamp;

    /**
     * Whether the {@code n} keys from {@code from} on already give each node its events in lane order
     * (every node's lanes do not decrease along the slot): then handling the slot as it stands gives every node
     * the same sequence of events as the sort would, and only the interleaving of different nodes differs,
     * which the canonical order leaves open.
     */
    private boolean eachNodeInOrder(long[] keys, int from, int n) {
        if (n == 2) {
            long a = keys[from];
            long b = keys[from + 1];
            return a <= b || a >>> LANE_BITS != b >>> LANE_BITS;
        }
        if (++stamp == 0) { // wrapped after 2^32 instants: forget the old stamps
            Arrays.fill(nodeStamp, 0);
            stamp = 1;
        }
        int[] st = nodeStamp;
        int[] ln = nodeLane;
        for (int j = from; j < from + n; j++) {
            long key = keys[j];
            long node = key >>> LANE_BITS;
            if (node >= CHECKED_NODES) {
                return false;
            }
            int v = (int) node;
            if (v >= st.length) {
                int size = (int) Math.min(CHECKED_NODES, Math.max(v + 1L, 2L * st.length));
                nodeStamp = st = Arrays.copyOf(st, size);
                nodeLane = ln = Arrays.copyOf(ln, size);
            }
            int lane = (int) key & MAX_LANE;
            if (st[v] == stamp && ln[v] > lane) {
                return false;
            }
            st[v] = stamp;
            ln[v] = lane;
        }
        return true;
    }

    /** Instants with at least this many events are sorted by {@link #radixSort}, smaller ones by {@link Arrays#sort}. */
    private static final int RADIX_FROM = 64;
    private long[] radixScratch = new long[0];
    private final int[] radixCounts = new int[256];

    /**
     * Sorts {@code k[0..n)}, values {@code key << 24 | position} with the positions 0..n-1 in increasing order and
     * keys of at most {@code keyBits} bits, into increasing order: a least-significant-digit radix sort on the key's
     * bytes, stable, so equal keys keep their positions' order and the result is the same as sorting the whole
     * values (the canonical order of an instant with many events, thousands at a time on a lattice instant, where
     * a comparison sort costs n log n). Returns the array that holds the result ({@code k} or the scratch array).
     */
    private long[] radixSort(long[] k, int n, int keyBits) {
        if (radixScratch.length < k.length) {
            radixScratch = new long[k.length];
        }
        long[] from = k;
        long[] to = radixScratch;
        int[] count = radixCounts;
        for (int shift = 24; shift < 24 + keyBits; shift += 8) {
            Arrays.fill(count, 0);
            for (int j = 0; j < n; j++) {
                count[(int) (from[j] >>> shift) & 0xFF]++;
            }
            int sum = 0;
            for (int d = 0; d < 256; d++) {
                int c = count[d];
                count[d] = sum;
                sum += c;
            }
            for (int j = 0; j < n; j++) {
                long v = from[j];
                to[count[(int) (v >>> shift) & 0xFF]++] = v;
            }
            long[] swap = from;
            from = to;
            to = swap;
        }
        if (from != k) { // the result is in the scratch array: keep the roles of the two arrays for next time
            radixScratch = k;
            sortKeys = from;
        }
        return from;
    }
}
