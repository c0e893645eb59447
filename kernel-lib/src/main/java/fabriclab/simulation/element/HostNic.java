package fabriclab.simulation.element;

import fabriclab.simulation.event.EventHandler;
import java.util.ArrayDeque;
import java.util.PriorityQueue;

/**
 * A host's NIC, with one port. Sender: the flows that may send now are served round robin, one data
 * packet at a time, at line rate (a flow whose transport sets {@link Transport#keepsNic} after a packet is served
 * again first while it may send now: a burst); a flow whose transport paces it ({@link Transport#nextSendPs})
 * waits in a heap until its time; a flow whose transport has nothing to send leaves both until the
 * transport wakes it; a priority paused by PFC is skipped. Control packets (ACK, CNP...) queue in the
 * port and go before data. Receiver: hands data and control packets to the flow's transport.
 * Counters: payload bytes injected, control packets sent and received.
 */
public final class HostNic extends Node {
    private final ArrayDeque<FlowState> ready = new ArrayDeque<>();
    /** The flow put first in {@link #ready} to continue its burst ({@link Transport#keepsNic}), or null. */
    private FlowState bursting;

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
        nic().kick(t);
    };
    long injectedBytes;
    long controlSent;
    long controlReceived;

    HostNic(Network net, int id) {
        super(net, id);
    }

    public Port nic() {
        return ports.get(0);
    }

    /** Flow {@code f} may be able to send (it started, or its transport has new data or credit). */
    void wake(FlowState f) {
        if (f.queuedAtHost || !f.transport.canSend()) {
            return;
        }
        f.queuedAtHost = true;
        ready.addLast(f);
        nic().kick(part.now);
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
            part.events().schedule(Math.max(t, part.now), pacingWake, null);
        }
    }

    /** Queues a control packet in the NIC (served before data of the same or lower priority). */
    void sendControl(Packet p) {
        controlSent++;
        nic().enqueue(p);
    }

    @Override
    Packet nextToSend(Port port) {
        long now = part.now;
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
            if (port.pause.paused(c.spec.priority(), now)) {
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
                    part.events().schedule(t, pacingWake, null);
                }
            }
            return null;
        }
        Transport t = f.transport;
        t.burstContinues = f == bursting;
        bursting = null;
        int seq = t.takeSequence();
        int payload = f.payloadOf(seq, net.config.mtuBytes());
        Packet p = part.packets.data(f, seq, payload, payload + net.config.headerBytes() + t.extraHeaderBytes, f.spec.priority());
        t.onSent(p, now);
        if (!t.canSend()) {
            f.queuedAtHost = false;
        } else if (t.nextSendPs > now) {
            pace(f);
        } else if (t.keepsNic) {
            bursting = f;
            ready.addFirst(f);
        } else {
            ready.addLast(f);
        }
        return p;
    }

    @Override
    void departed(Port port, Packet p) {
        if (p.isData()) {
            injectedBytes += p.payloadBytes;
        }
    }

    @Override
    void receive(Packet p, long timePs) {
        if (p.isData()) {
            p.flow.transport.onData(p, timePs);
        } else {
            controlReceived++;
            p.flow.transport.onControl(p, timePs);
        }
    }

    /** Payload bytes whose last bit left this NIC (retransmissions included). */
    public long injectedBytes() {
        return injectedBytes;
    }

    /** Control packets (ACK, NACK, CNP, probes) this NIC sent. */
    public long controlSent() {
        return controlSent;
    }
}
