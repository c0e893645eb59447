package fabriclab.simulation.element;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SwitchBuffer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The downstream half of PFC: the ingress accounting of the switch port host 0 is attached to, whose
 * frames reach host 0's NIC (its {@link PauseState}) ser(64 B) + propagation after they are sent.
 * All links 100G with 1 us propagation; 3 priorities.
 */
class PfcIngressTest {
    /** A 64-byte PAUSE frame at 100G (5.12 ns) plus 1 us of propagation. */
    static final long FRAME_DELAY = 5_120 + Time.US;

    static Rig rig(Pfc pfc) {
        return new Rig(Topology.singleSwitch(2, Rig.G100, Time.US), Rig.config(3, SwitchBuffer.shared(10_000_000), 1),
                List.of(FlowSpec.of(0, 1, 1_000_000, 0)), pfc);
    }

    static PfcIngress ingress(Rig r) {
        return r.net.switches[0].ports.get(0).ingress;
    }

    static PauseState upstream(Rig r) {
        return r.net.hosts[0].nic().pause;
    }

    @Test
    void pausesWhenTheCounterReachesXoffAndResumesWhenItFallsBelowXon() {
        Rig r = rig(new Pfc(5_000, 2_000, 0, 65535));
        PfcIngress in = ingress(r);
        PauseState up = upstream(r);
        r.at(0, () -> in.admitted(0, 4_999));
        r.runAll();
        assertEquals(0, in.pausesSent);
        long t1 = 10 * Time.NS;
        r.at(t1, () -> in.admitted(0, 1)); // 5000 = XOFF: pause
        r.at(t1 + 1, () -> in.admitted(0, 1_000)); // already asserted: no second frame
        r.runUntil(t1 + FRAME_DELAY - 1);
        assertEquals(1, in.pausesSent);
        assertEquals(1, in.pauseAssertions);
        assertEquals(t1, in.firstPauseSentPs);
        assertFalse(up.paused(0, r.net.main.now));
        r.runUntil(t1 + FRAME_DELAY);
        assertTrue(up.paused(0, t1 + FRAME_DELAY));
        assertFalse(up.paused(1, t1 + FRAME_DELAY)); // per priority
        long t2 = 5 * Time.US;
        r.at(t2, () -> in.released(0, 4_000)); // 6000 -> 2000: not below XON
        r.runUntil(t2 + FRAME_DELAY);
        assertEquals(0, in.xonSent);
        assertTrue(up.paused(0, r.net.main.now));
        long t3 = 10 * Time.US;
        r.at(t3, () -> in.released(0, 1)); // 1999 < XON: resume
        r.runUntil(t3 + FRAME_DELAY);
        assertEquals(1, in.xonSent);
        assertEquals(1, up.xonReceived);
        assertFalse(up.paused(0, t3 + FRAME_DELAY));
        assertEquals(t3 - t1, up.pausedPsUpTo(r.net.main.now)); // both frames took the same time to arrive
        assertArrayEquals(new long[] {6_000, 0, 0}, in.peakBytes());
        // a second episode asserts again
        r.at(20 * Time.US, () -> in.admitted(0, 3_001)); // 1999 + 3001 = 5000
        r.runUntil(20 * Time.US + FRAME_DELAY); // (not runAll: an asserted pause is refreshed for ever)
        assertEquals(2, in.pauseAssertions);
        assertEquals(2, up.pausesReceived);
    }

    @Test
    void prioritiesHaveTheirOwnCounters() {
        Rig r = rig(new Pfc(5_000, 2_000, 0, 65535));
        PfcIngress in = ingress(r);
        r.at(0, () -> {
            in.admitted(0, 4_000);
            in.admitted(1, 4_000);
            in.admitted(2, 4_999);
        });
        r.runAll();
        assertEquals(0, in.pausesSent); // 12,999 bytes in all, but no priority reached 5000
        r.at(Time.US, () -> in.admitted(1, 1_000));
        r.runUntil(Time.US + FRAME_DELAY);
        assertEquals(1, in.pausesSent);
        assertTrue(upstream(r).paused(1, r.net.main.now));
        assertFalse(upstream(r).paused(0, r.net.main.now));
        assertFalse(upstream(r).paused(2, r.net.main.now));
    }

