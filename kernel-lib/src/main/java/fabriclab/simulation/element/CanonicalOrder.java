package fabriclab.simulation.element;

import fabriclab.Parameters;
import fabriclab.simulation.event.InstantOrder;
import java.util.Arrays;

/**
 * The one order of simultaneous events at a node, for both engines: the {@link InstantOrder} of every partition's
 * queue. Every event carries a key {@code node << LANE_BITS | lane} ({@link #key}): lane {@code k} of a node holds the
 * events that arrive through its port {@code k} (packets and PAUSE frames, {@link #laneOf}), the lanes after the
 * ports' hold the transport's messages between switches (GSE: one per sending edge), and the last lane,
 * {@link #OWN_LANE}, the node's own events (the end of a transmission, timers, a flow's start).
 *
 * <p><b>The rule.</b> At each instant t, a node handles
 * <ol>
 * <li>first what arrives at it through its ports: port by port, the ports taken in an order drawn for this node and
 * this instant from the run's seed ({@link #draw}: a hash of seed, t, node and lane; ties of the 27-bit draw go to the
 * lower lane), each port's events in the order they were scheduled (a link's packets in the order its sender sent
 * them);
 * <li>then the transport's messages from other nodes (GSE's requests and grants), lane by lane in lane order (GSE
 * gives each edge its own seeded order of the other edges' lanes);
 * <li>then its own events, in the order they were scheduled;
 * <li>then what its handlers schedule for t itself, in the order they schedule it.
 * </ol>
 * Arrivals before the node's own events: a packet that arrives at the instant its port finishes sending another is
 * admitted before that one's bytes leave the buffer, as ns-3 orders them (its receptions are scheduled when the
 * transmission starts, before the end of any transmission at the receiver that ends at the same time). The ports'
 * order is drawn afresh at every instant because a fixed order (lowest port first) favours the same ports for ever
 * on the common lattice of packet times that same-rate senders share: the first port's packets always find the freed
 * slot of a full drop-tail queue, and its flows always win. How the events of different nodes interleave is left
 * open: nodes share no state at an instant (an event for another node is at least a link's delay away), so every
 * interleaving gives the same run. A node's events, and so the run, therefore depend on the seed, the topology
 * and the workload only, never on which engine or thread holds the node, nor on the history of the queue.
 *
 * <p>The sequential engine applies the rule unless the scenario asks for scheduling order ({@code TieOrder}, {@link
 * #activate}); in scheduling order it keeps each instant's events in the order they were scheduled, which follows the
 * history of the event queue. The parallel engine always applies it.
 *
 * <p>Cost per instant of 3 or more events: a check that each node has at most one arriving lane and its own events
 * after them (two small arrays indexed by node); where not, a draw per event and a sort (a stable radix sort on the
 * composite key from 64 events: the lattice instants of spraying hold thousands). Not thread-safe: each queue has
 * its own instance (the scratch arrays).
 */
public final class CanonicalOrder implements InstantOrder {
    /** Bits of a key's lane (the low bits); the node is the key shifted right by this. */
    public static final int LANE_BITS = 12;
    /** Largest lane of a key. */
    public static final int MAX_LANE = (1 << LANE_BITS) - 1;
    /** The lane of a node's own events (those its handlers schedule): the last. */
    public static final int OWN_LANE = MAX_LANE;
    /** Largest node of a key. */
    public static final long MAX_NODE = (1L << 27) - 1;
    /** Largest key. */
    public static final long MAX_KEY = (MAX_NODE << LANE_BITS) | MAX_LANE;
    /** Bits of a lane's draw. */
    static final int DRAW_BITS = 27;
    /** The draw of the own lane: above every arriving lane's. */
    private static final long OWN_DRAW = (1L << DRAW_BITS) - 1;

    /** The key {@code node << LANE_BITS | lane}; fails naming an argument out of range. */
    public static long key(long node, int lane) {
        Parameters.inRange("node", node, 0L, MAX_NODE);
        Parameters.inRange("lane", lane, 0, MAX_LANE);
        return node << LANE_BITS | lane;
    }

    /** The lane of the events arriving at a node through its port {@code port}: the port's index. */
    public static int laneOf(Port port) {
        return port.index;
    }

    /**
     * The draw that places arriving lane {@code lane} of node {@code node} among the node's other arriving lanes at
     * instant {@code timePs} of a run seeded {@code seed}: 27 bits of the SplitMix64 finaliser of
     * {@code (node << 12 | lane) * 0x9E3779B97F4A7C15 + timePs + seed * 0xBF58476D1CE4E5B9}
     * (those values are the message lanes' and the own lane's, after every port's lane; the draw is at most
     * {@code 2^27 - 3}). Lower draws go first; equal draws by lane.
     */
    public static long draw(long seed, long timePs, long node, int lane) {
        long z = (node << LANE_BITS | lane) * 0x9E3779B97F4A7C15L + timePs + seed * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        long d = z >>> (64 - DRAW_BITS);
        return d >= OWN_DRAW - 1 ? OWN_DRAW - 2 : d;
    }

