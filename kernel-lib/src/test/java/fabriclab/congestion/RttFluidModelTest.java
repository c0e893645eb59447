package fabriclab.congestion;

import fabriclab.progress.Progress;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Pfc;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

import java.util.List;

import static fabriclab.congestion.EcnMarkingTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RttFluidModelTest {
    private static final RttControlParameters CTCC = RttControlParameters.ctcc();

    private static double at(Table t, String column, double timeUs) {
        double[] time = t.doubleColumn("time_us").asDoubleArray();
        for (int i = 0; i < time.length; i++) {
            if (Math.abs(time[i] - timeUs) < 1e-6) {
                return t.doubleColumn(column).get(i);
            }
        }
        throw new AssertionError("no row at " + timeUs + " us");
    }

    /** Below the target RTT (idle port) CTCC adds exactly delta per probe: 99 probes by 995 us. */
    @Test
    void additiveIncreasePerProbe() {
        Table t = new RttFluidModel(CTCC, Bottleneck.of(100e9), List.of(FlowClass.of(1))).startingAt(1e9)
                .simulate(1e-3, 1e-7, 5e-6, Progress.silent()).trajectory();
        assertEquals(1.0 + 99 * 1e-3, at(t, "rate_flows_gbps", 995), 1e-9);
        assertEquals(0.0, t.doubleColumn("queue_kb").max(), 0);
    }

    /**
     * Two 100G flows into a 100G port from an empty queue: the queue grows at 100 Gb/s. The probe at
     * 10 us sees q(5 us) = 62.5 KB, RTT 10 us < 15 us: +1 Mb/s. The probe at 20 us sees q(15 us),
     * RTT 20 us > 15 us: R := R (1 - 0.8 (20 - 15) / 20) = 0.8 R.
     */
    @Test
    void multiplicativeDecreaseAboveTarget() {
        Table t = new RttFluidModel(CTCC, Bottleneck.of(100e9), List.of(FlowClass.of(2)))
                .simulate(30e-6, 1e-7, 1e-7, Progress.silent()).trajectory();
        assertEquals(100.0, at(t, "rate_flows_gbps", 15), 1e-9, "capped at line rate after the increase");
        assertEquals(80.0, at(t, "rate_flows_gbps", 25), 1e-6);
    }

    /** A NACK (drop at the buffer) halves the rate at the next probe, overriding the RTT rule. */
    @Test
    void nackHalvesTheRate() {
        FluidRun run = new RttFluidModel(CTCC, Bottleneck.of(100e9).withBuffer(10e3), List.of(FlowClass.of(2)))
                .simulate(15e-6, 1e-7, 1e-7, Progress.silent());
        assertEquals(50.0, at(run.trajectory(), "rate_flows_gbps", 12), 1e-9);
        assertTrue(run.metrics().droppedBytes() > 0);
        assertTrue(run.metrics().peakQueueBytes() <= 10e3 + 1e-9);
    }

    /** The 001 incast runs with both rules; queues stay non-negative, results are reproducible. */
    @Test
    void incastBothRulesDeterministic() {
        Bottleneck port = Bottleneck.of(100e9);
        List<FlowClass> incast = List.of(FlowClass.incast("qps", 7, 1000));
        for (RttControlParameters p : new RttControlParameters[]{CTCC, RttControlParameters.timely()}) {
            FluidRun a = new RttFluidModel(p, port, incast).simulate(2e-3, 5e-7, 1e-5, Progress.silent());
            FluidRun b = new RttFluidModel(p, port, incast).simulate(2e-3, 5e-7, 1e-5, Progress.silent());
            assertEquals(a.metrics(), b.metrics());
            assertTrue(a.trajectory().doubleColumn("queue_kb").min() >= 0);
            assertTrue(a.metrics().utilisation() <= 1 + 1e-12);
        }
    }

    /** The incast factory is the model on the hand-written class of n x q flows on n NICs. */
    @Test
    void incastFactoryEqualsTheHandWrittenClasses() {
        Incast incast = new Incast(7, 1000, 1_000_000_000_000L, 100_000_000_000L, 100_000_000_000L, 0);
        FluidRun factory = RttFluidModel.incast(CTCC, Bottleneck.of(incast), incast)
                .simulate(1e-3, 5e-7, 1e-5, Progress.silent());
        FluidRun byHand = new RttFluidModel(CTCC, Bottleneck.of(100e9), List.of(new FlowClass("incast", 7000, 0.0, 7)))
                .simulate(1e-3, 5e-7, 1e-5, Progress.silent());
        assertEquals(byHand.metrics(), factory.metrics());
        assertMessage("port.lineRateBitsPerSecond", () -> RttFluidModel.incast(CTCC, Bottleneck.of(25e9), incast));
    }

    /**
     * PFC in the RTT model holds the queue between XON and XOFF: the 7 x 100G start-up burst pauses
     * the senders within one step of crossing XOFF.
     */
    @Test
    void pfcHoldsTheQueueNearXoff() {
        Incast incast = Incast.of(7, 1_000_000_000L, 100_000_000_000L);
        Pfc pfc = Pfc.thresholds(200_000, 150_000);
        FluidRun run = RttFluidModel.incast(CTCC, Bottleneck.of(incast).withPfc(pfc), incast)
                .simulate(1e-3, 5e-7, 1e-6, Progress.silent());
        double overshoot = (700e9 - 100e9) / 8 * 5e-7; // one step of the worst excess
        assertTrue(run.metrics().peakQueueBytes() <= pfc.xoffBytes() + overshoot + 1e-6);
        assertTrue(run.metrics().peakQueueBytes() >= pfc.xoffBytes());
        assertEquals(1.0, run.trajectory().doubleColumn("paused").max(), 0);
    }

    @Test
    void badInputNamesTheParameter() {
        assertMessage("tHighS", () -> new RttControlParameters(RttRule.TIMELY_GRADIENT, 1e-5, 1e-5, 1e6, 0.8, 0.5,
                50e-6, 50e-6, 0.875, 20e-6, 5, 0));
        assertMessage("beta", () -> new RttControlParameters(RttRule.CTCC_TARGET, 1e-5, 1e-5, 1e6, 0, 0.5,
                50e-6, 500e-6, 0.875, 20e-6, 5, 0));
        assertMessage("maxDecrease", () -> new RttControlParameters(RttRule.CTCC_TARGET, 1e-5, 1e-5, 1e6, 0.8, 1,
                50e-6, 500e-6, 0.875, 20e-6, 5, 0));
        assertMessage("stepS", () -> new RttFluidModel(CTCC, Bottleneck.of(1e9), List.of(FlowClass.of(1)))
                .simulate(1e-3, 1e-4, 1e-4, Progress.silent()));
        assertMessage("bps", () -> new RttFluidModel(CTCC, Bottleneck.of(1e9), List.of(FlowClass.of(1)))
                .startingAt(-1));
    }
}
