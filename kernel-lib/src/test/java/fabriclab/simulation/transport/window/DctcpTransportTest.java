package fabriclab.simulation.transport.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.EcnMarking;
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
import fabriclab.simulation.transport.ReliableConnection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * DCTCP against the steady-state analysis of Alizadeh et al. (SIGCOMM 2010, section 3.3): N long flows through one
 * 10 Gb/s bottleneck with step marking at K. With W* = (C x RTT + K) / N the window at which the queue reaches K, the
 * analysis gives alpha ~ sqrt(2 / W*), a queue peak Q_max = K + N packets and an oscillation amplitude
 * A = (1/2) sqrt(2 N (C x RTT + K)) packets. The sender here is HPCC's rate-with-window DCTCP (the window follows the
 * rate, W = BDP x R / C, and R_AI = one packet per base RTT), which the analysis' window AIMD describes when the window
 * binds.
 */
class DctcpTransportTest {
    static final long RATE = 10_000_000_000L;
    static final long DELAY_PS = 25 * Time.US;
    static final int MTU = 1000;
    static final long K = 40_000;
    /** The base RTT of a packet and its ACK: four link delays and one packet's serialization on each of two links. */
    static final double BASE_RTT_S = 4 * DELAY_PS / 1e12 + 2 * MTU * 8.0 / RATE;
    static final double BDP_PACKETS = RATE * BASE_RTT_S / 8 / MTU;

    static SimulationResult longFlows(int n, long durationPs, long samplePs) {
        SimulationConfig c = new SimulationConfig(MTU, 0, 1, new SwitchBuffer(16_000_000, 16_000_000, EcnMarking.step(K)),
                Forwarding.ecmp(HashFunction.CRC32, 0), 1, samplePs, (int) (durationPs / samplePs) + 1);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            flows.add(new FlowSpec(i, n, 10_000_000_000L, 0, 0, 1000 + i));
        }
        DctcpTransport t = new DctcpTransport(DctcpTransport.G, MTU * 8 / BASE_RTT_S, 1e6, (long) (BDP_PACKETS * MTU),
                ReliableConnection.defaults().withAckEvery(1), 64, 0);
        Scenario s = Scenario.builder(Topology.singleSwitch(n + 1, RATE, DELAY_PS), c).flows(flows).transport(t).build();
        return new Simulator(s).run(durationPs, s2 -> { });
    }

    private static final java.util.Map<Integer, SimulationResult> RUNS = new java.util.concurrent.ConcurrentHashMap<>();

    /** N long flows for 200 ms, the queue sampled every 10 us. */
    static SimulationResult run(int n) {
        return RUNS.computeIfAbsent(n, k -> longFlows(k, 200 * Time.MS, 10 * Time.US));
    }

    static double wStar(int n) {
        return (BDP_PACKETS + K / (double) MTU) / n;
    }

    /** The second half's queue samples at the bottleneck (the port toward the receiver), packets. */
    static double[] queue(int n) {
        SimulationResult.QueueTrace q = run(n).queues().stream().filter(x -> x.peerNode() == n).findFirst().orElseThrow();
        long[] s = q.occupancyBytes();
        return Arrays.stream(Arrays.copyOfRange(s, s.length / 2, s.length)).mapToDouble(b -> b / (double) MTU).toArray();
    }

    /** Marked data packets over data packets sent: the long-run mean of F, which alpha averages. */
    static double markedFraction(int n) {
        SimulationResult r = run(n);
        return r.ecnMarks() / (r.injectedBytes() / (double) MTU);
    }

    /** The peak of the sawtooth is Q_max = N (W* + 1) - C x RTT = K + N packets (the last RTT before the cut adds N). */
    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {2, 8})
    void theQueuePeaksAtKPlusN(int n) {
        double max = Arrays.stream(queue(n)).max().orElseThrow();
        double expected = K / (double) MTU + n;
        assertEquals(expected, max, 0.15 * expected, "Q_max = K + N");
    }

    /** With K above C x RTT / 7 the queue never empties, so the bottleneck stays busy. */
    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {2, 8})
    void withKAboveASeventhOfTheBdpTheQueueNeverEmpties(int n) {
        assertTrue(K / (double) MTU > BDP_PACKETS / 7);
        assertTrue(Arrays.stream(queue(n)).min().orElseThrow() > 0, "queue underflow");
        SimulationResult r = run(n);
        assertTrue(r.goodputBitsPerSecond() >= 0.99 * RATE, "goodput " + r.goodputBitsPerSecond());
        assertEquals(0, r.droppedPackets());
        assertTrue(r.counter(DctcpTransport.CUTS) > 0 && r.counter(DctcpTransport.INCREASES) > 0);
    }

    /**
     * alpha, the running mean of the marked fraction, scales as sqrt(2 / W*): a quarter of W* (8 flows instead of 2)
     * doubles it. In absolute terms the analysis, whose flows are synchronised and each marked for a whole RTT per
     * cycle, bounds it from above; unsynchronised flows share the marks of a cycle, so it is below that but of its order.
     */
    @Test
    void theMarkedFractionFollowsTheSquareRootOfTwoOverWStar() {
        double ratio = markedFraction(8) / markedFraction(2);
        assertEquals(Math.sqrt(wStar(2) / wStar(8)), ratio, 0.15 * Math.sqrt(wStar(2) / wStar(8)), "alpha(8) / alpha(2)");
        for (int n : new int[] {2, 8}) {
            double alpha = Math.sqrt(2 / wStar(n));
            assertTrue(markedFraction(n) <= alpha && markedFraction(n) >= 0.5 * alpha,
                    "N = " + n + ": marked fraction " + markedFraction(n) + ", sqrt(2 / W*) " + alpha);
        }
    }

    @Test
    void badParametersAreRejectedNamingTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DctcpTransport(0, 1e6, 1e6, 0,
                ReliableConnection.defaults(), 64, 0));
        assertTrue(e.getMessage().contains("g"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DctcpTransport.hpccSimulation(-1));
        assertTrue(e.getMessage().contains("windowBytes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> EcnMarking.step(-1));
        assertTrue(e.getMessage().contains("kBytes"), e.getMessage());
    }

    @Test
    void hpccMarkingIsThirtyKilobytesPerTenGigabits() {
        assertEquals(300_000, DctcpTransport.hpccMarking(100_000_000_000L).kMinBytes(), 1e-6);
        assertEquals(300_000, DctcpTransport.hpccMarking(100_000_000_000L).kMaxBytes(), 1e-6);
        assertEquals(1.0, DctcpTransport.hpccMarking(100_000_000_000L).probability(300_001), 0);
        assertEquals(0.0, DctcpTransport.hpccMarking(100_000_000_000L).probability(300_000), 0);
    }
}
