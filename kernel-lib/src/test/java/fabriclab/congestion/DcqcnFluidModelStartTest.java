package fabriclab.congestion;

import fabriclab.congestion.dde.DdeSolver;
import fabriclab.fabric.EcnMarking;
import fabriclab.progress.Progress;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The initial state, history and solver options of {@link DcqcnFluidModel}, each against a
 * value derived by hand from the model's equations, not from its output.
 */
class DcqcnFluidModelStartTest {
    private static final DcqcnParameters ZHU = DcqcnParameters.zhu2015();
    private static final double C = 40e9;
    private static final Bottleneck PORT = Bottleneck.of(C);

    /** ZHU without marking, with a negligible additive increase and no byte counter. */
    private static DcqcnParameters quiet() {
        return new DcqcnParameters(EcnMarking.OFF, ZHU.g(), ZHU.tauS(), ZHU.tauPrimeS(), ZHU.timerS(), 1e18,
                ZHU.fastRecoverySteps(), 1e-3, ZHU.feedbackDelayS(), ZHU.minRateBitsPerSecond());
    }

    private static double at(Table t, String column, double timeUs) {
        for (int r = 0; r < t.rowCount(); r++) {
            if (Math.abs(t.doubleColumn("time_us").get(r) - timeUs) < 1e-6) {
                return t.doubleColumn(column).get(r);
            }
        }
        throw new AssertionError("no row at " + timeUs + " us");
    }

    @Test
    void oneFlowStartedAtLineRateWithoutMarksStaysThere() {
        // R_C = R_T = C, p = 0: dR_C/dt = -R_C alpha 0 + (R_T - R_C)(...) = 0, and dR_T/dt >= 0 is clamped at C
        for (DcqcnFluidModel.History h : DcqcnFluidModel.History.values()) {
            DcqcnFluidModel m = DcqcnFluidModel.of(ZHU.withMarking(EcnMarking.OFF), PORT, 1)
                    .withClassStart("flows", new DcqcnFluidModel.ClassStart(C, C, 0.5)).withHistory(h);
            Table t = m.simulate(1e-3, 1e-6, 1e-5, Progress.silent()).trajectory();
            for (int r = 0; r < t.rowCount(); r++) {
                assertEquals(C / 1e9, t.doubleColumn("rate_flows_gbps").get(r), 0, h + " row " + r);
                assertEquals(C / 1e9, t.doubleColumn("target_flows_gbps").get(r), 0, h + " row " + r);
                assertEquals(0, t.doubleColumn("queue_kb").get(r), 0, h + " row " + r);
            }
        }
    }

    @Test
    void alphaDecaysGeometricallyBetweenMarks() {
        // no marks: dalpha/dt = -(g / tau') alpha, so alpha(t) = alpha0 exp(-g t / tau'); the NIC's
        // discrete law (1 - g)^k after k = t / tau' alpha periods differs by at most k g^2 / 2 (relative)
        double alpha0 = 0.8;
        DcqcnFluidModel m = DcqcnFluidModel.of(ZHU.withMarking(EcnMarking.OFF), PORT, 1)
                .withClassStart("flows", new DcqcnFluidModel.ClassStart(C, C, alpha0));
        Table t = m.simulate(2e-3, 1e-6, 1e-4, Progress.silent()).trajectory();
        for (double us = 100; us <= 2000; us += 100) {
            double k = us * 1e-6 / ZHU.tauPrimeS();
            double fluid = alpha0 * Math.exp(-ZHU.g() * k);
            double nic = alpha0 * Math.pow(1 - ZHU.g(), k);
            double alpha = at(t, "alpha_flows", us);
            assertEquals(fluid, alpha, 1e-9, "at " + us + " us");
            assertEquals(nic, alpha, alpha0 * k * ZHU.g() * ZHU.g() / 2 + 1e-12, "at " + us + " us");
        }
    }

