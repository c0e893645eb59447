package fabriclab.congestion.dde;

import fabriclab.Parameters;
import org.apache.commons.math3.ode.FirstOrderDifferentialEquations;
import org.apache.commons.math3.ode.events.EventHandler;
import org.apache.commons.math3.ode.nonstiff.DormandPrince54Integrator;
import org.apache.commons.math3.ode.sampling.StepHandler;
import org.apache.commons.math3.ode.sampling.StepInterpolator;

import java.util.function.DoubleFunction;

/**
 * Solver for delay differential equations with constant lags ({@link DelaySystem}) by the method
 * of steps: on {@code [t, t + minLag]} every delayed argument lies in the already known past, so the
 * DDE is an ODE there.
 *
 * <p>Two integrators:
 * <ul>
 *   <li>{@link #rk4(double)}: classical fixed-step fourth-order Runge-Kutta; delayed values at the
 *   stage times come from cubic Hermite interpolation of the accepted points (global error
 *   O(h^4) on smooth solutions). The step must not exceed the smallest lag. This is the fast path
 *   used by the congestion-control fluid models; {@link DelaySystem#afterStep} runs after every
 *   step, so projections and discrete events (PFC) are resolved to one step.</li>
 *   <li>{@link #adaptive(double, double)}: each method-of-steps interval is integrated by the
 *   Commons Math Dormand-Prince 5(4) integrator with the user's absolute and relative tolerance;
 *   the accepted steps and their derivatives form the Hermite history. Interval ends fall on the
 *   multiples of the smallest lag, where a single-lag solution's derivative discontinuities
 *   propagate. {@link DelaySystem#afterStep} runs at interval ends only, so use it for smooth
 *   systems.</li>
 * </ul>
 * Components a system declares {@linkplain DelaySystem#nonNegative() non-negative} stay at or above 0
 * in every state either solver accepts, stores as history or reports: RK4 sets a component that a
 * step took below 0 to 0 before {@link DelaySystem#afterStep}; the adaptive solver ends a step where
 * such a component falls through 0 (a Commons Math event, located to within 1e-9 of the interval)
 * and restarts from the state with that component at 0, which the derivative then holds, and it
 * takes the stored and reported values of these components as at least 0 (inside a step ending
 * at the crossing the dense output may be below 0 by the event's location error).
 * Reference: Bellen and Zennaro, "Numerical Methods for Delay Differential Equations" (2003),
 * chapter 3 (method of steps, continuous extensions). Immutable and thread-safe; each
 * {@link #solve} call owns its state.
 */
public final class DdeSolver {
    private static final int DENSE_POINTS = 4;
    private final double step;
    private final double absTol;
    private final double relTol;

    /**
     * The longest integration {@link #solve} accepts, in fixed steps or (adaptive solver) smallest
     * lags: 1e9, minutes of computing; longer spans are rejected rather than left to run for hours.
     */
    public static final double MAX_STEPS = 1e9;

    private DdeSolver(double step, double absTol, double relTol) {
        this.step = step;
        this.absTol = absTol;
        this.relTol = relTol;
    }

    /**
     * Fixed-step RK4.
     *
     * @param step step size [time units of the system], {@code > 0}, at most the smallest lag
     */
    public static DdeSolver rk4(double step) {
        return new DdeSolver(Parameters.positive("step", step), 0, 0);
    }

    /**
     * Adaptive Dormand-Prince 5(4) on each method-of-steps interval.
     *
     * @param absTol absolute tolerance per component, {@code > 0}
     * @param relTol relative tolerance, {@code > 0}
     */
    public static DdeSolver adaptive(double absTol, double relTol) {
        return new DdeSolver(0, Parameters.positive("absTol", absTol), Parameters.positive("relTol", relTol));
    }

    /** Whether this is the fixed-step solver. */
    public boolean isFixedStep() {
        return step > 0;
    }

    /** Step of the fixed-step solver (0 for the adaptive one). */
    public double step() {
        return step;
    }

