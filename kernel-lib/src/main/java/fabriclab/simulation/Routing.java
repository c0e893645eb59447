package fabriclab.simulation;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Shortest-path routing, computed outside the event loop: for every switch and destination host,
 * the egress ports on a shortest path (breadth-first search over the ports that are up and not
 * withdrawn; hosts never forward), in port order. These are the equal-cost members among which
 * {@link Forwarding} chooses. Identical candidate lists are shared between switches and
 * destinations. Recomputed when a link is withdrawn from the routes.
 */
final class Routing {
    private Routing() {
    }

    /** Computes and installs the tables of every switch of {@code net}. */
    static void install(Network net) {
        Node[] nodes = net.nodes;
        int n = nodes.length;
        int hosts = net.topology.hosts();
        Map<String, int[]> interned = new HashMap<>();
        int[][][] tables = new int[net.switches.length][hosts][];
        int[] dist = new int[n];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int d = 0; d < hosts; d++) {
            Arrays.fill(dist, -1);
            dist[d] = 0;
            queue.add(d);
            while (!queue.isEmpty()) {
                int u = queue.poll();
                if (u < hosts && u != d) {
                    continue; // hosts do not forward
                }
                for (Port p : nodes[u].ports) {
                    if (p.link.down || p.withdrawn) {
                        continue;
                    }
                    int v = p.peer().id;
                    if (dist[v] < 0) {
                        dist[v] = dist[u] + 1;
                        queue.add(v);
                    }
                }
            }
            final int dest = d;
            for (Switch sw : net.switches) {
                if (dist[sw.id] < 0) {
                    continue;
                }
                int[] c = sw.ports.stream().filter(p -> !p.link.down && !p.withdrawn && dist[p.peer().id] == dist[sw.id] - 1
                        && (p.peer().id >= hosts || p.peer().id == dest)).mapToInt(p -> p.index).toArray();
                tables[sw.switchIndex][d] = c.length == 0 ? null : interned.computeIfAbsent(Arrays.toString(c), k -> c);
            }
        }
        for (Switch sw : net.switches) {
            sw.setRoutes(tables[sw.switchIndex]);
        }
    }
}
