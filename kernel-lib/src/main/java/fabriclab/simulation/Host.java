package fabriclab.simulation;

import java.util.ArrayDeque;

/**
 * A host NIC (package-private): a line-rate sender that serves its active flows round robin one
 * packet at a time, and a receiver that counts delivered, duplicate and reordered packets.
 */
final class Host extends Node {
    final ArrayDeque<FlowState> active = new ArrayDeque<>();

    Host(Simulator sim, int id) {
        super(sim, id);
    }

    @Override
    Packet nextToSend(Port port) {
        FlowState f = null;
        for (int k = active.size(); k > 0; k--) { // round robin over flows whose priority is not paused
            FlowState c = active.pollFirst();
            if (!port.paused(c.spec.priority(), sim.now)) {
                f = c;
                break;
            }
            active.addLast(c);
        }
        if (f == null) {
            return null;
        }
        int seq = f.nextSeq++;
        int payload = f.payloadOf(seq, sim.config.mtuBytes());
        Packet p = new Packet(f, seq, payload, payload + sim.config.headerBytes(), f.spec.priority());
        if (f.hasMoreToSend()) {
            active.addLast(f);
        }
        return p;
    }

    @Override
    void departed(Port port, Packet p) {
        sim.injectedBytes += p.payloadBytes;
    }

    @Override
    public void handle(long timePs, Object payload) {
        if (payload instanceof FlowState f) { // flow start
            active.addLast(f);
            if (!ports.get(0).busy) {
                ports.get(0).startNext(timePs);
            }
            return;
        }
        Packet p = (Packet) payload;
        FlowState f = p.flow;
        if (f.received.get(p.seq)) {
            f.duplicates++;
            return;
        }
        f.received.set(p.seq);
        if (p.seq < f.highestSeq) {
            f.reordered++;
        } else {
            f.highestSeq = p.seq;
        }
        if (p.ecn) {
            f.ecnMarked++;
        }
        f.receivedBytes += p.payloadBytes;
        sim.deliveredBytes += p.payloadBytes;
        if (f.receivedBytes == f.spec.bytes()) {
            f.completionPs = timePs;
            sim.completedFlows++;
        }
    }
}
