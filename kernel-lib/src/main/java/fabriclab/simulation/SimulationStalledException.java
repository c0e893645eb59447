package fabriclab.simulation;

/**
 * A run stopped by the simulator's progress watchdog ({@link Simulator#progressWatchdog(long)}): flows had started
 * and not completed, events still flowed, and no payload was delivered and no flow started for longer than the
 * watchdog's limit. The message says what is stuck (the incomplete flows, the ports that dropped packets or were
 * paused, the failed links); {@link #result()} is the partial result at the stop, for a closer look.
 *
 * <p>An exception rather than a result marked as stalled: a stuck run's figures are not a measurement of the
 * scenario (they depend on the watchdog's limit), and code that collects results (sweeps, job metrics, notebooks)
 * would otherwise take them for one without looking at a flag.
 */
public final class SimulationStalledException extends IllegalStateException {
    private static final long serialVersionUID = 1L;
    private final transient SimulationResult result;

    SimulationStalledException(String message, SimulationResult result) {
        super(message);
        this.result = result;
    }

    /** What the run measured up to the stop (marked partial). */
    public SimulationResult result() {
        return result;
    }
}
