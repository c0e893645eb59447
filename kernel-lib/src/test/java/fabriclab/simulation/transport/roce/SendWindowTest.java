package fabriclab.simulation.transport.roce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.Simulator;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.ReliableConnection;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sending window of {@link RoceTransport.Window} against the timing worked out by hand on one switch, two 100 Gb/s
 * links of 1 us, 1000-byte packets with no header, 64-byte ACKs, an ACK per packet.
 *
 * <p>One packet's round trip: its serialization on both links (2 x 80 ns), both delays (2 us), the ACK's serialization
 * on both links (2 x 5.12 ns) and both delays (2 us): RTT = 4170.24 ns. With a window of w packets, far below the
 * 52 packets of one bandwidth-delay product, packet i + w starts when packet i's ACK arrives: packet i starts at
 * {@code (i mod w) x 80 ns + floor(i / w) x RTT}, and the last of N packets is delivered 2 x 80 ns + 2 us after its
 * start.
 */
class SendWindowTest {
    static final long G100 = 100_000_000_000L;
    static final int N = 400;

    static SimulationResult run(RoceTransport transport) {
        SimulationConfig c = new SimulationConfig(1000, 0, 1, new SwitchBuffer(10_000_000, 10_000_000, EcnMarking.OFF),
                Forwarding.sprayRandom(), 1, 0, 0);
        return new Simulator(Scenario.builder(Topology.singleSwitch(2, G100, Time.US), c).flows(List.of(FlowSpec.of(0, 1, N * 1000L, 0)))
                .transport(transport).build()).run();
    }

    static RoceTransport perPacketAcks() {
        return RoceTransport.noCongestionControl().withReliableConnection(ReliableConnection.defaults().withAckEvery(1));
    }

    @Test
    void aWindowOfFourPacketsSendsFourPerRoundTrip() {
        int w = 4;
        double rttNs = 2 * 80 + 2000 + 2 * 5.12 + 2000;
        double lastStartNs = ((N - 1) % w) * 80 + ((N - 1) / w) * rttNs;
        double expectedLastDeliveryNs = lastStartNs + 2 * 80 + 2000;
        SimulationResult r = run(perPacketAcks().withWindow(new RoceTransport.Window(w * 1000L, false)));
        assertTrue(r.allCompleted());
        assertEquals(expectedLastDeliveryNs, r.flows().get(0).lastDeliveryPs() / 1e3, 1.0);
    }

    @Test
    void aWindowAboveTheBandwidthDelayProductDoesNotSlowTheFlow() {
        SimulationResult open = run(perPacketAcks());
        SimulationResult windowed = run(perPacketAcks().withWindow(new RoceTransport.Window(200_000, false)));
        assertEquals(open.flows().get(0).lastDeliveryPs(), windowed.flows().get(0).lastDeliveryPs());
    }

    @Test
    void aRateScaledWindowAtLineRateIsTheFullWindow() {
        // no CNP ever arrives (no marking), so R_C stays at line rate and W = W_max
        RoceTransport dcqcn = RoceTransport.dcqcn(DcqcnParameters.hpccSimulation())
                .withReliableConnection(ReliableConnection.defaults().withAckEvery(1));
        SimulationResult fixed = run(dcqcn.withWindow(new RoceTransport.Window(4000, false)));
        SimulationResult scaled = run(dcqcn.withWindow(new RoceTransport.Window(4000, true)));
        assertEquals(fixed.flows().get(0).lastDeliveryPs(), scaled.flows().get(0).lastDeliveryPs());
    }

    @Test
    void refusesAnEmptyWindow() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RoceTransport.Window(0, true));
        assertTrue(e.getMessage().contains("maxBytes"), e.getMessage());
    }
}
