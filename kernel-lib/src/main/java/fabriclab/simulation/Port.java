package fabriclab.simulation;

import fabriclab.simulation.event.EventHandler;
import java.util.ArrayDeque;

/**
 * One egress port with strict-priority per-priority FIFO queues and the link it drives
 * (package-private runtime state). Handles its own "transmission finished" events.
 */
final class Port implements EventHandler {
    final Simulator sim;
    final Node owner;
    final int index;
    Node peer;
    final long rateBps;
    final long propagationPs;
    final ArrayDeque<Packet>[] queues;
    final long[] queueBytes;
    long totalQueueBytes;
    boolean busy;
    boolean down;
    // counters
    long txPackets;
    long txBytes;
    long drops;
    long ecnMarks;
    long peakBytes;
    long flowHeads;
    long busyPs;
    // the wire: packets in propagation, FIFO because every packet on a link has the same delay,
    // so the event queue holds one arrival event per busy wire instead of one per packet
    private final Wire wire = new Wire();
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
            if (!queues[i].isEmpty()) {
                p = queues[i].pollFirst();
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
        long ser = Time.serializationPs(p.wireBytes, rateBps);
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

    /** Transmission of {@code payload} (a Packet) finished: it leaves the buffer, crosses the wire. */
    @Override
    public void handle(long timePs, Object payload) {
        Packet p = (Packet) payload;
        owner.departed(this, p);
        if (down) { // the link failed during transmission
            sim.drop(p, this);
            busy = false;
            return;
        }
        txPackets++;
        txBytes += p.wireBytes;
        if (p.seq == 0) {
            flowHeads++;
        }
        sim.packetHops++;
        wire.push(timePs + propagationPs, p);
        startNext(timePs);
    }

    /** Packets propagating on this port's link, delivered to the peer in order. */
    private final class Wire implements EventHandler {
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
                sim.events.schedule(arrivalPs, this, null);
            }
        }

        void clear() {
            while (count > 0) {
                sim.drop(packets[head], Port.this);
                packets[head] = null;
                head = (head + 1) & (packets.length - 1);
                count--;
            }
        }

        @Override
        public void handle(long timePs, Object ignored) {
            if (count == 0) { // cleared by a link failure
                return;
            }
            Packet p = packets[head];
            packets[head] = null;
            head = (head + 1) & (packets.length - 1);
            count--;
            if (count > 0) {
                sim.events.schedule(arrival[head], this, null);
            }
            peer.handle(timePs, p);
        }
    }
}
