package fabriclab.congestion;

import fabriclab.fabric.EcnMarking;
import fabriclab.progress.Progress;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

import static fabriclab.congestion.EcnMarkingTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** iQCN (003 section 4.2.5) as an option of the DCQCN fluid model. */
class IqcnTest {
    private static final DcqcnParameters ZHU = DcqcnParameters.zhu2015();

    private static void assertSameTrajectory(Table a, Table b) {
        assertEquals(a.columnNames(), b.columnNames());
        for (String c : a.columnNames()) {
            assertArrayEquals(a.doubleColumn(c).asDoubleArray(), b.doubleColumn(c).asDoubleArray(), 0.0, c);
        }
    }

    /** Off by default; switching it off again gives the default trajectory bit for bit. */
    @Test
    void offIsTheDefaultAndChangesNothing() {
        DcqcnFluidModel base = DcqcnFluidModel.of(ZHU, Bottleneck.of(40e9), 10);
        assertFalse(base.iqcn());
        Table t0 = base.simulate(3e-3, 1e-6, 1e-6, Progress.silent()).trajectory();
        Table t1 = base.withIqcn(true).withIqcn(false).simulate(3e-3, 1e-6, 1e-6, Progress.silent()).trajectory();
        assertSameTrajectory(t0, t1);
        assertTrue(t0.doubleColumn("queue_kb").max() > 5, "the case must congest the port");
    }

    /** One 1 Gb/s flow on an idle 100G port never pushes the queue above Kmin: iQCN is inert. */
    @Test
    void belowKminIqcnChangesNothing() {
        DcqcnFluidModel m = DcqcnFluidModel.of(ZHU, Bottleneck.of(100e9), 1).startingAt(1e9);
        Table off = m.simulate(1e-3, 1e-6, 1e-6, Progress.silent()).trajectory();
        Table on = m.withIqcn(true).simulate(1e-3, 1e-6, 1e-6, Progress.silent()).trajectory();
        assertEquals(0.0, on.doubleColumn("queue_kb").max(), 0.0);
        assertSameTrajectory(off, on);
    }

    /**
     * Two flows at line rate into one 100G port, marking almost off (Pmax 1e-9 and Kmax 5 MB, far
     * above the at most 900 KB the queue reaches, so CNPs are rarer than T by six orders of
     * magnitude), byte counter disabled, alpha gain g = 1e-9. By hand: alpha stays 1
     * (alpha(0) = 1, g tiny), R_T = R_C until the queue passes Kmin (both at
     * the line-rate cap), and then dR_C/dt = -R_C lambda / 2 with lambda = 1/T, so
     * R_C(t2) / R_C(t1) = exp(-(t2 - t1) / (2T)) while the queue stays above Kmin. Without iQCN the
     * rate stays at line rate.
     */
    @Test
    void decreaseEventsAtRateOneOverTWhenCnpsAreRarerThanT() {
        // g = 1e-9: alpha cannot drift from 1 while the queue is still below Kmin (the first ~4.4 us)
        DcqcnParameters p = new DcqcnParameters(new EcnMarking(5e3, 5e6, 1e-9), 1e-9, ZHU.tauS(), ZHU.tauPrimeS(),
                ZHU.timerS(), 1e18, ZHU.fastRecoverySteps(), ZHU.rateAiBitsPerSecond(), ZHU.feedbackDelayS(), ZHU.minRateBitsPerSecond());
        double dt = 1e-6;
        DcqcnFluidModel m = DcqcnFluidModel.of(p, Bottleneck.of(100e9), 2);
        Table on = m.withIqcn(true).simulate(80e-6, dt, dt, Progress.silent()).trajectory();
        Table off = m.simulate(80e-6, dt, dt, Progress.silent()).trajectory();
        int i1 = 20;
        int i2 = 70;
        double[] q = on.doubleColumn("queue_kb").asDoubleArray();
        for (int i = i1 - 5; i <= i2; i++) {
            assertTrue(q[i] > 5.0, "queue above Kmin at sample " + i);
        }
        double[] r = on.doubleColumn("rate_flows_gbps").asDoubleArray();
        double expected = Math.exp(-(i2 - i1) * dt / (2 * 55e-6));
        assertEquals(expected, r[i2] / r[i1], 1e-5 * expected);
        assertEquals(1.0, on.doubleColumn("alpha_flows").min(), 2e-9); // 1 - exp(-g t / tau') <= 1.5e-9
        assertEquals(100.0, off.doubleColumn("rate_flows_gbps").get(i2), 1e-3);
    }

