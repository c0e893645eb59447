package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.OutOfOrderPlacement;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Adaptive routing (per packet and per flowlet, by egress queue bytes) with RoCE whose responder places packets out of
 * order, checked against closed forms: on a leaf-spine whose leaf has as many uplinks as hosts, a permutation from the
 * hosts of leaf 0 onto those of leaf 1 loads every uplink at line rate; per-flow ECMP puts some flows on one uplink and
 * stretches them by the number sharing it, adaptive routing gives each uplink 1/k of the packets and every flow
 * completes in its serialization plus propagation time.
 */
class AdaptiveRoutingTest {
    static final long G100 = 100_000_000_000L;
    /** k: spines, one link each from every leaf; hosts per leaf equal to k, so a leaf's uplinks carry its hosts' rate. */
    static final int K = 8;
    static final int MTU = 1000;
    static final int HEADER = 64;
    static final int WIRE = MTU + HEADER;
    /** Packets per flow. */
    static final int S = 400;
    static final long LINK_DELAY = Time.US;
    /** One packet's serialization at 100 Gb/s [ps]: 80 ps per byte. */
    static final long PACKET_PS = WIRE * 80L;

    static LeafSpine fabric() {
        return new LeafSpine(2 * K, 1, 2, K, G100, G100, 1, LINK_DELAY, LINK_DELAY);
    }

