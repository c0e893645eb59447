package fabriclab.simulation;

import fabriclab.fabric.Time;
import fabriclab.fabric.Pfc;
import fabriclab.simulation.event.EventHandler;
import java.util.ArrayDeque;

/**
 * One egress port with strict-priority per-priority FIFO queues and the link it drives
 * (package-private runtime state). Handles its own "transmission finished" and "wire arrival"
 * events.
 */
final class Port implements EventHandler {
    final Simulator sim;
    final Node owner;
    final int index;
    Node peer;
    Port peerPort; // the other end of the link (its egress toward this node)
    final long rateBps;
    final long propagationPs;
    final ArrayDeque<Packet>[] queues;
    final long[] queueBytes;
    long totalQueueBytes;
    boolean busy;
    boolean down;
    boolean withdrawn; // removed from the routes (a failure detected or announced)
    // counters
    long txPackets;
    long txBytes;
    long drops;
    long ecnMarks;
    long peakBytes;
    long flowHeads;
    long busyPs;
    private int lastWireBytes = -1;
    private long lastSerializationPs;
    // the wire: packets in propagation, FIFO because every packet on a link has the same delay,
    // so the event queue holds one arrival event per busy wire instead of one per packet
    private final Wire wire = new Wire();
    /** Extra per-packet delay of this link in seconds (null: none); see Simulator#withFabricJitter. */
    fabriclab.container.DelayModel jitter;
    // PFC, upstream side: this port's egress queues of a priority are paused until pausedUntil
    final long[] pausedUntil;
    final long[] pausedSince; // -1 when not paused
    final long[] pausedPs;
    long pausesReceived;
    long xonReceived;
    // PFC, downstream side (switch ports): bytes admitted from this port (as ingress), not yet sent on
    final long[] ingressBytes;
    final long[] peakIngressBytes;
    final boolean[] pauseAsserted;
    final long[] nextRefreshPs;
    long pausesSent;
    long xonSent;
    long firstPauseSentPs = -1;
    // sampling (may stay null)
    long[] sampleBytes;
    int samples;

    @SuppressWarnings("unchecked")
    Port(Simulator sim, Node owner, int index, long rateBps, long propagationPs, int priorities) {
        this.sim = sim;
        this.owner = owner;
        this.index = index;
        this.rateBps = rateBps;
        this.propagationPs = propagationPs;
        this.queues = new ArrayDeque[priorities];
        for (int i = 0; i < priorities; i++) {
            queues[i] = new ArrayDeque<>();
        }
        this.queueBytes = new long[priorities];
        this.pausedUntil = new long[priorities];
        this.pausedSince = new long[priorities];
        java.util.Arrays.fill(pausedSince, -1);
        this.pausedPs = new long[priorities];
        this.ingressBytes = new long[priorities];
        this.peakIngressBytes = new long[priorities];
        this.pauseAsserted = new boolean[priorities];
        this.nextRefreshPs = new long[priorities];
    }

    /** Whether priority {@code pr} of this port's egress is paused by PFC at {@code t}. */
    boolean paused(int pr, long t) {
        return pausedUntil[pr] > t;
    }

    void enqueue(Packet p) {
        queues[p.priority].addLast(p);
        queueBytes[p.priority] += p.wireBytes;
        totalQueueBytes += p.wireBytes;
        if (totalQueueBytes > peakBytes) {
            peakBytes = totalQueueBytes;
        }
        if (!busy) {
            startNext(sim.now);
        }
    }

    void startNext(long now) {
        if (down) {
            busy = false;
            return;
        }
        Packet p = null;
        for (int i = 0; i < queues.length; i++) {
            if (!queues[i].isEmpty() && pausedUntil[i] <= now) {
                p = queues[i].pollFirst();
                if (sim.queueingObserver != null && owner instanceof SwitchNode sw) {
                    sim.observeQueueing(sw, this, p, now);
                }
                break;
            }
        }
        if (p == null) {
            p = owner.nextToSend(this);
            if (p == null) {
                busy = false;
                return;
            }
        }
        busy = true;
        int w = p.wireBytes;
        long ser;
        if (w == lastWireBytes) { // most packets have the same size: skip the 64-bit division
            ser = lastSerializationPs;
        } else {
            ser = Time.serializationPs(w, rateBps);
            lastWireBytes = w;
            lastSerializationPs = ser;
        }
        busyPs += ser;
        sim.events.schedule(now + ser, this, p);
    }

