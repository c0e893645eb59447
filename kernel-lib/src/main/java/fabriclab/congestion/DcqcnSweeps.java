package fabriclab.congestion;

import fabriclab.Parameters;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Table;

/**
 * Parameter sweeps of the DCQCN fluid model for the notebooks: linear stability (phase margin,
 * {@link DcqcnStability}) and simulated queue oscillation over a grid of flow counts N and
 * feedback delays tau*, the two axes of the CoNEXT 2016 stability analysis (Zhu, Ghobadi, Misra,
 * Padhye, "ECN or Delay", section 3.2).
 */
public final class DcqcnSweeps {
    private DcqcnSweeps() {
    }

    /**
     * Phase margin for every (N, tau*) pair.
     *
     * @param params DCQCN parameters (tau* replaced by each delay), not null
     * @param port bottleneck, not null
     * @param flows flow counts, each {@code >= 1}, non-empty
     * @param delaysS feedback delays [s], each {@code > 0}, non-empty
     * @param sink progress sink, not null
     * @return table with columns flows, delay_us, phase_margin_deg, crossover_rad_s, fixed_queue_kb,
     *         fixed_p, on_ramp
     */
    public static Table stability(DcqcnParameters params, Bottleneck port, int[] flows, double[] delaysS,
                                  ProgressSink sink) {
        check(params, port, flows, delaysS, sink);
        int n = flows.length * delaysS.length;
        IntColumn fc = IntColumn.create("flows");
        DoubleColumn dc = DoubleColumn.create("delay_us");
        DoubleColumn pm = DoubleColumn.create("phase_margin_deg");
        DoubleColumn wc = DoubleColumn.create("crossover_rad_s");
        DoubleColumn qc = DoubleColumn.create("fixed_queue_kb");
        DoubleColumn pc = DoubleColumn.create("fixed_p");
        BooleanColumn rc = BooleanColumn.create("on_ramp");
        try (Progress progress = Progress.start("DCQCN phase margin sweep", n, sink)) {
            for (int f : flows) {
                for (double d : delaysS) {
                    DcqcnStability s = DcqcnStability.analyse(params.withFeedbackDelay(d), port, f);
                    fc.append(f);
                    dc.append(d * 1e6);
                    pm.append(s.phaseMarginDeg());
                    wc.append(s.crossoverRadPerS());
                    qc.append(s.fixedPoint().queueBytes() / 1000);
                    pc.append(s.fixedPoint().markingProbability());
                    rc.append(s.onRamp());
                    progress.step();
                }
            }
        }
        return Table.create("DCQCN stability sweep", fc, dc, pm, wc, qc, pc, rc);
    }

    /**
     * Simulated queue oscillation for every (N, tau*) pair: each run lasts {@code durationS} with a
     * 1 us step (or tau* if smaller), statistics over its second half.
     *
     * @return table with columns flows, delay_us, mean_queue_kb, queue_swing_kb (max - min),
     *         utilisation
     */
    public static Table oscillation(DcqcnParameters params, Bottleneck port, int[] flows, double[] delaysS,
                                    double durationS, ProgressSink sink) {
        check(params, port, flows, delaysS, sink);
        Parameters.positive("durationS", durationS);
        int n = flows.length * delaysS.length;
        IntColumn fc = IntColumn.create("flows");
        DoubleColumn dc = DoubleColumn.create("delay_us");
        DoubleColumn mq = DoubleColumn.create("mean_queue_kb");
        DoubleColumn sw = DoubleColumn.create("queue_swing_kb");
        DoubleColumn ut = DoubleColumn.create("utilisation");
        try (Progress progress = Progress.start("DCQCN oscillation sweep", n, sink)) {
            for (int f : flows) {
                for (double d : delaysS) {
                    FluidMetrics m = DcqcnFluidModel.of(params.withFeedbackDelay(d), port, f)
                            .simulate(durationS, Math.min(1e-6, d), durationS / 10, Progress.silent()).metrics();
                    fc.append(f);
                    dc.append(d * 1e6);
                    mq.append(m.meanQueueBytes() / 1000);
                    sw.append((m.maxQueueBytes() - m.minQueueBytes()) / 1000);
                    ut.append(m.utilisation());
                    progress.step();
                }
            }
        }
        return Table.create("DCQCN oscillation sweep", fc, dc, mq, sw, ut);
    }

