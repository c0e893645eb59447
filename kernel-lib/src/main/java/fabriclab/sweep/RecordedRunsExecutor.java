package fabriclab.sweep;

import fabriclab.Parameters;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link SweepExecutor} that runs its sweeps on another executor under a {@link SweepRuns} setting: computes every
 * run ({@code run}); computes every run and writes the sweep's {@link RecordedRuns} to a directory ({@code record});
 * or computes one run in N ({@link SweepRuns#computes}: run 0 and about one in N of the others), requires each to equal its recorded result (its
 * JSON, field for field), and returns the recorded results for the others ({@code check:N}). In every mode the results are those of the full sweep, in
 * the plan's order, so what is built from them is the same whichever mode ran. A sweep none of whose points is worth
 * recording ({@link SweepTask#recorded}) is computed in full in every mode.
 *
 * <p>The progress bar counts every run of the sweep: in {@code check:N} the recorded runs count as done at once and
 * each computed run as it finishes, so the bar ends as the full sweep's does. A line on the process's own standard
 * error (the console, not a notebook's output) says how many runs were computed and compared.
 *
 * @param delegate where the computed runs run
 * @param runs the setting
 * @param directory the directory of records ({@code datasets/runs}); read in {@code check}, written in {@code record}
 */
public record RecordedRunsExecutor(SweepExecutor delegate, SweepRuns runs, Path directory) implements SweepExecutor {
    /** Validates: nothing null. */
    public RecordedRunsExecutor {
        Parameters.notNull("delegate", delegate);
        Parameters.notNull("runs", runs);
        Parameters.notNull("directory", directory);
    }

    @Override
    public <P extends Serializable, R extends Serializable> List<R> run(SweepPlan<P, R> plan, ProgressSink sink)
            throws InterruptedException {
        Parameters.notNull("plan", plan);
        Parameters.notNull("sink", sink);
        if (runs.mode() == SweepRuns.Mode.RUN || !recorded(plan)) {
            return delegate.run(plan, sink);
        }
        if (runs.mode() == SweepRuns.Mode.CHECK) {
            return check(plan, sink);
        }
        List<R> results = delegate.run(plan, sink);
        Path f = RecordedRuns.of(plan, results).write(directory);
        console("recorded " + plan.size() + " runs of \"" + plan.label() + "\" in " + f);
        return results;
    }

    /** Whether any point of {@code plan} is worth recording ({@link SweepTask#recorded}). */
    private static <P extends Serializable, R extends Serializable> boolean recorded(SweepPlan<P, R> plan) {
        SweepTask<P, R> task = plan.newTask();
        for (P p : plan.parameters()) {
            if (task.recorded(p)) {
                return true;
            }
        }
        return false;
    }

    private <P extends Serializable, R extends Serializable> List<R> check(SweepPlan<P, R> plan, ProgressSink sink)
            throws InterruptedException {
        RecordedRuns rec = RecordedRuns.read(directory, plan);
        int n = plan.size();
        List<Integer> computed = new ArrayList<>();
        List<P> points = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (runs.computes(i)) {
                computed.add(i);
                points.add(plan.parameters().get(i));
            }
        }
        List<R> fresh;
        try (Progress progress = Progress.start(plan.label(), n, sink)) {
            progress.advance(n - computed.size());
            fresh = delegate.run(new SweepPlan<>(plan.label(), plan.task(), points), stepsOf(progress));
            long rest = n - progress.done(); // an executor that does not report its last run: the bar still ends full
            if (rest > 0) {
                progress.advance(rest);
            }
        }
        Object[] out = new Object[n];
        for (int k = 0; k < computed.size(); k++) {
            int i = computed.get(k);
            R r = fresh.get(k);
            String got = RecordedRuns.json(r);
            String why = !rec.types().get(i).equals(r.getClass().getName())
                    ? "recorded type " + rec.types().get(i) + ", computed " + r.getClass().getName()
                    : RecordedRuns.firstDifference(rec.results().get(i), got);
            if (why != null) {
                throw new SweepException(plan.label(), i, plan.parameters().get(i), new IllegalStateException(
                        "the computed run differs from the one recorded by ./reproduce in " + directory.resolve(rec.fileName())
                        + " (" + why + "): the code no longer gives what the notebook shows; rerun ./reproduce on the notebook"
                        + " and say in the commit why its results moved"));
            }
            out[i] = r;
        }
        for (int i = 0; i < n; i++) {
            if (out[i] == null) {
                out[i] = rec.value(i);
            }
        }
        console("checked " + computed.size() + " of " + n + " runs of \"" + plan.label() + "\" against "
                + directory.resolve(rec.fileName()) + ": identical; the other " + (n - computed.size()) + " from the record");
        @SuppressWarnings("unchecked")
        List<R> results = (List<R>) (List<?>) Collections.unmodifiableList(java.util.Arrays.asList(out));
        return results;
    }

    /** A sink that moves {@code outer} on by the runs an inner sweep reports done (its own bar is not shown). */
    private static ProgressSink stepsOf(Progress outer) {
        AtomicLong seen = new AtomicLong();
        return state -> {
            long done = state.done();
            long before = seen.getAndAccumulate(done, Math::max);
            if (done > before) {
                outer.advance(done - before);
            }
        };
    }

    private static void console(String line) {
        // the process's own stderr: in a kernel, the console it was started from, not the cell's output
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        err.println("fabriclab: " + line);
        err.flush();
    }

    @Override
    public String describe() {
        return delegate.describe() + ", runs " + runs + " (" + directory + ")";
    }

    @Override
    public void close() {
        delegate.close();
    }
}
