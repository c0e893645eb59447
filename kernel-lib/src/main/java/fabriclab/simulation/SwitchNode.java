package fabriclab.simulation;

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

    SwitchNode(Simulator sim, int id, int switchIndex, EcmpHasher hasher) {
        super(sim, id);
        this.switchIndex = switchIndex;
        this.hasher = hasher;
    }

    @Override
    Packet nextToSend(Port port) {
        return null;
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
        int dst = p.flow.spec.destination();
        int[] cands = routes[dst];
        if (cands == null) { // unreachable after a link failure
            sim.drop(p, null);
            return;
        }
        int choice;
        if (cands.length == 1) {
            choice = cands[0];
        } else {
            switch (sim.config.forwarding().mode()) {
                case ECMP -> {
                    FlowState f = p.flow;
                    int c = f.ecmpChoice[switchIndex];
                    if (c < 0) {
                        c = hasher.path(f.tuple, cands.length);
                        f.ecmpChoice[switchIndex] = c;
                    }
                    choice = cands[c];
                }
                case SPRAY_RANDOM -> choice = cands[sim.random.nextInt(cands.length)];
                default -> {
                    int k = roundRobin[dst];
                    roundRobin[dst] = k + 1 == cands.length ? 0 : k + 1;
                    choice = cands[k];
                }
            }
        }
        Port out = ports.get(choice);
        SwitchBuffer b = sim.config.buffer();
        long q = out.queueBytes[p.priority];
        int w = p.wireBytes;
        if (usedBytes + w > b.sharedBytes() || q + w > b.perQueueLimitBytes()) {
            sim.drop(p, out);
            return;
        }
        Wred wred = b.wred();
        if (!p.ecn && q > wred.kminBytes()) {
            double prob = wred.probability(q);
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
        out.enqueue(p);
    }
}