    /** Host i of leaf 0 sends S packets to host K + pi(i) of leaf 1 (pi a random permutation), all at time 0. */
    static List<FlowSpec> leafToLeafPermutation(long seed) {
        int[] pi = new int[K];
        for (int i = 0; i < K; i++) {
            pi[i] = i;
        }
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = K - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = pi[i];
            pi[i] = pi[j];
            pi[j] = t;
        }
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < K; i++) {
            flows.add(new FlowSpec(i, K + pi[i], (long) S * MTU, 0, 0, 50_000 + 7 * i));
        }
        return flows;
    }

    static Scenario scenario(Forwarding forwarding, OutOfOrderPlacement placement, long seed) {
        return scenario(fabric(), forwarding, placement, seed);
    }

    static Scenario scenario(LeafSpine ls, Forwarding forwarding, OutOfOrderPlacement placement, long seed) {
        return scenario(ls, forwarding, placement, seed, new Pfc(15L * WIRE, 12_000, 0, Pfc.MAX_QUANTA));
    }

    /** The scenario with PFC {@code pfc} (null: none; the 16 MB buffer holds every flow's bytes, nothing drops). */
    static Scenario scenario(LeafSpine ls, Forwarding forwarding, OutOfOrderPlacement placement, long seed, Pfc pfc) {
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(16_000_000), forwarding, seed, 0, 0);
        ReliableConnection rc = ReliableConnection.defaults().withAckEvery(1).withOutOfOrder(placement);
        return Scenario.builder(ls.build(), c).flows(leafToLeafPermutation(seed))
                .transport(RoceTransport.noCongestionControl().withReliableConnection(rc))
                .pfc(pfc).build();
    }

    /**
     * The closed form of one flow alone on its path: its S packets leave the sender back to back (S serializations),
     * the last one is stored and forwarded by 3 switches (3 more) and crosses 4 links.
     */
    static long idealFctPs() {
        return (S + 3L) * PACKET_PS + 4 * LINK_DELAY;
    }

    /** Data packets each uplink of leaf 0 (switch 0, toward the spines) transmitted. */
    static long[] leaf0Uplinks(SimulationResult r) {
        int hosts = 2 * K;
        return r.queues().stream().filter(q -> q.switchIndex() == 0 && q.peerNode() >= hosts)
                .mapToLong(SimulationResult.QueueTrace::txPackets).toArray();
    }

    static long makespan(SimulationResult r) {
        return r.flows().stream().mapToLong(SimulationResult.FlowRecord::completionTimePs).max().orElseThrow();
    }

    @Test
    void ecmpCollidesWhereAdaptiveRoutingBalancesEachUplinkToOneKth() {
        long seed = 3;
        SimulationResult ecmp = new Simulator(scenario(Forwarding.ecmp(HashFunction.CRC32, 7), null, seed)).run();
        SimulationResult ar = new Simulator(scenario(Forwarding.adaptivePerPacket(), OutOfOrderPlacement.defaults(), seed))
                .run();
        assertTrue(ecmp.allCompleted() && ar.allCompleted());
        // ECMP: the uplink carrying the most flows, m of them, sends m * S packets at line rate: the slowest flow takes
        // at least m * S serializations (collision: m >= 2 for this seed, as for all but 8!/8^8 = 0.24% of hash draws)
        long[] ecmpUp = leaf0Uplinks(ecmp);
        long m = java.util.Arrays.stream(ecmpUp).max().orElseThrow() / S;
        assertTrue(m >= 2, java.util.Arrays.toString(ecmpUp));
        assertTrue(makespan(ecmp) >= m * S * PACKET_PS, makespan(ecmp) + " ps");
        // adaptive routing: each of the k uplinks carries 1/k of the K x S packets (within one packet per sender)
        long[] up = leaf0Uplinks(ar);
        assertEquals(K, up.length);
        long total = 0;
        for (long n : up) {
            assertTrue(Math.abs(n - (long) K * S / K) <= K, java.util.Arrays.toString(up));
            total += n;
        }
        assertEquals((long) K * S, total); // conservation at the leaf: every data packet left on one uplink, once
        // no reordering stall: every flow completes within one packet time of its closed form
        for (SimulationResult.FlowRecord f : ar.flows()) {
            assertTrue(Math.abs(f.completionTimePs() - idealFctPs()) <= PACKET_PS,
                    "flow " + f.id() + ": FCT " + f.completionTimePs() + " ps, closed form " + idealFctPs() + " ps");
        }
        assertTrue(makespan(ar) * 3 < makespan(ecmp) * 2, makespan(ar) + " vs ECMP " + makespan(ecmp));
    }

    @Test
    void outOfOrderPlacementAbsorbsReorderingThatGoBackNReadsAsLoss() {
        // k/2 spines: the leaf's K hosts offer twice its uplinks' capacity; PFC pauses and resumes the hosts, the
        // uplink queues differ and the packets of one flow overtake each other
        long seed = 3;
        LeafSpine half = new LeafSpine(2 * K, 1, 2, K / 2, G100, G100, 1, LINK_DELAY, LINK_DELAY);
        SimulationResult inOrder = new Simulator(scenario(half, Forwarding.adaptivePerPacket(), null, seed)).run();
        SimulationResult ooo = new Simulator(scenario(half, Forwarding.adaptivePerPacket(), OutOfOrderPlacement.defaults(),
                seed)).run();
        assertTrue(inOrder.allCompleted() && ooo.allCompleted());
        long reordered = ooo.flows().stream().mapToLong(SimulationResult.FlowRecord::reorderedPackets).sum();
        assertTrue(reordered > 0, "adaptive routing per packet reorders"); // (else the comparison says nothing)
        // out of order: no NAK, no retransmission, no timeout, no packet discarded: reordering is not loss
        assertEquals(0, ooo.counter(TransportModel.NACKS));
        assertEquals(0, ooo.retransmittedBytes());
        assertEquals(0, ooo.timeouts());
        assertEquals(0, ooo.outOfOrderDiscards() + ooo.duplicatePackets());
        // the K/2 uplinks carry the K x S packets: at least 2 S serializations
        long bound = 2L * S * PACKET_PS;
        assertTrue(makespan(ooo) >= bound);
        // in order (go-back-N): the reordering is discarded and NAKed, the senders go back and finish later
        assertTrue(inOrder.counter(TransportModel.NACKS) > 0);
        assertTrue(inOrder.retransmittedBytes() > 0);
        assertTrue(makespan(inOrder) > makespan(ooo));
        // without PFC (the buffer holds every byte) the uplinks never idle: the bound, plus the last packet's own path
        // (3 serializations and 4 links) and one packet time
        SimulationResult noPfc = new Simulator(scenario(half, Forwarding.adaptivePerPacket(), OutOfOrderPlacement.defaults(),
                seed, null)).run();
        assertTrue(makespan(noPfc) >= bound);
        assertTrue(makespan(noPfc) <= bound + 4 * PACKET_PS + 4 * LINK_DELAY, makespan(noPfc) + " ps, bound " + bound);
    }

    @Test
    void perFlowletWithAGapAboveEveryIdleTimePinsEachFlowToItsOwnUplinkWithoutReordering() {
        long seed = 3;
        SimulationResult r = new Simulator(scenario(Forwarding.adaptivePerFlowlet(Forwarding.DLB_INACTIVITY_INTERVAL_PS),
                null, seed)).run();
        assertTrue(r.allCompleted());
        // the K first packets reach leaf 0 together and take the K uplinks one each; a flow sends back to back, so
        // it never idles for the gap and stays there: each uplink carries exactly one flow
        long[] up = leaf0Uplinks(r);
        for (long n : up) {
            assertEquals(S, n, java.util.Arrays.toString(up));
        }
        for (SimulationResult.FlowRecord f : r.flows()) {
            assertEquals(0, f.reorderedPackets());
            assertEquals(idealFctPs(), f.completionTimePs(), "flow " + f.id()); // alone on its path: the closed form
        }
        assertEquals(0, r.counter(TransportModel.NACKS));
    }

    @Test
    void sameResultOnBothEnginesAndEveryThreadCountAndPerSeed() {
        for (Forwarding f : List.of(Forwarding.adaptivePerPacket(), Forwarding.adaptivePerFlowlet(2 * PACKET_PS))) {
            Scenario s = scenario(f, OutOfOrderPlacement.defaults(), 5);
            SimulationResult seq = new Simulator(s).run();
            assertTrue(seq.allCompleted());
            // conservation: every injected byte delivered (nothing dropped, nothing left in flight)
            assertEquals(seq.injectedBytes(), seq.deliveredBytes() + seq.droppedBytes() + seq.inFlightBytes()
                    + seq.discardedBytes());
            assertEquals((long) K * S * MTU, seq.deliveredBytes());
            assertEquals(seq.flows(), new Simulator(scenario(f, OutOfOrderPlacement.defaults(), 5)).run().flows());
            for (int threads = 1; threads <= 4; threads++) {
                SimulationResult par = new Simulator(s).runParallel(threads);
                assertEquals(seq.flows(), par.flows(), f.mode() + ", " + threads + " threads");
                assertEquals(seq.endPs(), par.endPs());
                assertEquals(seq.packetHops(), par.packetHops());
            }
        }
    }

    @Test
    void aRealGapIsNakedAfterTheReorderTimeoutAndRecoveredWithoutATransportTimeout() {
        // one flow over 2 spines; the spine link toward leaf 1 of spine 0 fails at 20 us and leaves the routes at 20 us
        // too: the packets on it are lost, a gap the responder NAKs once the reorder timeout has passed
        LeafSpine ls = new LeafSpine(4, 1, 2, 2, G100, G100, 1, LINK_DELAY, LINK_DELAY);
        long timeout = 30 * Time.US;
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(16_000_000),
                Forwarding.adaptivePerPacket(), 1, 0, 0);
        ReliableConnection rc = ReliableConnection.defaults().withAckEvery(1)
                .withOutOfOrder(new OutOfOrderPlacement(1024, timeout));
        fabriclab.fabric.Topology t = ls.build();
        int failed = -1;
        for (int i = 0; i < t.links().size(); i++) { // the link between spine 0 (node 6) and leaf 1 (node 5)
            LinkSpec l = t.links().get(i);
            if ((l.nodeA() == 5 && l.nodeB() == 6) || (l.nodeA() == 6 && l.nodeB() == 5)) {
                failed = i;
            }
        }
        assertTrue(failed >= 0);
        Scenario s = Scenario.builder(t, c).flow(FlowSpec.of(0, 2, 1_000_000, 0))
                .transport(RoceTransport.noCongestionControl().withReliableConnection(rc))
                .failLink(failed, 20 * Time.US).build();
        SimulationResult r = new Simulator(s).run();
        assertTrue(r.allCompleted());
        assertEquals(0, r.timeouts());
        assertTrue(r.counter(TransportModel.NACKS) >= 1);
        assertTrue(r.retransmittedBytes() > 0);
        // the flow waits at least the reorder timeout for the NAK before the go-back resends
        assertTrue(r.flows().get(0).completionTimePs() >= 20 * Time.US + timeout);
    }

    @Test
    void badSettingsAreRefusedNamingTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Forwarding.adaptivePerFlowlet(-1));
        assertTrue(e.getMessage().contains("flowletGapPs"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new OutOfOrderPlacement(0, Time.US));
        assertTrue(e.getMessage().contains("windowPackets"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new OutOfOrderPlacement(8, 0));
        assertTrue(e.getMessage().contains("reorderTimeoutPs"), e.getMessage());
    }
}
