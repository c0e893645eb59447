package fabriclab.congestion;

import fabriclab.Parameters;
import fabriclab.congestion.dde.DdeSolver;
import fabriclab.congestion.dde.DelaySystem;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.fabric.Incast;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * The DCQCN fluid model of Zhu et al. (SIGCOMM 2015, section 5) in the per-flow form of Zhu,
 * Ghobadi, Misra and Padhye (CoNEXT 2016), for classes of identical flows sharing one bottleneck,
 * with optional PFC. DCQCN is RoCE's congestion control (000 section 1.2.2; 001; 003 DCQCN section).
 *
 * <p>Per flow of class i, with p = marking probability of the queue at t - tau* and
 * R = R_C(t - tau*) (the rate at which the flow's packets were being marked), using the terms of
 * {@link DcqcnRates}:
 * <pre>
 *   dR_C/dt   = -R_C alpha a / (2 tau) + (R_T - R_C) R (b + d) / 2
 *   dR_T/dt   = -(R_T - R_C) a / tau + R_AI R (c + e)
 *   dalpha/dt = (g / tau') ((1 - (1-p)^(tau' R)) - alpha)
 *   dq/dt     = sum_i N_i R_C,i - C          (q >= 0)
 * </pre>
 * Rates are in packets per second and the queue in packets inside the model; inputs and outputs
 * are in bit/s and bytes. Rates are kept in [minRate, C] (line rate cap), alpha in [0, 1], the
 * queue in [0, buffer] (the excess is counted as dropped).
 *
 * <p>A flow's wire rate is {@code min(R_C, hosts * C / N)} ({@link FlowClass#wireRateCap}): queue
 * pairs sharing a NIC cannot together exceed its line rate. That wire rate is what reaches the
 * queue and what is marked (R above).
 *
 * <p>Symmetric aggregation: a class of N flows is integrated once (flows that start identical and
 * see identical feedback stay identical), so 7,000 flows cost what one flow costs. A class starts
 * at its {@link FlowClass#startS()} at line rate with R_C = R_T and alpha = 1 (DCQCN's initial state),
 * or in the state {@link #withClassStart} gives it.
 *
 * <p>Initial state and defaults, beside what the cited papers use:
 * <ul>
 *   <li>Rates at the start: line rate, R_C = R_T, alpha = 1 (as DCQCN and Zhu et al. 2015);
 *   {@link #withClassStart} sets R_C, R_T and alpha per class (R_C != R_T allowed), {@link #startingAt}
 *   one rate for every class.</li>
 *   <li>Queue at t = 0: empty (as the papers); {@link #withInitialQueue}.</li>
 *   <li>Before t = 0: {@link History#SILENT} (rates and queue 0), the default, so the marking and the
 *   rate increase see no traffic during the first tau*; the DCQCN authors' fluid-model code holds
 *   the initial state (line rate) before t = 0 instead, {@link History#CONSTANT}. The two differ only
 *   in the first tau* (then each sees the model's own past): with CONSTANT the flows are marked and
 *   counted from t = 0 on.</li>
 *   <li>Buffer: {@link Bottleneck#of} gives 32 MB, the papers' fluid models have none: with many flows
 *   starting at line rate the queue is capped there (64 flows at 40 Gb/s: the authors' model peaks
 *   above 32 MB, this one at 32 MB, 43% lower in an outside comparison); use
 *   {@link Bottleneck#withBuffer} with a large value to compare.</li>
 *   <li>Rate floor: {@link DcqcnParameters#zhu2015()} has a 1 Mb/s floor the paper's model does not
 *   have (its rates may approach 0); pass 0 as {@code minRateBitsPerSecond} for the paper's model.</li>
 * </ul>
 *
 * <p>PFC (optional, {@link Bottleneck#pfc()}): from the step at which the queue reaches XOFF
 * ({@link fabriclab.fabric.Pfc#pausesAt}) until the step at which it falls below XON
 * ({@link fabriclab.fabric.Pfc#resumesAt}) all senders are paused: they put nothing on the wire,
 * and their packets are neither marked nor counted by the byte counter (R above is multiplied by
 * the delayed "sending" indicator).
 * DCQCN's timers keep running during a pause, as in the NIC. The pause acts instantly.
 *
 * <p>iQCN (optional, off by default; 003 section 4.2.5, figure 28). A switch with iQCN remembers,
 * per flow, when it last forwarded a CNP; while its port is congested it compares the time since
 * that CNP with the sender NIC's rate-increase timer T and, if the gap exceeds T, sends a
 * compensating CNP itself, so that the NIC cannot raise its rate for want of feedback. Fluid
 * translation ({@link #withIqcn(boolean)}), applied only while the queue seen by the flow's packets
 * (the delayed queue q(t - tau*), the same one the marking uses) is strictly above Kmin:
 * <ul>
 *   <li>CNP event rate. Without iQCN the fluid model's CNP stream is slotted: in each CNP
 *   interval tau the notification point sends one CNP with probability a = 1 - (1-p)^(tau R), so
 *   the CNP rate is a / tau and the gap between CNPs is K tau with K geometric (P(K = k) =
 *   a (1-a)^(k-1)). With iQCN the switch sends a CNP as soon as the gap reaches T, so gaps become
 *   min(K tau, T). Assuming the tau slots restart at each CNP (renewal), the CNP rate is
 *   lambda = 1 / E[min(K tau, T)], with m = floor(T / tau):
 *   E[min(K tau, T)] = tau sum_{k=1..m} k a (1-a)^(k-1) + T (1-a)^m.
 *   lambda is 1/T at a = 0, never below max(a / tau, 1/T), and 1/tau at
 *   a = 1 when tau &lt;= T (natural CNPs already every tau: iQCN adds nothing). lambda replaces
 *   a / tau in the R_C and R_T decrease terms.</li>
 *   <li>Rate-increase timer. Every CNP resets the NIC's timer and no CNP gap exceeds T, so the
 *   timer never expires: the timer terms R d, R e are set to 0 (the compensating CNP is assumed to
 *   win the race against the timer, the loop delay tau* being ignored for this race).</li>
 *   <li>Alpha. The NIC raises alpha in an alpha period tau' that contained a CNP. A periodic CNP
 *   every T falls in a window tau' with probability min(1, tau'/T), so the model's a' becomes
 *   max(a', min(1, tau'/T)) (a conservative combination: the larger of the two sources).</li>
 *   <li>Byte counter. Left unchanged (R b, R c as without iQCN): an approximation which ignores
 *   the extra byte-counter resets; it matters only when B is reached within T, i.e. R T &gt; B
 *   (for the Zhu 2015 defaults B = 10 MB, R T &lt;= 687 KB at 100 Gb/s, so never).</li>
 * </ul>
 * With the queue at or below Kmin nothing changes; with iQCN off the code path is skipped and the
 * trajectory is the same, bit for bit, as without the option.
 *
 * <p>Integrated by the method of steps with {@link DdeSolver}: fixed-step RK4 by default (the step must
 * not exceed tau*), or the adaptive Dormand-Prince 5(4) solver with error control through
 * {@link #simulate(double, DdeSolver, double, ProgressSink)}. Immutable; {@link #simulate} may be
 * called concurrently.
 */
public final class DcqcnFluidModel {
    private final DcqcnParameters params;
    private final Bottleneck port;
    private final List<FlowClass> classes;
    private final double initialRateBitsPerSecond; // <= 0: start at the wire-rate cap
    private final boolean iqcn;
    private final List<ClassStart> starts; // per class, null: the default start (line rate or startingAt, alpha 1)
    private final double initialQueueBytes;
    private final History history;

    /**
     * @param params DCQCN parameters, not null
     * @param port the bottleneck, not null
     * @param classes the flow classes, at least one, labels distinct
     */
    public DcqcnFluidModel(DcqcnParameters params, Bottleneck port, List<FlowClass> classes) {
        this(params, port, classes, 0.0, false, null, 0.0, History.SILENT);
    }

    private DcqcnFluidModel(DcqcnParameters params, Bottleneck port, List<FlowClass> classes, double initialRateBitsPerSecond,
                            boolean iqcn, List<ClassStart> starts, double initialQueueBytes, History history) {
        this.initialRateBitsPerSecond = initialRateBitsPerSecond;
        this.iqcn = iqcn;
        this.starts = starts == null ? java.util.Collections.nCopies(classes == null ? 0 : classes.size(), null)
                : java.util.Collections.unmodifiableList(new ArrayList<>(starts));
        this.initialQueueBytes = initialQueueBytes;
        this.history = history;
        this.params = Parameters.notNull("params", params);
        this.port = Parameters.notNull("port", port);
        this.classes = FlowClass.checkedList(classes);
        // the fluid terms stay finite only within these (beyond them the event rates overflow a double)
        if (params.byteCounterBytes() < port.packetBytes()) {
            throw new IllegalArgumentException("params.byteCounterBytes must be at least one packet (port.packetBytes = "
                    + port.packetBytes() + " B): the NIC counts whole packets, got " + params.byteCounterBytes());
        }
        if (params.rateAiBitsPerSecond() > port.lineRateBitsPerSecond()) {
            throw new IllegalArgumentException("port.lineRateBitsPerSecond must be at least the additive-increase step "
                    + "params.rateAiBitsPerSecond (" + params.rateAiBitsPerSecond() + " bit/s), got " + port.lineRateBitsPerSecond());
        }
        if (params.minRateBitsPerSecond() * classes.stream().mapToLong(FlowClass::multiplicity).sum() >= port.lineRateBitsPerSecond()
                && port.pfc() == null) {
            // allowed (the queue then only drains through drops), but worth a clear failure: it is
            // almost always a unit mistake
            throw new IllegalArgumentException("params.minRateBitsPerSecond times the number of flows must be below "
                    + "the line rate when PFC is off, got " + params.minRateBitsPerSecond());
        }
    }

    /** N identical flows starting at 0 (one class). */
    public static DcqcnFluidModel of(DcqcnParameters params, Bottleneck port, int flows) {
        Parameters.atLeast("flows", flows, 1);
        return new DcqcnFluidModel(params, port, List.of(FlowClass.of(flows)));
    }

    /**
     * The DCQCN fluid model of an incast: one class of {@code senders * qpsPerSender} queue pairs
     * labelled "incast" spread over the senders' NICs, or, with a stagger, one class per sender
     * ({@link FlowClass#incast(String, Incast)}), into the incast's receiver port. Every queue pair is
     * backlogged for the whole run (the model has no finite messages).
     *
     * @param params DCQCN parameters, not null
     * @param port the receiver's port, line rate equal to {@code incast.receiverRateBitsPerSecond()}
     * @param incast the incast; its sender rate must equal the receiver's (the model's NICs run at the
     *               bottleneck's line rate)
     */
    public static DcqcnFluidModel incast(DcqcnParameters params, Bottleneck port, Incast incast) {
        return new DcqcnFluidModel(params, port, FlowClass.forIncast(port, incast));
    }

    /** The parameters. */
    public DcqcnParameters params() {
        return params;
    }

    /** The bottleneck. */
    public Bottleneck port() {
        return port;
    }

    /** The flow classes. */
    public List<FlowClass> classes() {
        return classes;
    }

    /**
     * A copy in which every class starts at {@code bps} per flow (still capped by its wire-rate
     * cap) instead of at line rate; DCQCN state otherwise as at a flow start. Useful to study the
     * recovery after a rate cut and for tests of the increase laws.
     *
     * @param bps initial per-flow rate [bit/s], {@code > 0}
     */
    public DcqcnFluidModel startingAt(double bps) {
        Parameters.positive("bps", bps);
        return new DcqcnFluidModel(params, port, classes, bps, iqcn, starts, initialQueueBytes, history);
    }

    /**
     * A copy with iQCN switched on or off (003 section 4.2.5; the fluid translation is in the class
     * comment: CNP rate 1 / E[min(K tau, T)] instead of a / tau, no timer expiries and alpha input
     * at least min(1, tau'/T), while the delayed queue is above Kmin).
     *
     * @param on true to let the switch send compensating CNPs
     */
    public DcqcnFluidModel withIqcn(boolean on) {
        return new DcqcnFluidModel(params, port, classes, initialRateBitsPerSecond, on, starts, initialQueueBytes, history);
    }

    /** Whether iQCN is on (false unless {@link #withIqcn(boolean)} set it). */
    public boolean iqcn() {
        return iqcn;
    }

    /**
     * The DCQCN state of every flow of a class when the class starts (at t = 0, or at its
     * {@link FlowClass#startS()}): current rate R_C, target rate R_T and alpha. DCQCN itself starts a
     * flow at line rate with R_C = R_T and alpha = 1, the model's default; a start with R_C != R_T is
     * a flow caught in the middle of a recovery (the state the DCQCN authors' fluid-model code can be
     * started from).
     *
     * @param currentRateBitsPerSecond R_C [bit/s], finite, from the parameters' rate floor to the line rate
     *        (checked by {@link #withClassStart})
     * @param targetRateBitsPerSecond R_T [bit/s], in the same range
     * @param alpha the congestion estimate, in [0, 1]
     */
    public record ClassStart(double currentRateBitsPerSecond, double targetRateBitsPerSecond, double alpha) {
        /** Validates the fields that need no bottleneck: rates finite and not negative, alpha in [0, 1]. */
        public ClassStart {
            Parameters.nonNegative("currentRateBitsPerSecond", currentRateBitsPerSecond);
            Parameters.nonNegative("targetRateBitsPerSecond", targetRateBitsPerSecond);
            Parameters.inRange("alpha", alpha, 0, 1);
        }
    }

    /**
     * What the delayed terms see before t = 0 (they look back by the feedback delay tau*, so this
     * matters during the first tau*).
     */
    public enum History {
        /**
         * Nothing was sent before t = 0: rates, alpha and queue 0 (the senders not paused). The
         * model's default: the marking and the rate increase see no traffic during the first tau*.
         */
        SILENT,
        /**
         * The state at t = 0 held for all earlier times: the flows were already sending at their
         * initial rates (line rate by default) into the initial queue, as the DCQCN authors' fluid-model
         * code starts. A class that starts later still has rate 0 before its start.
         */
        CONSTANT
    }

    /**
     * A copy in which every flow of class {@code label} starts in {@code start} instead of the default
     * (line rate or {@link #startingAt}, R_C = R_T, alpha = 1). The rates are per flow, before the
     * wire-rate cap ({@link FlowClass#wireRateCap}) is applied to what reaches the queue.
     *
     * @param label a class label of this model
     * @param start the state, rates from {@code params.minRateBitsPerSecond} to {@code port.lineRateBitsPerSecond}
     */
    public DcqcnFluidModel withClassStart(String label, ClassStart start) {
        Parameters.notNull("label", label);
        Parameters.notNull("start", start);
        int i = 0;
        while (i < classes.size() && !classes.get(i).label().equals(label)) {
            i++;
        }
        if (i == classes.size()) {
            throw new IllegalArgumentException("label must be one of the classes' labels "
                    + classes.stream().map(FlowClass::label).toList() + ", got \"" + label + "\"");
        }
        double lo = params.minRateBitsPerSecond();
        double hi = port.lineRateBitsPerSecond();
        Parameters.inRange("start.currentRateBitsPerSecond", start.currentRateBitsPerSecond(), lo, hi);
        Parameters.inRange("start.targetRateBitsPerSecond", start.targetRateBitsPerSecond(), lo, hi);
        List<ClassStart> copy = new ArrayList<>(starts);
        copy.set(i, start);
        return new DcqcnFluidModel(params, port, classes, initialRateBitsPerSecond, iqcn, copy, initialQueueBytes, history);
    }

    /** The start state of each class (in class order; null where the default start applies). */
    public List<ClassStart> classStarts() {
        return starts;
    }

    /**
     * A copy whose queue holds {@code bytes} at t = 0 (default 0). With PFC, a queue at or above XOFF
     * starts paused.
     *
     * @param bytes initial queue [bytes], from 0 to {@code port.bufferBytes}
     */
    public DcqcnFluidModel withInitialQueue(double bytes) {
        Parameters.inRange("bytes", bytes, 0, port.bufferBytes());
        return new DcqcnFluidModel(params, port, classes, initialRateBitsPerSecond, iqcn, starts, bytes, history);
    }

    /** The queue at t = 0 [bytes]. */
    public double initialQueueBytes() {
        return initialQueueBytes;
    }

    /**
     * A copy with another history before t = 0 (default {@link History#SILENT}).
     *
     * @param h the history, not null
     */
    public DcqcnFluidModel withHistory(History h) {
        Parameters.notNull("h", h);
        return new DcqcnFluidModel(params, port, classes, initialRateBitsPerSecond, iqcn, starts, initialQueueBytes, h);
    }

    /** The history before t = 0. */
    public History history() {
        return history;
    }

    /**
     * The CNP event rate per flow with iQCN [1/s]: lambda = 1 / E[min(K tau, T)], K geometric with
     * success probability a (a CNP in a CNP interval tau), i.e. the renewal rate of the fluid
     * model's slotted CNP stream truncated at the timer T (class comment). 1/T at a = 0; 1/tau at
     * a = 1 if tau &lt;= T; always at least max(a / tau, 1/T).
     *
     * @param cnpProbability a, probability of a CNP in one interval tau, in [0, 1]
     * @param tauS CNP interval tau [s], {@code > 0}
     * @param timerS rate-increase timer T [s], {@code > 0}
     */
    public static double iqcnCnpRate(double cnpProbability, double tauS, double timerS) {
        Parameters.inRange("cnpProbability", cnpProbability, 0.0, 1.0);
        Parameters.positive("tauS", tauS);
        Parameters.positive("timerS", timerS);
        return cnpRate(cnpProbability, tauS, timerS);
    }

    /** 1 / (tau sum_{k=1..m} k a (1-a)^(k-1) + T (1-a)^m), m = floor(T / tau). */
    private static double cnpRate(double a, double tau, double timer) {
        long m = (long) Math.floor(timer / tau);
        double survive = 1.0; // (1-a)^(k-1)
        double gap = 0;
        for (long k = 1; k <= m && survive > 0; k++) {
            gap += tau * k * a * survive;
            survive *= 1 - a;
            if (survive < 1e-300) {
                survive = 0;
            }
        }
        gap += timer * survive;
        return 1 / gap;
    }

    /**
     * Runs the model from t = 0 for {@code durationS} with the fixed-step RK4 solver (the same as
     * {@code simulate(durationS, DdeSolver.rk4(stepS), sampleEveryS, sink)}).
     *
     * @param durationS simulated time [s], {@code > 0}
     * @param stepS RK4 step [s], {@code > 0}, at most the feedback delay tau* and at most the shortest
     *        DCQCN period min(tau, tau', T)
     * @param sampleEveryS spacing of the trajectory rows [s], {@code >= stepS}, and large enough that the rows hold at most
     *        {@link FluidRun#MAX_TRAJECTORY_VALUES} values
     * @param sink progress sink (use {@link Progress#silent()} in tests), not null
     * @return trajectory and metrics
     */
    public FluidRun simulate(double durationS, double stepS, double sampleEveryS, ProgressSink sink) {
        Parameters.positive("durationS", durationS);
        Parameters.positive("stepS", stepS);
        return run(durationS, DdeSolver.rk4(stepS), "stepS", sampleEveryS, sink);
    }

    /**
     * Runs the model from t = 0 for {@code durationS} with {@code solver}: {@link DdeSolver#rk4} (fixed
     * step, the default of {@link #simulate(double, double, double, ProgressSink)}) or
     * {@link DdeSolver#adaptive} (Dormand-Prince 5(4) with error control, on intervals of tau*).
     *
     * <p>With the adaptive solver the state is in the model's internal units (rates in packets per
     * second, alpha, queue in packets), so {@code relTol} is what controls the accuracy of the rates;
     * the clamps (rate floor and line rate, alpha in [0, 1], the buffer) and PFC act at the ends of the
     * tau* intervals only; the queue's floor at 0 acts inside them, in the derivative and in the solver's
     * steps ({@link fabriclab.congestion.dde.DelaySystem#nonNegative}); the trajectory
     * rows are the first accepted states at or after each multiple of {@code sampleEveryS}, and the
     * metrics weigh each accepted state by the time since the previous one.
     *
     * @param durationS simulated time [s], {@code > 0}
     * @param solver the solver, not null; a fixed step must satisfy the limits of
     *        {@link #simulate(double, double, double, ProgressSink)}
     * @param sampleEveryS spacing of the trajectory rows [s], {@code > 0} (and at least the fixed step), and large enough
     *        that the rows hold at most {@link FluidRun#MAX_TRAJECTORY_VALUES} values
     * @param sink progress sink, not null
     * @return trajectory and metrics
     */
    public FluidRun simulate(double durationS, DdeSolver solver, double sampleEveryS, ProgressSink sink) {
        Parameters.positive("durationS", durationS);
        Parameters.notNull("solver", solver);
        return run(durationS, solver, "solver.step", sampleEveryS, sink);
    }

    private FluidRun run(double durationS, DdeSolver solver, String stepName, double sampleEveryS, ProgressSink sink) {
        boolean fixed = solver.isFixedStep();
        double stepS = fixed ? solver.step() : 0;
        if (fixed) {
            if (stepS > params.feedbackDelayS() * (1 + 1e-12)) {
                throw new IllegalArgumentException(stepName + " must be <= the feedback delay tau* ("
                        + params.feedbackDelayS() + " s), got " + stepS);
            }
            double shortestPeriod = Math.min(params.tauS(), Math.min(params.tauPrimeS(), params.timerS()));
            if (stepS > shortestPeriod) {
                throw new IllegalArgumentException(stepName + " must be <= the shortest DCQCN period min(params.tauS, "
                        + "params.tauPrimeS, params.timerS) = " + shortestPeriod + " s (a step spanning several CNP, alpha "
                        + "or timer periods overflows the event-rate terms), got " + stepS);
            }
        }
        Parameters.positive("sampleEveryS", sampleEveryS);
        if (sampleEveryS < stepS) {
            throw new IllegalArgumentException("sampleEveryS must be >= " + stepName + " (" + stepS + "), got " + sampleEveryS);
        }
        Parameters.notNull("sink", sink);
        if (fixed && durationS / stepS > 2e9) {
            throw new IllegalArgumentException("durationS / " + stepName + " must be at most 2e9 steps, got " + durationS / stepS);
        }
        FluidRun.checkTrajectorySize(durationS, sampleEveryS, 3 * classes.size() + 4);
        Dynamics sys = new Dynamics();
        int m = classes.size();
        double pktBits = 8 * port.packetBytes();
        long sampleEvery = fixed ? Math.max(1, Math.round(sampleEveryS / stepS)) : 0;
        List<List<Double>> cols = new ArrayList<>();
        int ncol = 3 * m + 4;
        for (int k = 0; k < ncol; k++) {
            cols.add(new ArrayList<>());
        }
        MetricsAccumulator acc = new MetricsAccumulator(port, classes, durationS);
        double[] rates = new double[m];
        double lag = params.feedbackDelayS();
        long total = fixed ? (long) Math.ceil(durationS / stepS - 1e-9) : (long) Math.ceil(durationS / lag - 1e-9);
        long[] count = {0};
        double[] last = {0, 0, 0}; // adaptive: time of the previous state, next row time, intervals reported
        try (Progress progress = Progress.start("DCQCN fluid model", total, sink)) {
            solver.solve(sys, 0.0, sys.history(), durationS, (t, y) -> {
                boolean paused = y[3 * m + 1] < 0.5;
                double qBytes = y[3 * m] * port.packetBytes();
                for (int i = 0; i < m; i++) {
                    rates[i] = paused ? 0 : Math.min(y[3 * i], sys.cap[i]) * pktBits;
                }
                boolean row;
                if (fixed) {
                    acc.add(t, count[0] == 0 ? 0 : stepS, qBytes, rates, paused);
                    row = count[0] % sampleEvery == 0;
                } else {
                    acc.add(t, t - last[0], qBytes, rates, paused);
                    last[0] = t;
                    row = count[0] == 0 || t >= last[1] * (1 - 1e-12);
                    while (last[1] <= t * (1 + 1e-12)) {
                        last[1] += sampleEveryS;
                    }
                }
                if (row) {
                    int c = 0;
                    cols.get(c++).add(t * 1e6);
                    for (int i = 0; i < m; i++) {
                        cols.get(c++).add(y[3 * i] * pktBits / 1e9);
                        cols.get(c++).add(y[3 * i + 1] * pktBits / 1e9);
                        cols.get(c++).add(y[3 * i + 2]);
                    }
                    cols.get(c++).add(qBytes / 1000);
                    cols.get(c++).add(params.marking().probabilityUnchecked(qBytes));
                    cols.get(c).add(paused ? 1.0 : 0.0);
                }
                if (fixed) {
                    if (count[0] > 0 && count[0] % 4096 == 0) {
                        progress.advance(4096);
                    }
                } else {
                    long done = Math.min(total, (long) Math.floor(t / lag + 1e-9));
                    if (done > last[2]) {
                        progress.advance(done - (long) last[2]);
                        last[2] = done;
                    }
                }
                count[0]++;
            });
        } catch (org.apache.commons.math3.exception.MathIllegalArgumentException
                 | org.apache.commons.math3.exception.MathIllegalStateException e) {
            throw new IllegalArgumentException("solver could not meet its tolerances on this model (" + e.getMessage()
                    + "); loosen absTol or relTol, or use DdeSolver.rk4", e);
        }
        Table table = Table.create("DCQCN fluid model");
        int c = 0;
        table.addColumns(column("time_us", cols.get(c++)));
        for (FlowClass fc : classes) {
            table.addColumns(column("rate_" + fc.label() + "_gbps", cols.get(c++)));
            table.addColumns(column("target_" + fc.label() + "_gbps", cols.get(c++)));
            table.addColumns(column("alpha_" + fc.label(), cols.get(c++)));
        }
        table.addColumns(column("queue_kb", cols.get(c++)));
        table.addColumns(column("marking_p", cols.get(c++)));
        table.addColumns(column("paused", cols.get(c)));
        return new FluidRun(table, acc.result(durationS, sys.droppedPackets * port.packetBytes()));
    }

    private static DoubleColumn column(String name, List<Double> values) {
        return DoubleColumn.create(name, values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** The DDE right-hand side; holds the discrete PFC state of one run. */
    private final class Dynamics implements DelaySystem {
        private final int m = classes.size();
        private final double c = port.lineRatePps();
        private final double pktBits = 8 * port.packetBytes();
        private final double minRate = Math.min(params.minRateBitsPerSecond() / pktBits, c);
        private final double rai = params.rateAiBitsPerSecond() / pktBits;
        private final double bPackets = params.byteCounterBytes() / port.packetBytes();
        private final double bufferPackets = port.bufferBytes() / port.packetBytes();
        private final double[] lags = {params.feedbackDelayS()};
        private final double kMinBytes = params.marking().kMinBytes();
        private final double alphaFloor = Math.min(1, params.tauPrimeS() / params.timerS());
        private final boolean[] active = new boolean[m];
        private final double[] cap = new double[m];
        private final double startRate = initialRateBitsPerSecond > 0 ? Math.min(c, initialRateBitsPerSecond / pktBits) : c;
        private final double[] startRc = new double[m];
        private final double[] startRt = new double[m];
        private final double[] startAlpha = new double[m];
        private final DcqcnRates[] rates = new DcqcnRates[m];
        private final double[] lastP = new double[m];
        private final double[] lastR = new double[m];
        private final double[] lambda = new double[m];
        private final double[] lastLambdaA = new double[m];
        private boolean paused;
        private double droppedPackets;

        @Override
        public int dimension() {
            return 3 * m + 2;
        }

        @Override
        public double[] lags() {
            return lags;
        }

        /** The queue, which the derivative holds at 0 while it is empty and would fall. */
        @Override
        public int[] nonNegative() {
            return new int[] {3 * m};
        }

        Dynamics() {
            for (int i = 0; i < m; i++) {
                cap[i] = classes.get(i).wireRateCap(c);
                ClassStart st = starts.get(i);
                startRc[i] = st == null ? startRate : st.currentRateBitsPerSecond() / pktBits;
                startRt[i] = st == null ? startRate : st.targetRateBitsPerSecond() / pktBits;
                startAlpha[i] = st == null ? 1.0 : st.alpha();
                rates[i] = new DcqcnRates();
                lastP[i] = Double.NaN;
                lastR[i] = Double.NaN;
                lastLambdaA[i] = Double.NaN;
            }
        }

        DoubleFunction<double[]> history() {
            double[] at0 = new double[dimension()];
            double[] before = new double[dimension()];
            for (int i = 0; i < m; i++) {
                if (classes.get(i).startS() <= 0) {
                    active[i] = true;
                    at0[3 * i] = startRc[i];
                    at0[3 * i + 1] = startRt[i];
                    at0[3 * i + 2] = startAlpha[i];
                }
            }
            at0[3 * m] = initialQueueBytes / port.packetBytes();
            paused = port.pfc() != null && port.pfc().pausesAt(initialQueueBytes);
            at0[3 * m + 1] = paused ? 0.0 : 1.0;
            before[3 * m + 1] = 1.0;
            double[] past = history == History.CONSTANT ? at0 : before;
            return t -> t < 0 ? past.clone() : at0.clone();
        }

        @Override
        public void derivative(double t, double[] y, double[][] delayed, double[] dydt) {
            double[] yd = delayed[0];
            double qBytes = Math.max(0, yd[3 * m]) * port.packetBytes();
            double p = params.marking().probabilityUnchecked(qBytes);
            double sending = Math.min(1, Math.max(0, yd[3 * m + 1]));
            double arrivals = 0;
            for (int i = 0; i < m; i++) {
                int k = 3 * i;
                if (!active[i]) {
                    dydt[k] = 0;
                    dydt[k + 1] = 0;
                    dydt[k + 2] = 0;
                    continue;
                }
                double rc = y[k];
                double rt = y[k + 1];
                double alpha = y[k + 2];
                double rDelayed = Math.min(Math.max(0, yd[k]), cap[i]) * sending;
                // the delayed inputs are the same for RK4's two mid-step stages and for the end-of-step
                // stage and the following step's first evaluation: reuse the event-rate terms
                DcqcnRates r = rates[i];
                if (p != lastP[i] || rDelayed != lastR[i]) {
                    r.compute(p, rDelayed, params.tauS(), params.tauPrimeS(), params.timerS(), bPackets,
                            params.fastRecoverySteps());
                    lastP[i] = p;
                    lastR[i] = rDelayed;
                }
                if (iqcn && qBytes > kMinBytes && rDelayed > 0) {
                    // iQCN: compensating CNPs keep every CNP gap <= T (class comment)
                    if (lastLambdaA[i] != r.a) {
                        lambda[i] = cnpRate(r.a, params.tauS(), params.timerS());
                        lastLambdaA[i] = r.a;
                    }
                    double lambda = this.lambda[i];
                    double aAlpha = Math.max(r.aAlpha, alphaFloor);
                    dydt[k] = -rc * alpha * lambda / 2 + (rt - rc) * r.rb / 2;
                    dydt[k + 1] = -(rt - rc) * lambda + rai * r.rc;
                    dydt[k + 2] = params.g() / params.tauPrimeS() * (aAlpha - alpha);
                } else {
                    dydt[k] = -rc * alpha * r.a / (2 * params.tauS()) + (rt - rc) * (r.rb + r.rd) / 2;
                    dydt[k + 1] = -(rt - rc) * r.a / params.tauS() + rai * (r.rc + r.re);
                    dydt[k + 2] = params.g() / params.tauPrimeS() * (r.aAlpha - alpha);
                }
                arrivals += classes.get(i).multiplicity() * Math.min(rc, cap[i]);
            }
            double s = Math.min(1, Math.max(0, y[3 * m + 1]));
            double dq = s * arrivals - c;
            dydt[3 * m] = (y[3 * m] <= 0 && dq < 0) ? 0 : dq;
            dydt[3 * m + 1] = 0;
        }

        @Override
        public void afterStep(double t, double[] y) {
            for (int i = 0; i < m; i++) {
                int k = 3 * i;
                if (!active[i]) {
                    if (t >= classes.get(i).startS() - 1e-15) {
                        active[i] = true;
                        y[k] = startRc[i];
                        y[k + 1] = startRt[i];
                        y[k + 2] = startAlpha[i];
                    }
                    continue;
                }
                y[k] = Math.min(c, Math.max(minRate, y[k]));
                y[k + 1] = Math.min(c, Math.max(minRate, y[k + 1]));
                y[k + 2] = Math.min(1, Math.max(0, y[k + 2]));
            }
            int q = 3 * m;
            if (y[q] < 0) {
                y[q] = 0;
            }
            if (y[q] > bufferPackets) {
                droppedPackets += y[q] - bufferPackets;
                y[q] = bufferPackets;
            }
            if (port.pfc() != null) {
                double qBytes = y[q] * port.packetBytes();
                if (!paused && port.pfc().pausesAt(qBytes)) {
                    paused = true;
                } else if (paused && port.pfc().resumesAt(qBytes)) {
                    paused = false;
                }
            }
            y[q + 1] = paused ? 0.0 : 1.0;
        }
    }
}
