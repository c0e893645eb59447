package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.trace.Counters;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcHeadroom;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.SimulationResult.DropSite;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.trace.DropReason;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SimulationResult#drops()}: every packet the fabric loses is counted once at its place and reason, the sites
 * sum to the result's drop totals, agree with the egress queues' own drop counters, and never include a receiver's
 * discard.
 */
class DropSitesTest {
    static final long G100 = 100_000_000_000L;

    /** 1000 B packets without header, a 10 MB shared buffer whose every egress queue holds {@code perQueue} bytes. */
    static SimulationConfig lossy(long perQueue) {
        return new SimulationConfig(1000, 0, 1, new SwitchBuffer(10_000_000, perQueue, EcnMarking.OFF),
                Forwarding.ecmp(HashFunction.CRC32, 0), 3, 0, 0);
    }

    /** {@code senders} hosts 0..senders-1 sending {@code bytes} each to host {@code senders}, from time 0. */
    static List<FlowSpec> incast(int senders, long bytes) {
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < senders; i++) {
            flows.add(FlowSpec.of(i, senders, bytes, 0));
        }
        return flows;
    }

    /** The sums over the sites equal the totals, only non-zero sites, in (node, port, reason) order. */
    static void assertSitesSumToTotals(SimulationResult r) {
        assertEquals(r.droppedPackets(), r.drops().stream().mapToLong(DropSite::dataPackets).sum());
        assertEquals(r.droppedBytes(), r.drops().stream().mapToLong(DropSite::payloadBytes).sum());
        assertEquals(r.controlDropped(), r.drops().stream().mapToLong(DropSite::controlPackets).sum());
        assertEquals(r.droppedPackets(), r.flows().stream().mapToLong(SimulationResult.FlowRecord::droppedPackets).sum());
        long byReason = 0;
        for (DropReason reason : DropReason.values()) {
            byReason += r.dropsBy(reason).packets();
        }
        assertEquals(r.droppedPackets() + r.controlDropped(), byReason);
        assertTrue(r.drops().stream().allMatch(d -> d.packets() > 0));
        List<DropSite> sorted = new ArrayList<>(r.drops());
        sorted.sort(Comparator.comparingInt(DropSite::node).thenComparingInt(DropSite::port)
                .thenComparing(DropSite::reason));
        assertEquals(sorted, r.drops());
    }

    /**
     * Each switch egress queue's own drop counter (every packet lost there, data or control, any reason) equals the
     * packets of the sites at that switch port.
     */
    static void assertSitesMatchQueueDrops(SimulationResult r, int hosts) {
        for (SimulationResult.QueueTrace q : r.queues()) {
            long atSites = r.drops().stream().filter(d -> d.node() == hosts + q.switchIndex() && d.port() == q.port())
                    .mapToLong(DropSite::packets).sum();
            assertEquals(q.drops(), atSites, q.name());
        }
    }

    @Test
    void aLossyIncastDropsOnlyAtTheReceiversPortAndTheSitesSumToTheTotals() {
        // 4 line-rate senders (no retransmission) into one port that holds 20 packets: tail drops there only
        SimulationResult r = new Simulator(Scenario.builder(Topology.singleSwitch(5, G100, Time.US), lossy(20_000))
                .flows(incast(4, 200_000)).build()).run();
        assertTrue(r.droppedPackets() > 0, "the test needs loss");
        assertSitesSumToTotals(r);
        assertSitesMatchQueueDrops(r, 5);
        assertEquals(1, r.drops().size());
        DropSite d = r.drops().get(0);
        assertEquals(new DropSite("switch 0 port 4 -> node 4", 5, 4, DropReason.TAIL_DROP, d.dataPackets(),
                1000 * d.dataPackets(), 0), d); // every packet carries 1000 B
        // nothing is resent: what was sent and not delivered was dropped
        assertEquals(800_000 - r.deliveredBytes(), d.payloadBytes());
        assertEquals(d.dataPackets(), r.dropsBy(DropReason.TAIL_DROP).dataPackets());
        assertEquals(0, r.dropsBy(DropReason.LINK_FAILURE).packets());
    }

    @Test
    void aGoBackNReceiversDiscardsAreNotDrops() {
        // RoCE sprayed over a leaf-spine with one-packet buffers: packets overtake and are lost, so the receivers
        // discard out-of-order packets and duplicates; the drops still equal what the switch queues lost. (A
        // single-switch incast of synchronous senders would not do: tail drop locks a sender out until its whole
        // window is lost, so nothing of it arrives out of order.)
        SimulationResult r = new Simulator(fabriclab.cli.SimulateOptions.parse(java.util.List.of("--hosts", "16",
                "--hosts-per-leaf", "4", "--spines", "2", "--forwarding", "spray", "--pfc", "off", "--buffer", "1064",
                "--ack-timeout-exponent", "4")).settings().scenario()).run(100 * Time.MS, fabriclab.progress.Progress.silent());
        assertTrue(r.droppedPackets() > 0, "the test needs loss");
        assertTrue(r.discardedBytes() > 0, "the test needs receiver discards");
        assertSitesSumToTotals(r);
        assertSitesMatchQueueDrops(r, 16);
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes() + r.discardedBytes() + r.inFlightBytes());
    }

    @Test
    void aFailedLinkLosesWhatItHeldAndBlackHolesUntilTheReroute() {
        // 2 leaves x 2 spines; one flow sprayed over both spines; leaf 0's uplink to spine 0 fails at 10 us, the
        // routes change at 30 us: the packets on and queued for the link are lost (LINK_FAILURE), those sent to it
        // meanwhile are black-holed, all at leaf 0's port to spine 0 (node 6)
        LeafSpine fabric = LinkFailureTest.FABRIC;
        int link = fabric.uplinkIndex(0, 0, 0);
        SimulationResult r = new Simulator(LinkFailureTest.sprayOneFlow().failLink(link, 10 * Time.US, 30 * Time.US).build()).run();
        assertSitesSumToTotals(r);
        assertSitesMatchQueueDrops(r, 4);
        assertTrue(r.dropsBy(DropReason.BLACK_HOLE).dataPackets() > 0);
        assertEquals(r.counter(SimulationResult.BLACKHOLED_PACKETS), r.dropsBy(DropReason.BLACK_HOLE).packets());
        assertTrue(r.dropsBy(DropReason.LINK_FAILURE).dataPackets() > 0, "the link held packets when it failed");
        assertEquals(0, r.dropsBy(DropReason.TAIL_DROP).packets());
        for (DropSite d : r.drops()) {
            assertEquals(4, d.node()); // leaf 0
            assertEquals("switch 0 port " + d.port() + " -> node 6", d.place());
        }
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes());
    }

    @Test
    void pfcWithHeadroomForEveryIngressLosesNothing() {
        int n = 4;
        long headroom = PfcHeadroom.packetLevelBytes(G100, Time.US, 1000);
        Pfc pfc = new Pfc(20_000, 10_000, headroom, 65535);
        // every byte in the switch is charged to one ingress (n senders and the receiver's ACKs), each bounded
        long buffer = (n + 1) * (pfc.xoffBytes() + headroom);
        SimulationConfig c = new SimulationConfig(1000, 0, 1, SwitchBuffer.shared(buffer),
                Forwarding.ecmp(HashFunction.CRC32, 0), 1, 0, 0);
        SimulationResult r = new Simulator(Scenario.builder(Topology.singleSwitch(n + 1, G100, Time.US), c).flows(incast(n, 500_000))
                .pfc(pfc).transport(RoceTransport.noCongestionControl()).build()).run();
        assertTrue(r.pausesSent() > 0, "the test needs PFC to act");
        assertTrue(r.allCompleted());
        assertEquals(List.of(), r.drops());
        assertEquals(0, r.droppedPackets());
        assertEquals(0, r.controlDropped());
        assertEquals(new SimulationResult.DropCount(0, 0, 0), r.dropsBy(DropReason.TAIL_DROP));
        assertEquals(2_000_000, r.deliveredBytes());
        // goodput: the distinct payload over the time from the first start (0) to the last delivery
        assertEquals(8 * 2_000_000 / (r.lastDeliveryPs() / 1e12), r.goodputBitsPerSecond(), 1e-3);
    }

    @Test
    void theParallelEngineCountsTheSitesInTheDroppingNodesThread() {
        // a leaf-spine incast: senders on both leaves, drops at the receiver's leaf; the parallel engine's result
        // does not depend on its thread count, and its sites sum as the sequential engine's do
        LeafSpine fabric = new LeafSpine(8, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        Scenario s = Scenario.builder(fabric.build(), lossy(20_000)).flows(incast(7, 100_000)).build();
        SimulationResult one = new Simulator(s).runParallel(1);
        SimulationResult three = new Simulator(s).runParallel(3);
        assertTrue(one.droppedPackets() > 0, "the test needs loss");
        assertSitesSumToTotals(three);
        assertSitesMatchQueueDrops(three, 8);
        assertEquals(one.drops(), three.drops());
    }

    @Test
    void aDropSiteRefusesNegativeCounts() {
        assertThrows(IllegalArgumentException.class, () -> new DropSite("x", 0, 0, DropReason.TAIL_DROP, -1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new DropSite("x", 0, -2, DropReason.TAIL_DROP, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new DropSite("x", 0, 0, null, 0, 0, 0));
    }

    @Test
    void goodputIsZeroWithoutDelivery() {
        SimulationResult r = new SimulationResult(new SimulationResult.RunSummary("roce", 1000, false, 0),
                new SimulationResult.Totals(0, 0, 0, 0, 0, 0, 0),
                new SimulationResult.FabricEvents(0, 0, List.of(), 0, List.of()), List.of(), List.of(), List.of(), Counters.NONE);
        assertEquals(0, r.goodputBitsPerSecond());
        assertEquals(0, r.failedQueuePairs());
    }
}
