package fabriclab.kernel.eval;

import java.util.List;

/**
 * A cell that did not run to completion: a compile error, an exception thrown by the code, or an
 * interrupt. {@link #name()} and {@link #getMessage()} become the Jupyter error's {@code ename} and
 * {@code evalue}; {@link #traceback()} its readable lines.
 */
public final class CellException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What kind of failure. */
    public enum Kind {
        /** javac rejected a snippet. */
        COMPILE_ERROR,
        /** the code threw. */
        RUNTIME_ERROR,
        /** the cell was interrupted. */
        INTERRUPTED,
        /** a magic line was wrong. */
        MAGIC_ERROR
    }

    private final Kind kind;
    private final String name;
    private final List<String> traceback;

    CellException(Kind kind, String name, String message, List<String> traceback) {
        super(message);
        this.kind = kind;
        this.name = name;
        this.traceback = List.copyOf(traceback);
    }

    /** The failure kind. */
    public Kind kind() {
        return kind;
    }

    /** Short name: an exception class name, "CompilationException", "Interrupted", ... */
    public String name() {
        return name;
    }

    /** Readable lines explaining the failure (compiler diagnostics with the source line, or a stack trace). */
    public List<String> traceback() {
        return traceback;
    }
}
