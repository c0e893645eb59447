package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcDynamicThreshold;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PFC thresholds that cannot keep a switch lossless are named before the run ({@link Scenario#pfcShortfall}): the
 * shared buffer must hold XOFF plus everything still arriving through one port after that port sends its PAUSE.
 */
class PfcProtectionTest {
    private static final Topology T = Topology.singleSwitch(3, 100_000_000_000L, Time.US);

    private static Scenario twoToOne(long buffer, Pfc pfc, long bytes) {
        return Scenario.builder(T, SimulationConfig.defaults(SwitchBuffer.shared(buffer)))
                .flows(List.of(FlowSpec.of(0, 2, bytes, 0), FlowSpec.of(1, 2, bytes, 0))).pfc(pfc)
                .transport(RoceTransport.noCongestionControl()).build();
    }

    /**
     * 100 Gbit/s, 1 us each way, packets of 1000 B: ser(1000 B) = 80,000 ps, ser(64 B) = 5,120 ps, the PAUSE needs
     * 2 prop + ser(64 B) = 2,005,120 ps, 25 whole packets, and 3 more (the one crossing XOFF, the one the upstream
     * may start, the one the PAUSE waits behind): 28,000 B per port. The switch has 3 ports, so a 150,000 B buffer
     * takes XOFF up to 150,000 / 3 - 28,000 = 22,000 B.
     */
    @Test
    void xoffMustLeaveRoomForWhatIsInFlight() {
        assertTrue(twoToOne(150_000, new Pfc(22_000, 20_000, 0, Pfc.MAX_QUANTA), 50_000).pfcShortfall().isEmpty());
        Scenario.PfcShortfall f = twoToOne(150_000, new Pfc(22_001, 20_000, 0, Pfc.MAX_QUANTA), 50_000).pfcShortfall()
                .orElseThrow();
        assertEquals(new Scenario.PfcShortfall(T.nodeName(3), 150_000, 22_001, 3, 150_003, 50_001), f);
        assertTrue(twoToOne(150_000, null, 50_000).pfcShortfall().isEmpty(), "no PFC, nothing to protect");
        Scenario dynamic = Scenario.builder(T, SimulationConfig.defaults(SwitchBuffer.shared(150_000)))
                .flows(List.of(FlowSpec.of(0, 2, 1_000, 0))).pfc(new Pfc(72_001, 60_000, 0, Pfc.MAX_QUANTA))
                .pfcDynamicThreshold(new PfcDynamicThreshold(1, 2_000)).build();
        assertTrue(dynamic.pfcShortfall().isEmpty(), "dynamic thresholds move XOFF with the free buffer");
    }

    /**
     * Where the shortfall is named, two senders outrun the buffer and packets are dropped in the switch; at the bound
     * the same incast is lossless: the check is sufficient for losslessness.
     */
    @Test
    void theShortfallIsWhereDropsHappen() {
        long bytes = 400_000;
        SimulationResult within = new Simulator(twoToOne(150_000, new Pfc(22_000, 20_000, 0, Pfc.MAX_QUANTA), bytes))
                .run();
        assertEquals(0, within.droppedPackets(), "XOFF 22,000 B: lossless");
        SimulationResult beyond = new Simulator(twoToOne(150_000, new Pfc(70_000, 60_000, 0, Pfc.MAX_QUANTA), bytes))
                .run();
        assertTrue(beyond.droppedPackets() > 0, "XOFF 70,000 B: two ports hold 140,000 B before they pause: drops");
    }
}
