package fabriclab.simulation;

import fabriclab.simulation.config.SimulationConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcDynamicThreshold;
import fabriclab.fabric.PfcHeadroom;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import org.junit.jupiter.api.Test;

/** The alpha-based PFC threshold: its closed forms, and the packet simulator's ingress accounting pausing at them. */
class PfcDynamicThresholdTest {
    static final long G100 = 100_000_000_000L;

    @Test
    void closedForms() {
        PfcDynamicThreshold t = PfcDynamicThreshold.ofExponent(0, 10_000);
        assertEquals(1.0, t.alpha());
        assertEquals(0.125, PfcDynamicThreshold.ofExponent(-3, 0).alpha());
        // c = alpha (B - n c)  ->  c = alpha B / (1 + n alpha): B = 9 MB, alpha 1, n 2 -> 3 MB
        assertEquals(3_000_000, t.settledXoffBytes(9_000_000, 2), 1e-6);
        assertEquals(1_000_000, new PfcDynamicThreshold(0.125, 0).settledXoffBytes(9_000_000, 1), 1e-6);
        assertTrue(t.pausesAt(4_000, 4_000));
        assertTrue(!t.pausesAt(3_999, 4_000));
        assertTrue(t.resumesAt(3_000, 13_001));
        assertTrue(!t.resumesAt(3_001, 13_001));
        assertThrows(IllegalArgumentException.class, () -> new PfcDynamicThreshold(16, 0));
        assertThrows(IllegalArgumentException.class, () -> new PfcDynamicThreshold(0.5, -1));
        assertThrows(IllegalArgumentException.class, () -> PfcDynamicThreshold.ofExponent(4, 0));
    }

    /** Two senders at 100G into one 100G receiver: each ingress counter pauses near alpha B / (1 + 2 alpha). */
    @Test
    void simulatorPausesAtTheSettledThreshold() {
        long buffer = 3_000_000;
        long prop = Time.US;
        long headroom = PfcHeadroom.packetLevelBytes(G100, prop, 1000);
        for (double alpha : new double[] {0.25, 1.0}) {
            PfcDynamicThreshold dyn = new PfcDynamicThreshold(alpha, 20_000);
            Topology t = Topology.singleSwitch(3, G100, prop);
            SimulationResult r = new Simulator(Scenario.builder(t, PfcTest.config(buffer, 1)).flows(PfcTest.incast(2, 4_000_000))
                    .pfc(new Pfc(buffer - headroom, buffer - headroom, headroom, 65535)).pfcDynamicThreshold(dyn)
                    .build()).run();
            assertEquals(0, r.droppedPackets(), "lossless at alpha " + alpha);
            double settled = dyn.settledXoffBytes(buffer, 2);
            for (int h = 0; h < 2; h++) {
                SimulationResult.PortPfc p = PfcTest.switchPort(r, h);
                assertTrue(p.pausesSent() > 0, "paused at alpha " + alpha);
                long peak = p.peakIngressBytes()[0];
                // at most the settled threshold plus what is in flight when the PAUSE lands (the headroom),
                // and at least the threshold minus one packet of the other port's share moving the free buffer
                assertTrue(peak >= settled - 2_000 && peak <= settled + headroom + 2_000,
                        "alpha " + alpha + ": peak " + peak + " vs alpha B/(1+2 alpha) = " + settled);
            }
        }
    }

    @Test
    void needsPfcAndAReachableXon() {
        Topology t = Topology.singleSwitch(3, G100, Time.US);
        SimulationConfig c = PfcTest.config(1_000_000, 1);
        assertThrows(IllegalArgumentException.class, () -> Scenario.builder(t, c).flows(PfcTest.incast(2, 10_000))
                .pfcDynamicThreshold(new PfcDynamicThreshold(1, 0)).build());
        assertThrows(IllegalArgumentException.class, () -> Scenario.builder(t, c).flows(PfcTest.incast(2, 10_000))
                .pfc(Pfc.thresholds(500_000, 400_000)).pfcDynamicThreshold(new PfcDynamicThreshold(1.0 / 64, 20_000)).build());
    }
}
