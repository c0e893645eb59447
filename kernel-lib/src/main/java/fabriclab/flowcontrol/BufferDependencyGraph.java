package fabriclab.flowcontrol;

import fabriclab.Parameters;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Tier;
import fabriclab.fabric.Topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * PFC buffer dependency graph (003 section 4.1, figures 18 to 21). Nodes are ingress queues
 * (switch, upstream neighbour, priority); a flow crossing u -> x -> y adds the edge
 * (x from u, p) -> (y from x, p): when the queue at y fills, y pauses x's egress towards y, so x's
 * ingress queue from u may wait for y's. A cycle of such edges is the necessary condition of a PFC
 * deadlock. Hosts are sources and sinks and own no switch queue. Flows are routed by node name over
 * a {@link Topology} (the same graph the packet simulator runs); a route may start and end at a host
 * or at a switch.
 *
 * <p>Hook flows (003 section 4.1.4) are flows that enter a leaf from a spine and leave it to a spine
 * (they bounce through a leaf after a link failure). {@link #buildWithHookRemap} moves such a flow to
 * another priority from the bounce onwards, which breaks every cycle made of up-down paths plus one
 * bounce each.
 */
public final class BufferDependencyGraph {
    /**
     * An ingress queue.
     *
     * @param node     switch owning the queue
     * @param from     upstream neighbour
     * @param priority PFC priority
     */
    public record Queue(String node, String from, int priority) {
        /** Validates: node and from not blank, priority in [0, 7]. */
        public Queue {
            Parameters.notBlank("node", node);
            Parameters.notBlank("from", from);
            Parameters.inRange("priority", priority, 0, 7);
        }

        @Override
        public String toString() {
            return node + "<-" + from + "/p" + priority;
        }
    }

    /**
     * A dependency cycle: the queues of one strongly connected component (one elementary cycle is
     * listed in order) and the flows whose edges lie inside it (the flows that close it).
     *
     * @param queues elementary cycle, in dependency order; not null, no null element (copied)
     * @param flows  names of the flows with an edge inside the component, sorted; not null, no null element
     */
    public record Cycle(List<Queue> queues, Set<String> flows) {
        /** Validates and copies the queues: both present, no null element. */
        public Cycle {
            queues = List.copyOf(Parameters.noNullElements("queues", queues));
            Parameters.noNullElements("flows", flows);
        }
    }

    private final Map<Queue, Map<Queue, Set<String>>> edges;

    private BufferDependencyGraph(Map<Queue, Map<Queue, Set<String>>> edges) {
        this.edges = edges;
    }

    /** Builds the graph of {@code flows} routed over {@code topology}; fails on an unknown node, a missing link or no flows. */
    public static BufferDependencyGraph build(Topology topology, List<RoutedFlow> flows) {
        return buildWithHookRemap(topology, flows, -1);
    }

    /**
     * Builds the graph with every hook flow moved to {@code hookPriority} after its first bounce leaf
     * (003 figures 20 and 21). {@code hookPriority = -1} leaves priorities unchanged.
     */
    public static BufferDependencyGraph buildWithHookRemap(Topology topology, List<RoutedFlow> flows, int hookPriority) {
        Parameters.notNull("topology", topology);
        Parameters.notNull("flows", flows);
        if (flows.isEmpty()) {
            throw new IllegalArgumentException("flows must not be empty");
        }
        Parameters.inRange("hookPriority", hookPriority, -1, 7);
        Map<Queue, Map<Queue, Set<String>>> edges = new LinkedHashMap<>();
        RouteChecker checker = new RouteChecker(topology);
        for (int i = 0; i < flows.size(); i++) {
            RoutedFlow f = Parameters.notNull("flows[" + i + "]", flows.get(i));
            List<String> r = f.route();
            Tier[] tiers = checker.tiers(f.name(), r);
            int bounce = hookPriority >= 0 ? bounceIndex(tiers) : -1;
            if (bounce >= 0 && hookPriority == f.priority()) {
                throw new IllegalArgumentException("hookPriority must differ from the priority of flow '" + f.name()
                        + "' (" + f.priority() + ")");
            }
            for (int j = 1; j + 1 < r.size(); j++) {
                if (tiers[j] == Tier.HOST || tiers[j + 1] == Tier.HOST) {
                    continue;
                }
                int pj = bounce >= 0 && j > bounce ? hookPriority : f.priority();
                int pk = bounce >= 0 && j + 1 > bounce ? hookPriority : f.priority();
                Queue a = new Queue(r.get(j), r.get(j - 1), pj);
                Queue b = new Queue(r.get(j + 1), r.get(j), pk);
                edges.computeIfAbsent(a, k -> new LinkedHashMap<>()).computeIfAbsent(b, k -> new TreeSet<>()).add(f.name());
                edges.computeIfAbsent(b, k -> new LinkedHashMap<>());
            }
        }
        return new BufferDependencyGraph(edges);
    }

    /**
     * Index of the first leaf entered from a spine and left to a spine, or -1 (not a hook flow).
     *
     * @throws IllegalArgumentException if the route names a node that is not in the topology
     */
    public static int bounceIndex(Topology topology, List<String> route) {
        Parameters.notNull("topology", topology);
        Parameters.notNull("route", route);
        Tier[] tiers = new Tier[route.size()];
        for (int j = 0; j < tiers.length; j++) {
            tiers[j] = topology.tier(Parameters.notNull("route[" + j + "]", route.get(j)));
        }
        return bounceIndex(tiers);
    }

    private static int bounceIndex(Tier[] tiers) {
        for (int j = 1; j + 1 < tiers.length; j++) {
            if (tiers[j] == Tier.LEAF && tiers[j - 1] == Tier.SPINE && tiers[j + 1] == Tier.SPINE) {
                return j;
            }
        }
        return -1;
    }

    /** Checks routes against a topology with hashed lookups (a build may route tens of thousands of flows). */
    private static final class RouteChecker {
        private final Topology topology;
        private final Map<String, Integer> index = new HashMap<>();
        private final Set<Long> links = new HashSet<>();

        RouteChecker(Topology topology) {
            this.topology = topology;
            for (int i = 0; i < topology.nodes(); i++) {
                index.put(topology.nodeName(i), i);
            }
            for (LinkSpec l : topology.links()) {
                links.add(key(l.nodeA(), l.nodeB()));
                links.add(key(l.nodeB(), l.nodeA()));
            }
        }

        private static long key(int a, int b) {
            return ((long) a << 32) | b;
        }

        /** The tier of every node of the route; fails naming the unknown node or the missing link. */
        Tier[] tiers(String flow, List<String> route) {
            int[] nodes = new int[route.size()];
            Tier[] tiers = new Tier[route.size()];
            for (int j = 0; j < nodes.length; j++) {
                Integer i = index.get(route.get(j));
                if (i == null) {
                    throw new IllegalArgumentException("route of flow '" + flow + "' visits node \"" + route.get(j)
                            + "\", which is not in topology \"" + topology.name() + "\"");
                }
                nodes[j] = i;
                tiers[j] = topology.tier(i);
            }
            for (int j = 0; j + 1 < nodes.length; j++) {
                if (!links.contains(key(nodes[j], nodes[j + 1]))) {
                    throw new IllegalArgumentException("route of flow '" + flow + "' uses a missing link "
                            + route.get(j) + "-" + route.get(j + 1));
                }
            }
            return tiers;
        }
    }

    /** Whether a flow is a hook flow (bounces through a leaf). */
    public static boolean isHook(Topology topology, RoutedFlow flow) {
        return bounceIndex(topology, Parameters.notNull("flow", flow).route()) >= 0;
    }

    /** Queues of the graph. */
    public Set<Queue> queues() {
        return Collections.unmodifiableSet(edges.keySet());
    }

    /** Number of dependency edges. */
    public int edgeCount() {
        return edges.values().stream().mapToInt(Map::size).sum();
    }

    /** Flows that create the edge a -> b (empty if none); {@code a} and {@code b} not null. */
    public Set<String> flowsOn(Queue a, Queue b) {
        Parameters.notNull("a", a);
        Parameters.notNull("b", b);
        return Collections.unmodifiableSet(edges.getOrDefault(a, Map.of()).getOrDefault(b, Set.of()));
    }

    /** Every cyclic component (Tarjan's strongly connected components), one {@link Cycle} each. */
    public List<Cycle> cycles() {
        List<Set<Queue>> sccs = stronglyConnected();
        List<Cycle> out = new ArrayList<>();
        for (Set<Queue> scc : sccs) {
            Queue any = scc.iterator().next();
            boolean cyclic = scc.size() > 1 || edges.get(any).containsKey(any);
            if (!cyclic) {
                continue;
            }
            Set<String> flows = new TreeSet<>();
            for (Queue a : scc) {
                edges.get(a).forEach((b, fs) -> {
                    if (scc.contains(b)) {
                        flows.addAll(fs);
                    }
                });
            }
            out.add(new Cycle(elementaryCycle(any, scc), Collections.unmodifiableSet(flows)));
        }
        return out;
    }

    /** Whether the graph has no cycle (no PFC deadlock possible from these flows). */
    public boolean isAcyclic() {
        return cycles().isEmpty();
    }

    private List<Queue> elementaryCycle(Queue start, Set<Queue> scc) {
        // BFS inside the component from start's successors back to start
        Map<Queue, Queue> parent = new HashMap<>();
        Deque<Queue> todo = new ArrayDeque<>();
        for (Queue b : edges.get(start).keySet()) {
            if (scc.contains(b) && !parent.containsKey(b)) {
                parent.put(b, start);
                todo.add(b);
            }
        }
        while (!todo.isEmpty()) {
            Queue x = todo.poll();
            if (x.equals(start)) {
                break;
            }
            for (Queue y : edges.get(x).keySet()) {
                if (scc.contains(y) && !parent.containsKey(y)) {
                    parent.put(y, x);
                    todo.add(y);
                }
            }
        }
        List<Queue> path = new ArrayList<>();
        Queue x = parent.get(start);
        path.add(start);
        while (x != null && !x.equals(start)) {
            path.add(x);
            x = parent.get(x);
        }
        Collections.reverse(path.subList(1, path.size()));
        return List.copyOf(path);
    }

    private List<Set<Queue>> stronglyConnected() {
        Map<Queue, Integer> index = new HashMap<>();
        Map<Queue, Integer> low = new HashMap<>();
        Deque<Queue> stack = new ArrayDeque<>();
        Set<Queue> onStack = new LinkedHashSet<>();
        List<Set<Queue>> out = new ArrayList<>();
        int[] counter = {0};
        for (Queue v : edges.keySet()) {
            if (!index.containsKey(v)) {
                strongConnect(v, index, low, stack, onStack, out, counter);
            }
        }
        return out;
    }

    private void strongConnect(Queue v, Map<Queue, Integer> index, Map<Queue, Integer> low, Deque<Queue> stack,
                               Set<Queue> onStack, List<Set<Queue>> out, int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]);
        counter[0]++;
        stack.push(v);
        onStack.add(v);
        for (Queue w : edges.get(v).keySet()) {
            if (!index.containsKey(w)) {
                strongConnect(w, index, low, stack, onStack, out, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<Queue> scc = new LinkedHashSet<>();
            Queue w;
            do {
                w = stack.pop();
                onStack.remove(w);
                scc.add(w);
            } while (!w.equals(v));
            out.add(scc);
        }
    }
}
