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
    // counters
    long txPackets;
    long txBytes;
    long drops;
    long ecnMarks;
    long peakBytes;
    long flowHeads;
    long busyPs;
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

    /** Transmission of {@code payload} (a Packet) finished: it leaves the buffer, crosses the wire. */
    @Override
    public void handle(long timePs, Object payload) {
        Packet p = (Packet) payload;
        owner.departed(this, p);
        txPackets++;
        txBytes += p.wireBytes;
        if (p.seq == 0) {
            flowHeads++;
        }
        sim.packetHops++;
        sim.events.schedule(timePs + propagationPs, peer, p);
        startNext(timePs);
    }
}
