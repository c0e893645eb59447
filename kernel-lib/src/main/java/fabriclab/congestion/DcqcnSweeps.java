package fabriclab.congestion;

import fabriclab.Parameters;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.sweep.Columns;
import fabriclab.sweep.Sweep;
import java.util.ArrayList;
import java.util.List;
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

    /** One point of a sweep: a flow count and, where the sweep has one, a feedback delay [s] or iQCN on/off. */
    private record Point(int flows, double delayS, boolean iqcn) {
    }

    /** A point and the model's answer there. */
    private record Row<T>(Point point, T value) {
    }

    private static List<Point> grid(int[] flows, double[] delaysS) {
        List<Point> points = new ArrayList<>();
        for (int f : flows) {
            for (double d : delaysS) {
                points.add(new Point(f, d, false));
            }
        }
        return points;
    }

    private static final Columns<Row<DcqcnStability>> STABILITY = Columns.<Row<DcqcnStability>>of()
            .intColumn("flows", "count", r -> r.point().flows())
            .doubleColumn("delay_us", "us", r -> r.point().delayS() * 1e6)
            .doubleColumn("phase_margin_deg", "deg", r -> r.value().phaseMarginDeg())
            .doubleColumn("crossover_rad_s", "rad/s", r -> r.value().crossoverRadPerS())
            .doubleColumn("fixed_queue_kb", "KB", r -> r.value().fixedPoint().queueBytes() / 1000)
            .doubleColumn("fixed_p", "probability", r -> r.value().fixedPoint().markingProbability())
            .booleanColumn("on_ramp", "", r -> r.value().onRamp());

    /**
     * Phase margin for every (N, tau*) pair, one {@link Sweep} point each (in the order flows, then delay).
     *
     * @param params DCQCN parameters (tau* replaced by each delay), not null
     * @param port bottleneck, not null
     * @param flows flow counts, each {@code >= 1}, non-empty
     * @param delaysS feedback delays [s], each {@code > 0}, non-empty
     * @param sink progress sink, not null
     * @return table with columns flows, delay_us, phase_margin_deg, crossover_rad_s, fixed_queue_kb,
     *         fixed_p, on_ramp
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static Table stability(DcqcnParameters params, Bottleneck port, int[] flows, double[] delaysS,
                                  ProgressSink sink) throws InterruptedException {
        check(params, port, flows, delaysS, sink);
        List<Row<DcqcnStability>> rows = Sweep.run("DCQCN phase margin sweep", grid(flows, delaysS),
                p -> new Row<>(p, DcqcnStability.analyse(params.withFeedbackDelay(p.delayS()), port, p.flows())), 1, sink);
        return STABILITY.table("DCQCN stability sweep", rows);
    }

    private static final Columns<Row<FluidMetrics>> OSCILLATION = Columns.<Row<FluidMetrics>>of()
            .intColumn("flows", "count", r -> r.point().flows())
            .doubleColumn("delay_us", "us", r -> r.point().delayS() * 1e6)
            .doubleColumn("mean_queue_kb", "KB", r -> r.value().meanQueueBytes() / 1000)
            .doubleColumn("queue_swing_kb", "KB", r -> (r.value().maxQueueBytes() - r.value().minQueueBytes()) / 1000)
            .doubleColumn("utilisation", "fraction", r -> r.value().utilisation());

    /**
     * Simulated queue oscillation for every (N, tau*) pair, one {@link Sweep} point each (in the order
     * flows, then delay): each run lasts {@code durationS} with a 1 us step (or tau* if smaller),
     * statistics over its second half.
     *
     * @return table with columns flows, delay_us, mean_queue_kb, queue_swing_kb (max - min),
     *         utilisation
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static Table oscillation(DcqcnParameters params, Bottleneck port, int[] flows, double[] delaysS,
                                    double durationS, ProgressSink sink) throws InterruptedException {
        check(params, port, flows, delaysS, sink);
        double smallestStep = 1e-6;
        for (double d : delaysS) {
            smallestStep = Math.min(smallestStep, d);
        }
        checkDuration(durationS, smallestStep);
        List<Row<FluidMetrics>> rows = Sweep.run("DCQCN oscillation sweep", grid(flows, delaysS),
                p -> new Row<>(p, DcqcnFluidModel.of(params.withFeedbackDelay(p.delayS()), port, p.flows())
                        .simulate(durationS, Math.min(1e-6, p.delayS()), durationS / 10, Progress.silent()).metrics()), 1, sink);
        return OSCILLATION.table("DCQCN oscillation sweep", rows);
    }

    /**
     * DCQCN with and without iQCN (003 section 4.2.5; {@link DcqcnFluidModel#withIqcn(boolean)}) for
     * each flow count N: N flows start together at line rate into the empty queue (a synchronised
     * burst, e.g. the start of an all-to-all phase) and run for {@code durationS} with a 1 us step
     * (or tau* if smaller). Also reports the mean interval between a flow's CNPs at the DCQCN fixed
     * point without iQCN, tau / a with a = 1 - (1 - p*)^(tau C/N) ({@link DcqcnFixedPoint}); iQCN
     * only acts where that interval exceeds the timer T. One {@link Sweep} point per (N, iQCN off/on).
     *
     * @param params DCQCN parameters, not null
     * @param port bottleneck, not null
     * @param flows flow counts, each {@code >= 1}, non-empty
     * @param durationS simulated time per run [s], {@code > 0}
     * @param sink progress sink, not null
     * @return table with columns flows, iqcn, natural_cnp_interval_us (infinite if p* = 0),
     *         timer_us, peak_queue_kb (whole run), mean_queue_kb, max_queue_kb (second half),
     *         utilisation (second half), dropped_kb
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static Table iqcnComparison(DcqcnParameters params, Bottleneck port, int[] flows, double durationS,
                                       ProgressSink sink) throws InterruptedException {
        check(params, port, flows, new double[]{params == null ? 1 : params.feedbackDelayS()}, sink);
        double step = Math.min(1e-6, params.feedbackDelayS());
        checkDuration(durationS, step);
        List<Point> points = new ArrayList<>();
        for (int f : flows) {
            for (boolean on : new boolean[]{false, true}) {
                points.add(new Point(f, params.feedbackDelayS(), on));
            }
        }
        List<Row<FluidMetrics>> rows = Sweep.run("DCQCN with and without iQCN", points,
                p -> new Row<>(p, DcqcnFluidModel.of(params, port, p.flows()).withIqcn(p.iqcn())
                        .simulate(durationS, step, durationS / 10, Progress.silent()).metrics()), 1, sink);
        Columns<Row<FluidMetrics>> columns = Columns.<Row<FluidMetrics>>of()
                .intColumn("flows", "count", r -> r.point().flows())
                .booleanColumn("iqcn", "", r -> r.point().iqcn())
                .doubleColumn("natural_cnp_interval_us", "us", r -> naturalCnpIntervalS(params, port, r.point().flows()) * 1e6)
                .doubleColumn("timer_us", "us", r -> params.timerS() * 1e6)
                .doubleColumn("peak_queue_kb", "KB", r -> r.value().peakQueueBytes() / 1000)
                .doubleColumn("mean_queue_kb", "KB", r -> r.value().meanQueueBytes() / 1000)
                .doubleColumn("max_queue_kb", "KB", r -> r.value().maxQueueBytes() / 1000)
                .doubleColumn("utilisation", "fraction", r -> r.value().utilisation())
                .doubleColumn("dropped_kb", "KB", r -> r.value().droppedBytes() / 1000);
        return columns.table("DCQCN with and without iQCN", rows);
    }

    /** Mean interval between a flow's CNPs at the fixed point without iQCN [s], infinite if p* = 0. */
    private static double naturalCnpIntervalS(DcqcnParameters params, Bottleneck port, int flows) {
        DcqcnFixedPoint fp = DcqcnFixedPoint.solve(params, port, flows);
        double r = port.lineRatePps() / flows;
        double a = -Math.expm1(params.tauS() * r * Math.log1p(-Math.min(1, fp.markingProbability())));
        return a > 0 ? params.tauS() / a : Double.POSITIVE_INFINITY;
    }

    /**
     * The simulated time of a sweep's runs, which sample every durationS / 10 with a step of
     * min(1 us, tau*): at least 10 steps, at most 2e9 (the fluid models' limit).
     */
    private static void checkDuration(double durationS, double stepS) {
        Parameters.inRange("durationS", durationS, 10 * stepS, 2e9 * stepS);
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
            if (port.pfc() == null && params.minRateBitsPerSecond() * flows[i] >= port.lineRateBitsPerSecond()) {
                // the fluid model's own check, named here for the caller's array
                throw new IllegalArgumentException("flows[" + i + "] times params.minRateBitsPerSecond ("
                        + params.minRateBitsPerSecond() + ") must be below port.lineRateBitsPerSecond ("
                        + port.lineRateBitsPerSecond() + ") when PFC is off, got " + flows[i]);
            }
        }
        for (int i = 0; i < delaysS.length; i++) {
            Parameters.positive("delaysS[" + i + "]", delaysS[i]);
        }
    }
}
