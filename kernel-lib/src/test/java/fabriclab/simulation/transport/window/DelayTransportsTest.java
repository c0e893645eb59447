package fabriclab.simulation.transport.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.transport.TransportModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** TIMELY+w and Swift: Swift's target-delay formula by hand, and both transports' steady state on a bottleneck. */
class DelayTransportsTest {
    static final long G100 = 100_000_000_000L;
    static final int MTU = 1000;

    @Test
    void swiftsTargetDelayIsBasePlusHopsPlusFlowScalingByHand() {
        SwiftTransport s = SwiftTransport.defaults(100); // base 25 us, h 1 us, range 100 us over cwnd 0.1 .. 100
        // fs(cwnd) = 100 us (1/sqrt(cwnd) - 1/10) / (1/sqrt(0.1) - 1/10); 1/sqrt(0.1) - 1/10 = 3.0622777
        assertEquals(28e-6, s.targetDelayS(3, 100), 1e-12); // fs 0 at fsMaxCwnd
        assertEquals(28e-6, s.targetDelayS(3, 400), 1e-12); // and above it
        assertEquals(126e-6, s.targetDelayS(1, 0.1), 1e-12); // fsRange at fsMinCwnd
        assertEquals(125e-6, s.targetDelayS(0, 0.001), 1e-12); // and below it
        // 100 packets of BDP shared by N flows: cwnd 100 / N
        assertEquals(28e-6 + 3.265544e-6, s.targetDelayS(3, 100 / 4.0), 1e-11); // N 4: (1/5 - 1/10) x 100 / 3.0622777
        assertEquals(28e-6 + 9.796632e-6, s.targetDelayS(3, 100 / 16.0), 1e-11); // N 16: (1/2.5 - 1/10) ...
        assertEquals(28e-6 + 62.04533e-6, s.targetDelayS(3, 100 / 400.0), 1e-10); // N 400: (1/0.5 - 1/10) ...
        assertEquals(25e-6 + 5e-6 + 3.265544e-6, s.withTarget(25e-6, 1e-6).targetDelayS(5, 25), 1e-11); // five hops
    }

    @Test
    void hopsAreTheSwitchesOnTheShortestPath() {
        Network net = new Network(new LeafSpine(8, 1, 2, 2, G100, G100, 1, Time.US, Time.US).build(),
                SimulationConfig.defaults(SwitchBuffer.shared(1_000_000)));
        assertEquals(1, WindowedRun.switchHops(net, 0, 1)); // same leaf
        assertEquals(3, WindowedRun.switchHops(net, 0, 7)); // leaf, spine, leaf
        assertEquals(1, WindowedRun.switchHops(new Network(Topology.singleSwitch(3, G100, Time.US),
                SimulationConfig.defaults(SwitchBuffer.shared(1_000_000))), 0, 2));
    }