    /** The link fails: queued packets and packets on the wire are lost. */
    void fail() {
        down = true;
        for (java.util.ArrayDeque<Packet> q : queues) {
            Packet p;
            while ((p = q.pollFirst()) != null) {
                owner.departed(this, p);
                sim.drop(p, this);
            }
        }
        wire.clear();
    }

    /**
     * This port's two packet events: with a Packet, its transmission finished (it leaves the buffer
     * and crosses the wire); with null, the packet at the head of the wire reaches the peer. One
     * handler for both keeps the run loop's call to the port's code monomorphic.
     */
    @Override
    public void handle(long timePs, Object payload) {
        if (payload == null) {
            wire.arrive(timePs);
            return;
        }
        Packet p = (Packet) payload;
        owner.departed(this, p);
        if (down) { // the link failed during transmission
            sim.drop(p, this);
            busy = false;
            return;
        }
        txPackets++;
        txBytes += p.wireBytes;
        if (p.seq == 0 && p.kind == Packet.DATA) {
            flowHeads++;
        }
        sim.packetHops++;
        long arrival = timePs + propagationPs;
        if (jitter != null) { // FIFO link: a packet never overtakes the one ahead of it
            arrival = Math.max(arrival + Math.round(jitter.sample(sim.random) * 1e12), wire.lastArrival());
        }
        wire.push(arrival, p);
        startNext(timePs);
    }

    // ---------------------------------------------------------------- PFC

    /** Ingress accounting of an admitted packet that arrived through this port (switch side). */
    void ingressAdmitted(Packet p, Pfc pfc) {
        int pr = p.priority;
        long c = ingressBytes[pr] += p.wireBytes;
        if (c > peakIngressBytes[pr]) {
            peakIngressBytes[pr] = c;
        }
        if (pfc != null && !pauseAsserted[pr] && pfc.pausesAt(c)) {
            pauseAsserted[pr] = true;
            if (firstPauseSentPs < 0) {
                firstPauseSentPs = sim.now;
            }
            sendPause(pr, pfc.pauseQuanta());
            pausesSent++;
            long refresh = Math.max(1, Pfc.quantaPs(pfc.pauseQuanta(), rateBps) / 2);
            nextRefreshPs[pr] = sim.now + refresh;
            sim.events.schedule(nextRefreshPs[pr], refresher, pr);
        }
    }

    /** A packet that arrived through this port left the switch (switch side). */
    void ingressReleased(Packet p, Pfc pfc) {
        int pr = p.priority;
        long c = ingressBytes[pr] -= p.wireBytes;
        if (pfc != null && pauseAsserted[pr] && pfc.resumesAt(c)) {
            pauseAsserted[pr] = false;
            nextRefreshPs[pr] = -1;
            sendPause(pr, 0);
            xonSent++;
        }
    }

    /** Sends a PAUSE frame for {@code pr} to the upstream end of this link (out of band of data). */
    void sendPause(int pr, int quanta) {
        if (down) {
            return;
        }
        long arrival = sim.now + Time.serializationPs(Pfc.PAUSE_FRAME_BYTES, rateBps) + propagationPs;
        sim.events.schedule(arrival, peerPort.pauseReceiver, (pr << 16) | quanta);
    }

    private final EventHandler refresher = this::onRefresh;
    private final EventHandler pauseReceiver = this::onPauseFrame;
    private final EventHandler waker = this::onPauseExpiry;

