package fabriclab.simulation.element;

import fabriclab.fabric.Pfc;
import fabriclab.simulation.event.EventHandler;

/**
 * The downstream half of PFC at one port: ingress accounting of the bytes a node holds that
 * arrived through this port, per priority, and the PAUSE frames it sends back over the link when
 * {@link Pfc#pausesAt} and {@link Pfc#resumesAt} say so. While a pause holds it is refreshed every
 * half pause time; when the counter falls below XON a zero-quanta PAUSE (XON) is sent.
 *
 * <p>Two users: a switch's fabric PFC (one counter per priority, the run's {@link Pfc}), and a GSE
 * edge's local pause of a host (one counter for all the host's bytes waiting at the edge, each frame
 * pausing every priority; see {@code GseTransport}). Counters: PAUSE frames sent (refreshes
 * included), pause assertions, XON frames sent, peak counter per priority, time of the first PAUSE.
 */
public final class PfcIngress implements EventHandler {
    private final Port port;
    private final Pfc pfc;
    /** One counter for all priorities, and frames for every priority (GSE local pause). */
    private final boolean allPriorities;
    private final int priorities;
    /**
     * Per counter {@code k}, four longs from {@code STRIDE * k}: the bytes held, their peak, 1 while a
     * pause is asserted (else 0), and the time of the next refresh (-1: none). One array, not four, so
     * the accounting of a packet touches one cache line of this element (it runs at every packet a
     * switch admits and releases, with thousands of ports in the working set).
     */
    private long[] state;
    /** Index in {@link #state} of counter 0. */
    private int base;
    static final int STRIDE = 4;
    static final int COUNTER = 0;
    static final int PEAK = 1;
    static final int ASSERTED = 2;
    static final int NEXT_REFRESH = 3;
    private final long refreshPs;
    /** Alpha-based thresholds of a switch port (null: the static ones of {@code pfc}). */
    private final fabriclab.fabric.PfcDynamicThreshold dynamic;
    /** The switch whose free shared buffer the dynamic thresholds read, or null. */
    private final Switch dynamicSwitch;
    long pausesSent;
    long pauseAssertions;
    long xonSent;
    long firstPauseSentPs = -1;

    /**
     * @param port the port the accounted bytes arrived through (frames go out on its link)
     * @param pfc thresholds, or null to account without pausing
     * @param priorities the run's priorities
     * @param allPriorities one counter for all priorities, frames for every priority
     */
    public PfcIngress(Port port, Pfc pfc, int priorities, boolean allPriorities) {
        this.port = port;
        this.pfc = pfc;
        this.allPriorities = allPriorities;
        this.priorities = priorities;
        int counters = allPriorities ? 1 : priorities;
        this.state = new long[STRIDE * counters];
        this.base = 0;
        this.refreshPs = pfc == null ? 0 : Math.max(1, Pfc.quantaPs(pfc.pauseQuanta(), port.link.rateBitsPerSecond) / 2);
        boolean dyn = pfc != null && !allPriorities && port.net.pfcDynamic != null && port.owner instanceof Switch;
        this.dynamic = dyn ? port.net.pfcDynamic : null;
        this.dynamicSwitch = dyn ? (Switch) port.owner : null;
    }

    /** Number of counters (one per priority, or one for all). */
    int counters() {
        return allPriorities ? 1 : priorities;
    }

    /**
     * Moves this port's counters (still all zero) into {@code shared} from index {@code at}: a switch
     * keeps the counters of all its ports in one array, which its admission path updates directly
     * (see {@link Switch#admit}), so accounting a packet touches the switch's array and not this
     * object, its port or a per-port array.
     */
    void share(long[] shared, int at) {
        this.state = shared;
        this.base = at;
    }

    /** Index of counter 0 in the array this accounting lives in. */
    int base() {
        return base;
    }

    /** Whether a counter crossing {@code c} may need {@link #crossedUp}: pause thresholds that are not a fixed XOFF. */
    boolean dynamicThresholds() {
        return dynamic != null;
    }

    /** Peak bytes held per priority (with one counter for all priorities: its peak at index 0, zeros elsewhere). */
    public long[] peakBytes() {
        long[] peak = new long[priorities];
        for (int k = 0; k < counters(); k++) {
            peak[k] = state[base + STRIDE * k + PEAK];
        }
        return peak;
    }

    /** Whether counter {@code c} asks for a pause (the static XOFF, or alpha times the switch's free buffer). */
    private boolean pausesAt(long c) {
        return dynamic == null ? pfc.pausesAt(c) : dynamic.pausesAt(c, dynamicSwitch.freeSharedBytes());
    }

