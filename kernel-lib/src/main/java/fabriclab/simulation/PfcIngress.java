package fabriclab.simulation;

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
 * pausing every priority; see {@link GseTransport}). Counters: PAUSE frames sent (refreshes
 * included), pause assertions, XON frames sent, peak counter per priority, time of the first PAUSE.
 */
final class PfcIngress implements EventHandler {
    private final Port port;
    private final Pfc pfc;
    /** One counter for all priorities, and frames for every priority (GSE local pause). */
    private final boolean allPriorities;
    private final int priorities;
    private final long[] counterBytes;
    final long[] peakBytes;
    private final boolean[] asserted;
    private final long[] nextRefreshPs;
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
    PfcIngress(Port port, Pfc pfc, int priorities, boolean allPriorities) {
        this.port = port;
        this.pfc = pfc;
        this.allPriorities = allPriorities;
        this.priorities = priorities;
        int counters = allPriorities ? 1 : priorities;
        this.counterBytes = new long[counters];
        this.peakBytes = new long[priorities];
        this.asserted = new boolean[counters];
        this.nextRefreshPs = new long[counters];
        this.refreshPs = pfc == null ? 0 : Math.max(1, Pfc.quantaPs(pfc.pauseQuanta(), port.link.rateBitsPerSecond) / 2);
        boolean dyn = pfc != null && !allPriorities && port.net.pfcDynamic != null && port.owner instanceof Switch;
        this.dynamic = dyn ? port.net.pfcDynamic : null;
        this.dynamicSwitch = dyn ? (Switch) port.owner : null;
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
    void admitted(int priority, long bytes) {
        int k = allPriorities ? 0 : priority;
        long c = counterBytes[k] += bytes;
        if (c > peakBytes[k]) {
            peakBytes[k] = c;
        }
        if (pfc != null && !asserted[k] && pausesAt(c)) {
            asserted[k] = true;
            pauseAssertions++;
            long now = port.part.now;
            if (firstPauseSentPs < 0) {
                firstPauseSentPs = now;
            }
            send(k, pfc.pauseQuanta());
            nextRefreshPs[k] = now + refreshPs;
            port.part.events.schedule(nextRefreshPs[k], this, k);
        }
    }

    /** {@code bytes} of priority {@code priority} that arrived through the port left the node. */
    void released(int priority, long bytes) {
        int k = allPriorities ? 0 : priority;
        long c = counterBytes[k] -= bytes;
        if (pfc != null && asserted[k] && resumesAt(c)) {
            asserted[k] = false;
            nextRefreshPs[k] = -1;
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
        if (!asserted[k] || nextRefreshPs[k] != timePs) {
            return; // stale timer
        }
        send(k, pfc.pauseQuanta());
        nextRefreshPs[k] = timePs + refreshPs;
        port.part.events.schedule(nextRefreshPs[k], this, k);
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
}