    private final long seed;
    /** Whether the rule is applied; when not, each instant keeps its scheduling order. */
    private boolean active;
    /** Ports per node: lanes from a node's port count on (the transport's messages) are not drawn. */
    private int[] portsOfNode = new int[0];

    /**
     * The order of a run seeded {@code seed} (the draws of the ports' order), applied once {@link #activate}d; until
     * then each instant keeps its scheduling order (the sequential engine's order for a scenario in scheduling order).
     */
    public CanonicalOrder(long seed) {
        this.seed = seed;
    }

    /**
     * Applies the rule from now on, with {@code portsOfNode[v]} the number of ports of node {@code v}: node {@code v}'s
     * lanes {@code 0 .. portsOfNode[v] - 1} are its ports, taken in drawn order; its lanes after them (the transport's
     * messages, GSE's requests and grants) follow the ports' lanes in lane order (the transport orders its senders on
     * them itself).
     */
    public void activate(int[] portsOfNode) {
        this.portsOfNode = Parameters.notNull("portsOfNode", portsOfNode).clone();
        this.active = true;
    }

    /** Whether the rule is applied ({@link #activate}). */
    public boolean active() {
        return active;
    }

    /** The composite draw of lane {@code lane} of {@code node} at {@code timePs}: port lanes drawn, then message lanes, then own. */
    private long drawOf(long timePs, long node, int lane) {
        if (lane == OWN_LANE) {
            return OWN_DRAW;
        }
        if (node < portsOfNode.length && lane >= portsOfNode[(int) node]) {
            return OWN_DRAW - 1;
        }
        return draw(seed, timePs, node, lane);
    }

    // scratch arrays of the sort
    private long[] sortKeys = new long[0];
    private long[] keyCopy = new long[0];
    private Object[] sortRefs = new Object[0];

    /**
     * Puts the pending events of instant {@code timePs} in the rule's order per node (see the class comment): each
     * event's composite {@code draw << 12 | lane}, the own lane's draw above all, is sorted together with its
     * position, so equal composites keep their scheduling order.
     */
    @Override
    public void order(long timePs, long[] keys, Object[] refs, int head, int n) {
        if (!active || n < 2 || eachNodeInOrder(keys, head, n)) {
            return;
        }
        if (n >= 1 << 24) {
            throw new IllegalStateException("a canonical queue sorts at most 2^24 events of one time, got " + n);
        }
        if (sortKeys.length < n) {
            sortKeys = new long[Math.max(n, 2 * sortKeys.length)];
        }
        if (keyCopy.length < n) {
            keyCopy = new long[sortKeys.length];
        }
        if (sortRefs.length < 2 * n) {
            sortRefs = new Object[2 * sortKeys.length];
        }
        long[] k = sortKeys;
        long[] kc = keyCopy;
        boolean sorted = true;
        for (int j = 0; j < n; j++) {
            long key = keys[head + j];
            kc[j] = key;
            int lane = (int) key & MAX_LANE;
            long d = drawOf(timePs, key >>> LANE_BITS, lane);
            k[j] = (d << LANE_BITS | lane) << 24 | j;
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
            k = radixSort(k, n, DRAW_BITS + LANE_BITS);
        }
        Object[] r = sortRefs;
        System.arraycopy(refs, 2 * head, r, 0, 2 * n);
        for (int j = 0; j < n; j++) {
            int from = (int) (k[j] & ((1 << 24) - 1));
            refs[2 * (head + j)] = r[2 * from];
            refs[2 * (head + j) + 1] = r[2 * from + 1];
            keys[head + j] = kc[from];
        }
        Arrays.fill(r, 0, 2 * n, null);
    }

    /** Nodes below this are checked by {@link #eachNodeInOrder} (a key of a larger node makes its instant sorted). */
    private static final int CHECKED_NODES = 1 << 20;
    // per node, for eachNodeInOrder: the instant it last had an event in (a stamp) and the lane of its arrivals so
    // far (OWN_LANE once its own events have begun)
    private int[] nodeStamp = new int[0];
    private int[] nodeLane = new int[0];
    private int stamp;

    /**
     * Whether the {@code n} keys from {@code from} on already give each node its events in the rule's order whatever
     * the draws: each node's arriving events all of one lane, and its own events after them. Then handling the slot
     * as it stands gives every node the same sequence of events as the sort would, and only the interleaving of
     * different nodes differs, which the rule leaves open.
     */
    private boolean eachNodeInOrder(long[] keys, int from, int n) {
        if (n == 2) {
            long a = keys[from];
            long b = keys[from + 1];
            if (a >>> LANE_BITS != b >>> LANE_BITS || a == b) {
                return true;
            }
            return ((int) b & MAX_LANE) == OWN_LANE;
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
            if (st[v] != stamp) {
                st[v] = stamp;
                ln[v] = lane;
            } else if (ln[v] != lane) {
                if (lane != OWN_LANE) {
                    return false; // a second arriving lane, or an arrival after the node's own events
                }
                ln[v] = OWN_LANE;
            }
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