    /** Whether a paused counter {@code c} lets the upstream resume. */
    private boolean resumesAt(long c) {
        return dynamic == null ? pfc.resumesAt(c) : dynamic.resumesAt(c, dynamicSwitch.freeSharedBytes());
    }

    /** {@code bytes} of priority {@code priority} that arrived through the port are now held. */
    public void admitted(int priority, long bytes) {
        int k = allPriorities ? 0 : priority;
        int i = base + STRIDE * k;
        long c = hold(state, i, bytes);
        if (pfc != null && !asserted(state, i)) {
            crossedUp(k, c);
        }
    }

    /**
     * The fast half of admission on an array of counters ({@link #state}, a switch's shared one): counter
     * {@code i} holds {@code bytes} more, its peak follows; returns the new count. Static, so a switch's hot path
     * calls it on its own array without touching the ingress object.
     */
    static long hold(long[] st, int i, long bytes) {
        long c = st[i + COUNTER] += bytes;
        if (c > st[i + PEAK]) {
            st[i + PEAK] = c;
        }
        return c;
    }

    /** The fast half of release: counter {@code i} of {@code st} holds {@code bytes} less; returns the new count. */
    static long free(long[] st, int i, long bytes) {
        return st[i + COUNTER] -= bytes;
    }

    /** Whether counter {@code i} of {@code st} has a pause asserted upstream. */
    static boolean asserted(long[] st, int i) {
        return st[i + ASSERTED] != 0;
    }

    /**
     * Counter {@code k}, not asserted, now holds {@code c} bytes: asserts the pause if the threshold
     * says so (the admission path's slow half; {@link Switch#admit} calls it directly).
     */
    void crossedUp(int k, long c) {
        if (pausesAt(c)) {
            long[] st = state;
            int i = base + STRIDE * k;
            st[i + ASSERTED] = 1;
            pauseAssertions++;
            long now = port.part.now;
            if (firstPauseSentPs < 0) {
                firstPauseSentPs = now;
            }
            send(k, pfc.pauseQuanta());
            st[i + NEXT_REFRESH] = now + refreshPs;
            port.part.events().schedule(st[i + NEXT_REFRESH], this, k);
        }
    }

    /** {@code bytes} of priority {@code priority} that arrived through the port left the node. */
    public void released(int priority, long bytes) {
        int k = allPriorities ? 0 : priority;
        int i = base + STRIDE * k;
        long c = free(state, i, bytes);
        if (pfc != null && asserted(state, i)) {
            crossedDown(k, c);
        }
    }

    /**
     * Counter {@code k}, asserted, now holds {@code c} bytes: sends XON if the upstream may resume
     * (the release path's slow half; {@link Switch#departed} calls it directly).
     */
    void crossedDown(int k, long c) {
        if (resumesAt(c)) {
            long[] st = state;
            int i = base + STRIDE * k;
            st[i + ASSERTED] = 0;
            st[i + NEXT_REFRESH] = -1;
            if (allPriorities) {
                for (int pr = 0; pr < priorities; pr++) {
                    port.link.sendPause(pr, 0);
                }
            } else {
                port.link.sendPause(k, 0);
            }
            xonSent++;
        }
    }

    /** Refresh timer of counter {@code payload}. */
    @Override
    public void handle(long timePs, Object payload) {
        int k = (Integer) payload;
        int i = base + STRIDE * k;
        if (state[i + ASSERTED] == 0 || state[i + NEXT_REFRESH] != timePs) {
            return; // stale timer
        }
        send(k, pfc.pauseQuanta());
        state[i + NEXT_REFRESH] = timePs + refreshPs;
        port.part.events().schedule(state[i + NEXT_REFRESH], this, k);
    }

    private void send(int k, int quanta) {
        if (allPriorities) {
            for (int pr = 0; pr < priorities; pr++) {
                port.link.sendPause(pr, quanta);
            }
        } else {
            port.link.sendPause(k, quanta);
        }
        pausesSent++;
    }

    /** PAUSE frames (non-zero quanta, refreshes included) sent upstream through this port. */
    public long pausesSent() {
        return pausesSent;
    }

    /** Times this ingress asserted a pause (crossed XOFF), refreshes not counted. */
    public long pauseAssertions() {
        return pauseAssertions;
    }

    /** XON (zero-quanta PAUSE) frames sent upstream through this port. */
    public long xonSent() {
        return xonSent;
    }

    /** Time of the first PAUSE sent through this port, ps; -1 if none. */
    public long firstPauseSentPs() {
        return firstPauseSentPs;
    }
}