    /** The renewal CNP rate 1 / E[min(K tau, T)]: limits, bounds and hand values. */
    @Test
    void cnpRateLimitsAndHandValues() {
        double t = 55e-6;
        assertEquals(1 / t, DcqcnFluidModel.iqcnCnpRate(0, 50e-6, t), 1e-12 / t);
        // a = 1, tau <= T: natural CNPs every tau, iQCN adds nothing
        assertEquals(1 / 50e-6, DcqcnFluidModel.iqcnCnpRate(1, 50e-6, t), 1e-9 / 50e-6);
        // tau > T: every gap is cut at T
        assertEquals(1 / t, DcqcnFluidModel.iqcnCnpRate(1, 80e-6, t), 1e-9 / t);
        // tau 50, T 55, a 1/2: gap 50 us w.p. 1/2, else 55 us -> mean 52.5 us
        assertEquals(1 / 52.5e-6, DcqcnFluidModel.iqcnCnpRate(0.5, 50e-6, t), 1e-9 / 52.5e-6);
        // tau 20, T 55, a 1/2: 20 w.p. 1/2, 40 w.p. 1/4, 55 w.p. 1/4 -> 33.75 us
        assertEquals(1 / 33.75e-6, DcqcnFluidModel.iqcnCnpRate(0.5, 20e-6, t), 1e-9 / 33.75e-6);
        for (double a : new double[]{1e-9, 1e-3, 0.1, 0.5, 0.9}) {
            for (double tau : new double[]{4e-6, 20e-6, 50e-6, 100e-6}) {
                double l = DcqcnFluidModel.iqcnCnpRate(a, tau, t);
                assertTrue(l >= Math.max(a / tau, 1 / t) * (1 - 1e-12), "lower bound at a = " + a + ", tau = " + tau);
            }
        }
    }

    @Test
    void badInputs() {
        assertMessage("cnpProbability", () -> DcqcnFluidModel.iqcnCnpRate(-0.1, 5e-5, 1e-5));
        assertMessage("cnpProbability", () -> DcqcnFluidModel.iqcnCnpRate(1.1, 5e-5, 1e-5));
        assertMessage("cnpProbability", () -> DcqcnFluidModel.iqcnCnpRate(Double.NaN, 5e-5, 1e-5));
        assertMessage("tauS", () -> DcqcnFluidModel.iqcnCnpRate(0.5, 0, 1e-5));
        assertMessage("timerS", () -> DcqcnFluidModel.iqcnCnpRate(0.5, 5e-5, 0));
    }

    /** Bytes sent = forwarded + queued + dropped, and the queue never negative, with iQCN on. */
    @Test
    void conservationAndNonNegativeQueueWithIqcn() {
        double dt = 1e-7;
        DcqcnParameters p = ZHU.withMarking(new EcnMarking(5e3, 200e3, 1e-4));
        FluidRun run = DcqcnFluidModel.of(p, Bottleneck.of(40e9).withBuffer(50e3), 4).withIqcn(true)
                .simulate(2e-3, dt, dt, Progress.silent());
        Table t = run.trajectory();
        double[] rate = t.doubleColumn("rate_flows_gbps").asDoubleArray();
        double[] q = t.doubleColumn("queue_kb").asDoubleArray();
        double c = 40e9 / 8;
        double sent = 0;
        double forwarded = 0;
        for (int i = 0; i + 1 < rate.length; i++) {
            double a0 = 4 * rate[i] * 1e9 / 8;
            double a1 = 4 * rate[i + 1] * 1e9 / 8;
            sent += (a0 + a1) / 2 * dt;
            forwarded += ((q[i] > 0 ? c : Math.min(a0, c)) + (q[i + 1] > 0 ? c : Math.min(a1, c))) / 2 * dt;
        }
        double dropped = run.metrics().droppedBytes();
        assertEquals(sent, forwarded + q[q.length - 1] * 1000 + dropped, 1e-3 * sent);
        assertTrue(t.doubleColumn("queue_kb").min() >= 0);
    }

    /**
     * The comparison table: the "off" rows equal a direct run of the plain model, the CNP interval
     * is tau / (1 - (1 - p*)^(tau C / N)) from the fixed point, and compensating CNPs during a
     * synchronised start (more decrease events, never fewer) lower the peak queue.
     */
    @Test
    void comparisonTable() throws InterruptedException {
        DcqcnParameters p = ZHU.withMarking(new EcnMarking(5e3, 200e3, 1e-3));
        Bottleneck port = Bottleneck.of(100e9);
        Table t = DcqcnSweeps.iqcnComparison(p, port, new int[]{10}, 5e-3, Progress.silent());
        assertEquals(2, t.rowCount());
        FluidMetrics direct = DcqcnFluidModel.of(p, port, 10).simulate(5e-3, 1e-6, 5e-4, Progress.silent()).metrics();
        assertFalse(t.booleanColumn("iqcn").get(0));
        assertEquals(direct.peakQueueBytes() / 1000, t.doubleColumn("peak_queue_kb").get(0), 0.0);
        assertEquals(direct.utilisation(), t.doubleColumn("utilisation").get(0), 0.0);
        double pStar = DcqcnFixedPoint.solve(p, port, 10).markingProbability();
        double perFlowPps = 100e9 / 8 / 1000 / 10;
        double interval = 50e-6 / (1 - Math.pow(1 - pStar, 50e-6 * perFlowPps));
        assertEquals(interval * 1e6, t.doubleColumn("natural_cnp_interval_us").get(0), 1e-9 * interval * 1e6);
        assertTrue(interval > 55e-6, "this case must have CNPs rarer than T");
        assertTrue(t.doubleColumn("peak_queue_kb").get(1) < t.doubleColumn("peak_queue_kb").get(0));
        assertMessage("durationS", () -> DcqcnSweeps.iqcnComparison(p, port, new int[]{10}, 0, Progress.silent()));
        assertMessage("flows[0]", () -> DcqcnSweeps.iqcnComparison(p, port, new int[]{0}, 1e-3, Progress.silent()));
    }
}
