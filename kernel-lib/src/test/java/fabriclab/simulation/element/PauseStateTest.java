package fabriclab.simulation.element;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SwitchBuffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The upstream half of PFC at host 0's NIC (30G links, so that a quantum is not a whole number of
 * picoseconds): PAUSE frames are delivered to its {@link PauseState} as the peer's link would.
 */
class PauseStateTest {
    static final long G30 = 30_000_000_000L;
    /** One quantum at 30G: 512 bit / 30e9 bit/s = 17,066.67 ps. */
    static final double QUANTUM_PS = 512 / 30e9 * 1e12;
    static final long PROP = Time.US;
    /** 1000 B at 30G, rounded up. */
    static final long SER = 266_667;

    static Rig rig() {
        return new Rig(Topology.singleSwitch(2, G30, PROP), Rig.config(2, SwitchBuffer.shared(10_000_000), 1),
                List.of(FlowSpec.of(0, 1, 1_000_000, 0)));
    }

    /** Schedules a PAUSE (quanta > 0) or XON (0) for priority {@code pr} to reach host 0's NIC at {@code t}. */
    static void frame(Rig r, long t, int pr, int quanta) {
        r.net.main.events().schedule(t, r.net.hosts[0].nic().pause, (pr << 16) | quanta);
    }

    /** The pause of {@code quanta} quanta in ps, by hand: ceil(quanta x 512 bit / 30G). */
    static long pausePs(int quanta) {
        return (long) Math.ceil(quanta * QUANTUM_PS - 1e-6);
    }

    @Test
    void aPauseHoldsForExactlyItsQuantaTimes512BitTimes() {
        Rig r = rig();
        PauseState ps = r.net.hosts[0].nic().pause;
        assertEquals(17_067, pausePs(1));
        assertEquals(51_200, pausePs(3)); // 1536 bit at 30G: exactly 51.2 ns
        for (int quanta : new int[] {1, 3, 1000}) {
            long t0 = r.net.main.now + 10 * Time.US;
            frame(r, t0, 0, quanta);
            r.runUntil(t0);
            long end = t0 + pausePs(quanta);
            assertTrue(ps.paused(0, t0));
            assertTrue(ps.paused(0, end - 1), quanta + " quanta");
            assertFalse(ps.paused(0, end), quanta + " quanta");
            assertFalse(ps.paused(1, t0)); // other priorities are not paused
            r.runAll();
        }
        assertEquals(3, ps.pausesReceived);
        assertEquals(pausePs(1) + pausePs(3) + pausePs(1000), ps.pausedPsUpTo(r.net.main.now));
    }

    @Test
    void aQueuedPacketStartsWhenThePauseExpires() {
        // host 0 queues a control packet for host 1 during a 1000-quanta pause: it starts at expiry and
        // reaches host 1 two serialisations and two propagations later (store and forward at the switch)
        Rig r = rig();
        frame(r, 0, 0, 1000);
        r.at(5 * Time.NS, () -> r.net.hosts[0].sendControl(r.control(0, Packet.ACK, 1000, 0, 1)));
        r.runAll();
        long expiry = pausePs(1000);
        assertEquals(17_066_667, expiry);
        assertEquals(1, r.arrivalsAt(1).size());
        assertEquals(expiry + 2 * SER + 2 * PROP, r.arrivalsAt(1).get(0).timePs());
    }

    @Test
    void aRefreshExtendsThePauseFromItsOwnArrival() {
        Rig r = rig();
        PauseState ps = r.net.hosts[0].nic().pause;
        long d = pausePs(100); // 1,706,667 ps
        long refresh = d / 2;
        frame(r, 0, 0, 100);
        frame(r, refresh, 0, 100);
        r.at(5 * Time.NS, () -> r.net.hosts[0].sendControl(r.control(0, Packet.ACK, 1000, 0, 1)));
        r.runUntil(d);
        assertTrue(ps.paused(0, d)); // the first frame's expiry passed without effect
        assertEquals(0, r.net.hosts[0].nic().link.txPackets);
        r.runAll();
        assertEquals(refresh + d + 2 * SER + 2 * PROP, r.arrivalsAt(1).get(0).timePs());
        assertEquals(2, ps.pausesReceived);
        assertEquals(refresh + d, ps.pausedPsUpTo(r.net.main.now)); // one uninterrupted pause
    }

    @Test
    void xonResumesAtOnce() {
        Rig r = rig();
        PauseState ps = r.net.hosts[0].nic().pause;
        long xonAt = 3 * Time.US;
        frame(r, Time.US, 0, 65535); // 65535 quanta at 30G: 1.118 ms
        frame(r, xonAt, 0, 0);
        r.at(2 * Time.US, () -> r.net.hosts[0].sendControl(r.control(0, Packet.ACK, 1000, 0, 1)));
        r.runUntil(xonAt);
        assertFalse(ps.paused(0, xonAt));
        r.runAll();
        assertEquals(xonAt + 2 * SER + 2 * PROP, r.arrivalsAt(1).get(0).timePs());
        assertEquals(1, ps.pausesReceived);
        assertEquals(1, ps.xonReceived);
        assertEquals(xonAt - Time.US, ps.pausedPsUpTo(r.net.main.now));
    }

    @Test
    void pausedTimeIsSummedOverPrioritiesAndCountsAnOpenPauseUpToTheEnd() {
        Rig r = rig();
        PauseState ps = r.net.hosts[0].nic().pause;
        long d = pausePs(1000);
        frame(r, 0, 0, 1000); // expires at d
        frame(r, 100 * Time.NS, 1, 65535); // XON at 2 us
        frame(r, 2 * Time.US, 1, 0);
        frame(r, 40 * Time.US, 0, 65535); // still open at the end
        r.runUntil(40 * Time.US);
        long end = 50 * Time.US;
        assertEquals(d + (2 * Time.US - 100 * Time.NS) + (end - 40 * Time.US), ps.pausedPsUpTo(end));
        // an XON for a priority that is not paused counts the frame and changes nothing
        frame(r, 41 * Time.US, 1, 0);
        r.runUntil(41 * Time.US);
        assertEquals(2, ps.xonReceived);
        assertEquals(d + (2 * Time.US - 100 * Time.NS) + (end - 40 * Time.US), ps.pausedPsUpTo(end));
    }

    @Test
    void framesOnAFailedLinkAreIgnored() {
        Rig r = rig();
        PauseState ps = r.net.hosts[0].nic().pause;
        r.net.failLink(0);
        frame(r, 0, 0, 1000);
        r.runAll();
        assertFalse(ps.paused(0, 0));
        assertEquals(0, ps.pausesReceived);
    }
}
