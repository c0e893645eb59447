package fabriclab.simulation.element;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SwitchBuffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.container.DelayModel;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One direction of a link: the switch's port toward host 1 of a single-switch fabric. */
class LinkTest {
    static final long G30 = 30_000_000_000L;

    static Rig rig(long rateBitsPerSecond, long propPs) {
        return new Rig(Topology.singleSwitch(2, rateBitsPerSecond, propPs), Rig.config(1, SwitchBuffer.shared(10_000_000), 7),
                List.of(FlowSpec.of(0, 1, 1_000_000, 0)));
    }

    @Test
    void transmissionEndsAfterTheRoundedUpSerialisationAndArrivesAfterPropagation() {
        // 1000 B at 30G: 8000 bit / 30e9 bit/s = 266,666.67 ps, rounded up to 266,667 ps
        long ser = 266_667;
        long prop = 1_234_567;
        Rig r = rig(G30, prop);
        Switch sw = r.net.switches[0];
        Port out = sw.ports.get(1);
        r.at(0, () -> sw.admit(r.data(0, 0, 1000, 0), out));
        r.runUntil(ser - 1);
        assertEquals(0, out.link.txPackets);
        assertTrue(out.busy());
        assertEquals(1000, out.queue.totalBytes()); // still occupying the buffer while its last bit is on its way out
        r.runUntil(ser);
        assertEquals(1, out.link.txPackets);
        assertEquals(1000, out.link.txBytes);
        assertEquals(1, out.link.flowHeads); // sequence 0 of a data flow
        assertEquals(ser, out.link.busyPs);
        assertFalse(out.busy());
        assertEquals(0, out.queue.totalBytes());
        assertEquals(0, sw.usedBytes);
        assertTrue(r.arrivalsAt(1).isEmpty());
        r.runUntil(ser + prop - 1);
        assertTrue(r.arrivalsAt(1).isEmpty());
        r.runUntil(ser + prop);
        assertEquals(1, r.arrivalsAt(1).size());
        assertEquals(ser + prop, r.arrivalsAt(1).get(0).timePs());
    }

    @Test
    void packetsOfDifferentSizesGoBackToBack() {
        // 30G: 64 B -> 512 bit / 30e9 = 17,066.67 -> 17,067 ps; 1500 B -> 400,000 ps exactly; 1000 B -> 266,667 ps
        long prop = Time.US;
        Rig r = rig(G30, prop);
        Switch sw = r.net.switches[0];
        Port out = sw.ports.get(1);
        int[] sizes = {64, 1500, 1000, 64};
        long[] ser = {17_067, 400_000, 266_667, 17_067};
        r.at(0, () -> {
            for (int k = 0; k < sizes.length; k++) {
                sw.admit(r.data(0, k, sizes[k], 0), out);
            }
        });
        r.runAll();
        long end = 0;
        for (int k = 0; k < sizes.length; k++) {
            end += ser[k];
            assertEquals(end + prop, r.arrivalsAt(1).get(k).timePs(), "packet " + k);
        }
        assertEquals(end, out.link.busyPs);
        assertEquals(4, out.link.txPackets);
    }

    @Test
    void jitterNeverReordersALink() {
        // 1000 B every 80 ns with an extra N(2 us, 200 ns) per packet: a packet's draw would often
        // overtake its predecessor's (differences have a 283 ns deviation); the link keeps FIFO order
        // by holding such a packet until right after the one ahead.
        long prop = Time.US;
        Rig r = rig(Rig.G100, prop);
        Switch sw = r.net.switches[0];
        Port out = sw.ports.get(1);
        out.link.jitter = new DelayModel.Normal(2e-6, 2e-7);
        int n = 300;
        r.at(0, () -> {
            for (int k = 0; k < n; k++) {
                sw.admit(r.data(0, k, 1000, 0), out);
            }
        });
        r.runAll();
        List<Rig.Arrival> got = r.arrivalsAt(1);
        assertEquals(n, got.size());
        int held = 0;
        long minExtra = Long.MAX_VALUE;
        for (int k = 0; k < n; k++) {
            assertEquals(k, got.get(k).packet().seq);
            long end = (k + 1) * 80 * Time.NS;
            long extra = got.get(k).timePs() - end - prop;
            minExtra = Math.min(minExtra, extra);
            if (k > 0) {
                assertTrue(got.get(k).timePs() >= got.get(k - 1).timePs());
                if (got.get(k).timePs() == got.get(k - 1).timePs()) {
                    held++;
                }
            }
        }
        // the draw's support starts at 2 us - 8.5 x 200 ns = 300 ns
        assertTrue(minExtra >= 300 * Time.NS, "smallest extra delay " + minExtra);
        assertTrue(held > 10, "FIFO must have held back packets whose draw would overtake: " + held);
    }

    @Test
    void failureDropsWhatIsQueuedOnTheWireAndInTransmissionAndCountsIt() {
        // 20 packets of 1000 B at 100G from t = 0: packet k (0-based) is on the wire from (k+1) 80 ns and
        // arrives at (k+1) 80 ns + 1 us. At the failure, 1220 ns: packets 0, 1 arrived (1080, 1160 ns),
        // 2..14 are on the wire (13), 15 is being transmitted (1200..1280 ns), 16..19 are queued (4).
        Rig r = rig(Rig.G100, Time.US);
        Switch sw = r.net.switches[0];
        Port out = sw.ports.get(1);
        r.at(0, () -> {
            for (int k = 0; k < 20; k++) {
                sw.admit(r.data(0, k, 1000, 0), out);
            }
        });
        r.at(1_220 * Time.NS, () -> r.net.failLink(1)); // link 1 joins host 1 and the switch
        r.runAll();
        assertEquals(2, r.arrivalsAt(1).size());
        assertEquals(15, out.link.txPackets); // transmissions completed before the failure
        assertEquals(13 + 1 + 4, out.queue.drops);
        assertEquals(18, r.flow(0).dropped);
        assertEquals(18_000, r.flow(0).droppedBytes);
        assertEquals(0, out.queue.totalBytes());
        assertEquals(0, sw.usedBytes);
        assertTrue(out.link.down);
        assertTrue(r.net.hosts[1].nic().link.down); // both directions
        assertFalse(out.busy());
        // a packet routed to the dead link later is black-holed (counted at the same queue)
        r.at(2 * Time.US, () -> sw.receive(r.data(0, 20, 1000, 0), 2 * Time.US));
        r.runAll();
        assertEquals(19, out.queue.drops);
        assertEquals(1, sw.blackholedPackets);
        assertEquals(2, r.arrivalsAt(1).size());
    }
}