    /**
     * Integrates {@code system} from {@code t0} to {@code tEnd}.
     *
     * @param system the DDE, not null, with lags {@code > 0}
     * @param t0 initial time
     * @param history the solution for {@code t <= t0} (returns arrays of the system's dimension);
     *                {@code history.apply(t0)} is the initial state
     * @param tEnd final time, {@code >= t0}
     * @param observer receives the initial state and every accepted state, may be null
     * @return the state at {@code tEnd}
     * @throws IllegalArgumentException on bad input, naming the parameter (for example a step
     *                                  larger than the smallest lag)
     */
    public double[] solve(DelaySystem system, double t0, DoubleFunction<double[]> history, double tEnd,
                          StepObserver observer) {
        Parameters.notNull("system", system);
        Parameters.notNull("history", history);
        Parameters.finite("t0", t0);
        Parameters.finite("tEnd", tEnd);
        if (tEnd < t0) {
            throw new IllegalArgumentException("tEnd must be >= t0 (" + t0 + "), got " + tEnd);
        }
        int dim = system.dimension();
        Parameters.atLeast("system.dimension()", dim, 1);
        double[] lags = system.lags().clone();
        if (lags.length == 0) {
            throw new IllegalArgumentException("system.lags() must contain at least one lag");
        }
        double minLag = Double.POSITIVE_INFINITY;
        double maxLag = 0;
        for (int k = 0; k < lags.length; k++) {
            Parameters.positive("lags[" + k + "]", lags[k]);
            minLag = Math.min(minLag, lags[k]);
            maxLag = Math.max(maxLag, lags[k]);
        }
        if (isFixedStep() && step > minLag * (1 + 1e-12)) {
            throw new IllegalArgumentException("step must be <= the smallest lag (" + minLag + "), got " + step);
        }
        // both solvers advance at most one step (fixed) or one smallest lag (adaptive) at a time
        double stepsNeeded = (tEnd - t0) / (isFixedStep() ? step : minLag);
        if (stepsNeeded > MAX_STEPS) {
            throw new IllegalArgumentException("tEnd - t0 must be at most " + MAX_STEPS + " " + (isFixedStep() ? "steps ("
                    + step + " s each)" : "smallest lags (" + minLag + " s each)") + ", got tEnd = " + tEnd + ", t0 = " + t0);
        }
        double[] y = history.apply(t0);
        if (y == null || y.length != dim) {
            throw new IllegalArgumentException("history(t0) must be an array of length " + dim);
        }
        y = y.clone();
        for (int k = 0; k < dim; k++) {
            Parameters.finite("history(t0)[" + k + "]", y[k]);
        }
        checkFloors(system, dim);
        for (int k : system.nonNegative()) {
            if (y[k] < 0) {
                throw new IllegalArgumentException("history(t0)[" + k + "] must be >= 0 (system.nonNegative() holds "
                        + k + "), got " + y[k]);
            }
        }
        HermiteHistory past = new HermiteHistory(dim, t0, history, maxLag);
        double[][] delayed = new double[lags.length][dim];
        double[] f = new double[dim];
        evaluate(system, past, lags, t0, y, delayed, f);
        past.add(t0, y, f);
        if (observer != null) {
            observer.accept(t0, y);
        }
        if (isFixedStep()) {
            return rk4Run(system, past, lags, t0, y, f, tEnd, observer);
        }
        return adaptiveRun(system, past, lags, minLag, t0, y, tEnd, observer);
    }

    private static void evaluate(DelaySystem system, HermiteHistory past, double[] lags, double t, double[] y,
                                 double[][] delayed, double[] out) {
        for (int k = 0; k < lags.length; k++) {
            past.value(t - lags[k], delayed[k]);
        }
        system.derivative(t, y, delayed, out);
    }

    private double[] rk4Run(DelaySystem system, HermiteHistory past, double[] lags, double t0, double[] y0,
                            double[] f0, double tEnd, StepObserver observer) {
        int dim = y0.length;
        double[] y = y0;
        double[] f = f0;
        double[] k2 = new double[dim];
        double[] k3 = new double[dim];
        double[] k4 = new double[dim];
        double[] tmp = new double[dim];
        double[][] delayed = new double[lags.length][dim];
        int[] floors = system.nonNegative().clone();
        long n = (long) Math.ceil((tEnd - t0) / step - 1e-9);
        for (long i = 0; i < n; i++) {
            double t = t0 + i * step;
            double h = Math.min(step, tEnd - t);
            if (h <= 0) {
                break;
            }
            for (int k = 0; k < dim; k++) {
                tmp[k] = y[k] + 0.5 * h * f[k];
            }
            evaluate(system, past, lags, t + 0.5 * h, tmp, delayed, k2);
            for (int k = 0; k < dim; k++) {
                tmp[k] = y[k] + 0.5 * h * k2[k];
            }
            evaluate(system, past, lags, t + 0.5 * h, tmp, delayed, k3);
            for (int k = 0; k < dim; k++) {
                tmp[k] = y[k] + h * k3[k];
            }
            evaluate(system, past, lags, t + h, tmp, delayed, k4);
            double[] next = new double[dim];
            for (int k = 0; k < dim; k++) {
                next[k] = y[k] + h / 6.0 * (f[k] + 2 * k2[k] + 2 * k3[k] + k4[k]);
            }
            double tn = t + h;
            floor(floors, next);
            system.afterStep(tn, next);
            double[] fn = new double[dim];
            evaluate(system, past, lags, tn, next, delayed, fn);
            past.add(tn, next, fn);
            y = next;
            f = fn;
            if (observer != null) {
                observer.accept(tn, y);
            }
        }
        return y.clone();
    }