    @Test
    void badSwiftSettingsAreRejectedNamingTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SwiftTransport.defaults(100)
                .withTarget(0, 1e-6));
        assertTrue(e.getMessage().contains("baseTargetS"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SwiftTransport.defaults(100).targetDelayS(-1, 1));
        assertTrue(e.getMessage().contains("hops"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SwiftTransport.defaults(0));
        assertTrue(e.getMessage().contains("maxCwndPackets"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> TimelyTransport.hpccSimulation(-5));
        assertTrue(e.getMessage().contains("windowBytes"), e.getMessage());
    }

    /** N long flows into one receiver over a single 100 Gb/s switch, 1 us links, for {@code durationPs}. */
    static SimulationResult longFlows(int n, TransportModel t, long durationPs) {
        long sample = 5 * Time.US;
        SimulationConfig c = new SimulationConfig(MTU, 0, 1, new SwitchBuffer(64_000_000, 64_000_000, EcnMarking.OFF),
                Forwarding.ecmp(HashFunction.CRC32, 0), 1, sample, (int) (durationPs / sample) + 1);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            flows.add(new FlowSpec(i, n, 100_000_000_000L, 0, 0, 1000 + i));
        }
        Scenario s = Scenario.builder(Topology.singleSwitch(n + 1, G100, Time.US), c).flows(flows).transport(t).build();
        return new Simulator(s).run(durationPs, st -> { });
    }

    static double[] secondHalfQueueBytes(SimulationResult r, int receiver) {
        long[] s = r.queues().stream().filter(x -> x.peerNode() == receiver).findFirst().orElseThrow().occupancyBytes();
        return Arrays.stream(Arrays.copyOfRange(s, s.length / 2, s.length)).mapToDouble(x -> x).toArray();
    }

    /** Base RTT of the single switch: 4 x 1 us plus a packet's serialization on each of its two links. */
    static final double BASE_RTT_S = 4e-6 + 2 * MTU * 8.0 / G100;

    /**
     * Swift's fixed point: N flows sharing C settle where the delay equals the target of their window,
     * d = target(1 hop, cwnd) with cwnd = C d / N packets, so the queue is C (d - base RTT). Solved here by bisection
     * on the formula; the run's mean queue must be within a quarter of it (the sawtooth of AI and MD around the
     * target).
     */
    @Test
    void swiftsQueueSettlesAtTheTargetOfItsWindow() {
        int n = 8;
        SwiftTransport t = SwiftTransport.defaults(100);
        double lo = BASE_RTT_S;
        double hi = 1e-3;
        for (int i = 0; i < 100; i++) {
            double d = (lo + hi) / 2;
            double cwnd = G100 * d / 8 / MTU / n;
            if (d < t.targetDelayS(1, cwnd)) {
                lo = d;
            } else {
                hi = d;
            }
        }
        double expectedQueue = G100 * (lo - BASE_RTT_S) / 8;
        SimulationResult r = longFlows(n, t, 20 * Time.MS);
        double mean = Arrays.stream(secondHalfQueueBytes(r, n)).average().orElseThrow();
        assertEquals(expectedQueue, mean, 0.25 * expectedQueue);
        assertTrue(r.goodputBitsPerSecond() > 0.95 * G100, "goodput " + r.goodputBitsPerSecond());
        assertTrue(r.counter(SwiftTransport.DECREASES) > 0 && r.counter(SwiftTransport.INCREASES) > 0);
    }

    /**
     * TIMELY+w: each flow keeps at most its window W_max (one BDP, times rate / line rate) unacknowledged, so N flows
     * queue at most N W_max less the BDP the links hold; the 8 flows' RTT stays below T_low, where TIMELY only adds,
     * so the window, not the rate, sets the queue, and the link stays busy.
     */
    @Test
    void timelyWithTheWindowQueuesAtMostNWindows() {
        int n = 8;
        long bdp = Math.round(G100 * BASE_RTT_S / 8);
        TimelyTransport t = TimelyTransport.hpccSimulation(bdp);
        SimulationResult r = longFlows(n, t, 5 * Time.MS);
        double max = Arrays.stream(secondHalfQueueBytes(r, n)).max().orElseThrow();
        assertTrue(max <= n * bdp - bdp + n * MTU, "queue " + max + " above N windows");
        assertTrue(max < G100 * (t.params().tLowS() - BASE_RTT_S) / 8, "RTT reached T_low");
        assertTrue(r.goodputBitsPerSecond() > 0.95 * G100, "goodput " + r.goodputBitsPerSecond());
        assertEquals(0, r.counter(TimelyTransport.DECREASES), "below T_low TIMELY never cuts");
    }

    /**
     * Plain TIMELY (no window), two flows: the RTT stays below T_high once they have met (Mittal et al. section 4.3:
     * above T_high the cut grows with the excess), and the link stays mostly busy (a cut on a positive gradient may
     * empty the queue for a while: TIMELY has no fixed point of its queue).
     */
    @Test
    void timelyKeepsTheRttBelowTHigh() {
        int n = 2;
        TimelyTransport t = TimelyTransport.hpccSimulation(0);
        SimulationResult r = longFlows(n, t, 20 * Time.MS);
        double[] q = secondHalfQueueBytes(r, n);
        double max = Arrays.stream(q).max().orElseThrow();
        double high = G100 * (t.params().tHighS() - BASE_RTT_S) / 8;
        assertTrue(max < high, "queue above T_high: " + max);
        assertTrue(r.goodputBitsPerSecond() > 0.9 * G100, "goodput " + r.goodputBitsPerSecond());
        assertTrue(r.counter(TimelyTransport.DECREASES) > 0);
    }
}
