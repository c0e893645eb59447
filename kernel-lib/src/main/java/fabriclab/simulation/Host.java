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
    private final PriorityQueue<FlowState> pacing = new PriorityQueue<>((a, b) -> {
        int c = Long.compare(a.transport.nextSendPs, b.transport.nextSendPs);
        return c != 0 ? c : Integer.compare(a.id, b.id);
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

    /** Queues a control packet in the NIC (served before data of the same or lower priority). */
    void sendControl(Packet p) {
        sim.controlPackets++;
        nic().enqueue(p);
    }

    @Override
    Packet nextToSend(Port port) {
        long now = sim.now;
        while (!pacing.isEmpty() && pacing.peek().transport.nextSendPs <= now) {
            ready.addLast(pacing.poll());
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
                pacing.add(c);
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
            if (!pacing.isEmpty()) {
                long t = pacing.peek().transport.nextSendPs;
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
            pacing.add(f);
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
