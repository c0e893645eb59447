package fabriclab.simulation;

import fabriclab.fabric.EcnMarking;
import fabriclab.loadbalancing.hash.EcmpHasher;

/**
 * An output-queued switch (package-private): zero processing delay, forwarding to the egress port
 * chosen by the run's {@link Forwarding}, buffer admission (tail drop) and WRED marking at enqueue.
 */
final class SwitchNode extends Node {
    final int switchIndex;
    final EcmpHasher hasher;
    int[][] routes; // per destination host: candidate egress port indices
    int[] roundRobin; // per destination host
    long usedBytes;
    long peakUsedBytes;
    // the run's configuration, read at every packet: kept in fields to save the indirections
    private final Forwarding.Mode mode;
    private final long sharedBytes;
    private final long perQueueLimitBytes;
    private final EcnMarking wred;
    private final long kminBytes;

    SwitchNode(Simulator sim, int id, int switchIndex, EcmpHasher hasher) {
        super(sim, id);
        this.switchIndex = switchIndex;
        this.hasher = hasher;
        this.mode = sim.config.forwarding().mode();
        SwitchBuffer b = sim.config.buffer();
        this.sharedBytes = b.sharedBytes();
        this.perQueueLimitBytes = b.perQueueLimitBytes();
        this.wred = b.wred();
        this.kminBytes = (long) Math.min(wred.kMinBytes(), (double) Long.MAX_VALUE);
    }

    @Override
    Packet nextToSend(Port port) {
        return null;
    }

    /** GSE edge functions of this switch, or null for a plain switch. */
    EdgeFunction edge;

    /**
     * Edge behaviour a transport can attach to a switch (for example the GSE source and destination
     * edge): sees every packet that arrives at the switch before forwarding.
     */
    interface EdgeFunction {
        /** Returns true if the edge took the packet (it will forward or deliver it itself). */
        boolean intercept(Packet p, long now);
    }

    @Override
    void departed(Port port, Packet p) {
        port.queueBytes[p.priority] -= p.wireBytes;
        port.totalQueueBytes -= p.wireBytes;
        usedBytes -= p.wireBytes;
        if (p.ingress != null) {
            p.ingress.ingressReleased(p, sim.pfc);
        }
    }

    @Override
    public void handle(long timePs, Object payload) {
        Packet p = (Packet) payload;
        if (edge != null && edge.intercept(p, timePs)) {
            return;
        }
        forward(p);
    }

    /** Routes {@code p} toward its destination host and offers it to the chosen egress port. */
    void forward(Packet p) {
        if (mode == Forwarding.Mode.ECMP) { // the flow's choice at this switch, remembered until routes change
            FlowState f = p.flow;
            boolean reverse = p.isReverse();
            Port[] memo = reverse ? f.reverseEcmpEgress : f.ecmpEgress;
            Port out = memo[switchIndex];
            if (out == null) {
                int[] cands = routes[p.destination];
                if (cands == null) { // unreachable after a link failure
                    sim.drop(p, null);
                    return;
                }
                int c = cands.length == 1 ? 0 : hasher.path(reverse ? f.reverseTuple : f.tuple, cands.length);
                out = ports.get(cands[c]);
                memo[switchIndex] = out;
            }
            admit(p, out);
            return;
        }
        int dst = p.destination;
        int[] cands = routes[dst];
        if (cands == null) { // unreachable after a link failure
            sim.drop(p, null);
            return;
        }
        int choice;
        if (cands.length == 1) {
            choice = cands[0];
        } else {
            if (mode == Forwarding.Mode.SPRAY_RANDOM) {
                choice = cands[sim.random.nextInt(cands.length)];
            } else {
                int k = roundRobin[dst];
                roundRobin[dst] = k + 1 == cands.length ? 0 : k + 1;
                choice = cands[k];
            }
        }
        admit(p, ports.get(choice));
    }

    /**
     * Buffer admission (tail drop), WRED marking of data packets and ingress (PFC) accounting, then
     * the packet joins {@code out}'s queue of its priority.
     */
    void admit(Packet p, Port out) {
        long q = out.queueBytes[p.priority];
        int w = p.wireBytes;
        if (out.down) { // routed onto a failed link before the failure was detected: black-holed
            sim.count("linkFailure.blackholedPackets", 1);
            sim.drop(p, out);
            return;
        }
        if (usedBytes + w > sharedBytes || q + w > perQueueLimitBytes) {
            sim.drop(p, out);
            return;
        }
        if (p.kind == Packet.DATA && q > kminBytes && p.flow.transport instanceof RoceFlow rf) {
            rf.atCongestedQueue(this, sim.now); // iQCN (does nothing unless enabled)
        }
        if (p.kind == Packet.DATA && !p.ecn && q > kminBytes) {
            double prob = wred.probabilityUnchecked(q);
            if (prob >= 1 || sim.random.nextDouble() < prob) {
                p.ecn = true;
                out.ecnMarks++;
                sim.ecnMarks++;
            }
        }
        usedBytes += w;
        if (usedBytes > peakUsedBytes) {
            peakUsedBytes = usedBytes;
        }
        if (p.ingress != null) {
            p.ingress.ingressAdmitted(p, sim.pfc);
        }
        p.enqueuedPs = sim.now;
        out.enqueue(p);
    }
}