    @Test
    void queueGrowsAtTheExcessRate() {
        // 4 flows held at R = 20 Gb/s (no marks, R_AI negligible) into C = 40 Gb/s: dq/dt = N R - C
        int n = 4;
        double r = 20e9;
        DcqcnFluidModel m = DcqcnFluidModel.of(quiet(), PORT, n).withClassStart("flows", new DcqcnFluidModel.ClassStart(r, r, 1));
        Table t = m.simulate(200e-6, 1e-6, 10e-6, Progress.silent()).trajectory();
        for (double us = 10; us <= 200; us += 10) {
            double bytes = (n * r - C) / 8 * us * 1e-6;
            assertEquals(bytes / 1000, at(t, "queue_kb", us), bytes / 1000 * 1e-6, "at " + us + " us");
        }
    }

    @Test
    void aRecoveringStartHasTheTargetAboveTheCurrentRate() {
        // R_C < R_T, no marks: fast recovery and the timer pull R_C towards R_T (never past it), R_T only grows
        DcqcnFluidModel m = DcqcnFluidModel.of(ZHU.withMarking(EcnMarking.OFF), PORT, 1)
                .withClassStart("flows", new DcqcnFluidModel.ClassStart(10e9, 30e9, 0.5));
        Table t = m.simulate(1e-3, 1e-6, 1e-5, Progress.silent()).trajectory();
        assertEquals(10, t.doubleColumn("rate_flows_gbps").get(0), 0);
        assertEquals(30, t.doubleColumn("target_flows_gbps").get(0), 0);
        for (int row = 1; row < t.rowCount(); row++) {
            double rc = t.doubleColumn("rate_flows_gbps").get(row);
            double rt = t.doubleColumn("target_flows_gbps").get(row);
            assertTrue(rc <= rt + 1e-9 && rc >= t.doubleColumn("rate_flows_gbps").get(row - 1) - 1e-12, "row " + row);
            assertTrue(rt >= 30 - 1e-12, "row " + row);
        }
        assertTrue(t.doubleColumn("rate_flows_gbps").get(t.rowCount() - 1) > 29, "R_C recovers to R_T within 1 ms");
    }

    @Test
    void historyAtLineRateMarksFromTheStart() {
        // one flow at line rate keeps a queue q0 constant (dq/dt = C - C); p = pMax (q0 - Kmin) / (Kmax - Kmin).
        // CONSTANT history: the delayed queue is q0 from t = 0, so in the first tau* R_C falls as
        // dR_C/dt = -R_C alpha a / (2 tau), a = 1 - (1 - p)^(tau C) (C in packets/s), alpha ~ 1:
        // R_C(tau*) ~ C exp(-a tau* / (2 tau)). SILENT history: no marks before tau*, R_C(tau*) = C.
        double q0 = 100e3;
        EcnMarking w = ZHU.marking();
        double p = w.pMax() * (q0 - w.kMinBytes()) / (w.kMaxBytes() - w.kMinBytes());
        double a = 1 - Math.pow(1 - p, ZHU.tauS() * C / 8000);
        double expected = Math.exp(-a * ZHU.feedbackDelayS() / (2 * ZHU.tauS()));
        double tauStarUs = ZHU.feedbackDelayS() * 1e6;
        DcqcnFluidModel base = DcqcnFluidModel.of(ZHU, PORT, 1).withInitialQueue(q0);
        Table line = base.withHistory(DcqcnFluidModel.History.CONSTANT).simulate(tauStarUs * 1e-6, 1e-7, 1e-6, Progress.silent())
                .trajectory();
        Table silent = base.simulate(tauStarUs * 1e-6, 1e-7, 1e-6, Progress.silent()).trajectory();
        assertEquals(expected, at(line, "rate_flows_gbps", tauStarUs) * 1e9 / C, 0.002);
        assertTrue(expected < 0.99, "the test needs a visible cut, got " + expected);
        // before tau* the silent run has seen no mark (at tau* itself its last stage sees q(0) = q0)
        double early = tauStarUs - 1;
        assertEquals(1.0, at(silent, "rate_flows_gbps", early) * 1e9 / C, 0);
        assertEquals(Math.exp(-a * early * 1e-6 / (2 * ZHU.tauS())), at(line, "rate_flows_gbps", early) * 1e9 / C, 0.002);
        assertEquals(q0 / 1000, at(silent, "queue_kb", 0), 0);
    }