    @Test
    void refreshesEveryHalfPauseTimeWhileAsserted() {
        // 100 quanta at 100G = 51,200 bit = 512 ns, refreshed every 256 ns: frames at 0, 256, 512, 768 ns;
        // released below XON at 1000 ns: the XON goes and the refresh stops
        Rig r = rig(new Pfc(5_000, 2_000, 0, 100));
        PfcIngress in = ingress(r);
        PauseState up = upstream(r);
        r.at(0, () -> in.admitted(0, 5_000));
        r.at(1_000 * Time.NS, () -> in.released(0, 3_001));
        r.runAll();
        assertEquals(4, in.pausesSent);
        assertEquals(1, in.pauseAssertions);
        assertEquals(1, in.xonSent);
        assertEquals(4, up.pausesReceived);
        assertEquals(1, up.xonReceived);
        // each refresh lands 256 ns before the pause it extends would expire: one unbroken pause
        assertEquals(1_000 * Time.NS, up.pausedPsUpTo(r.net.main.now));
        assertTrue(r.net.main.events().isEmpty());
    }

    @Test
    void refreshesUntilTheCounterFallsBelowXon() {
        // the same 512 ns pause with the counter held above XON for 2 us: refreshes at 0, 256, ..., 1792 ns
        // (8 frames), the ninth at 2048 ns would be after the release at 2000 ns
        Rig r = rig(new Pfc(5_000, 2_000, 0, 100));
        PfcIngress in = ingress(r);
        r.at(0, () -> in.admitted(0, 5_000));
        r.at(2_000 * Time.NS, () -> in.released(0, 3_001));
        r.runAll();
        assertEquals(8, in.pausesSent);
        assertEquals(2_000 * Time.NS, upstream(r).pausedPsUpTo(r.net.main.now));
    }

    @Test
    void allPrioritiesModeCountsEveryByteOnceAndSendsOneFramePerPriority() {
        // GSE's local pause: one counter for all the host's bytes; its PAUSE and XON go to every priority
        Rig r = rig(null);
        Port port = r.net.switches[0].ports.get(0);
        PfcIngress in = new PfcIngress(port, new Pfc(5_000, 2_000, 0, 65535), 3, true);
        PauseState up = upstream(r);
        r.at(0, () -> {
            in.admitted(0, 3_000);
            in.admitted(2, 1_999);
        });
        r.runAll();
        assertEquals(0, in.pausesSent);
        r.at(Time.US, () -> in.admitted(1, 1)); // 5000 over all priorities
        r.runUntil(Time.US + FRAME_DELAY);
        assertEquals(1, in.pauseAssertions);
        assertEquals(3, up.pausesReceived);
        for (int pr = 0; pr < 3; pr++) {
            assertTrue(up.paused(pr, r.net.main.now), "priority " + pr);
        }
        assertEquals(5_000, in.peakBytes()[0]);
        r.at(5 * Time.US, () -> in.released(0, 3_001)); // 1999 < XON
        r.runUntil(5 * Time.US + FRAME_DELAY);
        assertEquals(1, in.xonSent);
        assertEquals(3, up.xonReceived);
        for (int pr = 0; pr < 3; pr++) {
            assertFalse(up.paused(pr, r.net.main.now), "priority " + pr);
        }
        // three priorities paused from 1 us + frame delay to 5 us + frame delay
        assertEquals(3 * 4 * Time.US, up.pausedPsUpTo(r.net.main.now));
    }

    @Test
    void withoutPfcItOnlyCounts() {
        Rig r = rig(null);
        PfcIngress in = ingress(r);
        r.at(0, () -> in.admitted(0, 5_000_000));
        r.runAll();
        assertEquals(0, in.pausesSent);
        assertEquals(5_000_000, in.peakBytes()[0]);
        assertEquals(-1, in.firstPauseSentPs);
    }
}
