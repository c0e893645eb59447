package fabriclab.sweep;

/**
 * A point of a {@link Sweep} failed: the experiment threw, or returned null. The message names the
 * sweep, the point's index and the point itself; the cause is what the experiment threw (null when
 * it returned null).
 */
public final class SweepException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int index;
    private final transient Object point;

    /**
     * A failure of the point {@code index} of the sweep {@code label}.
     *
     * @param label the sweep
     * @param index index of the point in the sweep's list
     * @param point the point (its {@code toString} goes into the message)
     * @param cause what the run threw, or null if it returned null
     */
    public SweepException(String label, int index, Object point, Throwable cause) {
        super(label + ": points[" + index + "] = " + point + " "
                + (cause == null ? "gave no result (the experiment returned null)" : "failed: " + cause), cause);
        this.index = index;
        this.point = point;
    }

    /** Index of the failed point in the list given to {@link Sweep#run}. */
    public int index() {
        return index;
    }

    /** The failed point. */
    public Object point() {
        return point;
    }
}
