package fabriclab.simulation.transport.ctcc;

import fabriclab.simulation.trace.Counters;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Transport;
import fabriclab.simulation.transport.TransportRun;
import java.util.HashMap;
import java.util.Map;

/**
 * One run of {@link CtccTransport}: a {@link CtccFlow} per flow, and one RTT probe stream per
 * (source, destination) host pair, shared by the queue pairs of that pair.
 */
final class CtccRun extends TransportRun {
    private final CtccTransport model;
    private final Map<Long, CtccFlow.PathProbe> probes = new HashMap<>();
    private final java.util.List<CtccFlow> flows = new java.util.ArrayList<>();

    CtccRun(Network net, CtccTransport model) {
        super(net);
        this.model = model;
    }

    @Override
    public Transport newFlow(FlowState f) {
        long key = ((long) f.spec.source() << 32) | f.spec.destination();
        CtccFlow c = new CtccFlow(net, f, model, probes.computeIfAbsent(key, k -> new CtccFlow.PathProbe()));
        flows.add(c);
        return c;
    }

    @Override
    public void finish() {
        classifyTimeouts(flows);
    }

    @Override
    public void reportCounters(Counters.Builder out) {
        putReliableCounters(out, flows);
    }
}
