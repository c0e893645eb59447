package fabriclab.sweep;

import fabriclab.Parameters;
import fabriclab.progress.ProgressSink;
import java.io.Serializable;
import java.util.List;

/**
 * The default {@link SweepExecutor}: runs a plan on {@code threads} threads of this JVM through
 * {@link Sweep#run} (one task instance shared by the threads, so a task keeps no state but a thread-safe cache that leaves results unchanged), results in
 * the order of the plan's parameters.
 *
 * @param threads worker threads, 1 to {@link Sweep#MAX_THREADS}
 */
public record LocalThreads(int threads) implements SweepExecutor {
    /** Validates the thread count. */
    public LocalThreads {
        Parameters.inRange("threads", threads, 1, Sweep.MAX_THREADS);
    }

    /** One thread per available processor. */
    public static LocalThreads allProcessors() {
        return new LocalThreads(Math.min(Sweep.MAX_THREADS, Runtime.getRuntime().availableProcessors()));
    }

    @Override
    public <P extends Serializable, R extends Serializable> List<R> run(SweepPlan<P, R> plan, ProgressSink sink)
            throws InterruptedException {
        Parameters.notNull("plan", plan);
        SweepTask<P, R> task = plan.newTask();
        return Sweep.run(plan.label(), plan.parameters(), task::run, threads, sink);
    }

    @Override
    public String describe() {
        return "local threads (" + threads + ")";
    }
}