    @Test
    void adaptiveAndFixedStepAgree() {
        DcqcnFluidModel m = DcqcnFluidModel.of(ZHU, PORT, 8);
        FluidRun fixed = m.simulate(3e-3, DdeSolver.rk4(0.5e-6), 50e-6, Progress.silent());
        FluidRun adaptive = m.simulate(3e-3, DdeSolver.adaptive(1e-6, 1e-8), 50e-6, Progress.silent());
        // both solve the same equations: the time-averaged results agree to a fraction of a percent
        assertEquals(fixed.metrics().senderThroughputBitsPerSecond(), adaptive.metrics().senderThroughputBitsPerSecond(),
                0.005 * C);
        assertEquals(fixed.metrics().meanQueueBytes(), adaptive.metrics().meanQueueBytes(),
                0.02 * fixed.metrics().meanQueueBytes() + 100);
        assertEquals(fixed.metrics().peakQueueBytes(), adaptive.metrics().peakQueueBytes(),
                0.02 * fixed.metrics().peakQueueBytes() + 100);
        // and the rows fall on (fixed) or just after (adaptive) every 50 us
        assertEquals(61, fixed.trajectory().rowCount());
        assertTrue(Math.abs(adaptive.trajectory().rowCount() - 61) <= 1, "rows " + adaptive.trajectory().rowCount());
    }

    @Test
    void theDefaultBufferCapsTheQueueOf64Flows() {
        // 64 flows starting at line rate at 100 Gb/s: the queue grows at 63 C = 788 GB/s until DCQCN
        // reacts, and passes 32 MB after 41 us
        Bottleneck port = Bottleneck.of(100e9);
        DcqcnFluidModel capped = DcqcnFluidModel.of(ZHU, port, 64);
        DcqcnFluidModel unbounded = DcqcnFluidModel.of(ZHU, port.withBuffer(1e12), 64);
        double peakCapped = capped.simulate(2e-3, 1e-6, 1e-4, Progress.silent()).metrics().peakQueueBytes();
        double peakUnbounded = unbounded.simulate(2e-3, 1e-6, 1e-4, Progress.silent()).metrics().peakQueueBytes();
        assertEquals(32e6, peakCapped, 1e-6 * 32e6);
        assertTrue(peakUnbounded > 32e6, "unbounded peak " + peakUnbounded);
    }

    @Test
    void defaultsAreUnchangedAndOptionsAreValidated() {
        DcqcnFluidModel m = DcqcnFluidModel.of(ZHU, PORT, 2);
        assertEquals(DcqcnFluidModel.History.SILENT, m.history());
        assertEquals(0.0, m.initialQueueBytes());
        assertNull(m.classStarts().get(0));
        // the two entry points give the same run for the same fixed step
        FluidRun a = m.simulate(5e-4, 1e-6, 1e-5, Progress.silent());
        FluidRun b = m.simulate(5e-4, DdeSolver.rk4(1e-6), 1e-5, Progress.silent());
        assertEquals(a.metrics(), b.metrics());
        assertEquals(a.trajectory().print(1000), b.trajectory().print(1000));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.withClassStart("flows", new DcqcnFluidModel.ClassStart(2 * C, C, 1)));
        assertTrue(e.getMessage().startsWith("start.currentRateBitsPerSecond must be in"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> m.withClassStart("other", new DcqcnFluidModel.ClassStart(C, C, 1)));
        assertTrue(e.getMessage().startsWith("label must be one of"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new DcqcnFluidModel.ClassStart(C, C, 1.5));
        assertTrue(e.getMessage().startsWith("alpha must be in"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> m.withInitialQueue(33e6));
        assertTrue(e.getMessage().startsWith("bytes must be in"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> m.simulate(1e-3, DdeSolver.rk4(5e-6), 1e-5, Progress.silent()));
        assertTrue(e.getMessage().startsWith("solver.step must be <= the feedback delay"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> m.simulate(1e-3, (DdeSolver) null, 1e-5, Progress.silent()));
        assertTrue(e.getMessage().startsWith("solver must not be null"), e.getMessage());
        assertEquals(List.of("flows"), m.classes().stream().map(FlowClass::label).toList());
    }
}
