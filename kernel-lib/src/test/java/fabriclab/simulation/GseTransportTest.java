package fabriclab.simulation;

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
        SimulationResult r = Scenario.builder(ls.build(), config()).flows(flows).transport(GseTransport.defaults())
                .build().simulator()
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
        assertEquals(r.counters().get("gse.containers"), r.counters().get("gse.grants"));
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
        SimulationResult r = Scenario.builder(ls.build(), config()).flows(flows).transport(GseTransport.defaults())
                .build().simulator()
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
        SimulationResult r = Scenario.builder(t, config()).flows(flows).transport(GseTransport.defaults()).failLink(failed, 0)
                .build().simulator()
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
    }
}
