package fabriclab.loadbalancing.flowlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.loadbalancing.analytics.BallsIntoBins;
import fabriclab.loadbalancing.analytics.MaxLoadDistribution;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlowletsTest {
    // exact binary fractions: 64 packets 0.125 us apart, then 24.125 us idle: period 32 us
    private static final double PT = 0.125;
    private static final double GAP = 24.125;

    @Test
    void elephantsSplitOnlyAtComputeGaps() {
        double[] t = PacketTrace.elephant(5, 64, PT, GAP);
        assertEquals(320, t.length);
        assertEquals(320, Flowlets.count(t, 0.1));   // timeout below the packet spacing: every packet
        assertEquals(5, Flowlets.count(t, 0.2));     // one flowlet per step
        assertEquals(5, Flowlets.count(t, 24));
        assertEquals(1, Flowlets.count(t, 25));      // longer than the compute gap: the whole flow
    }

    @Test
    void miceFlowletCountMatchesTheExponentialGapLaw() {
        // gaps inside a message are one packet time; idle gaps are Exp(mean 50 us): a gap splits with
        // probability exp(-tau / 50), so E[flowlets] = 1 + (messages - 1) exp(-tau / 50)
        int messages = 4000;
        double tau = 30;
        double[] t = PacketTrace.mice(messages, 3, PT, 50, 99);
        double p = Math.exp(-tau / 50);
        double expected = 1 + (messages - 1) * p;
        double sd = Math.sqrt((messages - 1) * p * (1 - p));
        assertEquals(expected, Flowlets.count(t, tau), 5 * sd);
    }

    @Test
    void flowletsGiveElephantsExactlyTheImbalanceOfPerFlowEcmp() {
        int n = 16;
        int m = 8;
        int steps = 300;
        List<double[]> flows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            flows.add(PacketTrace.elephant(steps, 64, PT, GAP));
        }
        FlowletBalance b = FlowletBalance.simulate(flows, m, 10, 32, 4);
        assertEquals((long) n * steps, b.flowlets());
        MaxLoadDistribution d = BallsIntoBins.maxLoad(n, m);
        double mean = d.meanMaxOverMean();
        double sd = Math.sqrt(d.expectation(k -> k * k) - d.mean() * d.mean()) / ((double) n / m);
        assertEquals(mean, b.meanImbalance(), 5 * sd / Math.sqrt(steps));
        // per-flow ECMP over the whole run: one draw, the same law
        FlowletBalance perFlow = FlowletBalance.simulate(flows, m, Double.MAX_VALUE, 32, 4);
        assertEquals(n, perFlow.flowlets());
        // per-packet (timeout below spacing): far better balanced
        FlowletBalance perPacket = FlowletBalance.simulate(flows, m, 0.1, 32, 4);
        assertTrue(perPacket.meanImbalance() < 1.3 && perPacket.meanImbalance() < mean - 0.5, "per packet " + perPacket.meanImbalance());
    }

    @Test
    void badInputsNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Flowlets.split(new double[0], 1)).getMessage().startsWith("packetTimesUs"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Flowlets.split(new double[] {2, 1}, 1)).getMessage().startsWith("packetTimesUs"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Flowlets.split(new double[] {1, 2}, -1)).getMessage().startsWith("timeoutUs"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PacketTrace.elephant(0, 1, 1, 1)).getMessage().startsWith("steps"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FlowletBalance.simulate(List.of(), 4, 1, 1, 1)).getMessage().startsWith("flows"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PacketTrace.packetTimeUs(4096, 0)).getMessage().startsWith("lineRateGbps"));
    }
}
