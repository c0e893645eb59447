package fabriclab.sweep;

import fabriclab.Parameters;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs an experiment at every point of a parameter sweep on a pool of threads and returns the results
 * in the order of the points.
 *
 * <p>The experiment is a function from one point (its parameters, usually a record) to one result (a
 * record, or a list when a point gives several rows). It must be pure: its result may depend only on
 * the point, its seed included, never on shared mutable state or on which thread runs it. Then the
 * result list is the same whatever the number of threads and the scheduling, and a table or dataset
 * built from it is byte-identical from run to run. {@link Columns} turns the results into a tablesaw
 * table; saving that table (with its provenance, as a dataset) is the caller's step, not the sweep's.
 *
 * <pre>{@code
 * List<Run> runs = Sweep.run("JCT sweep", points, p -> p.simulate(), 4, Progress.defaultSink());
 * }</pre>
 *
 * <p>One progress bar counts the finished points. If a point throws, the sweep stops: the points not yet
 * started are dropped, the running ones are interrupted, and a {@link SweepException} naming the point
 * is thrown. If the calling thread is interrupted while it waits, the sweep stops the same way and
 * throws {@link InterruptedException}; a point that does not check for interruption runs to its end on
 * its (daemon) worker thread, but no further point starts.
 */
public final class Sweep {
    private Sweep() {
    }

    /** The most worker threads a sweep starts (a thread's stack is reserved memory; results do not depend on it). */
    public static final int MAX_THREADS = 1024;

    /**
     * Applies {@code experiment} to every point on {@code threads} worker threads.
     *
     * @param label what runs, shown on the progress bar, not blank
     * @param points the parameter points, not null, no null element (may be empty)
     * @param experiment a pure function from a point to its result; must not return null
     * @param threads worker threads, 1 to {@link #MAX_THREADS} (more threads than points are not started)
     * @param sink where progress goes ({@link Progress#defaultSink()}, {@link Progress#silent()}, ...)
     * @param <P> the point type
     * @param <R> the result type
     * @return the results, element i for point i, unmodifiable
     * @throws SweepException if the experiment throws at a point or returns null (the first failure seen)
     * @throws InterruptedException if the calling thread is interrupted while the sweep runs
     */
    public static <P, R> List<R> run(String label, List<? extends P> points, Function<? super P, ? extends R> experiment,
            int threads, ProgressSink sink) throws InterruptedException {
        Parameters.notBlank("label", label);
        Parameters.notNull("points", points);
        Parameters.notNull("experiment", experiment);
        Parameters.inRange("threads", threads, 1, MAX_THREADS);
        Parameters.notNull("sink", sink);
        List<P> todo = new ArrayList<>(points);
        for (int i = 0; i < todo.size(); i++) {
            if (todo.get(i) == null) {
                throw new IllegalArgumentException("points[" + i + "] must not be null");
            }
        }
        int n = todo.size();
        try (Progress progress = Progress.start(label, n, sink)) {
            if (n == 0) {
                return List.of();
            }
            Object[] results = new Object[n];
            ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, n), workers());
            try {
                CompletionService<Integer> finished = new ExecutorCompletionService<>(pool);
                for (int i = 0; i < n; i++) {
                    int index = i;
                    finished.submit(() -> {
                        results[index] = evaluate(label, index, todo.get(index), experiment);
                        return index;
                    });
                }
                for (int i = 0; i < n; i++) {
                    try {
                        // Future.get orders the worker's write of results[index] before the reads below
                        finished.take().get();
                    } catch (ExecutionException e) {
                        throw unwrap(e);
                    }
                    progress.step();
                }
            } finally {
                pool.shutdownNow();
            }
            @SuppressWarnings("unchecked")
            List<R> out = (List<R>) Collections.unmodifiableList(Arrays.asList(results));
            return out;
        }
    }

    private static <P, R> R evaluate(String label, int index, P point, Function<? super P, ? extends R> experiment) {
        R r;
        try {
            r = experiment.apply(point);
        } catch (RuntimeException e) {
            throw new SweepException(label, index, point, e);
        }
        if (r == null) {
            throw new SweepException(label, index, point, null);
        }
        return r;
    }

    private static RuntimeException unwrap(ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException r) {
            return r;
        }
        if (cause instanceof Error err) {
            throw err;
        }
        return new IllegalStateException("sweep worker failed: " + cause, cause);
    }

    private static ThreadFactory workers() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread t = new Thread(task, "fabriclab-sweep-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
