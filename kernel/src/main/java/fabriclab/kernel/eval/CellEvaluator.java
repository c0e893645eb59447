package fabriclab.kernel.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jshell.DeclarationSnippet;
import jdk.jshell.EvalException;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;

/**
 * Runs one cell in the JShell session: its magic lines ({@link Magics}), then its code cut into snippets
 * (statements, declarations, expressions) that run in order, the first failure stopping the cell. The value
 * of the last snippet, when it is an expression with a non-null value, is the cell's result.
 *
 * <p>Declarations may refer to ones later in the same cell (a method calling one defined below it, mutually
 * recursive methods): JShell keeps them as recoverable and completes them when the missing piece is defined.
 * Only what is still undefined at the end of the cell is an error. Two or more consecutive method and type
 * declarations are declared in one compilation ({@link MethodBatch}); when one of them fails to compile, the
 * cell stops with its error and the others are defined. Imports follow {@link Imports}' rules.
 *
 * <p>An interrupt ({@link #interrupt}, from any thread) stops the running snippet and is checked before each
 * snippet starts; it stays set until {@link #clearInterrupt}, so one that comes while the cell compiles is
 * never lost.
 */
final class CellEvaluator {
    private final JShell shell;
    private final SourceCodeAnalysis analysis;
    private final CellExecutionControl control;
    private final Imports imports;
    private final Magics magics;
    private final ErrorFormatter errors;
    /** Declares several of a cell's methods and types in one compilation; null when JShell's internals are closed. */
    private final MethodBatch batch;
    private volatile boolean interrupted;
    private boolean lastEndedWithSemicolon;

    CellEvaluator(JShell shell, SourceCodeAnalysis analysis, CellExecutionControl control, Imports imports, Magics magics,
            ErrorFormatter errors) {
        this.shell = shell;
        this.analysis = analysis;
        this.control = control;
        this.imports = imports;
        this.magics = magics;
        this.errors = errors;
        this.batch = MethodBatch.create(shell);
    }

    /**
     * Runs one cell, numbered {@code cellNumber} in error frames (0: no number).
     *
     * @return the value of the last snippet when it is an expression with a non-null value
     * @throws CellException on a compile error, an exception from the code, an interrupt or a bad magic
     */
    EvalResult eval(String cell, int cellNumber) throws CellException {
        try {
            return evalSnippets(cell, cellNumber);
        } finally {
            imports.endCell();
        }
    }

    private EvalResult evalSnippets(String cell, int cellNumber) throws CellException {
        lastEndedWithSemicolon = false;
        if (interrupted) {
            throw errors.interrupted(cellNumber, 0, null);
        }
        String code = magics.run(cell == null ? "" : cell);
        EvalResult last = EvalResult.NONE;
        String rest = code;
        List<Snippet> recoverable = new ArrayList<>();
        List<Origin> declarations = new ArrayList<>(); // consecutive method and type declarations not yet evaluated
        while (true) {
            SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(rest);
            if (info.completeness() == SourceCodeAnalysis.Completeness.EMPTY) {
                break;
            }
            String source = info.completeness().isComplete() ? info.source() : rest;
            if (!info.completeness().isComplete() && info.completeness() != SourceCodeAnalysis.Completeness.UNKNOWN) {
                declare(declarations, cellNumber, recoverable);
                throw ErrorFormatter.incompleteCode(code, rest, cellNumber);
            }
            int startLine = SourceLines.lineOf(code, code.length() - rest.length() + SourceLines.leadingBlank(rest));
            lastEndedWithSemicolon = info.completeness() == SourceCodeAnalysis.Completeness.COMPLETE
                    && source.stripTrailing().endsWith(";");
            String oneLine = Imports.oneLine(source);
            if (batch != null && info.completeness().isComplete() && oneLine == null && MethodBatch.mayBeDeclaration(source)) {
                declarations.add(new Origin(source, startLine));
                last = EvalResult.NONE;
            } else {
                declare(declarations, cellNumber, recoverable);
                if (interrupted) {
                    throw errors.interrupted(cellNumber, startLine, null);
                }
                if (imports.coveredByDefaults(oneLine)) {
                    last = EvalResult.NONE;
                } else {
                    String evaluated = oneLine != null ? oneLine : source;
                    last = onEvents(shell.eval(evaluated), List.of(new Origin(evaluated, startLine)), cellNumber, recoverable);
                }
            }
            if (!info.completeness().isComplete()) {
                break;
            }
            rest = info.remaining();
        }
        declare(declarations, cellNumber, recoverable);
        for (Snippet s : recoverable) {
            Snippet.Status status = shell.status(s);
            if (status == Snippet.Status.RECOVERABLE_DEFINED || status == Snippet.Status.RECOVERABLE_NOT_DEFINED) {
                List<String> missing = shell.unresolvedDependencies((DeclarationSnippet) s).collect(Collectors.toList());
                if (!missing.isEmpty()) {
                    throw errors.undefinedReferences((DeclarationSnippet) s, missing);
                }
            }
        }
        return last;
    }

