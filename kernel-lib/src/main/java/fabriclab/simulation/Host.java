package fabriclab.simulation;

import fabriclab.simulation.event.EventHandler;
import java.util.ArrayDeque;
import java.util.PriorityQueue;

/**
 * A host NIC (package-private). Sender: the flows that may send now are served round robin, one
 * data packet at a time, at line rate; a flow whose transport paces it ({@link Transport#nextSendPs})
 * waits in a heap until its time; a flow whose transport has nothing to send leaves both until the
 * transport wakes it. Control packets (ACK, CNP...) queue in the NIC port and go before data.
 * Receiver: hands data and control packets to the flow's transport.
 */
final class Host extends Node {
    private final ArrayDeque<FlowState> ready = new ArrayDeque<>();
    /** A flow waiting for its pacing time; stale when the flow was re-paced since (lazy deletion). */
    private record Pace(FlowState flow, long atPs, int version) {
    }

    private final PriorityQueue<Pace> pacing = new PriorityQueue<>((a, b) -> {
        int c = Long.compare(a.atPs, b.atPs);
        return c != 0 ? c : Integer.compare(a.flow.id, b.flow.id);
    });
    private long wakeAtPs = Long.MAX_VALUE;
    private final EventHandler pacingWake = (t, x) -> {
        wakeAtPs = Long.MAX_VALUE;
        kick(t);
    };

    Host(Simulator sim, int id) {
        super(sim, id);
    }

    private Port nic() {
        return ports.get(0);
    }

    private void kick(long now) {
        Port nic = nic();
        if (!nic.busy) {
            nic.startNext(now);
        }
    }

    /** Flow {@code f} may be able to send (it started, or its transport has new data/credit). */
    void wake(FlowState f) {
        if (f.queuedAtHost || !f.transport.canSend()) {
            return;
        }
        f.queuedAtHost = true;
        ready.addLast(f);
        kick(sim.now);
    }

    private void pace(FlowState f) {
        f.paced = true;
        pacing.add(new Pace(f, f.transport.nextSendPs, ++f.pacingVersion));
    }

    /**
     * The transport moved a paced flow's next send time earlier (its rate went up): the flow's heap
     * entry is replaced and the NIC woken in time.
     */
    void repaced(FlowState f) {
        if (!f.paced) {
            return;
        }
        pace(f);
        long t = f.transport.nextSendPs;
        if (t < wakeAtPs) {
            wakeAtPs = t;
            sim.events.schedule(Math.max(t, sim.now), pacingWake, null);
        }
    }

    /** Queues a control packet in the NIC (served before data of the same or lower priority). */
    void sendControl(Packet p) {
        sim.controlPackets++;
        nic().enqueue(p);
    }

    @Override
    Packet nextToSend(Port port) {
        long now = sim.now;
        while (!pacing.isEmpty() && pacing.peek().atPs <= now) {
            Pace e = pacing.poll();
            if (e.version == e.flow.pacingVersion && e.flow.paced) {
                e.flow.paced = false;
                ready.addLast(e.flow);
            }
        }
        FlowState f = null;
        for (int k = ready.size(); k > 0; k--) { // round robin over flows that may send now
            FlowState c = ready.pollFirst();
            Transport t = c.transport;
            if (!t.canSend()) {
                c.queuedAtHost = false;
                continue;
            }
            if (t.nextSendPs > now) {
                pace(c);
                continue;
            }
            if (port.paused(c.spec.priority(), now)) {
                ready.addLast(c);
                continue;
            }
            f = c;
            break;
        }
        if (f == null) {
            while (!pacing.isEmpty() && (pacing.peek().version != pacing.peek().flow.pacingVersion || !pacing.peek().flow.paced)) {
                pacing.poll(); // stale entries
            }
            if (!pacing.isEmpty()) {
                long t = pacing.peek().atPs;
                if (t < wakeAtPs) {
                    wakeAtPs = t;
                    sim.events.schedule(t, pacingWake, null);
                }
            }
            return null;
        }
        Transport t = f.transport;
        int seq = t.takeSequence();
        int payload = f.payloadOf(seq, sim.config.mtuBytes());
        Packet p = new Packet(f, seq, payload, payload + sim.config.headerBytes(), f.spec.priority());
        t.onSent(p, now);
        if (!t.canSend()) {
            f.queuedAtHost = false;
        } else if (t.nextSendPs > now) {
            pace(f);
        } else {
            ready.addLast(f);
        }
        return p;
    }

    @Override
    void departed(Port port, Packet p) {
        if (p.isData()) {
            sim.injectedBytes += p.payloadBytes;
        } else { // control packets wait in the NIC's queues
            port.queueBytes[p.priority] -= p.wireBytes;
            port.totalQueueBytes -= p.wireBytes;
        }
    }

    @Override
    public void handle(long timePs, Object payload) {
        if (payload instanceof FlowState f) { // flow start
            sim.startFlow(f, timePs);
            return;
        }
        Packet p = (Packet) payload;
        if (p.isData()) {
            p.flow.transport.onData(p, timePs);
        } else {
            sim.controlDelivered++;
            p.flow.transport.onControl(p, timePs);
        }
    }
}