    /**
     * DCQCN with and without iQCN (003 section 4.2.5; {@link DcqcnFluidModel#withIqcn(boolean)}) for
     * each flow count N: N flows start together at line rate into the empty queue (a synchronised
     * burst, e.g. the start of an all-to-all phase) and run for {@code durationS} with a 1 us step
     * (or tau* if smaller). Also reports the mean interval between a flow's CNPs at the DCQCN fixed
     * point without iQCN, tau / a with a = 1 - (1 - p*)^(tau C/N) ({@link DcqcnFixedPoint}); iQCN
     * only acts where that interval exceeds the timer T.
     *
     * @param params DCQCN parameters, not null
     * @param port bottleneck, not null
     * @param flows flow counts, each {@code >= 1}, non-empty
     * @param durationS simulated time per run [s], {@code > 0}
     * @param sink progress sink, not null
     * @return table with columns flows, iqcn, natural_cnp_interval_us (infinite if p* = 0),
     *         timer_us, peak_queue_kb (whole run), mean_queue_kb, max_queue_kb (second half),
     *         utilisation (second half), dropped_kb
     */
    public static Table iqcnComparison(DcqcnParameters params, Bottleneck port, int[] flows, double durationS,
                                       ProgressSink sink) {
        check(params, port, flows, new double[]{params == null ? 1 : params.feedbackDelayS()}, sink);
        Parameters.positive("durationS", durationS);
        IntColumn fc = IntColumn.create("flows");
        BooleanColumn ic = BooleanColumn.create("iqcn");
        DoubleColumn cnp = DoubleColumn.create("natural_cnp_interval_us");
        DoubleColumn timer = DoubleColumn.create("timer_us");
        DoubleColumn peak = DoubleColumn.create("peak_queue_kb");
        DoubleColumn mean = DoubleColumn.create("mean_queue_kb");
        DoubleColumn max = DoubleColumn.create("max_queue_kb");
        DoubleColumn ut = DoubleColumn.create("utilisation");
        DoubleColumn dr = DoubleColumn.create("dropped_kb");
        double step = Math.min(1e-6, params.feedbackDelayS());
        try (Progress progress = Progress.start("DCQCN with and without iQCN", 2L * flows.length, sink)) {
            for (int f : flows) {
                DcqcnFixedPoint fp = DcqcnFixedPoint.solve(params, port, f);
                double r = port.lineRatePps() / f;
                double a = -Math.expm1(params.tauS() * r * Math.log1p(-Math.min(1, fp.markingProbability())));
                double interval = a > 0 ? params.tauS() / a : Double.POSITIVE_INFINITY;
                for (boolean on : new boolean[]{false, true}) {
                    FluidMetrics m = DcqcnFluidModel.of(params, port, f).withIqcn(on)
                            .simulate(durationS, step, durationS / 10, Progress.silent()).metrics();
                    fc.append(f);
                    ic.append(on);
                    cnp.append(interval * 1e6);
                    timer.append(params.timerS() * 1e6);
                    peak.append(m.peakQueueBytes() / 1000);
                    mean.append(m.meanQueueBytes() / 1000);
                    max.append(m.maxQueueBytes() / 1000);
                    ut.append(m.utilisation());
                    dr.append(m.droppedBytes() / 1000);
                    progress.step();
                }
            }
        }
        return Table.create("DCQCN with and without iQCN", fc, ic, cnp, timer, peak, mean, max, ut, dr);
    }

    private static void check(DcqcnParameters params, Bottleneck port, int[] flows, double[] delaysS,
                              ProgressSink sink) {
        Parameters.notNull("params", params);
        Parameters.notNull("port", port);
        Parameters.notNull("flows", flows);
        Parameters.notNull("delaysS", delaysS);
        Parameters.notNull("sink", sink);
        if (flows.length == 0) {
            throw new IllegalArgumentException("flows must not be empty");
        }
        if (delaysS.length == 0) {
            throw new IllegalArgumentException("delaysS must not be empty");
        }
        for (int i = 0; i < flows.length; i++) {
            Parameters.atLeast("flows[" + i + "]", flows[i], 1);
        }
        for (int i = 0; i < delaysS.length; i++) {
            Parameters.positive("delaysS[" + i + "]", delaysS[i]);
        }
    }
}
