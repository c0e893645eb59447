package fabriclab.simulation;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.Time;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.SimulationResult.QueueTrace;
import fabriclab.fabric.LeafSpine;
import java.util.List;
import org.junit.jupiter.api.Test;

/** 2 leaves x 2 spines, 4 hosts; link 4 is leaf 0 - spine 0 (LeafSpine lists host links first). */
class LinkFailureTest {
    static final long G100 = 100_000_000_000L;
    static final LeafSpine FABRIC = new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Time.US);

    static QueueTrace uplink(SimulationResult r, int spineNode) {
        return r.queues().stream().filter(q -> q.switchIndex() == 0 && q.peerNode() == spineNode).findFirst().orElseThrow();
    }

    /** One 2 MB flow from host 0 (leaf 0) to host 2 (leaf 1), sprayed round robin over the two spines. */
    static Scenario.Builder sprayOneFlow() {
        return Scenario.builder(FABRIC.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000))
                .withForwarding(Forwarding.sprayRoundRobin())).flow(FlowSpec.of(0, 2, 2_000_000, 0));
    }

    @Test
    void failureLosesOnlyPacketsOnTheLinkAndTrafficMovesToTheOtherSpine() {
        SimulationResult r = new Simulator(sprayOneFlow().failLink(4, 50 * Time.US).build()).run();
        assertEquals(2_000_000, r.injectedBytes());
        assertEquals(0, r.inFlightBytes());
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes());
        QueueTrace dead = uplink(r, 4 + 2);
        QueueTrace live = uplink(r, 4 + 3);
        // every packet is full size: delivered packets = sent - dropped
        assertEquals(2000 - r.droppedPackets(), r.deliveredBytes() / 1000);
        // every packet not dropped while queued at the dead port left leaf 0 on one of the two uplinks
        long sentUp = dead.txPackets() + live.txPackets();
        assertTrue(sentUp <= 2000 && sentUp >= 2000 - r.droppedPackets(), "uplink packets " + sentUp);
        // losses are bounded by what a 1 us, 100G wire plus one packet in service can hold (13 + 1)
        assertTrue(r.droppedPackets() > 0 && r.droppedPackets() <= 14, "dropped " + r.droppedPackets());
        // before the failure round robin alternated: about 50 us / 80 ns / 2 packets went via spine 0
        assertEquals(50 * Time.US / (80 * Time.NS) / 2.0, dead.txPackets(), 15);
    }

    @Test
    void ecmpFlowsStartedAfterTheFailureAvoidTheDeadLink() {
        List<FlowSpec> flows = List.of(new FlowSpec(0, 2, 100_000, 20 * Time.US, 0, 50001), new FlowSpec(0, 3, 100_000, 20 * Time.US, 0, 50002),
                new FlowSpec(1, 2, 100_000, 20 * Time.US, 0, 50003), new FlowSpec(1, 3, 100_000, 20 * Time.US, 0, 50004));
        Simulator sim = new Simulator(Scenario.builder(FABRIC.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000))
                .withForwarding(Forwarding.ecmp(HashFunction.CRC32, 3))).flows(flows).failLink(4, 10 * Time.US)
                .build());
        assertEquals(2, sim.candidatePorts(0, 2).length); // the failure is scheduled, not applied at construction
        SimulationResult r = sim.run();
        assertTrue(r.allCompleted());
        assertEquals(0, r.droppedPackets());
        assertEquals(0, uplink(r, 6).txPackets());
        assertEquals(1, sim.candidatePorts(0, 2).length);
    }

    @Test
    void beforeDetectionTheDeadLinkBlackHolesItsShareOfTheTraffic() {
        // round-robin spraying at line rate: the leaf sends every second packet (80 ns each) to spine 0;
        // between failure (10 us) and reroute (30 us) those 20 us / 160 ns = 125 packets are black-holed
        Simulator sim = new Simulator(sprayOneFlow().failLink(FABRIC.uplinkIndex(0, 0, 0), 10 * Time.US, 30 * Time.US).build());
        SimulationResult r = sim.run();
        assertEquals(125, r.counter(SimulationResult.BLACKHOLED_PACKETS), 1);
        // plus what was queued for or propagating on the link at the failure (at most 13 + 1)
        assertTrue(r.droppedPackets() >= 125 && r.droppedPackets() <= 126 + 14, "dropped " + r.droppedPackets());
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes());
        assertEquals(1, sim.candidatePorts(0, 2).length);
    }

    @Test
    void aPredictedFailureReroutesFirstAndLosesNothing() {
        // announced 5 us ahead: the dead link's queue and 1 us wire have drained when it fails
        SimulationResult r = new Simulator(sprayOneFlow().failLink(4, 50 * Time.US, 45 * Time.US).build()).run();
        assertEquals(0, r.droppedPackets());
        assertEquals(2_000_000, r.deliveredBytes());
        assertEquals(45 * Time.US / (80 * Time.NS) / 2.0, uplink(r, 6).txPackets(), 15);
    }

    @Test
    void negativeRerouteTimeIsNamed() {
        Scenario.Builder b = Scenario.builder(FABRIC.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.failLink(4, 0, -1));
        assertTrue(e.getMessage().contains("reroutePs"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.failLink(4, -1));
        assertTrue(e.getMessage().contains("timePs"), e.getMessage()); // the two-argument form's own parameter
    }

    @Test
    void badLinkIndexIsNamed() {
        // FABRIC has 4 host links and 2 x 2 uplinks: indices 0..7; 8 is one past the end
        Scenario.Builder b = Scenario.builder(FABRIC.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.failLink(8, 0).build());
        assertTrue(e.getMessage().contains("failures[].link"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Scenario.builder(FABRIC.build(),
                SimulationConfig.defaults(SwitchBuffer.shared(10_000_000))).failLink(-1, 0));
        assertTrue(e.getMessage().contains("link"), e.getMessage());
        assertEquals(7, Scenario.builder(FABRIC.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000)))
                .failLink(7, 0).build().failures().get(0).link());
    }
}
