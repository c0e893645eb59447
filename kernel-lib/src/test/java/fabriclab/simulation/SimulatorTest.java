package fabriclab.simulation;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.Time;
import fabriclab.fabric.EcnMarking;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.loadbalancing.flow.FiveTuple;
import fabriclab.loadbalancing.hash.EcmpHasher;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.loadbalancing.hash.PathSelection;
import fabriclab.progress.Progress;
import fabriclab.simulation.SimulationResult.QueueTrace;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {
    static final long G100 = 100_000_000_000L;
    static final long G25 = 25_000_000_000L;

    static SimulationConfig config(long bufferBytes) {
        return SimulationConfig.defaults(SwitchBuffer.shared(bufferBytes));
    }

    @Test
    void oneFlowCompletionTimeMatchesHandCalculation() {
        // 2 leaves x 1 spine: host 0 (leaf 0) -> host 2 (leaf 1) crosses 4 links of 100G.
        LeafSpine ls = new LeafSpine(4, 1, 2, 1, G100, G100, 1, 1 * Time.US, 2 * Time.US);
        long size = 1_000_000;
        int mtu = 1000;
        SimulationResult r = new Simulator(Scenario.builder(ls.build(), config(10_000_000)).flow(FlowSpec.of(0, 2, size, 5 * Time.US))
                .build()).run();
        // FCT = S*8/r (source serialisation) + 3 more store-and-forward serialisations of the last packet
        // + propagation 1 + 2 + 2 + 1 us. At 100G one byte = 80 ps.
        long expected = size * 80 + 3 * mtu * 80L + 6 * Time.US;
        assertEquals(86_240_000L, expected);
        assertEquals(expected, r.flows().get(0).completionTimePs());
        assertEquals(4L * 1000, r.packetHops());
    }

    @Test
    void oneFlowWithHeadersAndSlowReceiverMatchesHandCalculation() {
        // sender at 100G, receiver at 25G through one switch; 48 B of header per packet on the wire.
        long[] rates = {G100, G25};
        long prop = 500 * Time.NS;
        Topology t = Topology.singleSwitch(rates, prop);
        SimulationConfig c = new SimulationConfig(1000, 48, 1, SwitchBuffer.shared(4_000_000),
                Forwarding.ecmp(HashFunction.CRC32, 0), 1, 0, 0);
        long size = 200_500; // 200 full packets + one of 500 B
        SimulationResult r = new Simulator(Scenario.builder(t, c).flow(FlowSpec.of(0, 1, size, 0)).build()).run();
        // The first packet reaches the switch at 1048*80 ps + prop; from then the 25G port (320 ps/B) is
        // never idle because packets arrive 4x faster than it drains, so it sends all wire bytes back to back.
        long wire = 200 * 1048L + 548;
        long expected = 1048 * 80L + prop + wire * 320 + prop;
        assertEquals(expected, r.flows().get(0).completionTimePs());
    }

    @Test
    void uncontrolledIncastQueueGrowsAtNrMinusRUntilTheBufferOverflows() {
        int n = 8;
        long[] rates = new long[n + 1];
        java.util.Arrays.fill(rates, G100);
        long prop = 1 * Time.US;
        long buffer = 1_000_000;
        int mtu = 1000;
        Topology t = Topology.singleSwitch(rates, prop);
        long period = 100 * Time.NS;
        SimulationConfig c = config(buffer).withSampling(period, 100_000);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            flows.add(FlowSpec.of(i, n, 200_000, 0));
        }
        SimulationResult r = new Simulator(Scenario.builder(t, c).flows(flows).build()).run();
        QueueTrace q = r.queues().stream().filter(x -> x.peerNode() == n).findFirst().orElseThrow();
        long t0 = mtu * 80L + prop; // first packets reach the switch
        double growthBytesPerPs = (n * G100 - G100) / 8.0 / Time.S; // (n r - R) in B/ps
        long overflow = t0 + (long) (buffer / growthBytesPerPs);
        int checked = 0;
        for (int k = 0; k < q.occupancyBytes().length; k++) {
            long time = k * period;
            if (time <= t0 || time >= overflow - 2 * period) {
                continue;
            }
            double fluid = growthBytesPerPs * (time - t0);
            // packet granularity: n packets arrive together at the start of each 80 ns slot while a
            // departure counts only when its last bit leaves, so q - fluid lies in [0, (n + 1) MTU]
            double diff = q.occupancyBytes()[k] - fluid;
            assertTrue(diff > -1e-6 && diff < (n + 1) * mtu + 1e-6, "t = " + time + " ps: q = " + q.occupancyBytes()[k] + ", fluid " + fluid);
            checked++;
        }
        assertTrue(checked > 50, "checked " + checked);
        // after overflow the queue sits at the buffer (tail drop admits only packets that fit)
        assertTrue(q.peakBytes() <= buffer && q.peakBytes() > buffer - mtu, "peak " + q.peakBytes());
        assertTrue(q.drops() > 0);
        // total drops: offered n*200 KB, the receiver drains at R for the senders' 16 us, buffer absorbs the rest
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes());
    }

    @Test
    void bytesAreConservedAndNothingIsDeliveredTwice() {
        LeafSpine ls = new LeafSpine(16, 2, 4, 2, G100, G100, 2, 1 * Time.US, 1 * Time.US);
        SimulationConfig c = new SimulationConfig(1000, 0, 2, new SwitchBuffer(300_000, 100_000, new EcnMarking(20_000, 80_000, 0.2)),
                Forwarding.sprayRandom(), 3, Time.US, 1000);
        List<FlowSpec> flows = permutationAndIncast(ls.hosts());
        SimulationResult r = new Simulator(Scenario.builder(ls.build(), c).flows(flows).build()).run();
        assertFalse(r.partial());
        assertEquals(0, r.inFlightBytes());
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes());
        long offered = flows.stream().mapToLong(FlowSpec::bytes).sum();
        assertEquals(offered, r.injectedBytes()); // line-rate senders send everything
        assertTrue(r.droppedPackets() > 0 && r.ecnMarks() > 0, "scenario must exercise drops and marks");
        for (SimulationResult.FlowRecord f : r.flows()) {
            assertEquals(0, f.duplicatePackets());
            long droppedPayload = f.spec().bytes() - f.deliveredBytes();
            assertTrue(droppedPayload >= 0);
            assertEquals(f.completed(), droppedPayload == 0);
        }
        assertEquals(r.droppedPackets(), r.flows().stream().mapToLong(SimulationResult.FlowRecord::droppedPackets).sum());
        assertEquals(r.droppedPackets(), r.queues().stream().mapToLong(QueueTrace::drops).sum());
    }

    @Test
    void partialRunAccountsForBytesInFlight() {
        LeafSpine ls = new LeafSpine(16, 2, 4, 2, G100, G100, 2, 1 * Time.US, 1 * Time.US);
        SimulationConfig c = new SimulationConfig(1000, 0, 2, SwitchBuffer.shared(300_000), Forwarding.sprayRoundRobin(), 1, 0, 0);
        SimulationResult r = new Simulator(Scenario.builder(ls.build(), c).flows(permutationAndIncast(ls.hosts()))
                .build()).run(20 * Time.US, Progress.silent());
        assertTrue(r.partial());
        assertTrue(r.inFlightBytes() > 0);
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes() + r.inFlightBytes());
        assertTrue(r.endPs() <= 20 * Time.US);
    }

    static List<FlowSpec> permutationAndIncast(int hosts) {
        List<FlowSpec> flows = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            flows.add(new FlowSpec(h, (h + hosts / 2 + 1) % hosts, 100_000 + 1000L * h, 100L * h * Time.NS, h % 2, 50000 + h));
        }
        for (int h = 1; h < 9; h++) {
            flows.add(new FlowSpec(h, 0, 150_000, 0, 0, 40000 + h));
        }
        return flows;
    }

    @Test
    void sameSeedGivesIdenticalResultsAndAnotherSeedDiffers() {
        LeafSpine ls = new LeafSpine(16, 2, 4, 2, G100, G100, 2, 1 * Time.US, 1 * Time.US);
        SimulationConfig c = new SimulationConfig(1000, 0, 2, new SwitchBuffer(300_000, 100_000, new EcnMarking(20_000, 80_000, 0.2)),
                Forwarding.sprayRandom(), 42, Time.US, 1000);
        SimulationResult a = new Simulator(Scenario.builder(ls.build(), c).flows(permutationAndIncast(ls.hosts())).build()).run();
        SimulationResult b = new Simulator(Scenario.builder(ls.build(), c).flows(permutationAndIncast(ls.hosts())).build()).run();
        SimulationResult d = new Simulator(Scenario.builder(ls.build(), c.withSeed(43)).flows(permutationAndIncast(ls.hosts()))
                .build()).run();
        assertEquals(a.flows(), b.flows());
        assertEquals(a.endPs(), b.endPs());
        assertEquals(a.ecnMarks(), b.ecnMarks());
        assertEquals(a.events(), b.events());
        for (int i = 0; i < a.queues().size(); i++) {
            assertArrayEquals(a.queues().get(i).occupancyBytes(), b.queues().get(i).occupancyBytes());
        }
        assertNotEquals(a.flows(), d.flows());
    }

    @Test
    void ecmpPerPathFlowCountsEqualTheHashersCounts() {
        // 2 leaves x 8 spines, 32 NICs per leaf; every NIC of leaf 0 sends 4 flows to leaf 1.
        int spines = 8;
        LeafSpine ls = new LeafSpine(64, 1, 2, spines, G100, G100, 1, Time.US, Time.US);
        int seed = 0x1234;
        SimulationConfig c = config(100_000_000).withForwarding(Forwarding.ecmp(HashFunction.CRC32C, seed));
        List<FlowSpec> flows = new ArrayList<>();
        List<FiveTuple> tuples = new ArrayList<>();
        for (int h = 0; h < 32; h++) {
            for (int k = 0; k < 4; k++) {
                int dst = 32 + (h + 7 * k) % 32;
                int sport = 49152 + 257 * h + 13 * k;
                flows.add(new FlowSpec(h, dst, 2000, 0, 0, sport));
                tuples.add(FiveTuple.roceV2(0x0A000000 + h + 1, 0x0A000000 + dst + 1, sport));
            }
        }
        Simulator sim = new Simulator(Scenario.builder(ls.build(), c).flows(flows).build());
        int[] uplinks = sim.candidatePorts(0, 32);
        assertEquals(spines, uplinks.length);
        SimulationResult r = sim.run();
        // independent expectation: leaf 0 is switch 0, whose seed is the base seed
        int[] expected = EcmpHasher.of(HashFunction.CRC32C, seed, 0, PathSelection.MODULO).countPerPath(tuples, spines);
        int[] actual = new int[spines];
        for (int m = 0; m < spines; m++) {
            int port = uplinks[m];
            actual[m] = (int) r.queues().stream().filter(q -> q.switchIndex() == 0 && q.port() == port)
                    .findFirst().orElseThrow().flowHeads();
        }
        assertArrayEquals(expected, actual);
        assertTrue(r.allCompleted());
        // ECMP keeps each flow on one path: no reordering
        assertEquals(0, r.flows().stream().mapToLong(SimulationResult.FlowRecord::reorderedPackets).sum());
    }

    @Test
    void roundRobinSprayingSplitsPacketsEvenlyOverUplinks() {
        LeafSpine ls = new LeafSpine(4, 1, 2, 4, G100, G25, 1, Time.US, Time.US);
        assertEquals(4 * 25.0 / (2 * 100.0), ls.speedup(), 1e-12); // 4 x 25G up, 2 x 100G down
        SimulationResult r = new Simulator(Scenario.builder(ls.build(), config(10_000_000).withForwarding(Forwarding.sprayRoundRobin()))
                .flow(FlowSpec.of(0, 2, 400_000, 0))
                .build()).run();
        long[] perUplink = r.queues().stream().filter(q -> q.switchIndex() == 0 && q.peerNode() >= 4)
                .mapToLong(QueueTrace::txPackets).toArray();
        assertArrayEquals(new long[] {100, 100, 100, 100}, perUplink);
        assertTrue(r.allCompleted());
    }

    /** Without a time limit, progress counts the payload delivered, in MB rounded up, up to all of the flows'. */
    @Test
    void progressOfARunWithoutLimitIsThePayloadDelivered() {
        List<Progress.State> states = new ArrayList<>();
        // 8 flows of 2.5 MB: 20 MB in all
        Scenario s = Scenario.incast(8, 2_500_000, 100_000_000_000L, SimulationConfig.defaults(SwitchBuffer.shared(1L << 30)));
        SimulationResult r = new Simulator(s).run(Long.MAX_VALUE, states::add);
        assertTrue(r.allCompleted());
        Progress.State last = states.get(states.size() - 1);
        assertTrue(last.finished());
        assertEquals("packet simulation (MB delivered)", last.label());
        assertEquals(20, last.total());
        assertEquals(20, last.done());
        for (int i = 1; i < states.size(); i++) {
            assertTrue(states.get(i).done() >= states.get(i - 1).done());
        }
        for (int threads = 1; threads <= 2; threads++) { // the parallel engine: the same total and end
            List<Progress.State> par = new ArrayList<>();
            assertTrue(new Simulator(s).runParallel(Long.MAX_VALUE, par::add, threads).allCompleted());
            Progress.State end = par.get(par.size() - 1);
            assertTrue(end.finished());
            assertEquals("packet simulation (parallel, " + threads + " threads, MB delivered)", end.label());
            assertEquals(20, end.total());
            assertEquals(20, end.done());
        }
    }
}
