package fabriclab.simulation;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.Time;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcHeadroom;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.SimulationResult.PortPfc;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PfcTest {
    static final long G100 = 100_000_000_000L;
    static final long G10 = 10_000_000_000L;

    static SimulationConfig config(long buffer, int priorities) {
        return new SimulationConfig(1000, 0, priorities, SwitchBuffer.shared(buffer), Forwarding.ecmp(HashFunction.CRC32, 0),
                1, 0, 0);
    }

    /** n senders (hosts 0..n-1) of {@code bytes} each into host n, single switch, all links 100G. */
    static List<FlowSpec> incast(int n, long bytes) {
        List<FlowSpec> f = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            f.add(FlowSpec.of(h, n, bytes, 0));
        }
        return f;
    }

    static PortPfc switchPort(SimulationResult r, int peerHost) {
        return r.pfc().stream().filter(p -> p.peerNode() == peerHost && p.name().startsWith("switch")).findFirst().orElseThrow();
    }

    static PortPfc hostPort(SimulationResult r, int host) {
        return r.pfc().stream().filter(p -> p.node() == host).findFirst().orElseThrow();
    }

    @Test
    void quantaAndHeadroomRuleByHand() {
        // one quantum = 512 bit times: 5.12 ns at 100G; 65535 quanta = 335.5392 us
        assertEquals(5_120, Pfc.quantaPs(1, G100));
        assertEquals(335_539_200L, Pfc.quantaPs(65535, G100));
        // 100G, 1.1 us, 1000 B: ser(P) = 80 ns, 2 prop + ser(64) = 2205.12 ns -> 27 packets, + 3
        assertEquals(30_000, PfcHeadroom.packetLevelBytes(G100, 1_100 * Time.NS, 1000));
        assertEquals(3_000, PfcHeadroom.packetLevelBytes(G100, 0, 1000)); // ser(64) < ser(1000): only the 3 packets
    }

    @Test
    void incastIsLosslessWithPfcAndLossyWithout() {
        int n = 4;
        long prop = 1 * Time.US;
        Topology t = Topology.singleSwitch(n + 1, G100, prop);
        long headroom = PfcHeadroom.packetLevelBytes(G100, prop, 1000);
        assertEquals(28_000, headroom); // 3 + floor(2005.12 / 80)
        Pfc pfc = new Pfc(20_000, 10_000, headroom, 65535);
        // every byte in the switch is charged to one ingress counter, each bounded by xoff + headroom:
        long buffer = n * (pfc.xoffBytes() + headroom) + 8_000; // 200 KB
        long size = 500_000;

        SimulationResult off = new Simulator(Scenario.builder(t, config(buffer, 1)).flows(incast(n, size)).build()).run();
        assertTrue(off.droppedPackets() > 0, "without PFC the incast overflows " + buffer + " B");
        assertEquals(0, off.pausesSent());

        SimulationResult on = new Simulator(Scenario.builder(t, config(buffer, 1)).flows(incast(n, size)).pfc(pfc).build()).run();
        assertEquals(0, on.droppedPackets());
        assertEquals(0, on.droppedBytes());
        assertEquals(n * size, on.injectedBytes());
        assertEquals(on.injectedBytes(), on.deliveredBytes() + on.inFlightBytes());
        assertEquals(0, on.inFlightBytes());
        assertTrue(on.allCompleted());
        assertTrue(on.pausesSent() > 0);
        assertTrue(on.pausedPs() > 0);
        // every frame sent arrives (no link failure): sent == received, per link
        for (int h = 0; h < n; h++) {
            PortPfc down = switchPort(on, h);
            PortPfc up = hostPort(on, h);
            assertEquals(down.pausesSent(), up.pausesReceived(), "PAUSE frames on link of host " + h);
            assertEquals(down.xonSent(), up.xonReceived(), "XON frames on link of host " + h);
            assertTrue(down.peakIngressBytes()[0] <= pfc.xoffBytes() + headroom);
        }
        // the bottleneck still runs at line rate: last byte no earlier than n * size at 100G
        long lastFct = on.flows().stream().mapToLong(SimulationResult.FlowRecord::completionTimePs).max().orElseThrow();
        assertTrue(lastFct >= n * size * 80);
        // deterministic
        SimulationResult again = new Simulator(Scenario.builder(t, config(buffer, 1)).flows(incast(n, size)).pfc(pfc).build()).run();
        assertEquals(on.toString().replaceAll("\\[J@[0-9a-f]+", ""), again.toString().replaceAll("\\[J@[0-9a-f]+", ""));
    }

    @Test
    void firstPauseAndPeakIngressMatchHandCalculation() {
        // host 0 at 100G (80 ns per 1000 B packet) into host 1 at 10G (800 ns per packet), prop 1.1 us.
        long prop = 1_100 * Time.NS;
        Topology t = Topology.singleSwitch(new long[] {G100, G10}, prop);
        Pfc pfc = new Pfc(5_000, 2_000, 30_000, 65535);
        SimulationResult r = new Simulator(Scenario.builder(t, config(10_000_000, 1)).flow(FlowSpec.of(0, 1, 200_000, 0)).pfc(pfc)
                .build()).run();
        // packet k reaches the switch at (k+1) 80 ns + prop; the first departure toward host 1 is at
        // 80 + 1100 + 800 ns, so the counter is 1000 (k+1) up to packet 9: it reaches 5000 at packet 4.
        long firstPause = 5 * 80 * Time.NS + prop;
        PortPfc in = switchPort(r, 0);
        assertEquals(firstPause, in.firstPauseSentPs());
        // the PAUSE lands at host 0 at 1500 + 5.12 + 1100 = 2605.12 ns; the host is then sending packet
        // 32 (2560..2640 ns), which completes: 33 packets, the last arriving at 3740 ns, when 3 packets
        // (at 1980, 2780, 3580 ns) have left toward host 1: peak counter = 30 packets.
        assertEquals(30_000, in.peakIngressBytes()[0]);
        assertTrue(in.peakIngressBytes()[0] <= pfc.xoffBytes() + PfcHeadroom.packetLevelBytes(G100, prop, 1000));
        assertTrue(r.allCompleted());
        assertEquals(0, r.droppedPackets());
        // the host was paused and resumed by XON (2000 B threshold reached long before 335 us expiry)
        PortPfc host = hostPort(r, 0);
        assertTrue(host.pausesReceived() >= 1);
        assertEquals(host.pausesReceived(), host.xonReceived());
        assertTrue(host.pausedPs() > 0);
        // with hysteresis the sender alternates: FCT = receiver-limited, 200 packets at 800 ns + latency
        long lowerBound = 200 * 800 * Time.NS;
        assertTrue(r.flows().get(0).completionTimePs() >= lowerBound);
    }

    @Test
    void pauseDurationRefreshesAndXonByHand() {
        // Same link as above, a 33-packet flow: exactly the packets sent before the PAUSE lands.
        long prop = 1_100 * Time.NS;
        Topology t = Topology.singleSwitch(new long[] {G100, G10}, prop);
        // the counter falls below XON = 2000 B when it reaches 1000 B, after 32 departures toward host 1:
        // at 1980 + 31 x 800 = 26780 ns; the XON lands at host 0 at 26780 + 5.12 + 1100 = 27885.12 ns.
        long pausedByHand = 27_885_120 - 2_605_120;
        for (int quanta : new int[] {65535, 100}) {
            Pfc pfc = new Pfc(5_000, 2_000, 30_000, quanta);
            SimulationResult r = new Simulator(Scenario.builder(t, config(10_000_000, 1)).flow(FlowSpec.of(0, 1, 33_000, 0)).pfc(pfc)
                    .build()).run();
            PortPfc in = switchPort(r, 0);
            PortPfc host = hostPort(r, 0);
            assertEquals(30_000, in.peakIngressBytes()[0]);
            assertEquals(1, in.xonSent());
            assertEquals(1, host.xonReceived());
            // 65535 quanta (335.5 us) outlast the episode: one PAUSE. 100 quanta = 512 ns, refreshed every
            // 256 ns from 1500 ns while asserted: refreshes at 1500 + 256 m < 26780, m = 1..98, so 99 PAUSEs,
            // each landing before the previous one expires: the host is paused without a gap.
            long expectedPauses = quanta == 65535 ? 1 : 1 + (26_780 - 1_500 - 1) / 256;
            assertEquals(expectedPauses, in.pausesSent());
            assertEquals(expectedPauses, host.pausesReceived());
            assertEquals(pausedByHand, host.pausedPs());
            assertEquals(0, r.droppedPackets());
        }
    }

    @Test
    void peakIngressNeverExceedsXoffPlusRuleHeadroom() {
        long[] props = {0, 200 * Time.NS, 1 * Time.US, 3_333 * Time.NS};
        long[] xoffs = {1_000, 7_500, 40_000};
        for (long prop : props) {
            for (long xoff : xoffs) {
                long headroom = PfcHeadroom.packetLevelBytes(G100, prop, 1000);
                Pfc pfc = new Pfc(xoff, xoff / 2, headroom, 500);
                Topology t = Topology.singleSwitch(7, G100, prop);
                SimulationResult r = new Simulator(Scenario.builder(t, config(20_000_000, 1)).flows(incast(6, 200_000)).pfc(pfc)
                        .build()).run();
                assertTrue(r.allCompleted());
                for (int h = 0; h < 6; h++) {
                    long peak = switchPort(r, h).peakIngressBytes()[0];
                    assertTrue(peak <= xoff + headroom, "prop " + prop + " xoff " + xoff + ": peak " + peak + " > "
                            + (xoff + headroom));
                }
                assertTrue(r.pausesSent() > 0);
            }
        }
    }

    @Test
    void victimOnSamePriorityIsBlockedOtherPriorityIsNot() {
        // hosts 0,1,2 -> host 3 (incast, 2 MB each, priority 0); victim host 0 -> host 4, 500 KB
        long prop = 1 * Time.US;
        Topology t = Topology.singleSwitch(5, G100, prop);
        Pfc pfc = new Pfc(20_000, 10_000, PfcHeadroom.packetLevelBytes(G100, prop, 1000), 65535);
        long v = 500_000;
        long[] fct = new long[2];
        for (int prio = 0; prio < 2; prio++) {
            List<FlowSpec> f = new ArrayList<>();
            for (int h = 0; h < 3; h++) {
                f.add(FlowSpec.of(h, 3, 2_000_000, 0));
            }
            f.add(new FlowSpec(0, 4, v, 0, prio, 50_000));
            SimulationResult r = new Simulator(Scenario.builder(t, config(10_000_000, 2)).flows(f).pfc(pfc).build()).run();
            assertTrue(r.allCompleted());
            assertEquals(0, r.droppedPackets());
            fct[prio] = r.flows().get(3).completionTimePs();
        }
        // unpaused, host 0's NIC serves its two flows round robin, so the victim gets at least half of
        // 100G: FCT <= 2 v 80 ps + one packet and two propagations of slack
        long fairShareBound = 2 * v * 80 + 1000 * 80 + 2 * prop;
        assertTrue(fct[1] <= fairShareBound, "other priority: " + fct[1] + " > " + fairShareBound);
        // on the incast's priority it is stopped with host 0's PAUSEs (its share of host 3 is 1/3)
        assertTrue(fct[0] > 1.3 * fairShareBound, "same priority: " + fct[0] + " not > 1.3 x " + fairShareBound);
    }

    @Test
    void pausesCascadeThroughALeafSpineWithoutLoss() {
        // 2 leaves x 2 spines, 4 hosts per leaf; hosts 0-3 (leaf 0) and 5-7 (leaf 1) send 300 KB each to host 4.
        LeafSpine ls = new LeafSpine(8, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        Topology t = ls.build();
        long headroom = PfcHeadroom.packetLevelBytes(G100, Time.US, 1000);
        Pfc pfc = new Pfc(20_000, 10_000, headroom, 65535);
        long buffer = 6 * (pfc.xoffBytes() + headroom); // a leaf has 6 ingress ports
        List<FlowSpec> f = new ArrayList<>();
        for (int h : new int[] {0, 1, 2, 3, 5, 6, 7}) {
            f.add(FlowSpec.of(h, 4, 300_000, 0));
        }
        SimulationResult off = new Simulator(Scenario.builder(t, config(buffer, 1)).flows(f).build()).run();
        assertTrue(off.droppedPackets() > 0);
        SimulationResult on = new Simulator(Scenario.builder(t, config(buffer, 1)).flows(f).pfc(pfc).build()).run();
        assertEquals(0, on.droppedPackets());
        assertEquals(7 * 300_000L, on.deliveredBytes());
        assertTrue(on.allCompleted());
        int hosts = t.hosts();
        // leaf 1 pauses the spines, which pause leaf 0: PAUSEs are received by switch ports, not only NICs
        long switchPortsPaused = on.pfc().stream().filter(p -> p.node() >= hosts && p.pausesReceived() > 0).count();
        assertTrue(switchPortsPaused >= 2, "switch ports paused: " + switchPortsPaused);
        for (PortPfc p : on.pfc()) {
            if (p.node() >= hosts) {
                assertTrue(p.peakIngressBytes()[0] <= pfc.xoffBytes() + headroom, p.name());
            }
            PortPfc peer = on.pfc().stream().filter(x -> x.node() == p.peerNode() && x.peerNode() == p.node()).findFirst().orElseThrow();
            assertEquals(p.pausesSent(), peer.pausesReceived(), p.name());
        }
    }

    @Test
    void badInputNamesTheParameter() {
        Topology t = Topology.singleSwitch(3, G100, 0);
        assertThrows(IllegalArgumentException.class, () -> new Pfc(10_000, 20_000, 0, 100), "xonBytes");
        assertMessage("xonBytes", () -> new Pfc(10_000, 20_000, 0, 100));
        assertMessage("xoffBytes", () -> new Pfc(0, 1, 0, 100));
        assertMessage("xonBytes", () -> new Pfc(10, 0, 0, 100)); // a counter never falls below 0
        assertMessage("headroomBytes", () -> new Pfc(10, 5, -1, 100));
        assertMessage("pauseQuanta", () -> new Pfc(10, 5, 0, 0));
        assertMessage("pauseQuanta", () -> new Pfc(10, 5, 0, 65536));
        // checked against the switch buffer when the scenario is built (before any simulator exists)
        Scenario.Builder b = Scenario.builder(t, config(100_000, 1)).flows(incast(2, 1000));
        assertMessage("pfc.xoffBytes", () -> b.pfc(new Pfc(200_000, 1, 0, 1)).build());
        assertMessage("pfc.headroomBytes", () -> b.pfc(new Pfc(60_000, 1, 50_000, 1)).build());
        // XOFF + headroom exactly filling the buffer is allowed
        assertEquals(new Pfc(60_000, 1, 40_000, 1), b.pfc(new Pfc(60_000, 1, 40_000, 1)).build().pfc());
        // null is not an error: it is the builder's way to turn PFC off
        assertNull(b.pfc(new Pfc(10_000, 1, 0, 1)).pfc(null).build().pfc());
        assertMessage("rateBitsPerSecond", () -> PfcHeadroom.packetLevelBytes(0, 0, 1000));
        assertMessage("packetWireBytes", () -> PfcHeadroom.packetLevelBytes(G100, 0, 0));
    }

    static void assertMessage(String name, org.junit.jupiter.api.function.Executable e) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        assertTrue(x.getMessage().contains(name), x.getMessage());
    }
}