    private double[] adaptiveRun(DelaySystem system, HermiteHistory past, double[] lags, double minLag, double t0,
                                 double[] y0, double tEnd, StepObserver observer) {
        int dim = y0.length;
        double[][] delayed = new double[lags.length][dim];
        FirstOrderDifferentialEquations ode = new FirstOrderDifferentialEquations() {
            @Override
            public int getDimension() {
                return dim;
            }

            @Override
            public void computeDerivatives(double t, double[] y, double[] yDot) {
                evaluate(system, past, lags, t, y, delayed, yDot);
            }
        };
        int[] floors = system.nonNegative().clone();
        double[] y = y0.clone();
        double t = t0;
        while (t < tEnd) {
            // the last interval takes up a rest of rounding size (0.3 ten times falls short of 3 by 4e-16, an
            // interval Commons Math refuses as too small)
            double tNext = tEnd - t <= minLag * (1 + 1e-9) ? tEnd : t + minLag;
            double span = tNext - t;
            DormandPrince54Integrator integrator = new DormandPrince54Integrator(span * 1e-9, span, absTol, relTol);
            // Commons Math's automatic first-step guess divides by |y'|, which may be 0 at an
            // interval start (for example y' = -y(t-1) with y(1) = 0); start small instead
            integrator.setInitialStepSize(span * 1e-3);
            for (int k : floors) {
                integrator.addEventHandler(new Floor(k), span, span * 1e-9, 100);
            }
            integrator.addStepHandler(new StepHandler() {
                @Override
                public void init(double t0, double[] y0, double t) {
                }

                @Override
                public void handleStep(StepInterpolator interpolator, boolean isLast) {
                    // store the step's dense output at 4 sub-points (the Dormand-Prince continuous
                    // extension) so the Hermite history keeps up with the integrator's accuracy
                    double ta = interpolator.getPreviousTime();
                    double tc = interpolator.getCurrentTime();
                    double[] yc = null;
                    for (int j = 1; j <= DENSE_POINTS; j++) {
                        double tj = j == DENSE_POINTS ? tc : ta + (tc - ta) * j / DENSE_POINTS;
                        interpolator.setInterpolatedTime(tj);
                        yc = interpolator.getInterpolatedState().clone();
                        floor(floors, yc);
                        past.add(tj, yc, interpolator.getInterpolatedDerivatives().clone());
                    }
                    if (observer != null && !isLast) {
                        observer.accept(tc, yc);
                    }
                }
            });
            double[] out = new double[dim];
            integrator.integrate(ode, t, y, tNext, out);
            floor(floors, out);
            system.afterStep(tNext, out);
            y = out;
            t = tNext;
            if (observer != null) {
                observer.accept(t, y);
            }
        }
        return y;
    }

    /** Checks that every index of {@code system.nonNegative()} is a component of the system. */
    private static void checkFloors(DelaySystem system, int dim) {
        int[] floors = system.nonNegative();
        if (floors == null) {
            throw new NullPointerException("system.nonNegative() must not be null");
        }
        for (int k = 0; k < floors.length; k++) {
            if (floors[k] < 0 || floors[k] >= dim) {
                throw new IllegalArgumentException("system.nonNegative()[" + k + "] must be in [0, " + (dim - 1)
                        + "] (a component of the system), got " + floors[k]);
            }
        }
    }

    /** Sets the components {@code floors} of {@code y} that are below 0 to 0. */
    private static void floor(int[] floors, double[] y) {
        for (int k : floors) {
            if (y[k] < 0) {
                y[k] = 0;
            }
        }
    }

    /**
     * The floor of component {@code k} at 0 as an event: a step in which it falls through 0 ends at the
     * crossing, and the integration restarts there with the component at 0.
     */
    private static final class Floor implements EventHandler {
        private final int k;

        Floor(int k) {
            this.k = k;
        }

        @Override
        public void init(double t0, double[] y0, double t) {
        }

        @Override
        public double g(double t, double[] y) {
            return y[k];
        }

        @Override
        public Action eventOccurred(double t, double[] y, boolean increasing) {
            return increasing ? Action.CONTINUE : Action.RESET_STATE;
        }

        @Override
        public void resetState(double t, double[] y) {
            y[k] = 0;
        }
    }
}