    private void onRefresh(long timePs, Object payload) {
        int pr = (Integer) payload;
        if (!pauseAsserted[pr] || nextRefreshPs[pr] != timePs) {
            return; // stale timer
        }
        Pfc pfc = sim.pfc;
        sendPause(pr, pfc.pauseQuanta());
        pausesSent++;
        nextRefreshPs[pr] = timePs + Math.max(1, Pfc.quantaPs(pfc.pauseQuanta(), rateBps) / 2);
        sim.events.schedule(nextRefreshPs[pr], refresher, pr);
    }

    /** Upstream side: a PAUSE (quanta &gt; 0) or XON (quanta 0) for one priority arrived. */
    private void onPauseFrame(long timePs, Object payload) {
        if (down) {
            return;
        }
        int code = (Integer) payload;
        int pr = code >>> 16;
        int quanta = code & 0xFFFF;
        closePauseInterval(pr, timePs);
        if (quanta > 0) {
            pausesReceived++;
            if (pausedSince[pr] < 0) {
                pausedSince[pr] = timePs;
            }
            pausedUntil[pr] = timePs + Pfc.quantaPs(quanta, rateBps);
            sim.events.schedule(pausedUntil[pr], waker, pr);
        } else {
            xonReceived++;
            if (pausedSince[pr] >= 0) {
                pausedPs[pr] += timePs - pausedSince[pr];
                pausedSince[pr] = -1;
            }
            pausedUntil[pr] = timePs;
            if (!busy) {
                startNext(timePs);
            }
        }
    }

    /** Books a pause that expired (without XON) before {@code t}. */
    private void closePauseInterval(int pr, long t) {
        if (pausedSince[pr] >= 0 && pausedUntil[pr] <= t) {
            pausedPs[pr] += pausedUntil[pr] - pausedSince[pr];
            pausedSince[pr] = -1;
        }
    }

    /** Total time any priority of this port was paused up to {@code end}, summed over priorities, ps. */
    long pausedPsUpTo(long end) {
        long total = 0;
        for (int pr = 0; pr < pausedPs.length; pr++) {
            total += pausedPs[pr];
            if (pausedSince[pr] >= 0) {
                total += Math.max(0, Math.min(pausedUntil[pr], end) - pausedSince[pr]);
            }
        }
        return total;
    }

    private void onPauseExpiry(long timePs, Object payload) {
        int pr = (Integer) payload;
        if (pausedUntil[pr] != timePs) {
            return; // refreshed or resumed since
        }
        closePauseInterval(pr, timePs);
        if (!busy) {
            startNext(timePs);
        }
    }

    /** Packets propagating on this port's link, delivered to the peer in order. */
    private final class Wire {
        private long[] arrival = new long[16];
        private Packet[] packets = new Packet[16];
        private int head;
        private int count;

        void push(long arrivalPs, Packet p) {
            if (count == packets.length) {
                long[] a = new long[2 * count];
                Packet[] q = new Packet[2 * count];
                for (int i = 0; i < count; i++) {
                    a[i] = arrival[(head + i) & (count - 1)];
                    q[i] = packets[(head + i) & (count - 1)];
                }
                arrival = a;
                packets = q;
                head = 0;
            }
            int tail = (head + count) & (packets.length - 1);
            arrival[tail] = arrivalPs;
            packets[tail] = p;
            count++;
            if (count == 1) {
                sim.events.schedule(arrivalPs, Port.this, null);
            }
        }

        long lastArrival() {
            return count == 0 ? Long.MIN_VALUE : arrival[(head + count - 1) & (packets.length - 1)];
        }

        void clear() {
            while (count > 0) {
                sim.drop(packets[head], Port.this);
                packets[head] = null;
                head = (head + 1) & (packets.length - 1);
                count--;
            }
        }

        /** The head packet reaches the peer at {@code timePs}. */
        void arrive(long timePs) {
            if (count == 0) { // cleared by a link failure
                return;
            }
            Packet p = packets[head];
            packets[head] = null;
            head = (head + 1) & (packets.length - 1);
            count--;
            if (count > 0) {
                sim.events.schedule(arrival[head], Port.this, null);
            }
            p.ingress = peerPort;
            peer.handle(timePs, p);
        }
    }
}
