package fabriclab.progress;

/**
 * Where {@link Progress} reports go. kernel-lib ships a console sink; the fabriclab Jupyter kernel
 * provides one (found with {@link java.util.ServiceLoader}) that draws an HTML progress bar in the
 * notebook and updates it in place.
 */
public interface ProgressSink {
    /**
     * Called when a task starts, at most every {@link Progress#MIN_UPDATE_NANOS} while it runs, and
     * once when it ends.
     *
     * @param state an immutable snapshot of the task
     */
    void report(Progress.State state);

    /** Whether this sink can show progress right now (the notebook sink only inside a cell). */
    default boolean isActive() {
        return true;
    }
}
