package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.trace.Counters;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.trace.Trace;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Queue pairs of a flow ({@link FlowSpec#queuePairs()}): the split, the ports, the run, the records. */
class QueuePairsTest {
    static final long G100 = 100_000_000_000L;
    /** 1000 B packets without header at 100G: 80 ns each, 80 ps per byte. */
    static final SimulationConfig CONFIG = new SimulationConfig(1000, 0, 1, SwitchBuffer.shared(50_000_000),
            Forwarding.ecmp(HashFunction.CRC32, 0), 1, 0, 0);

    @Test
    void bytesSplitEvenlyTheFirstRemainderQueuePairsCarryOneMore() {
        FlowSpec f = new FlowSpec(0, 1, 10, 0, 0, 100, 4); // 10 = 3 + 3 + 2 + 2
        assertEquals(List.of(3L, 3L, 2L, 2L), List.of(f.queuePairBytes(0), f.queuePairBytes(1), f.queuePairBytes(2),
                f.queuePairBytes(3)));
        long[][] cases = {{1, 1}, {7, 7}, {1_000_000, 3}, {999_999_999, 1000}, {65_536, 65_536}, {100_003, 7}};
        for (long[] c : cases) {
            FlowSpec g = new FlowSpec(0, 1, c[0], 0, 0, 0, (int) c[1]);
            long sum = 0;
            long min = Long.MAX_VALUE;
            long max = 0;
            for (int q = 0; q < g.queuePairs(); q++) {
                long b = g.queuePairBytes(q);
                sum += b;
                min = Math.min(min, b);
                max = Math.max(max, b);
                assertTrue(q == 0 || b <= g.queuePairBytes(q - 1), "larger queue pairs come first");
            }
            assertEquals(c[0], sum);
            assertTrue(max - min <= 1 && min >= 1, c[0] + " over " + c[1]);
        }
    }

    @Test
    void queuePairQUsesTheNextSourcePortsWrappingAt65536() {
        FlowSpec f = new FlowSpec(0, 1, 1000, 0, 0, 65534, 4);
        assertEquals(List.of(65534, 65535, 0, 1), List.of(f.queuePairSourcePort(0), f.queuePairSourcePort(1),
                f.queuePairSourcePort(2), f.queuePairSourcePort(3)));
        assertEquals(new FlowSpec(0, 1, 250, 0, 0, 0), f.queuePair(2));
        FlowSpec one = new FlowSpec(3, 2, 500, 7, 0, 4791);
        assertEquals(1, one.queuePairs());
        assertEquals(one, one.queuePair(0));
        assertEquals(one, one.withQueuePairs(5).withQueuePairs(1));
    }

    @Test
    void queuePairCountIsValidated() {
        String m = assertThrows(IllegalArgumentException.class, () -> new FlowSpec(0, 1, 1000, 0, 0, 1, 0)).getMessage();
        assertTrue(m.contains("queuePairs") && m.contains("[1, 65536]") && m.contains("got 0"), m);
        m = assertThrows(IllegalArgumentException.class, () -> new FlowSpec(0, 1, 1_000_000, 0, 0, 1, 65537)).getMessage();
        assertTrue(m.contains("queuePairs") && m.contains("65537"), m);
        m = assertThrows(IllegalArgumentException.class, () -> FlowSpec.of(0, 1, 3, 0).withQueuePairs(4)).getMessage();
        assertTrue(m.contains("queuePairs") && m.contains("bytes = 3") && m.contains("got 4"), m);
        assertThrows(IllegalArgumentException.class, () -> FlowSpec.of(0, 1, 3, 0).queuePairBytes(1));
        Scenario.Builder b = Scenario.builder(Topology.singleSwitch(2, G100, Time.US), CONFIG).flow(FlowSpec.of(0, 1, 5, 0));
        assertThrows(IllegalArgumentException.class, () -> b.queuePairs(0));
        m = assertThrows(IllegalArgumentException.class, () -> b.queuePairs(6).build()).getMessage();
        assertTrue(m.contains("queuePairs") && m.contains("flows[0] has 5 B") && m.contains("got 6"), m);
    }

    /**
     * Two hosts through one switch, 1 us links: one QP of B bytes leaves its host in B x 80 ps, then its last packet
     * (1000 B) crosses the switch in 1 us + 80 ns + 1 us. N QPs share the same host link, so their packets still leave
     * back to back in B x 80 ps in all; only the last packet may be shorter (a QP's tail), so the flow completes within
     * one packet's serialisation (80 ns) of the single QP, never later.
     */
    @Test
    void nQueuePairsDeliverTheFlowsBytesAtLineRateLikeOne() {
        long bytes = 1_000_000;
        long single = bytes * 80 + 80 * Time.NS + 2 * Time.US;
        for (TransportModel t : List.of(TransportModel.uncontrolled(), RoceTransport.noCongestionControl())) {
            for (int n : new int[] {1, 3, 16, 1000}) {
                FlowSpec f = new FlowSpec(0, 1, bytes, 0, 0, 1000, n);
                SimulationResult r = new Simulator(Scenario.builder(Topology.singleSwitch(2, G100, Time.US), CONFIG).flow(f).transport(t)
                        .build()).run();
                SimulationResult.FlowRecord rec = r.flows().get(0);
                assertEquals(1, r.flows().size());
                assertEquals(n, r.queuePairs().size());
                assertEquals(bytes, rec.deliveredBytes(), n + " QPs, " + t);
                assertEquals(bytes, r.deliveredBytes());
                assertTrue(rec.completed());
                assertTrue(rec.completionTimePs() <= single && rec.completionTimePs() >= single - 80 * Time.NS,
                        n + " QPs: " + rec.completionTimePs() + " vs one QP " + single);
                for (int q = 0; q < n; q++) {
                    SimulationResult.FlowRecord qr = r.queuePairsOf(0).get(q);
                    assertEquals(f.queuePairBytes(q), qr.deliveredBytes());
                    assertEquals(f.queuePair(q), qr.spec());
                    assertEquals(0, qr.id());
                    assertEquals(0, qr.startedPs(), "all QPs start together");
                }
            }
        }
    }

    /**
     * A flow's record sums its QPs' counters and completes with its last QP; the QP records cover the QPs in order.
     * Two runs of 3 senders (2, 3 and 1 QPs) into one receiver: RoCE with a buffer that holds everything (all
     * complete), and line rate with a 60 KB buffer (drops, no retransmission: some QPs never complete).
     */
    @Test
    void aFlowsRecordAggregatesItsQueuePairs() {
        List<FlowSpec> flows = List.of(new FlowSpec(0, 3, 400_000, 0, 0, 10, 2), new FlowSpec(1, 3, 300_000, 0, 0, 20, 3),
                new FlowSpec(2, 3, 200_000, 5 * Time.US, 0, 30));
        for (boolean lossy : new boolean[] {false, true}) {
            SimulationConfig c = new SimulationConfig(1000, 0, 1, SwitchBuffer.shared(lossy ? 60_000 : 10_000_000),
                    Forwarding.ecmp(HashFunction.CRC32, 0), 1, 0, 0);
            Scenario s = Scenario.builder(Topology.singleSwitch(4, G100, Time.US), c).flows(flows)
                    .transport(lossy ? TransportModel.uncontrolled() : RoceTransport.noCongestionControl()).build();
            assertEquals(6, s.queuePairCount());
            assertEquals(List.of(0, 2, 5, 6), List.of(s.firstQueuePair(0), s.firstQueuePair(1), s.firstQueuePair(2),
                    s.firstQueuePair(3)));
            assertEquals(4, s.queuePairIndex(1, 2));
            assertThrows(IllegalArgumentException.class, () -> s.queuePairIndex(2, 1));
            SimulationResult r = new Simulator(s).run();
            assertEquals(!lossy, r.allCompleted());
            assertEquals(lossy, r.droppedPackets() > 0);
            assertEquals(6, r.queuePairs().size());
            for (int i = 0; i < flows.size(); i++) {
                List<SimulationResult.FlowRecord> qps = r.queuePairsOf(i);
                SimulationResult.FlowRecord f = r.flows().get(i);
                assertEquals(flows.get(i).queuePairs(), qps.size());
                assertEquals(i, f.id());
                assertEquals(flows.get(i), f.spec());
                assertEquals(qps.stream().mapToLong(SimulationResult.FlowRecord::deliveredBytes).sum(), f.deliveredBytes());
                assertEquals(qps.stream().mapToLong(SimulationResult.FlowRecord::droppedPackets).sum(), f.droppedPackets());
                assertEquals(qps.stream().mapToLong(SimulationResult.FlowRecord::retransmittedPackets).sum(),
                        f.retransmittedPackets());
                assertEquals(qps.stream().mapToLong(SimulationResult.FlowRecord::duplicatePackets).sum(), f.duplicatePackets());
                assertEquals(qps.stream().mapToLong(SimulationResult.FlowRecord::reorderedPackets).sum(), f.reorderedPackets());
                assertEquals(qps.stream().mapToLong(SimulationResult.FlowRecord::ecnMarkedPackets).sum(), f.ecnMarkedPackets());
                assertEquals(qps.stream().mapToLong(SimulationResult.FlowRecord::lastDeliveryPs).max().orElseThrow(),
                        f.lastDeliveryPs());
                assertEquals(flows.get(i).startPs(), f.startedPs());
                if (qps.stream().allMatch(SimulationResult.FlowRecord::completed)) {
                    long last = qps.stream().mapToLong(q -> q.startedPs() + q.completionTimePs()).max().orElseThrow();
                    assertEquals(last, r.completedAtPs(i));
                } else {
                    assertEquals(-1, f.completionTimePs());
                }
                for (SimulationResult.FlowRecord q : qps) {
                    assertEquals(i, q.id());
                }
            }
            assertEquals(r.flows().stream().mapToLong(SimulationResult.FlowRecord::droppedPackets).sum(), r.droppedPackets());
            assertEquals(r.flows().stream().mapToLong(SimulationResult.FlowRecord::deliveredBytes).sum(), r.deliveredBytes());
        }
    }

    @Test
    void withOneQueuePairPerFlowBothListsHoldEqualRecords() {
        SimulationResult r = new Simulator(Scenario.incast(3, 50_000, G100, CONFIG)).run();
        assertEquals(r.flows(), r.queuePairs());
        assertEquals(List.of(r.flows().get(1)), r.queuePairsOf(1));
    }

    /**
     * Flow 1 waits for flow 0 (2 QPs: 2001 B = 1000 + 1000 + 1 and 2000 B = 1000 + 1000). The five packets leave the
     * host back to back in 4001 x 80 ps; whatever the round robin's order, the QPs complete at different times and the
     * later is when the last packet arrives: the last full packet left the host by 4000 x 80 ps, crosses 1 us, leaves
     * the switch 80 ns later (store and forward), the 1 B packet's 80 ps follow it out (if it is not before), then 1 us.
     * Flow 1's three QPs all start at the later completion.
     */
    @Test
    void aSuccessorStartsWhenEveryQueuePairOfItsPredecessorIsReceived() {
        Scenario s = Scenario.builder(Topology.singleSwitch(3, G100, Time.US), CONFIG)
                .flow(new FlowSpec(0, 1, 4001, 0, 0, 100, 2))
                .flow(new FlowSpec(1, 2, 3000, 0, 0, 200, 3))
                .startAfter(1, 0).build();
        SimulationResult r = new Simulator(s).run();
        assertTrue(r.allCompleted());
        List<SimulationResult.FlowRecord> pre = r.queuePairsOf(0);
        long qp0 = pre.get(0).startedPs() + pre.get(0).completionTimePs();
        long qp1 = pre.get(1).startedPs() + pre.get(1).completionTimePs();
        long last = Math.max(qp0, qp1);
        assertTrue(qp0 != qp1, qp0 + " vs " + qp1);
        assertEquals(4000 * 80 + Time.US + 80 * Time.NS + 80 + Time.US, last);
        assertEquals(last, r.completedAtPs(0));
        for (SimulationResult.FlowRecord q : r.queuePairsOf(1)) {
            assertEquals(last, q.startedPs());
        }
        assertEquals(last, r.flows().get(1).startedPs());
    }

    /** The trace names a packet by its queue-pair index: counting data packets per index gives each QP's packets. */
    @Test
    void traceCallbacksReceiveTheQueuePairIndex() {
        List<FlowSpec> flows = List.of(new FlowSpec(0, 2, 5000, 0, 0, 1, 2), new FlowSpec(1, 2, 4500, 0, 0, 2, 3));
        Scenario s = Scenario.builder(Topology.singleSwitch(3, G100, Time.US), CONFIG).flows(flows).build();
        long[] packets = new long[s.queuePairCount()];
        SimulationResult r = new Simulator(s, new Trace() {
            @Override
            public void dequeued(int sw, int port, int flow, boolean data, int wire, long delay, long t) {
                if (data) {
                    packets[flow]++;
                }
            }
        }).run();
        assertTrue(r.allCompleted());
        // flow 0: 2500 + 2500 B, 3 packets each; flow 1: 1500 x 3, 2 packets each
        assertEquals(List.of(3L, 3L, 2L, 2L, 2L), java.util.Arrays.stream(packets).boxed().toList());
        assertEquals(2, s.queuePairIndex(1, 0));
    }

    /** Splitting with queuePairs runs exactly as the same QPs written as flows of their own. */
    @Test
    void queuePairsRunAsTheSameQueuePairsWrittenOutAsFlows() {
        List<FlowSpec> grouped = List.of(new FlowSpec(0, 3, 300_001, 0, 0, 500, 4), new FlowSpec(1, 3, 200_000, 0, 0, 900, 3),
                new FlowSpec(2, 3, 1000, 10 * Time.US, 0, 7));
        List<FlowSpec> written = new ArrayList<>();
        for (FlowSpec f : grouped) {
            for (int q = 0; q < f.queuePairs(); q++) {
                written.add(new FlowSpec(f.source(), f.destination(), f.queuePairBytes(q), f.startPs(), f.priority(),
                        f.queuePairSourcePort(q)));
            }
        }
        for (boolean lossy : new boolean[] {false, true}) {
            SimulationConfig c = new SimulationConfig(1000, 0, 1, SwitchBuffer.shared(lossy ? 100_000 : 10_000_000),
                    Forwarding.ecmp(HashFunction.CRC32, 0), 3, 0, 0);
            TransportModel t = lossy ? TransportModel.uncontrolled() : RoceTransport.noCongestionControl();
            SimulationResult a = new Simulator(Scenario.builder(Topology.singleSwitch(4, G100, Time.US), c).flows(grouped).transport(t)
                    .build()).run();
            SimulationResult b = new Simulator(Scenario.builder(Topology.singleSwitch(4, G100, Time.US), c).flows(written).transport(t)
                    .build()).run();
            assertEquals(b.flows().size(), a.queuePairs().size());
            for (int k = 0; k < written.size(); k++) {
                SimulationResult.FlowRecord x = a.queuePairs().get(k);
                SimulationResult.FlowRecord y = b.flows().get(k);
                assertEquals(new SimulationResult.FlowRecord(x.id(), y.spec(), y.completionTimePs(), y.deliveredBytes(),
                        y.droppedPackets(), y.ecnMarkedPackets(), y.reorderedPackets(), y.duplicatePackets(), y.startedPs(),
                        y.retransmittedPackets(), y.lastDeliveryPs(), y.retransmittedBytes(), y.timeouts(), y.spuriousTimeouts(),
                        y.failed(), y.outOfOrderDiscards(), y.acknowledgedPs()), x);
            }
            assertEquals(b.events(), a.events());
            assertEquals(lossy, a.droppedPackets() > 0);
            assertEquals(b.droppedPackets(), a.droppedPackets());
            assertEquals(b.counters(), a.counters());
        }
    }

    @Test
    void builderQueuePairsSplitsEveryFlow() {
        Scenario s = Scenario.builder(Topology.singleSwitch(3, G100, Time.US), CONFIG).flow(FlowSpec.of(0, 2, 100, 0))
                .queuePairs(4).flow(FlowSpec.of(1, 2, 100, 0)).build();
        assertEquals(List.of(4, 4), s.flows().stream().map(FlowSpec::queuePairs).toList());
        assertEquals(8, s.queuePairCount());
        assertEquals(s.flows(), s.toBuilder().build().flows());
    }

    /** A result's queue-pair records must match its flows: as many as their queue pairs, in flow order. */
    @Test
    void aResultsQueuePairRecordsMustMatchItsFlows() {
        FlowSpec f = new FlowSpec(0, 1, 1000, 0, 0, 7, 2);
        SimulationResult.FlowRecord flow = new SimulationResult.FlowRecord(0, f, 900, 1000, 0, 0, 0, 0, 0, 0, 900, 0, 0, 0, false, 0, 950);
        SimulationResult.FlowRecord q0 = new SimulationResult.FlowRecord(0, f.queuePair(0), 800, 500, 0, 0, 0, 0, 0, 0, 800, 0, 0, 0, false, 0, 850);
        SimulationResult.FlowRecord q1 = new SimulationResult.FlowRecord(0, f.queuePair(1), 900, 500, 0, 0, 0, 0, 0, 0, 900, 0, 0, 0, false, 0, 950);
        SimulationResult ok = new SimulationResult(new SimulationResult.RunSummary("roce", 1000, false, 0),
                new SimulationResult.Totals(0, 0, 0, 0, 0, 0, 0),
                new SimulationResult.FabricEvents(0, 0, List.of(), 0, List.of()), List.of(flow), List.of(q0, q1), List.of(), Counters.NONE);
        assertEquals(List.of(q0, q1), ok.queuePairsOf(0));
        String m = assertThrows(IllegalArgumentException.class, () -> new SimulationResult(new SimulationResult.RunSummary("roce", 1000, false, 0),
                new SimulationResult.Totals(0, 0, 0, 0, 0, 0, 0),
                new SimulationResult.FabricEvents(0, 0, List.of(), 0, List.of()), List.of(flow), List.of(q0), List.of(), Counters.NONE)).getMessage();
        assertTrue(m.contains("queuePairs") && m.contains("(2)") && m.contains("got 1"), m);
        assertThrows(IllegalArgumentException.class, () -> new SimulationResult(new SimulationResult.RunSummary("roce", 1000, false, 0),
                new SimulationResult.Totals(0, 0, 0, 0, 0, 0, 0),
                new SimulationResult.FabricEvents(0, 0, List.of(), 0, List.of()), List.of(flow), List.of(), Counters.NONE));
    }
}
