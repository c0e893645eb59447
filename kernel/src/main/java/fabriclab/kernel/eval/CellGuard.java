package fabriclab.kernel.eval;

/**
 * What the rewritten bytecode of cell classes calls ({@link CellClassRewriter}): the replacements of
 * {@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt}, which refuse to end the kernel, and
 * {@link #poll()}, called at every loop back-edge and method entry of cell code, which ends the cell when
 * an interrupt asked for it.
 *
 * <p>This works the same on every JDK from 17 on, without the security manager (refused from JDK 24)
 * or {@code Thread.stop} (a no-op that throws from JDK 20): notebook code stops itself at its next loop
 * iteration or call. Code outside the cell (a library method that loops for minutes) is not rewritten;
 * see {@link CellExecutionControl} for what happens to it.
 *
 * <p>Public because cell classes, defined by JShell's class loader, call it; not meant for notebooks.
 */
public final class CellGuard {
    /** Set while an interrupt is ending the running cell: every thread in cell code then stops. */
    private static volatile boolean stopping;

    private CellGuard() {
    }

    /** Ends the calling thread's cell code with {@link CellInterrupted} when a stop was requested. */
    public static void poll() {
        if (stopping) {
            throw new CellInterrupted();
        }
    }

    /** Replaces {@code System.exit(status)} in cell code. */
    public static void exit(int status) {
        throw refused("System.exit(" + status + ")");
    }

    /** Replaces {@code runtime.exit(status)} in cell code. */
    public static void exit(Runtime runtime, int status) {
        throw refused("System.exit(" + status + ")");
    }

    /** Replaces {@code runtime.halt(status)} in cell code. */
    public static void halt(Runtime runtime, int status) {
        throw refused("System.exit(" + status + ") (Runtime.halt)");
    }

    /** The error of an exit from cell code; {@link CellExitGuard} gives the same one for library code. */
    static SecurityException refused(String call) {
        return new SecurityException(call + " would end the kernel and every variable in it, so a cell"
                + " may not call it; the kernel keeps running (return or throw an exception to end a cell early)");
    }

    static void startStopping() {
        stopping = true;
    }

    static void endStopping() {
        stopping = false;
    }

    static boolean isStopping() {
        return stopping;
    }

    /**
     * Thrown into cell code that is interrupted. An {@link Error}, so that {@code catch (Exception e)} in a
     * cell does not swallow it; a cell that catches {@code Throwable} gets it again at its next back-edge.
     */
    public static final class CellInterrupted extends Error {
        private static final long serialVersionUID = 1L;

        CellInterrupted() {
            super("the cell was interrupted");
        }

        /** ForkJoinPool re-creates a worker's exception in the joining thread through this constructor. */
        public CellInterrupted(Throwable cause) {
            super("the cell was interrupted", cause);
        }
    }
}
