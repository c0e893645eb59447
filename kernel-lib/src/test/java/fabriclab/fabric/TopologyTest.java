package fabriclab.fabric;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TopologyTest {
    private static final long G100 = 100_000_000_000L;

    private static void fails(String name, Runnable r) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(name), e.getMessage());
    }

    /** A leaf-spine's nodes carry the names of 003's figures: host0.., leaf1.., spine1.., with their tiers. */
    @Test
    void leafSpineHasDefaultNamesAndTiers() {
        Topology t = new LeafSpine(4, 1, 2, 2, G100, G100, 1, 0, 0).build();
        assertEquals(List.of("host0", "host1", "host2", "host3", "leaf1", "leaf2", "spine1", "spine2"), t.nodeNames());
        for (int i = 0; i < t.nodes(); i++) {
            assertEquals(i, t.nodeIndex(t.nodeName(i)));
        }
        assertEquals(Tier.HOST, t.tier(3));
        assertEquals(Tier.LEAF, t.tier("leaf2"));
        assertEquals(Tier.SPINE, t.tier(t.switchNode(3)));
        // host g sits on leaf g / nicsPerLeaf (2 per leaf): host2 on leaf2
        assertTrue(t.hasLink("host2", "leaf2"));
        assertFalse(t.hasLink("host2", "leaf1"));
        assertTrue(t.hasLink("spine2", "leaf1"));
        assertFalse(t.hasLink("leaf1", "leaf2"));
    }

    /** The five-argument constructor the simulator uses gives the default names, tier by tier. */
    @Test
    void fiveArgumentConstructorNamesByTier() {
        Topology t = new Topology("three tiers", 2, 3, List.of(new LinkSpec(0, 2, G100, 0), new LinkSpec(1, 3, G100, 0),
                new LinkSpec(2, 4, G100, 0), new LinkSpec(3, 4, G100, 0)), List.of(0, 0, 2));
        assertEquals(List.of("host0", "host1", "leaf1", "leaf2", "core1"), t.nodeNames());
        assertEquals(Tier.CORE, t.tier("core1"));
        assertEquals(List.of("host0", "host1", "host2", "leaf1"), Topology.singleSwitch(3, G100, 0).nodeNames());
    }

    /** The builder numbers hosts first, whatever the order of the calls, and keeps the link rates. */
    @Test
    void builderNumbersHostsFirstAndKeepsRates() {
        Topology t = Topology.builder("two servers on one switch")
                .node("tor", Tier.LEAF)
                .node("server-a", Tier.HOST)
                .node("server-b", Tier.HOST)
                .link("server-a", "tor", G100, 500_000)
                .link("tor", "server-b", 25_000_000_000L, 1_000)
                .build();
        assertEquals(2, t.hosts());
        assertEquals(1, t.switches());
        assertEquals(List.of("server-a", "server-b", "tor"), t.nodeNames());
        assertEquals(List.of(0), t.tiers());
        assertEquals(new LinkSpec(0, 2, G100, 500_000), t.links().get(0));
        assertEquals(new LinkSpec(2, 1, 25_000_000_000L, 1_000), t.links().get(1));
    }

    /** Removing a failed cable drops every parallel link of that pair and nothing else. */
    @Test
    void withoutLinkRemovesEveryParallelLinkOfThePair() {
        Topology t = new LeafSpine(4, 1, 2, 2, G100, G100, 2, 0, 0).build();
        Topology cut = t.withoutLink("leaf1", "spine2");
        assertEquals(t.links().size() - 2, cut.links().size());
        assertFalse(cut.hasLink("leaf1", "spine2"));
        assertTrue(cut.hasLink("leaf1", "spine1"));
        assertEquals(t.nodeNames(), cut.nodeNames());
        fails("leaf1-spine2", () -> cut.withoutLink("leaf1", "spine2"));
        fails("host 0", () -> t.withoutLink("host0", "leaf1")); // a host may not lose its only port
    }

    /** A degraded cable keeps every link, index and name; only that pair's links (all parallel ones) change rate. */
    @Test
    void withLinkRateSlowsEveryParallelLinkOfThePairAndNothingElse() {
        Topology t = new LeafSpine(4, 1, 2, 2, G100, G100, 2, 0, 1_000).build();
        Topology slow = t.withLinkRate("leaf1", "spine2", 25_000_000_000L);
        assertEquals(t.links().size(), slow.links().size());
        assertEquals(t.nodeNames(), slow.nodeNames());
        int changed = 0;
        for (int i = 0; i < t.links().size(); i++) {
            LinkSpec a = t.links().get(i);
            LinkSpec b = slow.links().get(i);
            assertEquals(a.nodeA(), b.nodeA());
            assertEquals(a.nodeB(), b.nodeB());
            assertEquals(a.propagationPs(), b.propagationPs());
            if (a.rateBitsPerSecond() != b.rateBitsPerSecond()) {
                changed++;
                assertEquals(25_000_000_000L, b.rateBitsPerSecond());
                assertEquals(java.util.Set.of(t.nodeIndex("leaf1"), t.nodeIndex("spine2")),
                        java.util.Set.of(b.nodeA(), b.nodeB()));
            }
        }
        assertEquals(2, changed); // the two parallel links
        fails("rateBitsPerSecond", () -> t.withLinkRate("leaf1", "spine2", 0));
        fails("leaf1-leaf2", () -> t.withLinkRate("leaf1", "leaf2", 1));
        fails("\"nowhere\"", () -> t.withLinkRate("nowhere", "spine2", 1));
    }

    @Test
    void badInputNamesTheParameter() {
        fails("tiers[0]", () -> new Topology("bad tier", 2, 1, List.of(new LinkSpec(0, 2, 1, 0), new LinkSpec(1, 2, 1, 0)),
                List.of(3)));
        fails("nodeNames", () -> new Topology("dup", 2, 1, List.of(new LinkSpec(0, 2, 1, 0), new LinkSpec(1, 2, 1, 0)),
                List.of(0), List.of("a", "a", "s")));
        fails("nodeNames", () -> new Topology("short", 2, 1, List.of(new LinkSpec(0, 2, 1, 0), new LinkSpec(1, 2, 1, 0)),
                List.of(0), List.of("a", "b")));
        fails("exactly one link", () -> Topology.builder("two ports").node("h", Tier.HOST).node("s1", Tier.LEAF)
                .node("s2", Tier.LEAF).link("h", "s1", 1, 0).link("h", "s2", 1, 0).build());
        fails("unique", () -> Topology.builder("x").node("a", Tier.LEAF).node("a", Tier.SPINE));
        fails("\"b\"", () -> Topology.builder("x").node("a", Tier.LEAF).link("a", "b", 1, 0));
        fails("rateBitsPerSecond", () -> Topology.builder("x").node("a", Tier.LEAF).node("b", Tier.HOST).link("a", "b", 0, 0));
        fails("hosts", () -> Topology.builder("no hosts").node("a", Tier.LEAF).build());
        Topology t = Topology.singleSwitch(2, G100, 0);
        fails("nowhere", () -> t.nodeIndex("nowhere"));
        fails("node", () -> t.nodeName(3));
        fails("level", () -> Tier.ofLevel(3));
        assertThrows(IllegalStateException.class, Tier.HOST::level);
        for (Tier tier : List.of(Tier.LEAF, Tier.SPINE, Tier.CORE)) {
            assertEquals(tier, Tier.ofLevel(tier.level()));
        }
    }

    @Test
    void moreHostsThanLinksIsRejectedBeforeTheDefaultNamesAreBuilt() {
        List<LinkSpec> links = List.of(new LinkSpec(0, 2, 1000, 0), new LinkSpec(1, 2, 1000, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Topology("t", Integer.MAX_VALUE, 1, links, List.of(0)));
        assertTrue(e.getMessage().startsWith("hosts must be at most links.size() = 2"), e.getMessage());
        assertEquals(List.of("host0", "host1", "leaf1"), new Topology("t", 2, 1, links, List.of(0)).nodeNames());
    }

    @Test
    void hostsPlusSwitchesIsCountedWithoutOverflow() {
        List<LinkSpec> links = List.of(new LinkSpec(0, 2, 1000, 0), new LinkSpec(1, 2, 1000, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Topology("t", Integer.MAX_VALUE, 1, links, List.of(0), List.of("a", "b", "s")));
        // 2^31 - 1 hosts + 1 switch = 2^31 nodes, not the int overflow -2^31
        assertTrue(e.getMessage().contains("hosts + switches = 2147483648"), e.getMessage());
    }

    @Test
    void anUnknownNodeIsReportedUnderTheCallersParameter() {
        Topology t = Topology.singleSwitch(2, 1000, 0); // host0, host1, leaf1
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.hasLink("host0", "spine9"));
        assertTrue(e.getMessage().startsWith("b must name a node"), e.getMessage());
        assertTrue(t.hasLink("host0", "leaf1"));
    }
}
