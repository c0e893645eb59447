package fabriclab.flowcontrol;

import fabriclab.Parameters;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An undirected switch topology with a tier per node (host, leaf, spine), enough to route flows and
 * build the PFC buffer dependency graph (003 section 4.1, figures 18 to 21). Immutable; build it with
 * {@link #builder()}.
 */
public final class Topology {
    /** Tier of a node in a leaf-spine (CLOS) fabric. */
    public enum Tier { HOST, LEAF, SPINE }

    private final Map<String, Tier> tiers;
    private final Map<String, Set<String>> links;

    private Topology(Map<String, Tier> tiers, Map<String, Set<String>> links) {
        this.tiers = Collections.unmodifiableMap(tiers);
        this.links = Collections.unmodifiableMap(links);
    }

    /** A new empty builder. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A two-tier leaf-spine fabric, leaves "leaf1".."leafL", spines "spine1".."spineS", fully meshed,
     * without the links listed in {@code failed} (pairs "leafX-spineY").
     */
    public static Topology leafSpine(int leaves, int spines, Set<String> failed) {
        Parameters.atLeast("leaves", leaves, 1);
        Parameters.atLeast("spines", spines, 1);
        Parameters.notNull("failed", failed);
        Builder b = builder();
        for (int l = 1; l <= leaves; l++) {
            b.node("leaf" + l, Tier.LEAF);
        }
        for (int s = 1; s <= spines; s++) {
            b.node("spine" + s, Tier.SPINE);
        }
        for (int l = 1; l <= leaves; l++) {
            for (int s = 1; s <= spines; s++) {
                if (!failed.contains("leaf" + l + "-spine" + s)) {
                    b.link("leaf" + l, "spine" + s);
                }
            }
        }
        return b.build();
    }

    /** Tier of a node; fails if the node is unknown. */
    public Tier tier(String node) {
        Tier t = tiers.get(Parameters.notNull("node", node));
        if (t == null) {
            throw new IllegalArgumentException("node '" + node + "' is not in the topology");
        }
        return t;
    }

    /** Whether a link a-b exists. */
    public boolean hasLink(String a, String b) {
        return links.getOrDefault(a, Set.of()).contains(b);
    }

    /** Nodes in insertion order. */
    public Set<String> nodes() {
        return tiers.keySet();
    }

    /** Fails with a message naming the missing node or link if the route cannot be followed. */
    public void checkRoute(String flow, List<String> route) {
        Parameters.notNull("route", route);
        if (route.size() < 2) {
            throw new IllegalArgumentException("route of flow '" + flow + "' must have at least 2 nodes, got " + route);
        }
        for (String n : route) {
            tier(n);
        }
        for (int i = 0; i + 1 < route.size(); i++) {
            if (!hasLink(route.get(i), route.get(i + 1))) {
                throw new IllegalArgumentException("route of flow '" + flow + "' uses a missing link "
                        + route.get(i) + "-" + route.get(i + 1));
            }
        }
    }

    /** Mutable builder. */
    public static final class Builder {
        private final Map<String, Tier> tiers = new LinkedHashMap<>();
        private final Map<String, Set<String>> links = new LinkedHashMap<>();

        private Builder() {
        }

        /** Adds a node. */
        public Builder node(String name, Tier tier) {
            Parameters.notBlank("name", name);
            Parameters.notNull("tier", tier);
            tiers.put(name, tier);
            links.putIfAbsent(name, new LinkedHashSet<>());
            return this;
        }

        /** Adds an undirected link between two existing nodes. */
        public Builder link(String a, String b) {
            for (String n : List.of(Parameters.notNull("a", a), Parameters.notNull("b", b))) {
                if (!tiers.containsKey(n)) {
                    throw new IllegalArgumentException("link endpoint '" + n + "' is not a node");
                }
            }
            if (a.equals(b)) {
                throw new IllegalArgumentException("link must join two different nodes, got " + a + "-" + b);
            }
            links.get(a).add(b);
            links.get(b).add(a);
            return this;
        }

        /** The immutable topology. */
        public Topology build() {
            Map<String, Set<String>> copy = new LinkedHashMap<>();
            links.forEach((k, v) -> copy.put(k, Collections.unmodifiableSet(new LinkedHashSet<>(v))));
            return new Topology(new LinkedHashMap<>(tiers), copy);
        }
    }
}
