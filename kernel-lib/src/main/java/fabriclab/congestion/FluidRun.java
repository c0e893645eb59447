package fabriclab.congestion;

import tech.tablesaw.api.Table;

/**
 * The result of a fluid-model run: the sampled trajectory and its {@link FluidMetrics}.
 *
 * @param trajectory columns {@code time_us}, per class {@code rate_<label>_gbps} (per-flow current
 *                   rate) and, for DCQCN, {@code target_<label>_gbps} and {@code alpha_<label>};
 *                   {@code queue_kb} (bottleneck queue, KB = 1000 bytes), {@code marking_p}
 *                   (marking probability of the current queue, DCQCN) or {@code rtt_us} (probe RTT,
 *                   RTT-based control), {@code paused} (1 while PFC pauses the senders); not null
 * @param metrics the summary statistics, not null
 */
public record FluidRun(Table trajectory, FluidMetrics metrics) {
    /**
     * The most values (rows times columns) a run's trajectory may hold: 10,000,000, a few hundred MB while the run
     * collects them. A run whose {@code durationS / sampleEveryS} rows would hold more is refused before it starts.
     */
    public static final long MAX_TRAJECTORY_VALUES = 10_000_000L;

    /**
     * Fails naming {@code sampleEveryS} when {@code durationS / sampleEveryS + 2} rows of {@code columns} values exceed
     * {@link #MAX_TRAJECTORY_VALUES}.
     */
    static void checkTrajectorySize(double durationS, double sampleEveryS, int columns) {
        double values = (Math.floor(durationS / sampleEveryS) + 2) * columns;
        if (values > MAX_TRAJECTORY_VALUES) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "sampleEveryS must give at most %,d"
                    + " trajectory values (durationS / sampleEveryS rows of %d columns), got %s s for durationS = %s s:"
                    + " %.3g values; at least %s s", MAX_TRAJECTORY_VALUES, columns, sampleEveryS, durationS, values,
                    durationS / (MAX_TRAJECTORY_VALUES / (double) columns - 2)));
        }
    }

    /** Validates: both present. */
    public FluidRun {
        fabriclab.Parameters.notNull("trajectory", trajectory);
        fabriclab.Parameters.notNull("metrics", metrics);
    }
}
