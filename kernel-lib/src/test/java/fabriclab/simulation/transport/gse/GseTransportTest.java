package fabriclab.simulation.transport.gse;

import fabriclab.simulation.trace.Trace;
import fabriclab.simulation.trace.DropReason;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.Time;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.progress.Progress;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GseTransportTest {
    static final long G100 = 100_000_000_000L;

    static SimulationConfig config() {
        return new SimulationConfig(4096, 0, 1, SwitchBuffer.shared(32_000_000), Forwarding.ecmp(HashFunction.CRC32, 0), 1, 0, 0);
    }

    @Test
    void incastAcrossTheFabricIsLosslessInOrderAndBoundedAtTheEgress() {
        // 16 senders on 4 leaves -> 1 receiver on a fifth leaf, 2 MB each, no PFC in the fabric.
        // Grants pace containers toward the receiver's port at its rate, so the egress queue holds at
        // most about two containers (one draining, one arriving; 2 x 16 KB) and the port stays busy:
        // the last byte arrives close to 32 MB / 100G = 2.56 ms.
        LeafSpine ls = new LeafSpine(20, 1, 5, 4, G100, G100, 1, Time.US, Time.US);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            flows.add(FlowSpec.of(i, 16, 2_000_000, 0));
        }
        SimulationResult r = new Simulator(Scenario.builder(ls.build(), config()).flows(flows).transport(GseTransport.defaults())
                .build())
                .run(100 * Time.MS, Progress.silent());
        assertTrue(r.allCompleted());
        assertEquals(32_000_000, r.deliveredBytes());
        assertEquals(0, r.droppedPackets());
        assertEquals(0, r.flows().stream().mapToLong(SimulationResult.FlowRecord::reorderedPackets).sum());
        assertEquals(0, r.flows().stream().mapToLong(SimulationResult.FlowRecord::duplicatePackets).sum());
        long peak = r.queues().stream().filter(q -> q.peerNode() == 16).findFirst().orElseThrow().peakBytes();
        assertTrue(peak <= 2 * 16_384, "egress peak " + peak);
        long last = r.flows().stream().mapToLong(SimulationResult.FlowRecord::completionTimePs).max().orElseThrow();
        assertTrue(last <= 1.02 * 2_560 * Time.US, "last completion " + last);
        assertEquals(r.counter(GseTransport.CONTAINERS), r.counter(GseTransport.GRANTS));
        // lossless: nothing resent, nothing discarded, every injected byte delivered once
        assertEquals(0L, r.counter(GseTransport.CONTAINERS_RESENT));
        assertEquals(0L, r.counter(GseTransport.DUPLICATES_DISCARDED));
        assertEquals(r.injectedBytes(), r.deliveredBytes());
        assertEquals(0, r.flows().stream().mapToLong(SimulationResult.FlowRecord::retransmittedPackets).sum());
        // and the loop from sending a container to its confirmation stayed well inside the resend timeout
        assertTrue(r.counter(GseTransport.CONFIRM_LOOP_PEAK_PS) < GseTransport.DEFAULT_RESEND_TIMEOUT_PS / 4,
                "loop " + r.counter(GseTransport.CONFIRM_LOOP_PEAK_PS));
    }

    /** 2 hosts on 2 leaves, 2 spines, every link 100G and 1 us: one flow from host 0 to host 1. */
    static final LeafSpine TWO_PATHS = new LeafSpine(2, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
    static final long FLOW_BYTES = 8L << 20; // 512 containers of 16 KiB, 4 packets of 4 KiB each

    static SimulationResult oneFlow(GseTransport gse, long bytes, long failPs, long reroutePs, Trace trace) {
        Scenario.Builder b = Scenario.builder(TWO_PATHS.build(), config()).flow(FlowSpec.of(0, 1, bytes, 0)).transport(gse);
        if (failPs >= 0) {
            b.failLink(TWO_PATHS.uplinkIndex(0, 0, 0), failPs, reroutePs);
        }
        return new Simulator(b.build(), trace).run(100 * Time.MS, Progress.silent());
    }

    @Test
    void aContainerLostOnAFailedLinkIsResentAndEveryByteArrivesOnce() {
        GseTransport gse = GseTransport.defaults();
        SimulationResult clean = oneFlow(gse, FLOW_BYTES, -1, -1, null);
        assertTrue(clean.allCompleted());
        assertEquals(0L, clean.counter(GseTransport.CONTAINERS_RESENT));
        // the uplink leaf 0 - spine 0 fails at 200 us; the routes avoid it 20 us later (a detected failure:
        // meanwhile the leaf keeps spraying every other container onto it and they are black-holed)
        long failPs = 200 * Time.US;
        long detectionPs = 20 * Time.US;
        long[] dropped = new long[1];
        Trace trace = new Trace() {
            @Override
            public void dropped(int node, int port, int flow, boolean data, int wireBytes, DropReason reason, long timePs) {
                if (data) {
                    dropped[0]++;
                }
            }
        };
        SimulationResult r = oneFlow(gse, FLOW_BYTES, failPs, failPs + detectionPs, trace);
        assertTrue(r.allCompleted());
        assertEquals(FLOW_BYTES, r.flows().get(0).deliveredBytes());
        assertEquals(FLOW_BYTES, r.deliveredBytes());
        assertEquals(dropped[0], r.droppedPackets());
        assertTrue(dropped[0] > 0);
        // conservation: every injected byte (the host's and the resent copies') was delivered, dropped or discarded
        assertEquals(0, r.inFlightBytes());
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes() + r.discardedBytes());
        long resent = r.counter(GseTransport.CONTAINERS_RESENT);
        long packetsResent = r.counter(GseTransport.PACKETS_RESENT);
        assertEquals(4 * resent, packetsResent);
        // containers on the dead link: the destination port grants one 16 KiB container every
        // 16384 x 8 / 100G = 1.31 us and the leaf alternates them over its two uplinks, so the 20 us
        // before the reroute alone send at least floor(20 / 2.62) = 7 containers onto the dead link;
        // and every lost packet belongs to a resent container (4 packets per container)
        double perContainerUs = 16384 * 8 / 100e3;
        long blackHoled = (long) Math.floor(Time.toMicros(detectionPs) / (2 * perContainerUs));
        assertEquals(7, blackHoled);
        assertTrue(resent >= blackHoled, "resent " + resent);
        assertTrue(resent >= (dropped[0] + 3) / 4, "resent " + resent + ", dropped packets " + dropped[0]);
        // each resent packet either replaces a lost one or is a duplicate of one that arrived
        long duplicates = r.counter(GseTransport.DUPLICATES_DISCARDED);
        assertEquals(packetsResent - dropped[0], duplicates);
        assertEquals(duplicates, r.flows().get(0).duplicatePackets());
        assertEquals(packetsResent, r.flows().get(0).retransmittedPackets());
        assertEquals(duplicates * 4096, r.discardedBytes());
        // the host link is the bottleneck: while the destination edge holds the containers behind a lost
        // one (egress reordering) it stays idle for at least the resend timeout
        long cleanDone = clean.completedAtPs(0);
        assertTrue(r.completedAtPs(0) >= cleanDone + gse.resendTimeoutPs(),
                "completed at " + r.completedAtPs(0) + " ps, without failure " + cleanDone + " ps");
    }

    @Test
    void aFailureAtTheAnnouncedInstantLosesWhatIsOnTheLinkAndRecoversIt() {
        // failure and reroute at the same instant (detection delay 0): what is queued or on the wire is lost.
        // The dead uplink gets one container every 2.62 us and holds each for 1.31 us of serialisation plus
        // 1 us of propagation (88% of the time), so most of 13 failure instants 0.2 us apart catch packets on it
        int lossy = 0;
        for (int k = 0; k < 13; k++) {
            long failPs = 200 * Time.US + k * 200 * Time.NS;
            SimulationResult r = oneFlow(GseTransport.defaults(), FLOW_BYTES, failPs, failPs, null);
            assertTrue(r.allCompleted());
            assertEquals(FLOW_BYTES, r.deliveredBytes());
            assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes() + r.discardedBytes());
            if (r.droppedPackets() > 0) {
                lossy++;
                assertTrue(r.counter(GseTransport.CONTAINERS_RESENT) >= (r.droppedPackets() + 3) / 4);
            }
        }
        assertTrue(lossy >= 13 / 2, lossy + " of 13 failure instants lost packets");
        // announced 5 us ahead the link drains before it fails: nothing lost, nothing resent
        long failPs = 200 * Time.US;
        SimulationResult early = oneFlow(GseTransport.defaults(), FLOW_BYTES, failPs, failPs - 5 * Time.US, null);
        assertTrue(early.allCompleted());
        assertEquals(0, early.droppedPackets());
        assertEquals(0L, early.counter(GseTransport.CONTAINERS_RESENT));
    }

    @Test
    void aTimeoutShorterThanTheLoopResendsAndTheDuplicatesAreDiscarded() {
        // 500 ns is less than the one-way time of the path alone (two 1 us links): every container is
        // requested again before it can be confirmed, and its copy arrives after the original
        GseTransport gse = GseTransport.defaults().withResendTimeoutPs(500 * Time.NS);
        long bytes = 64L << 10; // 4 containers
        SimulationResult r = oneFlow(gse, bytes, -1, -1, null);
        assertTrue(r.allCompleted());
        assertEquals(bytes, r.deliveredBytes());
        assertEquals(0, r.droppedPackets());
        long resent = r.counter(GseTransport.CONTAINERS_RESENT);
        long duplicates = r.counter(GseTransport.DUPLICATES_DISCARDED);
        assertTrue(resent >= 1, "resent " + resent);
        // nothing was lost, so every resent packet arrived as a second copy of a packet already there
        assertEquals(r.counter(GseTransport.PACKETS_RESENT), duplicates);
        assertEquals(4 * resent, duplicates);
        assertEquals(duplicates, r.flows().get(0).duplicatePackets());
        assertEquals(duplicates * 4096, r.discardedBytes());
        assertEquals(r.injectedBytes(), bytes + r.discardedBytes());
        assertEquals(0, r.flows().get(0).reorderedPackets());
    }

    @Test
    void anOverloadedPathDropsAndTheEdgesRecoverEverything() {
        // grants bound each destination port, not the path: hosts 0-2 (leaf 0) send 4 MiB each to hosts 4-6
        // (leaf 1) at 3 x 100G into leaf 0's single 100G uplink, whose queue fills leaf 0's 1 MB buffer and
        // tail-drops; host 7 (leaf 1) sends 2 MiB to host 3 on that full leaf 0 from 1 us on, and the
        // destination edges forward what they confirmed to their hosts without a tail drop (the grant reserved
        // it; with an ordinary admission those packets are lost after confirmation and no flow completes)
        LeafSpine ls = new LeafSpine(8, 1, 2, 1, G100, G100, 1, Time.US, Time.US);
        SimulationConfig small = new SimulationConfig(4096, 0, 1, SwitchBuffer.shared(1_000_000),
                Forwarding.ecmp(HashFunction.CRC32, 0), 1, 0, 0);
        long bytes = 4L << 20;
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            flows.add(FlowSpec.of(i, 4 + i, bytes, 0));
        }
        flows.add(FlowSpec.of(7, 3, bytes / 2, Time.US));
        SimulationResult r = new Simulator(Scenario.builder(ls.build(), small).flows(flows).transport(GseTransport.defaults())
                .build()).run(Time.S, Progress.silent());
        assertTrue(r.allCompleted());
        for (SimulationResult.FlowRecord f : r.flows()) {
            assertEquals(f.spec().bytes(), f.deliveredBytes());
        }
        assertTrue(r.droppedPackets() > 0, "the 1 MB buffer overflowed");
        assertEquals(0, r.inFlightBytes());
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes() + r.discardedBytes());
        long packetsResent = r.counter(GseTransport.PACKETS_RESENT);
        long duplicates = r.counter(GseTransport.DUPLICATES_DISCARDED);
        assertEquals(packetsResent - r.droppedPackets(), duplicates); // each resent packet replaced a lost one or was discarded
        // the 12 MiB through the 100G uplink take at least 12 MiB x 8 / 100G = 1.01 ms
        long last = Math.max(r.completedAtPs(0), Math.max(r.completedAtPs(1), r.completedAtPs(2)));
        assertTrue(last >= 3 * bytes * 8 * 10, "completed at " + last);
    }

    @Test
    void spraysContainersOverParallelMembersAtTheSpine() {
        // 8 flows from leaf 0 to leaf 1 through one spine with 4 x 100G members per leaf-spine pair. The
        // spine sends each pair's containers round robin over the 4 members toward leaf 1, so the members
        // differ by at most one container (4 packets) per pair: 8 x 4 = 32 packets.
        LeafSpine ls = new LeafSpine(16, 1, 2, 1, G100, G100, 4, Time.US, Time.US);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            flows.add(FlowSpec.of(i, 8 + i, 1L << 20, 0));
        }
        SimulationResult r = new Simulator(Scenario.builder(ls.build(), config()).flows(flows).transport(GseTransport.defaults())
                .build()).run(100 * Time.MS, Progress.silent());
        assertTrue(r.allCompleted());
        assertEquals(0, r.droppedPackets());
        int spine = 2;
        long[] down = r.queues().stream().filter(q -> q.switchIndex() == spine && q.peerNode() == 16 + 1)
                .mapToLong(SimulationResult.QueueTrace::txPackets).toArray();
        assertEquals(4, down.length);
        long max = java.util.Arrays.stream(down).max().orElseThrow();
        long min = java.util.Arrays.stream(down).min().orElseThrow();
        assertEquals(8 * 256, java.util.Arrays.stream(down).sum()); // 1 MiB = 256 packets per flow
        assertTrue(max - min <= 8 * 4, "spine member packets " + java.util.Arrays.toString(down));
    }

    @Test
    void containersSprayEvenlyWhereEcmpCollides() {
        // 16 flows from leaf 0 to leaf 1 over 8 spines, 1 MB each. GSE sends containers round robin over
        // the 8 uplinks: every uplink carries the same number of packets within one container per
        // destination (16 destinations x 4 packets). ECMP places whole flows by hash.
        LeafSpine ls = new LeafSpine(32, 1, 2, 8, G100, G100, 1, Time.US, Time.US);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            flows.add(FlowSpec.of(i, 16 + i, 1_000_000, 0));
        }
        SimulationResult r = new Simulator(Scenario.builder(ls.build(), config()).flows(flows).transport(GseTransport.defaults())
                .build())
                .run(100 * Time.MS, Progress.silent());
        assertTrue(r.allCompleted());
        int leaf0 = 0;
        long[] up = r.queues().stream().filter(q -> q.switchIndex() == leaf0 && q.peerNode() >= 32).mapToLong(
                SimulationResult.QueueTrace::txPackets).toArray();
        assertEquals(8, up.length);
        long max = java.util.Arrays.stream(up).max().orElseThrow();
        long min = java.util.Arrays.stream(up).min().orElseThrow();
        assertTrue(max - min <= 16 * 4, "uplink packets " + java.util.Arrays.toString(up));
    }

    @Test
    void aFailedUplinkCarriesNothing() {
        LeafSpine ls = new LeafSpine(8, 1, 2, 4, G100, G100, 1, Time.US, Time.US);
        Topology t = ls.build();
        int failed = -1;
        for (int i = 0; i < t.links().size(); i++) { // the first leaf-spine link
            if (t.links().get(i).nodeA() >= 8 && t.links().get(i).nodeB() >= 8) {
                failed = i;
                break;
            }
        }
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            flows.add(FlowSpec.of(i, 4 + i, 1_000_000, Time.US));
        }
        SimulationResult r = new Simulator(Scenario.builder(t, config()).flows(flows).transport(GseTransport.defaults()).failLink(failed, 0)
                .build())
                .run(100 * Time.MS, Progress.silent());
        assertTrue(r.allCompleted());
        int a = t.links().get(failed).nodeA(), b = t.links().get(failed).nodeB();
        long onFailed = r.queues().stream().filter(q -> (q.switchIndex() + 8 == a && q.peerNode() == b)
                || (q.switchIndex() + 8 == b && q.peerNode() == a)).mapToLong(SimulationResult.QueueTrace::txPackets).sum();
        assertEquals(0, onFailed);
    }

    @Test
    void rejectsBadParameters() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GseTransport.defaults().withContainerBytes(10));
        assertTrue(e.getMessage().contains("containerBytes"));
        e = assertThrows(IllegalArgumentException.class, () -> new GseTransport(16384, Time.US, 0, 100, 200));
        assertTrue(e.getMessage().contains("localXonBytes"));
        e = assertThrows(IllegalArgumentException.class, () -> GseTransport.defaults().withResendTimeoutPs(0));
        assertTrue(e.getMessage().contains("resendTimeoutPs"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GseTransport.defaults().withResendTimeoutPs(Time.S + 1));
        assertTrue(e.getMessage().contains("resendTimeoutPs"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GseTransport.defaults().withControlLatencyPs(-1));
        assertTrue(e.getMessage().contains("controlLatencyPs"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new GseTransport(16384, Long.MAX_VALUE, 0, 100, 50));
        assertTrue(e.getMessage().contains("assemblyTimeoutPs"), e.getMessage());
    }
}
