package fabriclab.simulation.element;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SwitchBuffer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Host 0's NIC sending to host 1 through one switch, 100G links with 1 us propagation: a 1000 B
 * packet takes 80 ns per hop, so a packet the NIC starts at s reaches host 1 at s + 160 ns + 2 us
 * when the switch port is free.
 */
class HostNicTest {
    static final long SER = 80 * Time.NS;
    static final long PATH = 2 * SER + 2 * Time.US;

    static Rig rig(int priorities, FlowSpec... flows) {
        return new Rig(Topology.singleSwitch(2, Rig.G100, Time.US), Rig.config(priorities, SwitchBuffer.shared(10_000_000), 1),
                List.of(flows));
    }

    static List<Integer> dataFlowOrder(Rig r) {
        return r.arrivalsAt(1).stream().filter(a -> a.packet().isData()).map(a -> a.packet().flow.id).toList();
    }

    @Test
    void flowsThatMaySendAreServedRoundRobinOnePacketAtATime() {
        // 2, 4 and 3 packets; the NIC is busy with a control packet while the three flows start, so all
        // three are ready when it frees: 0 1 2 0 1 2 1 2 1, back to back at line rate
        Rig r = rig(1, FlowSpec.of(0, 1, 2_000, 0), FlowSpec.of(0, 1, 4_000, 0), FlowSpec.of(0, 1, 3_000, 0));
        r.at(0, () -> r.net.hosts[0].sendControl(r.control(0, Packet.ACK, 1000, 0, 1)));
        r.net.workload.scheduleStarts();
        r.runAll();
        assertEquals(List.of(0, 1, 2, 0, 1, 2, 1, 2, 1), dataFlowOrder(r));
        List<Rig.Arrival> got = r.arrivalsAt(1);
        assertEquals(10, got.size());
        for (int k = 0; k < got.size(); k++) {
            assertEquals(k * SER + PATH, got.get(k).timePs(), "packet " + k);
        }
        assertEquals(9_000, r.net.hosts[0].injectedBytes);
        assertEquals(1, r.net.hosts[0].controlSent);
        assertEquals(1, r.net.hosts[1].controlReceived);
        for (int f = 0; f < 3; f++) {
            assertEquals(r.flow(f).spec.bytes(), r.flow(f).receivedBytes);
        }
    }

    @Test
    void aControlPacketGoesBeforeTheNextDataPacket() {
        // data packets start at 0, 80, 160 ns...; a 64 B control packet queued at 100 ns goes at 160 ns
        // (5.12 ns), so data packet k >= 2 starts 5.12 ns late
        Rig r = rig(1, FlowSpec.of(0, 1, 6_000, 0));
        r.net.workload.scheduleStarts();
        r.at(100 * Time.NS, () -> r.net.hosts[0].sendControl(r.control(0, Packet.ACK, 64, 0, 1)));
        r.runAll();
        List<Rig.Arrival> got = r.arrivalsAt(1);
        assertEquals(List.of(true, true, false, true, true, true, true),
                got.stream().map(a -> a.packet().isData()).toList());
        assertEquals(List.of(0L, SER, 2 * SER + 5_120, 3 * SER + 5_120, 4 * SER + 5_120, 5 * SER + 5_120),
                r.transport(0).sentPs);
        assertEquals(2 * SER + 5_120 + PATH, got.get(3).timePs());
    }

    @Test
    void aPacedFlowSendsAtItsPacingTimes() {
        Rig r = rig(1, FlowSpec.of(0, 1, 4_000, 0));
        r.transport(0).gapPs = 500 * Time.NS;
        r.net.workload.scheduleStarts();
        r.runAll();
        assertEquals(List.of(0L, 500 * Time.NS, 1_000 * Time.NS, 1_500 * Time.NS), r.transport(0).sentPs);
        for (int k = 0; k < 4; k++) {
            assertEquals(k * 500 * Time.NS + PATH, r.arrivalsAt(1).get(k).timePs());
        }
    }

    @Test
    void movingThePacingTimeEarlierWakesTheNicThen() {
        Rig r = rig(1, FlowSpec.of(0, 1, 2_000, 0));
        r.transport(0).gapPs = 10 * Time.US;
        r.net.workload.scheduleStarts();
        r.at(Time.US, () -> r.transport(0).advancePacing(2 * Time.US));
        r.runAll();
        assertEquals(List.of(0L, 2 * Time.US), r.transport(0).sentPs);
    }

    @Test
    void aPausedPriorityIsSkippedAndResumesOnXon() {
        // priority 0 is paused from t = 0 until an XON at 1 us; the priority-1 flow is not held back
        Rig r = rig(2, new FlowSpec(0, 1, 3_000, 0, 0, 1000), new FlowSpec(0, 1, 3_000, 0, 1, 1001));
        Port nic = r.net.hosts[0].nic();
        r.net.main.events().schedule(0, nic.pause, (0 << 16) | 65535);
        r.net.workload.scheduleStarts();
        r.net.main.events().schedule(Time.US, nic.pause, 0);
        r.runAll();
        assertEquals(List.of(0L, SER, 2 * SER), r.transport(1).sentPs);
        assertEquals(List.of(Time.US, Time.US + SER, Time.US + 2 * SER), r.transport(0).sentPs);
        assertEquals(6_000, r.net.hosts[0].injectedBytes);
    }
}
