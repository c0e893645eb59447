package fabriclab.sweep;

import fabriclab.progress.ProgressSink;
import java.io.Serializable;
import java.util.List;

/**
 * Where a {@link SweepPlan} runs: {@link LocalThreads} (threads of this JVM, the default) or a cluster
 * (the Spark executor of the optional fabriclab-spark module, found through {@link SweepExecutors}).
 * Every implementation returns the results in the order of the plan's parameters, so the same plan
 * gives the same list, and the same table, on every executor.
 */
public interface SweepExecutor extends AutoCloseable {
    /**
     * Runs every point of {@code plan}.
     *
     * @param plan the sweep
     * @param sink where the progress bar (one unit per finished run) goes
     * @return the results, element i for parameter record i, unmodifiable
     * @throws SweepException if a run throws (its message names the point and what it threw)
     * @throws InterruptedException if the calling thread is interrupted while the sweep runs
     */
    <P extends Serializable, R extends Serializable> List<R> run(SweepPlan<P, R> plan, ProgressSink sink)
            throws InterruptedException;

    /** Where the runs happen, for logs, e.g. {@code "local threads (2)"} or a Spark master URL. */
    String describe();

    /** Releases the executor's resources (a cluster connection); the default does nothing. */
    @Override
    default void close() {
    }
}
