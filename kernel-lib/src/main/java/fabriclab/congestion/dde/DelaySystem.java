package fabriclab.congestion.dde;

/**
 * A system of delay differential equations with constant lags,
 * {@code y'(t) = f(t, y(t), y(t - lag_1), ..., y(t - lag_m))}.
 *
 * <p>Implementations are the models (for example the DCQCN fluid model of
 * {@code fabriclab.congestion}); {@link DdeSolver} integrates them by the method of steps.
 */
public interface DelaySystem {

    /** Number of state variables. */
    int dimension();

    /** The constant lags [time units of the system], each {@code > 0}; the array is not modified. */
    double[] lags();

    /**
     * Writes {@code f} into {@code dydt}.
     *
     * @param t current time
     * @param y state at {@code t} (do not modify)
     * @param delayed {@code delayed[k]} is the state at {@code t - lags()[k]} (do not modify)
     * @param dydt output, length {@link #dimension()}
     */
    void derivative(double t, double[] y, double[][] delayed, double[] dydt);

    /**
     * Called after every accepted step (fixed-step solver) or every method-of-steps interval
     * (adaptive solver) with the new state, which it may modify in place: projection onto
     * constraints (a queue that may not go negative, a rate capped at line rate) and discrete
     * events (a PFC pause that switches on or off). The default does nothing.
     *
     * @param t time of the state
     * @param y state, modifiable
     */
    default void afterStep(double t, double[] y) {
    }

    /**
     * The components that cannot go below 0 (a queue), each in {@code [0, dimension())}. The derivative
     * must hold such a component at 0 while it is at 0 and would fall; {@link DdeSolver} keeps every
     * accepted state at or above 0 in these components (see {@link DdeSolver}). The default is none.
     *
     * @return the indices, not modified by the solver
     */
    default int[] nonNegative() {
        return new int[0];
    }
}
