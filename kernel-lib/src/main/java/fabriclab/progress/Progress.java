package fabriclab.progress;

import fabriclab.Parameters;
import java.io.PrintStream;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Progress of a long sweep or simulation, shown as a bar in a notebook (through the kernel's sink)
 * and on the console otherwise.
 *
 * <pre>{@code
 * try (Progress p = Progress.start("Monte Carlo", trials)) {
 *     for (int i = 0; i < trials; i++) { ...; p.step(); }
 * }
 * }</pre>
 *
 * Thread-safe: parallel workers may call {@link #step()} concurrently. Reports are throttled to one
 * every {@link #MIN_UPDATE_NANOS}, plus the start and the end.
 */
public final class Progress implements AutoCloseable {
    /** Minimum time between two reports, nanoseconds (200 ms). */
    public static final long MIN_UPDATE_NANOS = 200_000_000L;

    /**
     * A snapshot of a task.
     *
     * @param id unique id of the task (used as the notebook display id)
     * @param label what is running
     * @param done units completed
     * @param total units in all
     * @param elapsedSeconds wall time since start
     * @param finished whether the task has ended
     */
    public record State(String id, String label, long done, long total, double elapsedSeconds, boolean finished) {
        /** Validates: id and label not null, counts &gt;= 0, elapsed time finite and &gt;= 0. */
        public State {
            Parameters.notNull("id", id);
            Parameters.notNull("label", label);
            Parameters.atLeast("done", done, 0);
            Parameters.atLeast("total", total, 0);
            Parameters.nonNegative("elapsedSeconds", elapsedSeconds);
        }

        /** Fraction done in [0, 1]. */
        public double fraction() {
            return total == 0 ? 1.0 : Math.min(1.0, (double) done / total);
        }

        /**
         * A one-line text bar: {@code "sweep [#####.....] 50% 10/20 1.2 s"} while running, {@code "sweep
         * [##########] 100% 20/20 done"} at the end. The finished bar carries no wall-clock time: it is what
         * an executed notebook keeps, and a rerun must reproduce it byte for byte.
         */
        public String textBar() {
            int width = 30;
            int filled = (int) Math.round(fraction() * width);
            return String.format(Locale.ROOT, "%s [%s%s] %3.0f%% %d/%d %s", label, "#".repeat(filled),
                    ".".repeat(width - filled), 100 * fraction(), done, total, finished ? "done" : seconds());
        }

        /** An HTML bar for notebooks; like {@link #textBar()}, the finished bar has no wall-clock time. */
        public String htmlBar() {
            String esc = label.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
            return String.format(Locale.ROOT,
                    "<div style=\"font-family:monospace\">%s <progress value=\"%d\" max=\"%d\" style=\"width:300px\"></progress>"
                            + " %.0f%% (%d/%d, %s)</div>",
                    esc, done, Math.max(total, 1), 100 * fraction(), done, total, finished ? "done" : seconds());
        }

        private String seconds() {
            return String.format(Locale.ROOT, "%.1f s", elapsedSeconds);
        }
    }

    private static final AtomicLong IDS = new AtomicLong();

    private final String id;
    private final String label;
    private final long total;
    private final long startNanos;
    private final ProgressSink sink;
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong lastReport = new AtomicLong();
    private volatile boolean finished;

    private Progress(String label, long total, ProgressSink sink) {
        this.id = "fabriclab-progress-" + ProcessHandle.current().pid() + "-" + IDS.incrementAndGet();
        this.label = label;
        this.total = total;
        this.sink = sink;
        this.startNanos = System.nanoTime();
        this.lastReport.set(startNanos);
        sink.report(snapshot(false));
    }

    /** Starts a task of {@code total} units, reporting to the notebook when in one, else to stderr. */
    public static Progress start(String label, long total) {
        return start(label, total, defaultSink());
    }

    /** Starts a task reporting to the given sink. */
    public static Progress start(String label, long total, ProgressSink sink) {
        Parameters.notBlank("label", label);
        Parameters.atLeast("total", total, 0L);
        return new Progress(label, total, Parameters.notNull("sink", sink));
    }

    /** The sink a new task uses: an active notebook sink if the kernel provides one, else the console. */
    public static ProgressSink defaultSink() {
        for (ProgressSink s : ServiceLoader.load(ProgressSink.class, Progress.class.getClassLoader())) {
            if (s.isActive()) {
                return s;
            }
        }
        return console(System.err);
    }

    /** Minimum time between two console lines, nanoseconds (2 s): a log, not an animation. */
    public static final long CONSOLE_INTERVAL_NANOS = 2_000_000_000L;

    /** A sink that prints a text bar on its own line at the start, at most every 2 s, and at the end. */
    public static ProgressSink console(PrintStream out) {
        Parameters.notNull("out", out);
        AtomicLong lastLine = new AtomicLong(Long.MIN_VALUE);
        return state -> {
            long now = System.nanoTime();
            long last = lastLine.get();
            boolean due = last == Long.MIN_VALUE || state.finished() || now - last >= CONSOLE_INTERVAL_NANOS;
            if (due && lastLine.compareAndSet(last, now)) {
                // the console is a log, not a saved output: the last line says how long it took
                out.println(state.finished()
                        ? state.textBar() + String.format(Locale.ROOT, " in %.1f s", state.elapsedSeconds())
                        : state.textBar());
            }
        };
    }

    /** A sink that discards reports (for tests and nested tasks). */
    public static ProgressSink silent() {
        return state -> { };
    }

    /** Marks one unit done. */
    public void step() {
        advance(1);
    }

    /** Marks {@code n} more units done. */
    public void advance(long n) {
        Parameters.atLeast("n", n, 0L);
        done.addAndGet(n);
        long now = System.nanoTime();
        long last = lastReport.get();
        if (now - last >= MIN_UPDATE_NANOS && lastReport.compareAndSet(last, now)) {
            emit(false);
        }
    }

    /** Units done so far. */
    public long done() {
        return done.get();
    }

    /** Ends the task and sends the final report (idempotent). */
    @Override
    public void close() {
        emit(true);
    }

    /** Reports in order: no running report can follow the final one, whichever thread sends it. */
    private synchronized void emit(boolean end) {
        if (finished) {
            return;
        }
        finished = end;
        sink.report(snapshot(end));
    }

    private State snapshot(boolean end) {
        return new State(id, label, done.get(), total, (System.nanoTime() - startNanos) / 1e9, end);
    }
}
