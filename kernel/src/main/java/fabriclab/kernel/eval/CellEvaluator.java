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
 * Only what is still undefined at the end of the cell is an error. Imports follow {@link Imports}' rules.
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
        while (true) {
            SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(rest);
            if (info.completeness() == SourceCodeAnalysis.Completeness.EMPTY) {
                break;
            }
            String source = info.completeness().isComplete() ? info.source() : rest;
            if (!info.completeness().isComplete() && info.completeness() != SourceCodeAnalysis.Completeness.UNKNOWN) {
                throw ErrorFormatter.incompleteCode(code, rest, cellNumber);
            }
            int startLine = SourceLines.lineOf(code, code.length() - rest.length() + SourceLines.leadingBlank(rest));
            lastEndedWithSemicolon = info.completeness() == SourceCodeAnalysis.Completeness.COMPLETE
                    && source.stripTrailing().endsWith(";");
            if (interrupted) {
                throw errors.interrupted(cellNumber, startLine, null);
            }
            String oneLine = Imports.oneLine(source);
            if (imports.coveredByDefaults(oneLine)) {
                last = EvalResult.NONE;
            } else {
                last = evalSnippet(oneLine != null ? oneLine : source, cellNumber, startLine, recoverable);
            }
            if (!info.completeness().isComplete()) {
                break;
            }
            rest = info.remaining();
        }
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

    private EvalResult evalSnippet(String source, int cellNumber, int startLine, List<Snippet> recoverable) throws CellException {
        List<SnippetEvent> events = shell.eval(source);
        EvalResult result = EvalResult.NONE;
        for (SnippetEvent event : events) {
            Object value = control.takeResult(event.value());
            if (event.causeSnippet() != null) {
                imports.onSideEffect(event);
                continue;
            }
            Snippet snippet = event.snippet();
            errors.recordOrigin(snippet.id(), cellNumber, startLine);
            dropTemporaryVariable(snippet);
            if (event.exception() instanceof EvalException ee && CellExecutionControl.isStop(ee.getExceptionClassName())) {
                throw errors.interrupted(cellNumber, startLine, ee);
            }
            if (interrupted || control.wasStopped()) {
                throw errors.interrupted(cellNumber, startLine, null);
            }
            if (event.status() == Snippet.Status.REJECTED) {
                throw errors.compileError(snippet, source, cellNumber, startLine);
            }
            if (event.exception() != null) {
                throw errors.runtimeError(event.exception(), cellNumber, startLine);
            }
            if (event.status() == Snippet.Status.RECOVERABLE_NOT_DEFINED || event.status() == Snippet.Status.RECOVERABLE_DEFINED) {
                recoverable.add(snippet);
            }
            boolean expression = snippet.kind() == Snippet.Kind.EXPRESSION
                    || (snippet.kind() == Snippet.Kind.VAR && snippet.subKind() == Snippet.SubKind.TEMP_VAR_EXPRESSION_SUBKIND);
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
