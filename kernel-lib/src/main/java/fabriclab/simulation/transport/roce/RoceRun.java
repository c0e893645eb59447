package fabriclab.simulation.transport.roce;

import fabriclab.simulation.trace.Counters;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.element.Switch;
import fabriclab.simulation.element.Transport;
import fabriclab.simulation.transport.TransportRun;
import java.util.Arrays;

/**
 * One run of {@link RoceTransport}: a {@link RoceFlow} per flow and, with iQCN on, a congestion
 * point in every switch. The congestion point keeps its own record of the CNPs of each flow it has
 * seen (those it sent, and every CNP of the flow passing through it on its way to the sender, from
 * the receiver or from another switch's congestion point); when
 * it admits a data packet of a flow into a queue above Kmin and has seen no CNP of that flow for
 * longer than the rate-increase timer T, it sends the sender a CNP itself (seed 003 section 4.2.5).
 * A switch only knows what passes through it, so it neither reads nor resets the receiver's CNP
 * pacing.
 */
final class RoceRun extends TransportRun implements Switch.CongestionPoint {
    private final RoceTransport model;
    private final RoceFlow[] flows;
    private final long timerPs;
    /** Per switch, per flow: time of the last CNP of that flow this switch sent or forwarded (MIN_VALUE: none). */
    private final long[][] lastCnpPs;
    private long iqcnCnps;

    RoceRun(Network net, RoceTransport model) {
        super(net);
        this.model = model;
        this.flows = new RoceFlow[net.workload().flows.size()];
        this.timerPs = model.dcqcn() == null ? 0 : Math.max(1, Math.round(model.dcqcn().timerS() * 1e12));
        this.lastCnpPs = new long[net.switches.length][];
        if (model.iqcn()) {
            for (Switch sw : net.switches) {
                sw.attachCongestionPoint(this);
                sw.attachEdge((p, now) -> {
                    if (p.kind() == Packet.CNP) {
                        record(sw)[p.flow().id] = now; // a CNP of this flow passes through on its way to the sender
                    }
                    return false;
                });
            }
        }
    }

    @Override
    public Transport newFlow(FlowState f) {
        RoceFlow r = new RoceFlow(net, f, model);
        flows[f.id] = r;
        return r;
    }

    private long[] record(Switch sw) {
        long[] r = lastCnpPs[sw.switchIndex];
        if (r == null) {
            r = new long[flows.length];
            Arrays.fill(r, Long.MIN_VALUE);
            lastCnpPs[sw.switchIndex] = r;
        }
        return r;
    }

    @Override
    public void congested(Switch sw, Packet p, long now) {
        long[] last = record(sw);
        int f = p.flow().id;
        if (last[f] != Long.MIN_VALUE && now - last[f] <= timerPs) {
            return;
        }
        last[f] = now;
        iqcnCnps++;
        sw.forward(sw.partition().packets.get(p.flow(), Packet.CNP, 0, 0, model.controlBytes(), model.cnpPriority(), p.flow().spec.source()));
    }

    @Override
    public void finish() {
        classifyTimeouts(java.util.Arrays.asList(flows));
    }

    @Override
    public long fabricControlPackets() {
        return iqcnCnps;
    }

    @Override
    public void reportCounters(Counters.Builder out) {
        long cnps = 0;
        long cuts = 0;
        for (RoceFlow r : flows) {
            if (r != null) {
                cnps += r.cnpsSent;
                cuts += r.rateCuts;
            }
        }
        out.put(RoceTransport.CNPS, cnps);
        out.put(RoceTransport.RATE_CUTS, cuts);
        out.put(RoceTransport.IQCN_CNPS, iqcnCnps);
        putReliableCounters(out, java.util.Arrays.asList(flows));
    }
}
