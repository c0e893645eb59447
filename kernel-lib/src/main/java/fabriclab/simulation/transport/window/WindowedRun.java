package fabriclab.simulation.transport.window;

import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Transport;
import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.trace.Counters;
import fabriclab.simulation.transport.TransportRun;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * One run of DCTCP, TIMELY or Swift: a {@link WindowedFlow} per flow; reports the reliable connection's counters and
 * the senders' decreases and increases of rate or window under the transport's names.
 */
final class WindowedRun extends TransportRun {
    private final BiFunction<Network, FlowState, WindowedFlow> factory;
    private final Counter decreases;
    private final Counter increases;
    private final List<WindowedFlow> flows = new ArrayList<>();

    WindowedRun(Network net, BiFunction<Network, FlowState, WindowedFlow> factory, Counter decreases, Counter increases) {
        super(net);
        this.factory = factory;
        this.decreases = decreases;
        this.increases = increases;
    }

    @Override
    public Transport newFlow(FlowState f) {
        WindowedFlow w = factory.apply(net, f);
        flows.add(w);
        return w;
    }

    @Override
    public void finish() {
        classifyTimeouts(flows);
    }

    @Override
    public void reportCounters(Counters.Builder out) {
        long down = 0;
        long up = 0;
        for (WindowedFlow w : flows) {
            down += w.decreases;
            up += w.increases;
        }
        out.put(decreases, down);
        out.put(increases, up);
        putReliableCounters(out, flows);
    }

    /** Switches on the shortest path from host {@code source} to host {@code destination} (breadth first over links). */
    static int switchHops(Network net, int source, int destination) {
        if (source == destination) {
            return 0;
        }
        fabriclab.fabric.Topology t = net.topology;
        int n = t.nodes();
        List<List<Integer>> adj = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            adj.add(new ArrayList<>());
        }
        for (fabriclab.fabric.LinkSpec l : t.links()) {
            adj.get(l.nodeA()).add(l.nodeB());
            adj.get(l.nodeB()).add(l.nodeA());
        }
        int[] dist = new int[n];
        java.util.Arrays.fill(dist, -1);
        java.util.ArrayDeque<Integer> queue = new java.util.ArrayDeque<>();
        dist[source] = 0;
        queue.add(source);
        while (!queue.isEmpty()) {
            int u = queue.poll();
            if (u == destination) {
                return Math.max(0, dist[u] - 1);
            }
            for (int v : adj.get(u)) {
                if (dist[v] < 0 && (v == destination || v >= t.hosts())) { // hosts do not forward
                    dist[v] = dist[u] + 1;
                    queue.add(v);
                }
            }
        }
        throw new IllegalStateException("no path from host " + source + " to host " + destination);
    }
}