    /** A snippet's source and the line of its cell it starts on. */
    private record Origin(String source, int startLine) {
    }

    /**
     * Evaluates the pending declarations (methods and types, in the cell's order) and empties the list: two or
     * more in one compilation ({@link MethodBatch}), else one snippet at a time, as any other snippet.
     */
    private void declare(List<Origin> declarations, int cellNumber, List<Snippet> recoverable) throws CellException {
        if (declarations.isEmpty()) {
            return;
        }
        List<Origin> pending = List.copyOf(declarations);
        declarations.clear();
        if (interrupted) {
            throw errors.interrupted(cellNumber, pending.get(0).startLine(), null);
        }
        if (pending.size() > 1) {
            List<SnippetEvent> events = batch.eval(pending.stream().map(Origin::source).toList());
            if (events != null) {
                onEvents(events, pending, cellNumber, recoverable);
                return;
            }
        }
        for (Origin o : pending) {
            if (interrupted) {
                throw errors.interrupted(cellNumber, o.startLine(), null);
            }
            onEvents(shell.eval(o.source()), List.of(o), cellNumber, recoverable);
        }
    }

    /**
     * Reads the events of one evaluation: the values, where each snippet came from, then the first interrupt,
     * compile error or exception, in the snippets' order. {@code origins} has one entry per snippet the
     * evaluation made, or one for all of them (one source that JShell cut in several, {@code int a, b;}).
     */
    private EvalResult onEvents(List<SnippetEvent> events, List<Origin> origins, int cellNumber, List<Snippet> recoverable)
            throws CellException {
        List<SnippetEvent> own = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (SnippetEvent event : events) {
            Object value = control.takeResult(event.value());
            if (event.causeSnippet() != null) {
                imports.onSideEffect(event);
                continue;
            }
            Origin origin = origins.get(Math.min(own.size(), origins.size() - 1));
            errors.recordOrigin(event.snippet().id(), cellNumber, origin.startLine());
            own.add(event);
            values.add(value);
        }
        EvalResult result = EvalResult.NONE;
        for (int i = 0; i < own.size(); i++) {
            SnippetEvent event = own.get(i);
            Origin origin = origins.get(Math.min(i, origins.size() - 1));
            Snippet snippet = event.snippet();
            dropTemporaryVariable(snippet);
            if (event.exception() instanceof EvalException ee && CellExecutionControl.isStop(ee.getExceptionClassName())) {
                throw errors.interrupted(cellNumber, origin.startLine(), ee);
            }
            if (interrupted || control.wasStopped()) {
                throw errors.interrupted(cellNumber, origin.startLine(), null);
            }
            if (event.status() == Snippet.Status.REJECTED) {
                throw errors.compileError(snippet, origin.source(), cellNumber, origin.startLine());
            }
            if (event.exception() != null) {
                throw errors.runtimeError(event.exception(), cellNumber, origin.startLine());
            }
            if (event.status() == Snippet.Status.RECOVERABLE_NOT_DEFINED || event.status() == Snippet.Status.RECOVERABLE_DEFINED) {
                recoverable.add(snippet);
            }
            boolean expression = snippet.kind() == Snippet.Kind.EXPRESSION
                    || (snippet.kind() == Snippet.Kind.VAR && snippet.subKind() == Snippet.SubKind.TEMP_VAR_EXPRESSION_SUBKIND);
            Object value = values.get(i);
            result = expression && value != null ? new EvalResult(value, true) : EvalResult.NONE;
        }
        return result;
    }

    /**
     * Drops JShell's temporary variable ({@code $1}, {@code $2}, ...) that holds an expression snippet's value,
     * once the value is taken: JShell compiles every later snippet in a wrapper that imports each variable
     * still defined, so the temporary variables of a notebook's expression cells would make every later cell
     * compile slower. The kernel shows
     * the value and never refers to these names; the class that computed the value stays loaded, so its
     * frames in a later stack trace read as before.
     */
    private void dropTemporaryVariable(Snippet snippet) {
        if (snippet.subKind() == Snippet.SubKind.TEMP_VAR_EXPRESSION_SUBKIND && shell.status(snippet).isActive()) {
            shell.drop(snippet);
        }
    }

    /** Whether the last snippet of the last cell was an expression the user ended with ';' (not added by JShell). */
    boolean lastEndedWithSemicolon() {
        return lastEndedWithSemicolon;
    }

    /** Stops the running snippet, or the next cell when none runs (callable from any thread). */
    void interrupt() {
        interrupted = true;
        shell.stop();
    }

    /** Forgets an interrupt that no cell has consumed yet. */
    void clearInterrupt() {
        interrupted = false;
        control.clearStop();
    }
}
