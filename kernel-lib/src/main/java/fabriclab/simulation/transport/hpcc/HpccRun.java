package fabriclab.simulation.transport.hpcc;

import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.element.Port;
import fabriclab.simulation.element.Switch;
import fabriclab.simulation.element.Transport;
import fabriclab.simulation.trace.Counters;
import fabriclab.simulation.transport.TransportRun;
import java.util.Arrays;

/**
 * One run of {@link HpccTransport}: a {@link HpccFlow} per flow, and the telemetry function on every switch's egress
 * ports, which appends the port's record to the {@link Telemetry} a data packet carries.
 */
final class HpccRun extends TransportRun implements Switch.EgressFunction {
    private final HpccTransport model;
    private final HpccFlow[] flows;
    /** T of every flow, ps. */
    final long baseRttPs;
    /** Records stamped, per switch (each switch's own counter, so that partitions never share one). */
    private final long[] records;

    HpccRun(Network net, HpccTransport model) {
        super(net);
        this.model = model;
        this.flows = new HpccFlow[net.workload().flows.size()];
        this.records = new long[net.switches.length];
        long t = model.baseRttPs();
        if (t == 0) {
            int[] sources = net.workload().flows.stream().mapToInt(f -> f.spec.source()).distinct().toArray();
            t = largestBaseRttPs(net.topology, sources, net.config.mtuBytes());
        }
        this.baseRttPs = Math.max(1, t);
        for (Switch sw : net.switches) {
            sw.attachEgress(this);
        }
    }

    /**
     * The largest base RTT from any of {@code sources} to any host by HPCC's rule, ps: along a shortest path (fewest
     * links; among those the largest), twice each link's propagation delay plus one {@code payloadBytes} payload's
     * serialization at its rate.
     */
    static long largestBaseRttPs(Topology topology, int[] sources, int payloadBytes) {
        return topology.longestShortestPathCost(sources, l -> 2 * l.propagationPs()
                + Time.serializationPs(payloadBytes, l.rateBitsPerSecond()));
    }

    @Override
    public Transport newFlow(FlowState f) {
        HpccFlow r = new HpccFlow(net, f, model, baseRttPs);
        flows[f.id] = r;
        return r;
    }

    @Override
    public void departing(Switch sw, Packet p, Port port, long queueBytes, long txBytes, long now) {
        if (p.attachment() instanceof Telemetry t) {
            t.push(port, queueBytes, txBytes, now, port.link.rateBitsPerSecond);
            records[sw.switchIndex]++;
        }
    }

    @Override
    public void finish() {
        classifyTimeouts(Arrays.asList(flows));
    }

    @Override
    public void reportCounters(Counters.Builder out) {
        long updates = 0;
        long fast = 0;
        long mult = 0;
        for (HpccFlow f : flows) {
            if (f != null) {
                updates += f.updates;
                fast += f.fastReactions;
                mult += f.multiplicative;
            }
        }
        out.put(HpccTransport.UPDATES, updates);
        out.put(HpccTransport.FAST_REACTIONS, fast);
        out.put(HpccTransport.DECREASES, mult);
        out.put(HpccTransport.INT_RECORDS, Arrays.stream(records).sum());
        putReliableCounters(out, Arrays.asList(flows));
    }
}
