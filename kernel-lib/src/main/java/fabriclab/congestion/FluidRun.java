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
    /** Validates: both present. */
    public FluidRun {
        fabriclab.Parameters.notNull("trajectory", trajectory);
        fabriclab.Parameters.notNull("metrics", metrics);
    }
}
