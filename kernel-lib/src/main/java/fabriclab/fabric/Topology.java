package fabriclab.fabric;

import fabriclab.Parameters;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * A fabric as a graph, the one graph every fidelity level uses: the packet simulator runs packets
 * over it, and the PFC deadlock analysis routes flows over it by node name. Nodes
 * {@code 0 .. hosts-1} are hosts (one per NIC), nodes {@code hosts .. hosts+switches-1} are
 * switches, joined by full-duplex {@link LinkSpec}s with a rate and a propagation delay (parallel
 * links allowed). Hosts must have exactly one link: a NIC has one port, so a server with several
 * NICs is several hosts. Every node has a unique name and a {@link Tier}. Immutable.
 *
 * <p>Default names (the five-argument constructor and the factories): host {@code h} is
 * {@code "host" + h} (0-based, as host indices are); switches are numbered from 1 within their tier
 * in index order, {@code "leaf1", "leaf2", ..., "spine1", ..., "core1", ...}, the names of 003's
 * figures. {@link #builder(String)} gives nodes any names.
 *
 * <p>Name lookups ({@link #nodeIndex}, {@link #hasLink(String, String)}) scan the lists: they are
 * meant for building and checking scenarios, not for per-packet work.
 *
 * @param name a short description ("leaf-spine 4x2, 32 hosts")
 * @param hosts number of host NICs, at least 1
 * @param switches number of switches, at least 0
 * @param links the links
 * @param tiers switch level of each switch ({@link Tier#level()}: 0 = leaf/ToR, 1 = spine,
 *              2 = core), length {@code switches}
 * @param nodeNames name of each node, hosts first, length {@code hosts + switches}, distinct and not blank
 */
public record Topology(String name, int hosts, int switches, List<LinkSpec> links, List<Integer> tiers,
        List<String> nodeNames) {
    /** Validates node indices, tiers, names, and that every host has exactly one link. */
    public Topology {
        Parameters.notBlank("name", name);
        Parameters.atLeast("hosts", hosts, 1);
        Parameters.atLeast("switches", switches, 0);
        links = List.copyOf(Parameters.noNullElements("links", links));
        tiers = List.copyOf(Parameters.noNullElements("tiers", tiers));
        if (tiers.size() != switches) {
            throw new IllegalArgumentException("tiers must have one entry per switch (" + switches + "), got " + tiers.size());
        }
        for (int s = 0; s < switches; s++) {
            Parameters.inRange("tiers[" + s + "]", tiers.get(s), 0, Tier.MAX_LEVEL);
        }
        nodeNames = List.copyOf(Parameters.noNullElements("nodeNames", nodeNames));
        if ((long) hosts + switches != nodeNames.size()) { // long: hosts + switches may overflow an int
            throw new IllegalArgumentException("nodeNames must have one entry per node (hosts + switches = "
                    + ((long) hosts + switches) + "), got " + nodeNames.size());
        }
        int nodes = hosts + switches;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < nodes; i++) {
            Parameters.notBlank("nodeNames[" + i + "]", nodeNames.get(i));
            if (!seen.add(nodeNames.get(i))) {
                throw new IllegalArgumentException("nodeNames must be distinct, got \"" + nodeNames.get(i) + "\" twice");
            }
        }
        int[] hostLinks = new int[hosts];
        for (LinkSpec l : links) {
            if (l.nodeA() >= nodes || l.nodeB() >= nodes) {
                throw new IllegalArgumentException("links must join nodes in [0, " + nodes + "), got " + l);
            }
            if (l.nodeA() < hosts) {
                hostLinks[l.nodeA()]++;
            }
            if (l.nodeB() < hosts) {
                hostLinks[l.nodeB()]++;
            }
        }
        for (int h = 0; h < hosts; h++) {
            if (hostLinks[h] != 1) {
                throw new IllegalArgumentException("links must give host " + h + " (\"" + nodeNames.get(h)
                        + "\") exactly one link (one NIC port), got " + hostLinks[h]);
            }
        }
    }

    /**
     * A topology with the default node names ("host0", ..., "leaf1", ..., "spine1", ..., "core1", ...).
     *
     * @param name a short description
     * @param hosts number of host NICs, at least 1 and at most {@code links.size()} (each host has one link)
     * @param switches number of switches, at least 0
     * @param links the links, no null element
     * @param tiers switch level of each switch (0 leaf, 1 spine, 2 core)
     */
    public Topology(String name, int hosts, int switches, List<LinkSpec> links, List<Integer> tiers) {
        this(name, hosts, switches, links, tiers, defaultNames(hosts, links, tiers));
    }

    private static List<String> defaultNames(int hosts, List<LinkSpec> links, List<Integer> tiers) {
        if (tiers == null || links == null || hosts < 0) {
            return null; // the canonical constructor reports the bad argument
        }
        if (hosts > links.size()) { // before a name is built for each: every host needs a link of its own
            throw new IllegalArgumentException("hosts must be at most links.size() = " + links.size()
                    + " (every host has exactly one link), got " + hosts);
        }
        List<String> names = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            names.add("host" + h);
        }
        int[] perLevel = new int[Tier.MAX_LEVEL + 1];
        for (int s = 0; s < tiers.size(); s++) {
            Integer level = tiers.get(s);
            if (level == null || level < 0 || level > Tier.MAX_LEVEL) {
                names.add("switch" + s); // rejected by the canonical constructor
            } else {
                names.add(Tier.ofLevel(level).name().toLowerCase(java.util.Locale.ROOT) + (++perLevel[level]));
            }
        }
        return names;
    }

    /** Number of nodes (hosts + switches). */
    public int nodes() {
        return hosts + switches;
    }

    /** Node index of switch {@code s}. */
    public int switchNode(int s) {
        Parameters.inRange("s", s, 0, switches - 1);
        return hosts + s;
    }

    /**
     * Name of node {@code node}.
     *
     * @param node node index in [0, nodes())
     */
    public String nodeName(int node) {
        Parameters.inRange("node", node, 0, nodes() - 1);
        return nodeNames.get(node);
    }

    /**
     * Index of the node called {@code name}.
     *
     * @throws IllegalArgumentException naming the node if there is none of that name
     */
    public int nodeIndex(String name) {
        return nodeIndex("name", name);
    }

    /** The index of node {@code value}; a failure names the caller's parameter {@code parameter}. */
    private int nodeIndex(String parameter, String value) {
        Parameters.notNull(parameter, value);
        int i = nodeNames.indexOf(value);
        if (i < 0) {
            throw new IllegalArgumentException(parameter + " must name a node of topology \"" + this.name + "\", got \""
                    + value + "\"");
        }
        return i;
    }

    /** Whether a node called {@code name} exists. */
    public boolean hasNode(String name) {
        Parameters.notNull("name", name);
        return nodeNames.contains(name);
    }

    /**
     * Tier of node {@code node}: {@link Tier#HOST} for hosts, the switch's tier otherwise.
     *
     * @param node node index in [0, nodes())
     */
    public Tier tier(int node) {
        Parameters.inRange("node", node, 0, nodes() - 1);
        return node < hosts ? Tier.HOST : Tier.ofLevel(tiers.get(node - hosts));
    }

    /** Tier of the node called {@code name}; fails naming the node if it is unknown. */
    public Tier tier(String name) {
        return tier(nodeIndex(name));
    }

    /**
     * The largest path cost from any of {@code sources} to any other host, along shortest paths (fewest links; among
     * those the costliest), a path's cost being the sum of {@code linkCost} over its links; hosts do not forward. The
     * transports' base RTTs use it, each with its own per-link term.
     *
     * @param sources host indices to start from
     * @param linkCost a link's contribution to a path's cost (for example twice its delay plus a serialization) [ps]
     * @return the largest cost [ps], 0 when no other host is reachable
     */
    public long longestShortestPathCost(int[] sources, ToLongFunction<LinkSpec> linkCost) {
        Parameters.notNull("sources", sources);
        Parameters.notNull("linkCost", linkCost);
        int n = nodes();
        List<List<LinkSpec>> adjacent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            adjacent.add(new ArrayList<>());
        }
        for (LinkSpec l : links) {
            adjacent.get(l.nodeA()).add(l);
            adjacent.get(l.nodeB()).add(l);
        }
        long longest = 0;
        int[] hops = new int[n];
        long[] cost = new long[n];
        for (int s : sources) {
            Parameters.inRange("sources[]", s, 0, hosts - 1);
            Arrays.fill(hops, -1);
            Arrays.fill(cost, 0);
            hops[s] = 0;
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            queue.add(s);
            while (!queue.isEmpty()) {
                int u = queue.poll();
                if (u < hosts && u != s) {
                    longest = Math.max(longest, cost[u]);
                    continue; // hosts do not forward
                }
                for (LinkSpec l : adjacent.get(u)) {
                    int v = l.nodeA() == u ? l.nodeB() : l.nodeA();
                    long c = cost[u] + linkCost.applyAsLong(l);
                    if (hops[v] < 0) {
                        hops[v] = hops[u] + 1;
                        cost[v] = c;
                        queue.add(v);
                    } else if (hops[v] == hops[u] + 1 && c > cost[v]) {
                        cost[v] = c;
                    }
                }
            }
        }
        return longest;
    }

    /** Whether at least one link joins nodes {@code a} and {@code b} (either direction). */
    public boolean hasLink(int a, int b) {
        for (LinkSpec l : links) {
            if ((l.nodeA() == a && l.nodeB() == b) || (l.nodeA() == b && l.nodeB() == a)) {
                return true;
            }
        }
        return false;
    }

    /** Whether at least one link joins the nodes called {@code a} and {@code b}; fails on an unknown name. */
    public boolean hasLink(String a, String b) {
        return hasLink(nodeIndex("a", a), nodeIndex("b", b));
    }

    /**
     * The same fabric without the links between the nodes called {@code a} and {@code b} (all
     * parallel ones): a failed cable. Node indices and names are unchanged; the remaining links keep
     * their order.
     *
     * @throws IllegalArgumentException if a name is unknown, no link joins them, or a host would be
     *                                  left without its link
     */
    public Topology withoutLink(String a, String b) {
        int ia = nodeIndex("a", a);
        int ib = nodeIndex("b", b);
        List<LinkSpec> kept = new ArrayList<>();
        for (LinkSpec l : links) {
            if (!((l.nodeA() == ia && l.nodeB() == ib) || (l.nodeA() == ib && l.nodeB() == ia))) {
                kept.add(l);
            }
        }
        if (kept.size() == links.size()) {
            throw new IllegalArgumentException("link " + a + "-" + b + " is not in topology \"" + name + "\"");
        }
        return new Topology(name + ", without " + a + "-" + b, hosts, switches, kept, tiers, nodeNames);
    }

    /**
     * The same fabric with the links between the nodes called {@code a} and {@code b} (all parallel ones) running at
     * {@code rateBitsPerSecond} in both directions: a degraded cable (a port that came up at a lower speed, or lost
     * lanes), as the UEC reference simulator's {@code -failed} option degrades a leaf's link to a spine to 25 % of its
     * rate (uet-htsim {@code htsim/sim/datacenter/fat_tree_topology.cpp}, {@code alloc_queue} with
     * {@code reduced_speed}). Propagation delays, node indices, names and the links' order are unchanged, so port
     * numbers and {@code LeafSpine.uplinkIndex} still name the same links. The buffer of the ports on those links is
     * the run's to set ({@code BufferPlan.withPortLimit}).
     *
     * @param a one end's name
     * @param b the other end's name
     * @param rateBitsPerSecond the links' new rate in bit/s, at least 1
     * @throws IllegalArgumentException if a name is unknown, no link joins them, or the rate is below 1
     */
    public Topology withLinkRate(String a, String b, long rateBitsPerSecond) {
        int ia = nodeIndex("a", a);
        int ib = nodeIndex("b", b);
        Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
        List<LinkSpec> out = new ArrayList<>(links.size());
        boolean found = false;
        for (LinkSpec l : links) {
            if ((l.nodeA() == ia && l.nodeB() == ib) || (l.nodeA() == ib && l.nodeB() == ia)) {
                out.add(new LinkSpec(l.nodeA(), l.nodeB(), rateBitsPerSecond, l.propagationPs()));
                found = true;
            } else {
                out.add(l);
            }
        }
        if (!found) {
            throw new IllegalArgumentException("link " + a + "-" + b + " is not in topology \"" + name + "\"");
        }
        return new Topology(name + ", " + a + "-" + b + " at " + rateBitsPerSecond + " bit/s", hosts, switches, out, tiers,
                nodeNames);
    }

    /**
     * A single switch with {@code hosts} hosts, each on its own link (the incast topology).
     *
     * @param hosts number of hosts, at least 2
     * @param rateBitsPerSecond host link rate in bit/s
     * @param propagationPs per-link propagation delay in ps
     */
    public static Topology singleSwitch(int hosts, long rateBitsPerSecond, long propagationPs) {
        Parameters.inRange("hosts", hosts, 2, 1 << 20); // the leaf-spine's limit too
        List<LinkSpec> links = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            links.add(new LinkSpec(h, hosts, rateBitsPerSecond, propagationPs));
        }
        return new Topology("single switch, " + hosts + " hosts", hosts, 1, links, List.of(0));
    }

    /**
     * A single switch whose hosts have individual link rates (e.g. n senders at r and one receiver
     * at R), all with the same propagation delay.
     *
     * @param ratesBitsPerSecond one rate per host, at least 2 hosts
     * @param propagationPs per-link propagation delay in ps
     */
    public static Topology singleSwitch(long[] ratesBitsPerSecond, long propagationPs) {
        Parameters.notNull("ratesBitsPerSecond", ratesBitsPerSecond);
        Parameters.atLeast("ratesBitsPerSecond.length", ratesBitsPerSecond.length, 2);
        int n = ratesBitsPerSecond.length;
        List<LinkSpec> links = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            links.add(new LinkSpec(h, n, ratesBitsPerSecond[h], propagationPs));
        }
        return new Topology("single switch, " + n + " hosts", n, 1, links, List.of(0));
    }

    /**
     * A builder of a topology with named nodes: add nodes (hosts and switches, in any order), then
     * links between them by name. {@link Builder#build()} numbers the hosts first, in the order they
     * were added, then the switches in the order they were added.
     *
     * @param name a short description of the fabric
     */
    public static Builder builder(String name) {
        return new Builder(Parameters.notBlank("name", name));
    }

    /** Mutable builder of a {@link Topology} with named nodes; see {@link Topology#builder(String)}. */
    public static final class Builder {
        private final String name;
        private final Map<String, Tier> nodes = new LinkedHashMap<>();
        private final List<String[]> linkEnds = new ArrayList<>();
        private final List<long[]> linkParams = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Adds a node.
         *
         * @param name unique, not blank
         * @param tier {@link Tier#HOST} for a host NIC, else the switch's tier
         */
        public Builder node(String name, Tier tier) {
            Parameters.notBlank("name", name);
            Parameters.notNull("tier", tier);
            if (nodes.containsKey(name)) {
                throw new IllegalArgumentException("name must be unique, \"" + name + "\" is already a node");
            }
            nodes.put(name, tier);
            return this;
        }

        /**
         * Adds a full-duplex link between two nodes added before.
         *
         * @param a one end (node name)
         * @param b other end (node name), different from {@code a}
         * @param rateBitsPerSecond line rate of each direction in bit/s, positive
         * @param propagationPs propagation delay in ps, not negative
         */
        public Builder link(String a, String b, long rateBitsPerSecond, long propagationPs) {
            Parameters.notNull("a", a);
            Parameters.notNull("b", b);
            for (String[] end : new String[][] {{"a", a}, {"b", b}}) {
                if (!nodes.containsKey(end[1])) {
                    throw new IllegalArgumentException(end[0] + " must name a node added before the link, got \"" + end[1] + "\"");
                }
            }
            if (a.equals(b)) {
                throw new IllegalArgumentException("b must differ from a (no self-loops), got \"" + a + "\"");
            }
            Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
            Parameters.atLeast("propagationPs", propagationPs, 0L);
            linkEnds.add(new String[] {a, b});
            linkParams.add(new long[] {rateBitsPerSecond, propagationPs});
            return this;
        }

        /** The topology: hosts numbered first, then switches, each in insertion order. */
        public Topology build() {
            List<String> names = new ArrayList<>();
            nodes.forEach((n, t) -> {
                if (t == Tier.HOST) {
                    names.add(n);
                }
            });
            int hosts = names.size();
            List<Integer> tiers = new ArrayList<>();
            nodes.forEach((n, t) -> {
                if (t != Tier.HOST) {
                    names.add(n);
                    tiers.add(t.level());
                }
            });
            Map<String, Integer> index = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                index.put(names.get(i), i);
            }
            List<LinkSpec> links = new ArrayList<>();
            for (int k = 0; k < linkEnds.size(); k++) {
                links.add(new LinkSpec(index.get(linkEnds.get(k)[0]), index.get(linkEnds.get(k)[1]),
                        linkParams.get(k)[0], linkParams.get(k)[1]));
            }
            return new Topology(name, hosts, tiers.size(), links, tiers, names);
        }
    }
}
