package fabriclab.simulation.transport.hpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import fabriclab.simulation.transport.TransportModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HpccTransportTest {
    static final long G100 = 100_000_000_000L;
    static final int MTU = 1000;
    static final int HEADER = 64;
    /** Wire bytes of a data packet: payload, the run's headers and HPCC's INT header. */
    static final int WIRE = MTU + HEADER + HpccTransport.INT_HEADER_BYTES;

    static SimulationResult run(int senders, long bytes, HpccTransport t) {
        Topology topo = Topology.singleSwitch(senders + 1, G100, Time.US);
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(32_000_000),
                Forwarding.ecmp(HashFunction.CRC32, 7), 1, Time.US, 20_000);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < senders; i++) {
            flows.add(new FlowSpec(i, senders, bytes, 0, 0, 1024 + i));
        }
        return new Simulator(Scenario.builder(topo, c).flows(flows).transport(t).build()).run();
    }

    /** T of the single-switch fabric by HPCC's rule: two links, each 2 x 1 us + a 1000 B payload at 100 Gb/s (80 ns). */
    static final long T_PS = 2 * (2 * Time.US + 80_000);
    /** W_max = B T, bytes. */
    static final double BDP = G100 * (double) T_PS / 8e12;

    @Test
    void theFabricsBaseRttIsHpccsRule() {
        assertEquals(T_PS, HpccRun.largestBaseRttPs(Topology.singleSwitch(3, G100, Time.US), new int[] {0}, MTU));
        assertEquals(52_000, BDP, 1e-9);
    }

    /** Mean and largest sampled occupancy of {@code q} from 100 us to the last delivery, bytes. */
    static double[] settled(SimulationResult r, SimulationResult.QueueTrace q) {
        long[] o = q.occupancyBytes();
        int end = (int) (r.lastDeliveryPs() / Time.US);
        double mean = 0;
        long max = 0;
        for (int i = 100; i < end; i++) {
            mean += o[i];
            max = Math.max(max, o[i]);
        }
        return new double[] {mean / (end - 100), max};
    }

    /**
     * One flow alone: HPCC holds the bottleneck at eta of its rate with no standing queue, so the flow completes in
     * about T + its wire bytes at eta B (within 2%), and the queue holds at most the packet in transmission and one
     * behind it.
     */
    @Test
    void aSingleFlowRunsAtEtaOfLineRateWithNoQueue() {
        long bytes = 4_000_000;
        SimulationResult r = run(1, bytes, HpccTransport.defaults());
        assertTrue(r.allCompleted());
        double wire = bytes / MTU * WIRE;
        double expected = T_PS + wire * 8e12 / (HpccTransport.PAPER_ETA * G100);
        double fct = r.flows().get(0).completionTimePs();
        assertEquals(expected, fct, 0.02 * expected, "FCT " + fct + " ps");
        assertTrue(fct > wire * 8e12 / G100, "faster than line rate");
        SimulationResult.QueueTrace bottleneck = r.queues().get(1);
        assertTrue(settled(r, bottleneck)[1] <= 2 * WIRE, "queue " + settled(r, bottleneck)[1]);
        assertTrue(r.counter(HpccTransport.UPDATES) > 0 && r.counter(HpccTransport.FAST_REACTIONS) > 0);
        assertEquals(bytes / MTU, r.counter(HpccTransport.INT_RECORDS), "one record per data packet at the one switch");
        assertEquals(0, r.droppedPackets());
    }

    /**
     * Four equal flows into one port: they share it fairly (each completes within 15% of the last) at eta of its rate
     * (the last completes within 5% of T + all wire bytes at eta B); the queue peaks at most at the four initial windows
     * (each sender starts at W_max = B T, in whole packets) and then stays within five packets, about one on average.
     */
    @Test
    void flowsIntoOneBottleneckShareItFairlyWithANearEmptyQueue() {
        int n = 4;
        long bytes = 4_000_000;
        SimulationResult r = run(n, bytes, HpccTransport.defaults());
        assertTrue(r.allCompleted());
        double wire = n * (double) (bytes / MTU) * WIRE;
        double expected = T_PS + wire * 8e12 / (HpccTransport.PAPER_ETA * G100);
        long last = r.flows().stream().mapToLong(SimulationResult.FlowRecord::completionTimePs).max().orElseThrow();
        assertEquals(expected, last, 0.05 * expected);
        for (SimulationResult.FlowRecord f : r.flows()) {
            assertTrue(f.completionTimePs() >= 0.85 * last, "flow " + f.id() + " " + f.completionTimePs() + " of " + last);
        }
        SimulationResult.QueueTrace bottleneck = r.queues().get(n);
        assertTrue(bottleneck.peakBytes() <= n * Math.ceil(BDP / MTU) * WIRE, "peak " + bottleneck.peakBytes());
        double[] s = settled(r, bottleneck);
        assertTrue(s[1] <= 5 * WIRE, "settled max " + s[1]);
        assertTrue(s[0] <= 2 * WIRE, "settled mean " + s[0]);
        assertEquals(0, r.droppedPackets());
        assertEquals(0, r.counter(TransportModel.TIMEOUTS));
    }

    /**
     * Algorithm 1 on a hand-computed record at 100 Gb/s, T = 4.16 us (B T = 52,000 B): 49,400 bytes sent over T is
     * 0.95 of the rate, and min(10,400, 5,200) queued bytes is 0.1 of B T, so u = 1.05; over a whole T the estimate
     * becomes u, over half of it the mean of 1 and 1.05. W_AI = 40 Mb/s x T = 20.8 B. At U = 1.05 from W_c = 52,000:
     * 52,000 x 0.95 / 1.05 + 20.8; at U = 0.5 stage 2: W_c + 20.8; at stage 5: the multiplicative step, above the bound.
     */
    @Test
    void theWindowAfterOneReactionIsAlgorithmOnesOnAHandComputedRecord() {
        long t = 4_160_000;
        double u = HpccTransport.hopUtilisation(10_400, 5_200, 1_049_400, 1_000_000, t, G100, t);
        assertEquals(1.05, u, 1e-12);
        assertEquals(1.05, HpccTransport.smoothed(1, u, t, t), 1e-12);
        assertEquals(1.05, HpccTransport.smoothed(0.3, u, 2 * t, t), 1e-12, "tau is capped at T");
        assertEquals(1.025, HpccTransport.smoothed(1, u, t / 2, t), 1e-12);
        HpccTransport h = HpccTransport.defaults();
        double wAi = 40e6 * t / 8e12;
        assertEquals(20.8, wAi, 1e-12);
        double min = 1e9 * t / 8e12;
        assertEquals(52_000 * 0.95 / 1.05 + 20.8, h.window(52_000, 1.05, 0, wAi, min, 52_000), 1e-9);
        assertEquals(30_020.8, h.window(30_000, 0.5, 2, wAi, min, 52_000), 1e-9);
        assertEquals(52_000, h.window(30_000, 0.5, 5, wAi, min, 52_000), 1e-9, "stage 5: 30,000 x 0.95 / 0.5 + 20.8, bounded");
        assertEquals(min, h.window(1_000, 5.0, 0, wAi, min, 52_000), 1e-9, "bounded below by R_min T");
        assertEquals(52_000, h.window(1_000, 0, 5, wAi, min, 52_000), 1e-9, "an idle path: the largest window");
    }

    @Test
    void badSettingsAreRefusedNamingTheParameter() {
        HpccTransport d = HpccTransport.defaults();
        assertThrows(IllegalArgumentException.class, () -> d.withTarget(0, 5), "eta");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.withTarget(1.5, 5)).getMessage().contains("eta"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.withTarget(0.95, -1)).getMessage().contains("maxStage"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.withAdditiveIncrease(0)).getMessage()
                .contains("additiveIncreaseBitsPerSecond"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.withBaseRtt(-1)).getMessage().contains("baseRttPs"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> HpccTransport.hopUtilisation(0, 0, 5, 10, 1, G100, 1)).getMessage().contains("txBytes"));
    }
}
