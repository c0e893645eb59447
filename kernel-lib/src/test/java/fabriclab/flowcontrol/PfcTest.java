package fabriclab.flowcontrol;

import fabriclab.fabric.Incast;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcHeadroom;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static fabriclab.TestArguments.rejects;

class PfcTest {
    @Test
    void pauseQuantumIs512BitTimes() {
        // 65535 quanta at 100G: 65535 * 512 / 1e11 s = 335.5392 us
        assertEquals(335.5392e-6, Pfc.quantaSeconds(65535, 100e9), 1e-12);
        // one quantum at 10G = 51.2 ns
        assertEquals(51.2e-9, Pfc.quantaSeconds(1, 10e9), 1e-18);
        assertEquals(2, Pfc.quantaFor(100e-9, 10e9));
        assertThrows(IllegalArgumentException.class, () -> Pfc.quantaSeconds(65536, 1e9));
        assertThrows(IllegalArgumentException.class, () -> Pfc.quantaFor(1.0, 100e9));
    }

    @Test
    void headroomOfA100GPortWith100mCableByHand() {
        // 100 m at 5 ns/m: 500 ns one way, 1 us round trip = 100,000 bits = 12,500 B on a 100G link.
        // Frames: 1538 (receiver's frame in flight) + 84 (PFC frame) + 1538 (sender's frame) = 3160 B.
        // Response 3840 bit times = 480 B. Interfaces 2 x 100 ns at 100G = 20,000 bits = 2500 B.
        PfcHeadroom h = new PfcHeadroom(100e9, 100, 5e-9, 1538, 1538, 84, 100e-9, 3840 / 100e9);
        assertEquals(12_500 + 3160 + 480 + 2500, h.headroomBytes(), 1e-6);
        assertEquals(12_500 + 3160 + 480, PfcHeadroom.typical(100e9, 100).headroomBytes(), 1e-6);
    }

    /**
     * Cisco white paper "Priority Flow Control: Build Reliable Layer 2 Infrastructure" (Nexus 5000):
     * at 10 GbE, 100 m of single-mode fibre delays a frame by 513 ns, i.e. 641 bytes each way; the
     * sender's response time is 60 quanta = 3840 bytes; transceiver latency at most 1280 bytes; plus
     * MTU[R] and MTU[S] (2240 B FCoE class here). Their sum is 2 x 641 + 3840 + 1280 + 2 x 2240 = 10,882 B.
     * Our budget adds the 84-byte PFC frame, which the white paper leaves out.
     */
    @Test
    void headroomMatchesThePublishedCiscoTenGigExample() {
        double ifDelay = 1280 * 8 / (2 * 10e9); // 1280 B shared by the two interfaces
        PfcHeadroom h = new PfcHeadroom(10e9, 100, 5.13e-9, 2240, 2240, 84, ifDelay, Pfc.quantaSeconds(60, 10e9));
        assertEquals(2 * 641 + 3840 + 1280 + 2 * 2240, h.headroomBytes() - 84, 1.0);
    }

    @Test
    void headroomCableTermScalesWithRateTimesLength() {
        double a = PfcHeadroom.typical(400e9, 300).headroomBytes() - PfcHeadroom.typical(400e9, 0).headroomBytes();
        assertEquals(2 * 300 * 5e-9 * 400e9 / 8, a, 1e-6);
    }

    @Test
    void pfcRejectsXonAboveXoffNegativeHeadroomAndNegativeDelay() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Pfc(1000, 2000, 100, Pfc.MAX_QUANTA));
        assertTrue(e.getMessage().contains("xonBytes"));
        e = assertThrows(IllegalArgumentException.class, () -> new Pfc(1000, 500, -1, Pfc.MAX_QUANTA));
        assertTrue(e.getMessage().contains("headroomBytes"));
        e = assertThrows(IllegalArgumentException.class,
                () -> new PfcHeadroom(100e9, 100, 5e-9, 1538, 1538, 84, -1e-9, 0));
        assertTrue(e.getMessage().contains("interfaceDelayS"));
    }

    @Test
    void pfcIncastIsLosslessAndWorkConserving() {
        int n = 16;
        double r = 100e9;
        double m = 64e3;
        double delay = 1e-6; // 12.5 KB in flight per ingress
        Pfc th = new Pfc(20_000, 15_000, 12_500, Pfc.MAX_QUANTA);
        PfcIncastSimulator sim = new PfcIncastSimulator(Incast.of(n, (long) m, (long) r), th, delay, 0.1e-6);
        PfcIncastSimulator.Result res = sim.run(10);
        // no ingress ever exceeds XOFF + headroom (lossless)
        assertTrue(res.maxIngressBytes() <= th.xoffBytes() + th.headroomBytes() + r * 0.1e-6 / 8,
                "max ingress " + res.maxIngressBytes());
        assertTrue(res.maxEgressQueueBytes() <= sim.egressQueueBoundBytes() + 1e-6);
        assertTrue(res.pauseFrames() > 0);
        // the port is busy from the first step to the end: completion = 8 n M / R within a few steps
        assertEquals(8.0 * n * m / r, res.completionS(), 3 * 0.1e-6);
    }

    /**
     * Senders staggered by more than their message time (8 M / r = 5.12 us, stagger 6 us) at r = R
     * never overlap: no counter reaches XOFF, and the last byte leaves at (n - 1) stagger + 8 M / R
     * (to within the step).
     */
    @Test
    void staggeredSendersThatDoNotOverlapNeverPause() {
        int n = 10;
        double step = 0.05e-6;
        Incast incast = Incast.of(n, 64_000, 100_000_000_000L).withStagger(6_000_000L);
        PfcIncastSimulator.Result res = new PfcIncastSimulator(incast, new Pfc(20_000, 15_000, 12_500, Pfc.MAX_QUANTA),
                1e-6, step).run(10);
        assertEquals(0, res.pauseFrames());
        assertTrue(res.maxIngressBytes() <= 100e9 * step / 8 + 1e-6, "max ingress " + res.maxIngressBytes());
        assertEquals((n - 1) * 6e-6 + 8 * 64e3 / 100e9, res.completionS(), 3 * step);
    }

    @Test
    void pfcSimulatorRejectsHeadroomSmallerThanInFlightBytes() {
        Pfc th = new Pfc(20_000, 15_000, 1_000, Pfc.MAX_QUANTA);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PfcIncastSimulator(Incast.of(4, 10_000, 100_000_000_000L), th, 1e-6, 1e-7));
        assertTrue(e.getMessage().contains("pfc.headroomBytes"));
        e = assertThrows(IllegalArgumentException.class, () -> new PfcIncastSimulator(null, th, 1e-6, 1e-7));
        assertTrue(e.getMessage().contains("incast"));
    }

    @Test
    void pfcSimulatorRejectsAVanishingStep() {
        Incast incast = Incast.of(4, 1_000_000, 100_000_000_000L);
        rejects("stepS", () -> new PfcIncastSimulator(incast, new Pfc(100_000, 90_000, 50_000, 65535), 1e-6, 1e-300));
    }
}
