package fabriclab.simulation.element;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Shortest-path routing, computed outside the event loop: for every switch and destination host,
 * the egress ports on a shortest path (breadth-first search over the ports that are up and not
 * withdrawn; hosts never forward), in port order. These are the equal-cost members among which
 * {@link fabriclab.simulation.config.Forwarding} chooses. Identical candidate lists are shared between switches and
 * destinations. Recomputed when a link is withdrawn from the routes.
 */
final class Routing {
    private Routing() {
    }

    /**
     * Computes and installs the tables of every switch of {@code net}. Cost: a breadth-first search
     * per destination host over primitive arrays, then one pass over each switch's ports; identical
     * candidate lists are shared through a table keyed by their contents (no strings, no boxing).
     */
    static void install(Network net) {
        Node[] nodes = net.nodes;
        int n = nodes.length;
        int hosts = net.topology.hosts();
        // the usable ports of every node, and their peers, as primitive arrays (read once per destination)
        int[][] usablePeer = new int[n][];
        int[][] usableIndex = new int[n][];
        for (int u = 0; u < n; u++) {
            List<Port> ports = nodes[u].ports;
            int k = 0;
            int[] peer = new int[ports.size()];
            int[] index = new int[ports.size()];
            for (Port p : ports) {
                if (!p.link.down && !p.withdrawn) {
                    peer[k] = p.peer().id;
                    index[k] = p.index;
                    k++;
                }
            }
            usablePeer[u] = Arrays.copyOf(peer, k);
            usableIndex[u] = Arrays.copyOf(index, k);
        }
        Map<Candidates, int[]> interned = new HashMap<>();
        int[][][] tables = new int[net.switches.length][hosts][];
        int[] dist = new int[n];
        int[] queue = new int[n];
        int[] buffer = new int[16];
        for (int d = 0; d < hosts; d++) {
            Arrays.fill(dist, -1);
            dist[d] = 0;
            int head = 0;
            int tail = 0;
            queue[tail++] = d;
            while (head < tail) {
                int u = queue[head++];
                if (u < hosts && u != d) {
                    continue; // hosts do not forward
                }
                for (int v : usablePeer[u]) {
                    if (dist[v] < 0) {
                        dist[v] = dist[u] + 1;
                        queue[tail++] = v;
                    }
                }
            }
            for (Switch sw : net.switches) {
                int ds = dist[sw.id];
                if (ds < 0) {
                    continue;
                }
                int[] peer = usablePeer[sw.id];
                int[] index = usableIndex[sw.id];
                if (buffer.length < peer.length) {
                    buffer = new int[peer.length];
                }
                int k = 0;
                for (int j = 0; j < peer.length; j++) { // in port order
                    int v = peer[j];
                    if (dist[v] == ds - 1 && (v >= hosts || v == d)) {
                        buffer[k++] = index[j];
                    }
                }
                if (k > 0) {
                    int[] c = Arrays.copyOf(buffer, k);
                    tables[sw.switchIndex][d] = interned.computeIfAbsent(new Candidates(c), key -> key.ports);
                }
            }
        }
        for (Switch sw : net.switches) {
            sw.setRoutes(tables[sw.switchIndex]);
        }
    }

    /** A candidate list as a hash key by contents. */
    private record Candidates(int[] ports) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Candidates c && Arrays.equals(ports, c.ports);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ports);
        }
    }
}
