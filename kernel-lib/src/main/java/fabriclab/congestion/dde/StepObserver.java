package fabriclab.congestion.dde;

/** Receives each accepted state of a {@link DdeSolver} run (for recording a trajectory). */
@FunctionalInterface
public interface StepObserver {
    /**
     * @param t time of the state
     * @param y the state (after {@link DelaySystem#afterStep}); copy it to keep it
     */
    void accept(double t, double[] y);
}
