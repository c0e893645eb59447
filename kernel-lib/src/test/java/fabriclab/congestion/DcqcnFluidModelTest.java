package fabriclab.congestion;

import fabriclab.fabric.EcnMarking;
import fabriclab.progress.Progress;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Pfc;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

import java.util.List;

import static fabriclab.congestion.EcnMarkingTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static fabriclab.TestArguments.QUICK;
import static fabriclab.TestArguments.refused;
import static fabriclab.TestArguments.rejects;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class DcqcnFluidModelTest {
    private static final DcqcnParameters ZHU = DcqcnParameters.zhu2015();

    private static double last(Table t, String column) {
        return t.doubleColumn(column).get(t.rowCount() - 1);
    }

    /**
     * With no marking (one 1 Gb/s flow on an idle 100G port, p = 0) and the byte counter disabled
     * (B = 1e18 bytes), DCQCN's target rate rises by exactly R_AI every timer period T:
     * R_T(t) = R_T(0) + R_AI t / T.
     */
    @Test
    void targetRateRampsRaiPerTimerPeriod() {
        DcqcnParameters p = ZHU.withByteCounter(1e18);
        Table t = DcqcnFluidModel.of(p, Bottleneck.of(100e9), 1).startingAt(1e9)
                .simulate(1e-3, 1e-6, 1e-4, Progress.silent()).trajectory();
        double expected = 1e9 + 40e6 * 1e-3 / 55e-6;
        assertEquals(expected / 1e9, last(t, "target_flows_gbps"), 1e-9);
        assertEquals(0.0, t.doubleColumn("queue_kb").max(), 0);
    }

    /**
     * With the byte counter on, each T and each B bytes sent add R_AI:
     * R_T(t) - R_T(0) = R_AI (t / T + S(t - tau*) / B), S = bytes sent (from the trajectory).
     */
    @Test
    void targetRateCountsTimerAndByteCounterEvents() {
        double dt = 1e-6;
        double tEnd = 2e-3;
        Table t = DcqcnFluidModel.of(ZHU, Bottleneck.of(100e9), 1).startingAt(1e9)
                .simulate(tEnd, dt, dt, Progress.silent()).trajectory();
        double[] rate = t.doubleColumn("rate_flows_gbps").asDoubleArray();
        int upTo = (int) Math.round((tEnd - ZHU.feedbackDelayS()) / dt);
        double bytes = 0;
        for (int i = 0; i < upTo; i++) {
            bytes += (rate[i] + rate[i + 1]) / 2 * 1e9 / 8 * dt;
        }
        double expectedIncrease = 40e6 * (tEnd / 55e-6 + bytes / 10e6);
        double increase = (last(t, "target_flows_gbps") - 1.0) * 1e9;
        assertEquals(expectedIncrease, increase, 1e-4 * expectedIncrease);
        assertTrue(bytes / 10e6 > 0.01, "the byte counter must matter in this test");
    }

    /** The simulated steady state equals the fixed point solved independently by root finding. */
    @Test
    void steadyStateEqualsFixedPoint() {
        Bottleneck port = Bottleneck.of(40e9);
        DcqcnFixedPoint fp = DcqcnFixedPoint.solve(ZHU, port, 10);
        assertTrue(fp.onRamp());
        Table t = DcqcnFluidModel.of(ZHU, port, 10).simulate(0.3, 1e-6, 1e-3, Progress.silent()).trajectory();
        assertEquals(fp.queueBytes() / 1000, last(t, "queue_kb"), 0.005 * fp.queueBytes() / 1000);
        assertEquals(4.0, last(t, "rate_flows_gbps"), 0.005 * 4.0);
        assertEquals(fp.targetRateBitsPerSecond() / 1e9, last(t, "target_flows_gbps"), 0.005 * fp.targetRateBitsPerSecond() / 1e9);
        assertEquals(fp.alpha(), last(t, "alpha_flows"), 0.01 * fp.alpha());
    }

    /** N identical flows as one class of N give the trajectory of N separate classes of one. */
    @Test
    void symmetricAggregationMatchesSeparateFlows() {
        Bottleneck port = Bottleneck.of(40e9);
        Table one = DcqcnFluidModel.of(ZHU, port, 3).simulate(5e-3, 1e-6, 1e-5, Progress.silent()).trajectory();
        Table sep = new DcqcnFluidModel(ZHU, port, List.of(new FlowClass("a", 1, 0), new FlowClass("b", 1, 0),
                new FlowClass("c", 1, 0))).simulate(5e-3, 1e-6, 1e-5, Progress.silent()).trajectory();
        double[] q1 = one.doubleColumn("queue_kb").asDoubleArray();
        double[] q2 = sep.doubleColumn("queue_kb").asDoubleArray();
        double[] r1 = one.doubleColumn("rate_flows_gbps").asDoubleArray();
        for (String label : new String[]{"a", "b", "c"}) {
            double[] r2 = sep.doubleColumn("rate_" + label + "_gbps").asDoubleArray();
            for (int i = 0; i < r1.length; i++) {
                assertEquals(r1[i], r2[i], 1e-9 * 40);
            }
        }
        for (int i = 0; i < q1.length; i++) {
            assertEquals(q1[i], q2[i], 1e-9 * 1000);
        }
    }

    /** Flows starting later share the link: the late class ends within 10% of the fair share. */
    @Test
    void heterogeneousStartTimesConverge() {
        Bottleneck port = Bottleneck.of(40e9);
        FluidRun run = new DcqcnFluidModel(ZHU, port, List.of(new FlowClass("early", 2, 0),
                new FlowClass("late", 2, 0.01))).simulate(0.2, 1e-6, 1e-3, Progress.silent());
        Table t = run.trajectory();
        assertEquals(10.0, last(t, "rate_early_gbps"), 1.0);
        assertEquals(10.0, last(t, "rate_late_gbps"), 1.0);
        assertEquals(1.0, run.metrics().utilisation(), 1e-6);
    }

    /** An unstable loop (tau* = 100 us) drives the queue to empty, but never below zero. */
    @Test
    void queueNeverNegative() {
        DcqcnParameters slow = ZHU.withFeedbackDelay(100e-6);
        FluidRun run = DcqcnFluidModel.of(slow, Bottleneck.of(40e9), 10).simulate(0.05, 1e-6, 1e-6, Progress.silent());
        assertTrue(run.trajectory().doubleColumn("queue_kb").min() >= 0);
        assertEquals(0.0, run.metrics().minQueueBytes(), 0, "the oscillation must reach an empty queue");
    }

    /** PFC holds the queue near XOFF without loss; without PFC a small buffer drops. */
    @Test
    void pfcPausesInsteadOfDropping() {
        Bottleneck port = Bottleneck.of(100e9).withBuffer(1e6);
        List<FlowClass> incast = List.of(FlowClass.incast("qps", 7, 1000));
        Pfc pfc = Pfc.thresholds(100_000, 80_000);
        FluidRun withPfc = new DcqcnFluidModel(ZHU, port.withPfc(pfc), incast)
                .simulate(5e-3, 1e-6, 1e-6, Progress.silent());
        // one step of the worst excess (700G in, 100G out) beyond XOFF at most
        double overshoot = (700e9 - 100e9) / 8 * 1e-6;
        assertTrue(withPfc.metrics().peakQueueBytes() <= pfc.xoffBytes() + overshoot + 1);
        assertTrue(withPfc.trajectory().doubleColumn("paused").max() == 1.0);
        assertEquals(0.0, withPfc.metrics().droppedBytes(), 0);
        FluidRun noPfc = new DcqcnFluidModel(ZHU, port.withBuffer(150e3), incast)
                .simulate(5e-3, 1e-6, 1e-6, Progress.silent());
        assertTrue(noPfc.metrics().droppedBytes() > 0);
        assertTrue(noPfc.metrics().peakQueueBytes() <= 150e3 + 1e-6);
    }

    /**
     * The incast factory is the model on the classes written by hand: one class of n x q queue pairs
     * on n NICs, into the receiver's port (same trajectory, value for value).
     */
    @Test
    void incastFactoryEqualsTheHandWrittenClasses() {
        Incast incast = new Incast(7, 1000, 1_000_000_000_000L, 100_000_000_000L, 100_000_000_000L, 0);
        Bottleneck port = Bottleneck.of(incast).withPfc(Pfc.thresholds(1_000_000, 900_000));
        assertEquals(100e9, port.lineRateBitsPerSecond(), 0);
        FluidRun factory = DcqcnFluidModel.incast(ZHU, port, incast).simulate(1e-3, 1e-6, 1e-5, Progress.silent());
        FluidRun byHand = new DcqcnFluidModel(ZHU, Bottleneck.of(100e9).withPfc(Pfc.thresholds(1_000_000, 900_000)),
                List.of(new FlowClass("incast", 7000, 0.0, 7))).simulate(1e-3, 1e-6, 1e-5, Progress.silent());
        assertEquals(byHand.metrics(), factory.metrics());
        assertEquals(byHand.trajectory().toString(), factory.trajectory().toString());
    }

    /** A staggered incast is one class per sender, sender i starting at i times the stagger. */
    @Test
    void staggeredIncastIsOneClassPerSender() {
        Incast incast = Incast.of(3, 1_000_000, 40_000_000_000L).withStagger(20_000_000L); // 20 us
        List<FlowClass> classes = FlowClass.incast("s", incast);
        assertEquals(3, classes.size());
        for (int i = 0; i < 3; i++) {
            assertEquals("s-" + i, classes.get(i).label());
            assertEquals(1, classes.get(i).multiplicity());
            assertEquals(1, classes.get(i).hosts());
            assertEquals(i * 20e-6, classes.get(i).startS(), 1e-18);
        }
        // before the second sender starts, one flow at line rate fills nothing: the queue stays empty
        Table t = DcqcnFluidModel.incast(ZHU, Bottleneck.of(incast), incast)
                .simulate(19e-6, 1e-6, 1e-6, Progress.silent()).trajectory();
        assertEquals(0.0, t.doubleColumn("queue_kb").max(), 0);
        assertEquals(0.0, t.doubleColumn("rate_incast-1_gbps").max(), 0);
    }

    /** Same input, same output: the model is deterministic. */
    @Test
    void deterministic() {
        Bottleneck port = Bottleneck.of(40e9);
        FluidRun a = DcqcnFluidModel.of(ZHU, port, 2).simulate(2e-3, 1e-6, 1e-5, Progress.silent());
        FluidRun b = DcqcnFluidModel.of(ZHU, port, 2).simulate(2e-3, 1e-6, 1e-5, Progress.silent());
        assertEquals(a.trajectory().toString(), b.trajectory().toString());
        assertEquals(a.metrics(), b.metrics());
    }

    @Test
    void badInputNamesTheParameter() {
        Bottleneck port = Bottleneck.of(40e9);
        assertMessage("stepS", () -> DcqcnFluidModel.of(ZHU, port, 2).simulate(1e-3, 5e-6, 1e-5, Progress.silent()));
        assertMessage("flows", () -> DcqcnFluidModel.of(ZHU, port, 0));
        assertMessage("g", () -> new DcqcnParameters(EcnMarking.dcqcnDefaults(), 1.5, 50e-6, 55e-6, 55e-6, 10e6, 5,
                40e6, 4e-6, 1e6));
        assertMessage("g", () -> new DcqcnParameters(EcnMarking.dcqcnDefaults(), 0, 50e-6, 55e-6, 55e-6, 10e6, 5,
                40e6, 4e-6, 1e6));
        assertMessage("feedbackDelayS", () -> ZHU.withFeedbackDelay(-1e-6));
        assertMessage("multiplicity", () -> new FlowClass("x", 0, 0));
        assertMessage("startS", () -> new FlowClass("x", 1, -1));
        assertMessage("hosts", () -> new FlowClass("x", 2, 0, 3));
        assertMessage("xonBytes", () -> Pfc.thresholds(100, 101));
        assertMessage("xonBytes", () -> Pfc.thresholds(100, 0));
        assertMessage("pfc.xoffBytes", () -> port.withBuffer(1e3).withPfc(Pfc.thresholds(2_000, 1_000)));
        assertMessage("pfc.xoffBytes + pfc.headroomBytes", () -> port.withBuffer(10e3).withPfc(new Pfc(1_000, 500, 20_000, 65535)));
        Incast at100 = Incast.of(7, 1_000_000, 100_000_000_000L);
        assertMessage("port.lineRateBitsPerSecond", () -> DcqcnFluidModel.incast(ZHU, port, at100));
        assertMessage("incast.senderRateBitsPerSecond", () -> DcqcnFluidModel.incast(ZHU, Bottleneck.of(at100),
                new Incast(7, 1, 1_000_000, 25_000_000_000L, 100_000_000_000L, 0)));
        assertMessage("durationS", () -> DcqcnFluidModel.of(ZHU, port, 2).simulate(0, 1e-6, 1e-5, Progress.silent()));
        assertMessage("sampleEveryS", () -> DcqcnFluidModel.of(ZHU, port, 2).simulate(1e-3, 1e-6, 1e-7,
                Progress.silent()));
        assertMessage("classes", () -> new DcqcnFluidModel(ZHU, port, List.of()));
    }

    @Test
    void aFluidTrajectoryBeyondItsValueLimitIsRefused() {
        DcqcnFluidModel m = DcqcnFluidModel.of(DcqcnParameters.zhu2015(), Bottleneck.of(40e9), 10);
        // 0.1 s / 1 ns = 1e8 rows of 7 columns (time, a class's rate, target and alpha, queue, marking, pause)
        refused(() -> m.simulate(0.1, 1e-9, 1e-9, Progress.silent()), "sampleEveryS", "10,000,000",
                "7 columns", "got 1.0E-9");
    }

    @Test
    void extremeParametersAreRejectedOrGiveAFiniteTrajectory() {
        Bottleneck port = Bottleneck.of(40e9);
        DcqcnParameters z = DcqcnParameters.zhu2015();
        for (DcqcnParameters p : List.of(
                new DcqcnParameters(z.marking(), z.g(), z.tauS(), z.tauPrimeS(), z.timerS(), 1e-300, z.fastRecoverySteps(),
                        z.rateAiBitsPerSecond(), z.feedbackDelayS(), z.minRateBitsPerSecond()),
                new DcqcnParameters(z.marking(), z.g(), z.tauS(), z.tauPrimeS(), z.timerS(), z.byteCounterBytes(),
                        z.fastRecoverySteps(), Double.MAX_VALUE, z.feedbackDelayS(), z.minRateBitsPerSecond()))) {
            // either rejected naming the field, or a trajectory without NaN
            try {
                FluidRun r = assertTimeoutPreemptively(QUICK,
                        () -> DcqcnFluidModel.of(p, port, 4).simulate(2e-4, 1e-6, 1e-5, Progress.silent()));
                for (var c : r.trajectory().columns()) {
                    if (c instanceof tech.tablesaw.api.DoubleColumn d) {
                        for (double v : d.asDoubleArray()) {
                            assertTrue(Double.isFinite(v), c.name() + " has " + v);
                        }
                    }
                }
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage().contains("byteCounterBytes") || e.getMessage().contains("rateAiBitsPerSecond"),
                        e.getMessage());
            }
        }
    }

    @Test
    void aTimerShorterThanAnyUsableStepIsRejected() {
        Bottleneck port = Bottleneck.of(40e9);
        DcqcnParameters z = DcqcnParameters.zhu2015();
        DcqcnParameters tinyTimer = new DcqcnParameters(z.marking(), z.g(), z.tauS(), z.tauPrimeS(), 1e-300, z.byteCounterBytes(),
                z.fastRecoverySteps(), z.rateAiBitsPerSecond(), z.feedbackDelayS(), z.minRateBitsPerSecond());
        rejects("stepS", () -> DcqcnFluidModel.of(tinyTimer, port, 4).simulate(2e-4, 1e-6, 1e-5, Progress.silent()));
    }

    @Test
    void aNullClassIsRejectedNamingClasses() {
        rejects("classes", () -> new DcqcnFluidModel(DcqcnParameters.zhu2015(), Bottleneck.of(40e9),
                java.util.Arrays.asList(FlowClass.of(2), null)));
    }
}
