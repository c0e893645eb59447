package fabriclab.simulation;

import static fabriclab.TestArguments.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.Incast;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcDynamicThreshold;
import fabriclab.fabric.Tier;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.simulation.SimulationResult.DropSite;
import fabriclab.simulation.SimulationResult.PortPfc;
import fabriclab.simulation.SimulationResult.QueueTrace;
import fabriclab.simulation.config.BufferPlan;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link BufferPlan}: buffers per switch tier or switch, queue limits per port, in the packet simulator. The expected
 * places and counts come from the topology and the admission rule (a packet is tail-dropped when its switch's shared
 * buffer or its queue's limit would be exceeded), not from earlier runs.
 */
class BufferPlanTest {
    static final long G100 = 100_000_000_000L;
    static final SwitchBuffer LARGE = new SwitchBuffer(10_000_000, 10_000_000, EcnMarking.OFF);

    /** 1000 B packets with no header (one packet = 1000 wire bytes), a 10 MB buffer in every switch, {@code plan}. */
    static SimulationConfig config(BufferPlan plan) {
        return SimulationConfig.builder().mtuBytes(1000).headerBytes(0).buffer(LARGE).seed(3).bufferPlan(plan).build();
    }

    /** Three leaves of two hosts under one spine, one 100G link each, 1 us per link. */
    static Topology threeLeaves() {
        return new LeafSpine(6, 1, 3, 1, G100, G100, 1, Time.US, Time.US).build();
    }

    /**
     * Three leaves of two hosts under one spine, hosts on 100G links and leaves on 400G uplinks (the leaf speeds of
     * seed 000's testbed: 100GE down, 400GE up), 1 us per link: four senders on two leaves reach host 0's leaf at
     * 400G, which only its 100G host port must absorb.
     */
    static Topology fastUplinks() {
        return new LeafSpine(6, 1, 3, 1, G100, 4 * G100, 1, Time.US, Time.US).build();
    }

    /** The port of switch {@code sw} whose link leads to {@code peer}: its index among the links that touch it. */
    static int portToward(Topology t, String sw, String peer) {
        int node = t.nodeIndex(sw);
        int other = t.nodeIndex(peer);
        int port = 0;
        for (LinkSpec l : t.links()) {
            if (l.nodeA() == node || l.nodeB() == node) {
                if (l.nodeA() == other || l.nodeB() == other) {
                    return port;
                }
                port++;
            }
        }
        throw new AssertionError(sw + " has no link to " + peer);
    }

    /** The leaf that host {@code h} hangs from. */
    static String leafOf(Topology t, int h) {
        for (LinkSpec l : t.links()) {
            if (l.nodeA() == h || l.nodeB() == h) {
                return t.nodeName(l.nodeA() == h ? l.nodeB() : l.nodeA());
            }
        }
        throw new AssertionError("host " + h + " has no link");
    }

    /** Every host not on host 0's leaf sends {@code bytes} to host 0, all from time 0. */
    static List<FlowSpec> incastToHost0(Topology t, long bytes) {
        List<FlowSpec> flows = new ArrayList<>();
        for (int h = 1; h < t.hosts(); h++) {
            if (!leafOf(t, h).equals(leafOf(t, 0))) {
                flows.add(FlowSpec.of(h, 0, bytes, 0));
            }
        }
        return flows;
    }

    /** Conservation: every payload byte injected was delivered or dropped (the transport sends each byte once). */
    static void assertConserved(SimulationResult r, long sentBytes) {
        assertEquals(sentBytes, r.injectedBytes());
        assertEquals(0, r.inFlightBytes());
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes());
    }

    /** The tiers of the switches that dropped packets. */
    static Set<Tier> dropTiers(Topology t, SimulationResult r) {
        Set<Tier> tiers = new TreeSet<>();
        for (DropSite d : r.drops()) {
            tiers.add(t.tier(d.node()));
        }
        return tiers;
    }

    /**
     * Four hosts on the other two leaves send 200 KB each to host 0 through the spine over 400G uplinks, so only host
     * 0's port on its leaf is a bottleneck (400G in, 100G out); it alone is limited to 30 KB. Every other queue may
     * hold the whole 10 MB buffer, which the 800 KB sent cannot fill, so the drops are all at that port; it tail-drops only a packet that finds more than 30,000 - 1,000 bytes queued,
     * so its peak lies in (29,000, 30,000]; every byte sent is delivered or dropped.
     */
    @Test
    void aSmallLimitOnOneLeafDownlinkDropsThereAndNowhereElse() {
        Topology t = fastUplinks();
        String leaf = leafOf(t, 0);
        int port = portToward(t, leaf, "host0");
        List<FlowSpec> flows = incastToHost0(t, 200_000);
        assertEquals(4, flows.size());
        SimulationResult r = new Simulator(Scenario.builder(t, config(BufferPlan.none().withPortLimit(leaf, port, 30_000)))
                .flows(flows).build()).run();
        assertConserved(r, 800_000);
        assertTrue(r.droppedPackets() > 0, "the limited port drops");
        for (DropSite d : r.drops()) {
            assertEquals(t.nodeIndex(leaf), d.node(), d.place());
            assertEquals(port, d.port(), d.place());
        }
        for (QueueTrace q : r.queues()) {
            boolean limited = t.switchNode(q.switchIndex()) == t.nodeIndex(leaf) && q.port() == port;
            if (limited) {
                assertTrue(q.peakBytes() > 29_000 && q.peakBytes() <= 30_000, q.name() + " peak " + q.peakBytes());
            } else {
                assertEquals(0, q.drops(), q.name());
            }
        }
        SimulationResult unlimited = new Simulator(Scenario.builder(t, config(BufferPlan.none())).flows(flows).build()).run();
        assertEquals(0, unlimited.droppedPackets());
        assertEquals(800_000, unlimited.deliveredBytes());
    }

    /**
     * A port group without ECN ({@link BufferPlan#withoutEcnMarking}): the incast of
     * {@link #aSmallLimitOnOneLeafDownlinkDropsThereAndNowhereElse} with a marking curve whose Kmin (5 KB) the
     * bottleneck (host 0's port on its leaf) passes at once; marking there with every port marking, and not at all
     * once the leaves' host-facing ports are unmarked (every other queue stays below Kmin, so the run then marks
     * nothing). Bad groups are refused naming the entry.
     */
    @Test
    void anUnmarkedPortGroupNeverMarks() {
        Topology t = fastUplinks();
        List<FlowSpec> flows = incastToHost0(t, 200_000);
        SwitchBuffer marking = new SwitchBuffer(10_000_000, 10_000_000, new EcnMarking(5_000, 20_000, 1.0));
        SimulationConfig all = new SimulationConfig(1000, 0, 1, marking,
                fabriclab.simulation.config.Forwarding.ecmp(fabriclab.loadbalancing.hash.HashFunction.CRC32, 0), 1, 0, 0);
        SimulationResult marked = new Simulator(Scenario.builder(t, all).flows(flows).build()).run();
        assertTrue(marked.ecnMarks() > 0, "the bottleneck marks");
        SimulationConfig hostPortsOff = new SimulationConfig(1000, 0, 1, marking, all.forwarding(), 1, 0, 0,
                BufferPlan.none().withoutEcnMarking(Tier.LEAF, BufferPlan.Facing.DOWN));
        SimulationResult unmarked = new Simulator(Scenario.builder(t, hostPortsOff).flows(flows).build()).run();
        assertEquals(0, unmarked.ecnMarks());
        assertConserved(unmarked, 800_000);
        int leaf = t.nodeIndex(leafOf(t, 0)) - t.hosts();
        assertTrue(BufferPlan.none().marksEcn(t, leaf, 0));
        assertTrue(!hostPortsOff.bufferPlan().marksEcn(t, leaf, 0));
        assertTrue(hostPortsOff.bufferPlan().marksEcn(t, leaf, t.nodeIndex("spine1")));
        refused(() -> Scenario.builder(t, new SimulationConfig(1000, 0, 1, marking, all.forwarding(), 1, 0, 0,
                BufferPlan.none().withoutEcnMarking(Tier.CORE, BufferPlan.Facing.DOWN))).flows(flows).build(),
                "bufferPlan.unmarked[0]");
        refused(() -> BufferPlan.none().withoutEcnMarking(Tier.LEAF, BufferPlan.Facing.DOWN)
                .withoutEcnMarking(Tier.LEAF, BufferPlan.Facing.DOWN), "unmarked");
    }

    /**
     * N senders at the receiver's rate through one switch, m packets each, all sending from time 0, the receiver's port
     * limited to K packets (K <= N): every N packets arrive together once per packet time, exactly when the port
     * finishes one. The first round fills the port (K admitted); then each round frees one slot, so one packet more
     * per round is admitted: K + m - 1 when a departure at the instant of an arrival frees its slot first, K + m - 2
     * when the arrivals come first (the order of simultaneous events; either is an admission rule of the port). All
     * admitted packets are delivered, the rest dropped at that port.
     */
    @Test
    void aLimitedIncastPortDeliversTheLimitPlusOnePacketPerRound() {
        int n = 8;
        int m = 100;
        int k = 5;
        Incast in = Incast.of(n, m * 1000L, G100);
        Topology t = in.topology(Time.US);
        int port = portToward(t, "leaf1", "host" + in.receiver());
        SimulationConfig c = config(BufferPlan.none().withPortLimit("leaf1", port, k * 1000L));
        SimulationResult r = new Simulator(Scenario.incast(in, Time.US, c)).run();
        assertConserved(r, (long) n * m * 1000);
        long delivered = r.deliveredBytes() / 1000;
        assertTrue(delivered == k + m - 1 || delivered == k + m - 2, "delivered " + delivered + " packets");
        assertEquals(1, r.drops().size());
        assertEquals(port, r.drops().get(0).port());
        assertEquals((long) n * m - delivered, r.drops().get(0).dataPackets());
    }

    /**
     * Two hosts on each of two leaves send to host 0 on the third: each sending leaf's uplink receives 200G for 100G,
     * and so does the spine's port toward host 0's leaf. A 50 KB buffer in the spines moves every drop there; in the
     * leaves, every drop to the sending leaves' uplinks; with 10 MB everywhere nothing is lost (800 KB in all).
     */
    @Test
    void aTierBufferDecidesWhichTierDrops() {
        Topology t = threeLeaves();
        List<FlowSpec> flows = incastToHost0(t, 200_000);
        SwitchBuffer small = SwitchBuffer.shared(50_000);
        SimulationResult spines = new Simulator(Scenario.builder(t, config(BufferPlan.none().withTier(Tier.SPINE, small)))
                .flows(flows).build()).run();
        SimulationResult leaves = new Simulator(Scenario.builder(t, config(BufferPlan.none().withTier(Tier.LEAF, small)))
                .flows(flows).build()).run();
        SimulationResult none = new Simulator(Scenario.builder(t, config(BufferPlan.none())).flows(flows).build()).run();
        for (SimulationResult r : List.of(spines, leaves, none)) {
            assertConserved(r, 800_000);
        }
        assertEquals(Set.of(Tier.SPINE), dropTiers(t, spines));
        assertEquals(Set.of(Tier.LEAF), dropTiers(t, leaves));
        for (DropSite d : leaves.drops()) {
            assertEquals(Tier.SPINE, t.tier(portPeer(t, d.node(), d.port())), "a sending leaf's uplink: " + d.place());
        }
        assertEquals(0, none.droppedPackets());
    }

    /**
     * The parallel engine reads the same plan: the spines' small buffer puts every drop at the spine on 1 and on 2
     * threads, with the same result on both (every thread count gives one result).
     */
    @Test
    void theParallelEngineReadsThePlan() {
        Topology t = threeLeaves();
        Scenario s = Scenario.builder(t, config(BufferPlan.none().withTier(Tier.SPINE, SwitchBuffer.shared(50_000))))
                .flows(incastToHost0(t, 200_000)).build();
        SimulationResult one = new Simulator(s).runParallel(1);
        SimulationResult two = new Simulator(s).runParallel(2);
        assertConserved(one, 800_000);
        assertEquals(Set.of(Tier.SPINE), dropTiers(t, one));
        assertEquals(one.flows(), two.flows());
        assertEquals(one.drops(), two.drops());
    }

    /** The node at the other end of port {@code port} of node {@code node}. */
    static int portPeer(Topology t, int node, int port) {
        int i = 0;
        for (LinkSpec l : t.links()) {
            if (l.nodeA() == node || l.nodeB() == node) {
                if (i++ == port) {
                    return l.nodeA() == node ? l.nodeB() : l.nodeA();
                }
            }
        }
        throw new AssertionError("node " + node + " has no port " + port);
    }

    /**
     * With PFC on dynamic thresholds (pause when an ingress counter reaches alpha times the switch's free shared
     * buffer, alpha 1), the switch that pauses is the one whose buffer is small. Both congested places have two
     * ingress ports filling at 50G each, so a counter c holds half of what is used and pauses when c >= B - 2c, at
     * B / 3: 67 KB of a 200 KB buffer, reached by 400 KB arriving at each; 3.3 MB of a 10 MB buffer, never reached by
     * the 800 KB sent. So 200 KB in the spine makes the spine pause its leaves and no leaf pause; 200 KB in the leaves
     * makes the leaves pause their hosts and the spine pause no one.
     */
    @Test
    void aTierBufferDecidesWhichTierPausesUnderDynamicThresholds() {
        Topology t = threeLeaves();
        List<FlowSpec> flows = incastToHost0(t, 200_000);
        Pfc pfc = new Pfc(5_000, 2_000, 0, Pfc.MAX_QUANTA);
        PfcDynamicThreshold alpha1 = new PfcDynamicThreshold(1, 2_000);
        SwitchBuffer small = SwitchBuffer.shared(200_000);
        for (Tier smallTier : List.of(Tier.SPINE, Tier.LEAF)) {
            Scenario s = Scenario.builder(t, config(BufferPlan.none().withTier(smallTier, small))).flows(flows).pfc(pfc)
                    .pfcDynamicThreshold(alpha1).build();
            SimulationResult r = new Simulator(s).run();
            assertConserved(r, 800_000);
            long bySmall = 0;
            long byOthers = 0;
            for (PortPfc p : r.pfc()) {
                if (t.tier(p.node()) == smallTier) {
                    bySmall += p.pausesSent();
                } else {
                    byOthers += p.pausesSent();
                }
            }
            assertTrue(bySmall > 0, smallTier + " with the small buffer pauses");
            assertEquals(0, byOthers, "no other switch pauses when the " + smallTier + " buffer is small");
        }
    }

    /**
     * The empty plan is the run's buffer everywhere, and a plan that gives every tier the run's buffer and every port
     * its limit changes nothing in a lossy run.
     */
    @Test
    void aPlanOfTheRunsBufferIsTheRunWithoutAPlan() {
        Topology t = threeLeaves();
        SwitchBuffer run = new SwitchBuffer(10_000_000, 40_000, EcnMarking.OFF);
        SimulationConfig plain = SimulationConfig.builder().mtuBytes(1000).buffer(run).seed(3).build();
        assertEquals(plain, plain.withBufferPlan(BufferPlan.none()));
        assertEquals(BufferPlan.none(), plain.bufferPlan());
        BufferPlan same = BufferPlan.none().withTier(Tier.LEAF, run).withTier(Tier.SPINE, run)
                .withPortLimit(Tier.LEAF, BufferPlan.Facing.DOWN, 40_000).withPortLimit(Tier.SPINE, BufferPlan.Facing.DOWN,
                        40_000);
        List<FlowSpec> flows = incastToHost0(t, 300_000);
        SimulationResult a = new Simulator(Scenario.builder(t, plain).flows(flows).build()).run();
        SimulationResult b = new Simulator(Scenario.builder(t, plain.withBufferPlan(same)).flows(flows).build()).run();
        assertTrue(a.droppedPackets() > 0, "the run is lossy, so the limits matter");
        assertEquals(a.flows(), b.flows());
        assertEquals(a.drops(), b.drops());
        assertEquals(a.endPs(), b.endPs());
    }

    /** A switch's own entry wins over its tier's, a port's own limit over its tier's facing, both over the run's. */
    @Test
    void theNarrowestEntryWins() {
        Topology t = threeLeaves();
        SwitchBuffer leafBuffer = SwitchBuffer.shared(2_000_000);
        SwitchBuffer leaf2Buffer = SwitchBuffer.shared(3_000_000);
        BufferPlan plan = BufferPlan.none().withTier(Tier.LEAF, leafBuffer).withSwitch("leaf2", leaf2Buffer)
                .withPortLimit(Tier.LEAF, BufferPlan.Facing.UP, 100_000).withPortLimit("leaf2", 2, 50_000);
        int leaf1 = t.nodeIndex("leaf1") - t.hosts();
        int leaf2 = t.nodeIndex("leaf2") - t.hosts();
        int spine = t.nodeIndex("spine1") - t.hosts();
        assertEquals(leafBuffer, plan.bufferOf(t, leaf1, LARGE));
        assertEquals(leaf2Buffer, plan.bufferOf(t, leaf2, LARGE));
        assertEquals(LARGE, plan.bufferOf(t, spine, LARGE));
        int up = portToward(t, "leaf2", "spine1");
        assertEquals(2, up);
        int spineNode = t.nodeIndex("spine1");
        assertEquals(50_000, plan.queueLimitBytes(t, leaf2, up, spineNode, leaf2Buffer));
        assertEquals(100_000, plan.queueLimitBytes(t, leaf1, portToward(t, "leaf1", "spine1"), spineNode, leafBuffer));
        assertEquals(2_000_000, plan.queueLimitBytes(t, leaf1, 0, 0, leafBuffer));
        assertEquals(BufferPlan.Facing.DOWN, BufferPlan.facing(t, spineNode, t.nodeIndex("leaf1")));
        assertEquals(BufferPlan.Facing.UP, BufferPlan.facing(t, t.nodeIndex("leaf1"), spineNode));
    }

    /** Bad plans are refused naming the entry, its value and what is allowed. */
    @Test
    void badPlansAreRefusedNamingTheEntry() {
        Topology t = threeLeaves();
        List<FlowSpec> flows = incastToHost0(t, 10_000);
        refused(() -> Scenario.builder(t, config(BufferPlan.none().withTier(Tier.CORE, LARGE))).flows(flows).build(),
                "bufferPlan.tiers[0].tier", "CORE", "leaf, spine");
        refused(() -> Scenario.builder(t, config(BufferPlan.none().withSwitch("spine2", LARGE))).flows(flows).build(),
                "bufferPlan.switches[0].name", "spine2", "leaf1, leaf2, leaf3, spine1");
        refused(() -> Scenario.builder(t, config(BufferPlan.none().withSwitch("host0", LARGE))).flows(flows).build(),
                "bufferPlan.switches[0].name", "host0");
        refused(() -> Scenario.builder(t, config(BufferPlan.none().withPortLimit("leaf1", 3, 10_000))).flows(flows).build(),
                "bufferPlan.ports[0].port", "[0, 2]", "got 3");
        refused(() -> Scenario.builder(t, config(BufferPlan.none().withPortLimit(Tier.SPINE, BufferPlan.Facing.UP, 10_000)))
                .flows(flows).build(), "bufferPlan.tierPorts[0]", "no port facing up");
        refused(() -> Scenario.builder(t, config(BufferPlan.none().withTier(Tier.LEAF, SwitchBuffer.shared(100_000))
                .withPortLimit(Tier.LEAF, BufferPlan.Facing.DOWN, 200_000))).flows(flows).build(),
                "bufferPlan.tierPorts[0].queueLimitBytes", "100000", "got 200000");
        refused(() -> Scenario.builder(t, config(BufferPlan.none().withSwitch("leaf1", SwitchBuffer.shared(100_000))
                .withPortLimit("leaf1", 0, 200_000))).flows(flows).build(),
                "bufferPlan.ports[0].queueLimitBytes", "100000", "got 200000");
        refused(() -> config(BufferPlan.none().withTier(Tier.SPINE, SwitchBuffer.shared(999))),
                "bufferPlan.tiers[0].buffer.sharedBytes", "1000 B", "got 999");
        refused(() -> config(BufferPlan.none().withPortLimit("leaf1", 0, 999)), "bufferPlan.ports[0].queueLimitBytes",
                "got 999");
        refused(() -> BufferPlan.none().withTier(Tier.LEAF, LARGE).withTier(Tier.LEAF, LARGE), "tiers", "LEAF twice");
        refused(() -> BufferPlan.none().withSwitch("leaf1", LARGE).withSwitch("leaf1", LARGE), "switches", "leaf1 twice");
        refused(() -> BufferPlan.none().withPortLimit("leaf1", 0, 5_000).withPortLimit("leaf1", 0, 6_000), "ports",
                "leaf1 port 0 twice");
        refused(() -> BufferPlan.none().withPortLimit(Tier.LEAF, BufferPlan.Facing.UP, 5_000)
                .withPortLimit(Tier.LEAF, BufferPlan.Facing.UP, 6_000), "tierPorts", "LEAF UP twice");
        refused(() -> BufferPlan.none().withTier(Tier.HOST, LARGE), "tier", "HOST");
        refused(() -> BufferPlan.none().withPortLimit("leaf1", -1, 5_000), "port", "-1");
        refused(() -> Scenario.builder(t, config(BufferPlan.none().withTier(Tier.SPINE, SwitchBuffer.shared(4_000))))
                .flows(flows).pfc(new Pfc(5_000, 2_000, 0, Pfc.MAX_QUANTA)).build(), "pfc.xoffBytes", "spine1", "4000",
                "got 5000");
    }
}
