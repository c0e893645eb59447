package fabriclab.flowcontrol;

import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Tier;
import fabriclab.fabric.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BufferDependencyGraphTest {
    private static final long G100 = 100_000_000_000L;

    /** A leaf-spine with one single-NIC server per leaf, every link at 100G, 500 ns (100 m). */
    private static Topology leafSpine(int leaves, int spines) {
        return new LeafSpine(leaves, 1, leaves, spines, G100, G100, 1, 500_000, 500_000).build();
    }

    /** Ring A-B-C-D-A; each flow goes two hops clockwise: the classic 4-switch PFC deadlock. */
    @Test
    void handBuiltFourSwitchRingCycleIsFound() {
        Topology.Builder b = Topology.builder("ring of four switches");
        for (String s : List.of("A", "B", "C", "D")) {
            b.node(s, Tier.SPINE).node("h" + s, Tier.HOST).link("h" + s, s, G100, 0);
        }
        Topology t = b.link("A", "B", G100, 0).link("B", "C", G100, 0).link("C", "D", G100, 0).link("D", "A", G100, 0)
                .build();
        List<RoutedFlow> flows = List.of(
                new RoutedFlow("f1", List.of("A", "B", "C"), 3),
                new RoutedFlow("f2", List.of("B", "C", "D"), 3),
                new RoutedFlow("f3", List.of("C", "D", "A"), 3),
                new RoutedFlow("f4", List.of("D", "A", "B"), 3));
        BufferDependencyGraph g = BufferDependencyGraph.build(t, flows);
        // edges: (B<-A) -> (C<-B), (C<-B) -> (D<-C), (D<-C) -> (A<-D), (A<-D) -> (B<-A)
        assertEquals(4, g.edgeCount());
        List<BufferDependencyGraph.Cycle> cycles = g.cycles();
        assertEquals(1, cycles.size());
        assertEquals(4, cycles.get(0).queues().size());
        assertEquals(Set.of("f1", "f2", "f3", "f4"), cycles.get(0).flows());
        // dropping one flow opens the ring
        assertTrue(BufferDependencyGraph.build(t, flows.subList(0, 3)).isAcyclic());
        // a different priority for one flow also opens it
        List<RoutedFlow> split = List.of(flows.get(0), flows.get(1), flows.get(2), new RoutedFlow("f4", List.of("D", "A", "B"), 4));
        assertTrue(BufferDependencyGraph.build(t, split).isAcyclic());
    }

    @Test
    void upDownRoutingInAHealthyLeafSpineHasNoCycle() {
        Topology t = leafSpine(4, 2);
        List<RoutedFlow> flows = new java.util.ArrayList<>();
        int k = 0;
        for (int a = 1; a <= 4; a++) {
            for (int c = 1; c <= 4; c++) {
                if (a != c) {
                    for (int s = 1; s <= 2; s++) {
                        flows.add(new RoutedFlow("f" + k++, List.of("leaf" + a, "spine" + s, "leaf" + c), 3));
                    }
                }
            }
        }
        assertTrue(BufferDependencyGraph.build(t, flows).isAcyclic());
    }

    /** 003 figures 18 and 19: two link failures force two flows to bounce; cycle leaf2-spine2-leaf1-spine1. */
    @Test
    void bouncedFlowsCloseTheCycleOf003AndHookRemapRemovesIt() {
        Topology t = DeadlockTopologies.huaweiWhitePaperClos(2, G100, 500_000);
        List<RoutedFlow> flows = List.of(
                new RoutedFlow("hook1", List.of("leaf1", "spine1", "leaf2", "spine2", "leaf3"), 3),
                new RoutedFlow("hook2", List.of("leaf2", "spine2", "leaf1", "spine1", "leaf4"), 3),
                new RoutedFlow("normal", List.of("leaf1", "spine2", "leaf3"), 3));
        assertTrue(BufferDependencyGraph.isHook(t, flows.get(0)));
        assertFalse(BufferDependencyGraph.isHook(t, flows.get(2)));
        BufferDependencyGraph g = BufferDependencyGraph.build(t, flows);
        List<BufferDependencyGraph.Cycle> cycles = g.cycles();
        assertEquals(1, cycles.size());
        Set<BufferDependencyGraph.Queue> expected = Set.of(
                new BufferDependencyGraph.Queue("spine1", "leaf1", 3),
                new BufferDependencyGraph.Queue("leaf2", "spine1", 3),
                new BufferDependencyGraph.Queue("spine2", "leaf2", 3),
                new BufferDependencyGraph.Queue("leaf1", "spine2", 3));
        assertEquals(expected, Set.copyOf(cycles.get(0).queues()));
        assertEquals(Set.of("hook1", "hook2"), cycles.get(0).flows());
        BufferDependencyGraph fixed = BufferDependencyGraph.buildWithHookRemap(t, flows, 5);
        assertTrue(fixed.isAcyclic());
        // remapped: the queue after the bounce is on priority 5
        assertTrue(fixed.queues().contains(new BufferDependencyGraph.Queue("spine2", "leaf2", 5)));
    }

    /**
     * A route from host to host: the first switch's ingress queue from the host is a queue (it can
     * be paused), the host at the end owns none. host0 -> leaf1 -> spine1 -> leaf2 -> host1 gives
     * (leaf1 from host0) -> (spine1 from leaf1) -> (leaf2 from spine1): three queues, two edges.
     */
    @Test
    void hostToHostRouteStartsAtTheFirstSwitchIngress() {
        Topology t = leafSpine(2, 1);
        BufferDependencyGraph g = BufferDependencyGraph.build(t,
                List.of(new RoutedFlow("h", List.of("host0", "leaf1", "spine1", "leaf2", "host1"), 3)));
        assertEquals(Set.of(new BufferDependencyGraph.Queue("leaf1", "host0", 3),
                new BufferDependencyGraph.Queue("spine1", "leaf1", 3),
                new BufferDependencyGraph.Queue("leaf2", "spine1", 3)), g.queues());
        assertEquals(2, g.edgeCount());
        assertTrue(g.isAcyclic());
    }

    @Test
    void badInput() {
        Topology t = leafSpine(2, 2).withoutLink("leaf1", "spine1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BufferDependencyGraph.build(t, List.of(new RoutedFlow("x", List.of("leaf1", "spine1", "leaf2"), 3))));
        assertTrue(e.getMessage().contains("missing link leaf1-spine1"));
        e = assertThrows(IllegalArgumentException.class, () -> BufferDependencyGraph.build(t, List.of()));
        assertTrue(e.getMessage().contains("flows"));
        e = assertThrows(IllegalArgumentException.class, () -> new RoutedFlow("y", List.of("leaf1"), 3));
        assertTrue(e.getMessage().contains("route"));
        e = assertThrows(IllegalArgumentException.class, () -> new RoutedFlow("y", List.of("leaf1", "spine2"), 8));
        assertTrue(e.getMessage().contains("priority"));
        e = assertThrows(IllegalArgumentException.class,
                () -> BufferDependencyGraph.build(t, List.of(new RoutedFlow("z", List.of("leaf1", "spine9"), 3))));
        assertTrue(e.getMessage().contains("spine9"));
    }
}
