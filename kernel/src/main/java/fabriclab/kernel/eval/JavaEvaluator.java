package fabriclab.kernel.eval;

import java.io.File;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jshell.JShell;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

/**
 * A Java notebook session: the JDK's JShell, in this JVM, and everything a kernel asks of it.
 *
 * <p>Independent of any Jupyter library: it takes source text and returns the value of the cell's
 * last expression (the real object, so a kernel can render charts and tables) or a
 * {@link CellException} with a readable message. The work is shared out: {@link CellEvaluator} runs a
 * cell (magic lines, see {@link Magics}, then its snippets), {@link Imports} keeps the default imports and
 * the rules that keep imports from resetting variables, {@link ErrorFormatter} writes compile errors and
 * exceptions, and {@link CodeAssist} answers completion, inspection and is-complete requests. This class
 * builds the JShell session (the in-process engine {@link CellExecutionControl}, the compiler's
 * {@link IndexKeepingFileManager}), keeps its class path, and is the only public entry point.
 *
 * <p>Not thread-safe, except {@link #interrupt()}, which may be called from another thread to stop
 * the running cell.
 */
public final class JavaEvaluator implements AutoCloseable {
    /** Imports every cell sees, the same as IJava's and the jshell tool's defaults. */
    public static final List<String> DEFAULT_IMPORTS = Imports.DEFAULT_IMPORTS;

    private final CellExecutionControl control = new CellExecutionControl();
    private final JShell shell;
    private final Set<String> classpath = new LinkedHashSet<>();
    private final CellEvaluator cells;
    private final CodeAssist assist;

    /**
     * Creates an evaluator whose compiler and runtime see the JVM's class path plus {@code extraClasspath},
     * and runs the default imports (one snippet) and then the {@code startup} snippets.
     */
    public JavaEvaluator(List<String> extraClasspath, List<String> startup) {
        ExecutionControlProvider provider = new ExecutionControlProvider() {
            @Override
            public String name() {
                return "fabriclab-local";
            }

            @Override
            public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
                return control;
            }
        };
        shell = JShell.builder().executionEngine(provider, Map.of()).fileManager(IndexKeepingFileManager::new).build();
        SourceCodeAnalysis analysis = shell.sourceCodeAnalysis();
        JavadocSources.install(System.getProperty("fabriclab.sources"));
        Imports imports = new Imports(shell);
        cells = new CellEvaluator(shell, analysis, control, imports, new Magics(this::addToClasspath), new ErrorFormatter(shell));
        assist = new CodeAssist(analysis, new PackageNames(this::classpath));
        // JShell's compiler starts with the JVM's class path, and its class loader delegates to the JVM's:
        // only recorded, not added again (each addition re-reads the whole class path)
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!e.isBlank()) {
                classpath.add(Path.of(e).toAbsolutePath().normalize().toString());
            }
        }
        extraClasspath.forEach(this::addToClasspath);
        try {
            imports.evalDefaults();
            for (String s : startup) {
                eval(s);
            }
        } catch (CellException e) {
            throw new IllegalStateException("startup snippet failed: " + e.getMessage() + "\n" + String.join("\n", e.traceback()), e);
        }
    }

    /** Adds a jar or class directory to the compiler's and the runtime's class path (idempotent). */
    public void addToClasspath(String entry) {
        String abs = Path.of(entry).toAbsolutePath().normalize().toString();
        if (classpath.add(abs)) {
            shell.addToClasspath(abs);
        }
    }

    /** The class path entries added so far, in order. */
    public List<String> classpath() {
        return List.copyOf(classpath);
    }

    /**
     * Runs one cell.
     *
     * @return the value of the last snippet when it is an expression with a non-null value
     * @throws CellException on a compile error, an exception from the code, an interrupt or a bad magic
     */
    public EvalResult eval(String cell) throws CellException {
        return eval(cell, 0);
    }

    /**
     * Runs one cell, numbered {@code cellNumber} in error frames ("cell 3, line 2"; 0: no number).
     *
     * <p>Lines at the top of a cell that start with {@code %} are line magics ({@link Magics}: {@code %classpath},
     * {@code %jars}, {@code %maven}, {@code %mavenRepo}). Declarations may refer to ones later in the same cell
     * (a method calling one defined below it, mutually recursive methods): only what is still undefined at the
     * end of the cell is an error.
     *
     * @return the value of the last snippet when it is an expression with a non-null value
     * @throws CellException on a compile error, an exception from the code, an interrupt or a bad magic
     */
    public EvalResult eval(String cell, int cellNumber) throws CellException {
        try {
            return cells.eval(cell, cellNumber);
        } finally {
            clearInterrupt();
        }
    }

    /** Whether the last snippet of the last cell was an expression the user ended with ';' (not added by JShell). */
    public boolean lastEndedWithSemicolon() {
        return cells.lastEndedWithSemicolon();
    }

    /**
     * Code completion at {@code cursor}.
     *
     * @return the candidates and the range [start, cursor) they replace
     */
    public Completion complete(String code, int cursor) {
        return assist.complete(code, cursor);
    }

    /** Help for the identifier at {@code cursor} as plain text, or null when there is none. */
    public String inspect(String code, int cursor) {
        Help h = help(code, cursor);
        return h == null ? null : h.plain();
    }

    /**
     * Help for the identifier at {@code cursor} (inspect, Shift-Tab): the signatures and their Javadoc
     * rendered for a reader ({@link JavadocText}), or the variable's type; null when there is none.
     */
    public Help help(String code, int cursor) {
        return assist.help(code, cursor);
    }

    /** Jupyter's is_complete answer for {@code code}: "complete", "incomplete" or "invalid". */
    public String isComplete(String code) {
        return assist.isComplete(code);
    }

    /**
     * Stops the running cell, or, when none is running, the next one (callable from any thread): an
     * interrupt that comes while the cell is compiling or between its snippets is kept until the cell
     * ends, so it is never lost. A kernel that must not stop a later cell calls {@link #clearInterrupt()}.
     */
    public void interrupt() {
        cells.interrupt();
    }

    /**
     * The error of cell {@code cellNumber} (0: no number) interrupted before any of its code started, the same
     * as {@link #eval} throws for it; for a kernel that answers an interrupt before its session is built.
     */
    public static CellException interruptedBeforeStart(int cellNumber) {
        return ErrorFormatter.interruptedBeforeStart(cellNumber);
    }

    /** Forgets an interrupt that no cell has consumed yet. */
    public void clearInterrupt() {
        cells.clearInterrupt();
    }

    /** The JShell session itself, for the tests of this package. */
    JShell jshell() {
        return shell;
    }

    @Override
    public void close() {
        shell.close();
    }
}
