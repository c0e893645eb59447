package fabriclab.kernel.eval;

import fabriclab.kernel.maven.MavenArtifacts;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jdk.jshell.DeclarationSnippet;
import jdk.jshell.Diag;
import jdk.jshell.EvalException;
import jdk.jshell.ImportSnippet;
import jdk.jshell.JShell;
import jdk.jshell.JShellException;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.UnresolvedReferenceException;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

/**
 * Evaluates Java notebook cells with the JDK's JShell, in this JVM.
 *
 * <p>Independent of any Jupyter library: it takes source text and returns the value of the cell's
 * last expression (the real object, so a kernel can render charts and tables) or a
 * {@link CellException} with a readable message. A cell may hold several snippets (statements,
 * declarations, expressions); they run in order and the first failure stops the cell. Lines at the
 * top of a cell that start with {@code %} are line magics: {@code %classpath PATH...} and
 * {@code %jars GLOB...} add jars or directories to the class path, {@code %maven GROUP:ARTIFACT:VERSION...}
 * resolves artifacts and their dependencies from Maven Central (and repositories added with
 * {@code %mavenRepo ID URL}) and adds their jars (IJava-compatible; see {@link MavenArtifacts}).
 *
 * <p>Not thread-safe, except {@link #interrupt()}, which may be called from another thread to stop
 * the running cell.
 */
public final class JavaEvaluator implements AutoCloseable {
    /** Imports every cell sees, the same as IJava's and the jshell tool's defaults. */
    public static final List<String> DEFAULT_IMPORTS = List.of(
            "java.io.*", "java.math.*", "java.net.*", "java.nio.file.*", "java.util.*",
            "java.util.concurrent.*", "java.util.function.*", "java.util.prefs.*", "java.util.regex.*",
            "java.util.stream.*");

    private final CellExecutionControl control = new CellExecutionControl();
    private final JShell shell;
    private final SourceCodeAnalysis analysis;
    private final Set<String> classpath = new LinkedHashSet<>();
    private volatile boolean interrupted;
    private boolean lastEndedWithSemicolon;
    /** Snippet id to {cell number, first line of the snippet in its cell}, for error frames. */
    private final Map<String, int[]> origins = new java.util.HashMap<>();
    /**
     * The {@link #DEFAULT_IMPORTS} as one JShell snippet (compiled once at start-up instead of ten times),
     * or null once they are separate snippets again ({@link #restoreDefaultImports}).
     */
    private Snippet defaultImports;
    /** The import that replaced {@link #defaultImports} in the current cell, or null. */
    private ImportSnippet replacedDefaultImports;
    private MavenArtifacts maven;

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
        analysis = shell.sourceCodeAnalysis();
        JavadocSources.install(System.getProperty("fabriclab.sources"));
        // JShell's compiler starts with the JVM's class path, and its class loader delegates to the JVM's:
        // only recorded, not added again (each addition re-reads the whole class path)
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!e.isBlank()) {
                classpath.add(Path.of(e).toAbsolutePath().normalize().toString());
            }
        }
        extraClasspath.forEach(this::addToClasspath);
        try {
            defaultImports = evalStartupImports(DEFAULT_IMPORTS);
            for (String s : startup) {
                eval(s);
            }
        } catch (CellException e) {
            throw new IllegalStateException("startup snippet failed: " + e.getMessage() + "\n" + String.join("\n", e.traceback()), e);
        }
    }

    /**
     * Evaluates the imports as one snippet, on one line (see {@link #oneLineImport}). JShell keys an import snippet
     * by its first import, so a cell that imports that package again would replace the whole snippet: such a cell's
     * import is skipped ({@link #evalCellSnippets}), and should another form of it still replace the snippet,
     * {@link #restoreDefaultImports} brings the others back.
     */
    private Snippet evalStartupImports(List<String> imports) {
        StringBuilder source = new StringBuilder();
        for (String imp : imports) {
            source.append("import ").append(imp).append("; ");
        }
        List<SnippetEvent> events = shell.eval(source.toString());
        if (events.isEmpty() || events.get(0).status() != Snippet.Status.VALID) {
            throw new IllegalStateException("the default imports do not compile: "
                    + (events.isEmpty() ? "no snippet" : shell.diagnostics(events.get(0).snippet())
                            .map(d -> d.getMessage(Locale.ROOT)).collect(Collectors.joining("; "))));
        }
        return events.get(0).snippet();
    }

    /**
     * After a cell's import replaced the snippet of the default imports (the same package as its first one),
     * evaluates the other default imports again, one snippet each.
     */
    private void restoreDefaultImports() {
        ImportSnippet by = replacedDefaultImports;
        replacedDefaultImports = null;
        defaultImports = null;
        for (String imp : DEFAULT_IMPORTS) {
            if (!imp.equals(by.fullname()) || by.isStatic()) {
                shell.eval("import " + imp + ";");
            }
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
     * <p>Declarations may refer to ones later in the same cell (a method calling one defined below it,
     * mutually recursive methods): JShell keeps them as recoverable and completes them when the
     * missing piece is defined. Only what is still undefined at the end of the cell is an error.
     *
     * @return the value of the last snippet when it is an expression with a non-null value
     * @throws CellException on a compile error, an exception from the code, an interrupt or a bad magic
     */
    public EvalResult eval(String cell, int cellNumber) throws CellException {
        try {
            return evalCell(cell, cellNumber);
        } finally {
            clearInterrupt();
        }
    }

    private EvalResult evalCell(String cell, int cellNumber) throws CellException {
        try {
            return evalCellSnippets(cell, cellNumber);
        } finally {
            if (replacedDefaultImports != null) {
                restoreDefaultImports();
            }
        }
    }

    private EvalResult evalCellSnippets(String cell, int cellNumber) throws CellException {
        lastEndedWithSemicolon = false;
        if (interrupted) {
            throw interruptedError(cellNumber, 0, null);
        }
        String code = runMagics(cell == null ? "" : cell);
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
                throw new CellException(CellException.Kind.COMPILE_ERROR, "CompilationException",
                        "incomplete code at the end of the cell (a missing ';', ')' or '}'?)",
                        numbered(rest));
            }
            int startLine = lineOf(code, code.length() - rest.length() + leadingBlank(rest));
            lastEndedWithSemicolon = info.completeness() == SourceCodeAnalysis.Completeness.COMPLETE
                    && source.stripTrailing().endsWith(";");
            if (interrupted) {
                throw interruptedError(cellNumber, startLine, null);
            }
            String oneLine = oneLineImport(source);
            if (oneLine != null && defaultImports != null && oneLine.equals("import " + DEFAULT_IMPORTS.get(0) + ";")) {
                // already imported by the default imports' snippet, which this import would replace (JShell keys an
                // import snippet by its first import) and which every snippet needs: re-evaluating every declaration
                // against the smaller set of imports would reset the variables among them
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
                    throw new CellException(CellException.Kind.COMPILE_ERROR, "CompilationException",
                            "cannot find symbol: " + String.join(", ", missing),
                            List.of("error: " + ((DeclarationSnippet) s).name() + " refers to " + String.join(", ", missing)
                                    + ", defined nowhere in this cell or before it"));
                }
            }
        }
        return last;
    }

    /**
     * An import snippet's source as one line without comments and without spaces around dots
     * ({@code "import a.b.*;"}), or null when the snippet is not an import.
     *
     * <p>Why every import is evaluated on one line: JShell compiles each snippet in a wrapper class whose source
     * starts with every import so far, each import snippet's text as it was given (comments blanked, line breaks
     * kept), and a type-import-on-demand ({@code import p.*;}) makes JShell compile again every snippet that
     * depends on any name. An import that came after a line break (one below a declaration in its cell, or a
     * comment above it) added a line to that prefix, so every recompiled class differed from the loaded one in its
     * line numbers alone; JShell then asks the execution engine to redefine it, the in-process engine
     * ({@link jdk.jshell.execution.DirectExecutionControl}) cannot, and JShell replaces the class with a new one:
     * each variable declared before the import was reset to null or 0 (the jshell tool redefines the class over
     * JDI and keeps the value). With every import one line, the prefix is always one line long and a recompiled
     * class is identical to the loaded one, so it is kept. {@link CellExecutionControl#redefine} keeps a class that
     * differs only in its debug information in any case.
     */
    static String oneLineImport(String source) {
        StringBuilder code = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (c == '/' && i + 1 < source.length() && source.charAt(i + 1) == '/') {
                while (i < source.length() && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < source.length() && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? source.length() : end + 2;
                code.append(' ');
            } else if (c == '"' || c == '\'') {
                return null; // a literal: not an import (and its text must not be read as comments)
            } else {
                code.append(c);
                i++;
            }
        }
        // the tokens are names, '.', '*' and ';': no space is needed around the last three
        String flat = code.toString().strip().replaceAll("\\s+", " ").replaceAll(" ?([.*;]) ?", "$1");
        return flat.startsWith("import ") ? flat : null;
    }

    /** Whether the last snippet of the last cell was an expression the user ended with ';' (not added by JShell). */
    public boolean lastEndedWithSemicolon() {
        return lastEndedWithSemicolon;
    }

    private static int leadingBlank(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** 1-based line of character {@code offset} in {@code code}. */
    private static int lineOf(String code, int offset) {
        int line = 1;
        for (int i = 0; i < Math.min(offset, code.length()); i++) {
            if (code.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private EvalResult evalSnippet(String source, int cellNumber, int startLine, List<Snippet> recoverable) throws CellException {
        List<SnippetEvent> events = shell.eval(source);
        EvalResult result = EvalResult.NONE;
        for (SnippetEvent event : events) {
            Object value = control.takeResult(event.value());
            if (event.causeSnippet() != null) {
                if (event.snippet() == defaultImports && event.status() == Snippet.Status.OVERWRITTEN
                        && event.causeSnippet() instanceof ImportSnippet cause) {
                    replacedDefaultImports = cause;
                }
                continue;
            }
            Snippet snippet = event.snippet();
            origins.put(snippet.id(), new int[] {cellNumber, startLine});
            if (event.exception() instanceof EvalException ee && CellExecutionControl.isStop(ee.getExceptionClassName())) {
                throw interruptedError(cellNumber, startLine, ee);
            }
            if (interrupted || control.wasStopped()) {
                throw interruptedError(cellNumber, startLine, null);
            }
            if (event.status() == Snippet.Status.REJECTED) {
                throw compileError(snippet, source, cellNumber, startLine);
            }
            if (event.exception() != null) {
                throw runtimeError(event.exception());
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
     * The error of an interrupted cell: where its code was when it stopped (the frames of cell code of the
     * error the stop threw, as in a runtime error's trace), else the line of the snippet that was about to
     * start, or had started (0: the cell's start).
     */
    private CellException interruptedError(int cellNumber, int startLine, EvalException stopped) {
        String message = "the cell was interrupted";
        List<String> lines = new ArrayList<>();
        lines.add("Interrupted: " + message);
        List<String> frames = stopped == null ? List.of() : cellFrames(stopped.getStackTrace());
        if (!frames.isEmpty()) {
            lines.addAll(collapseRepeats(frames));
        } else {
            lines.add("\tat " + (startLine > 0 ? place(cellNumber, startLine) : (cellNumber > 0 ? "cell " + cellNumber + ", " : "") + "before it started"));
        }
        return new CellException(CellException.Kind.INTERRUPTED, "Interrupted", message, lines);
    }

    /** The frames of a stack that belong to cell code, as "at method (cell 3, line 2)". */
    private List<String> cellFrames(StackTraceElement[] stack) {
        List<String> frames = new ArrayList<>();
        for (StackTraceElement f : stack) {
            String file = f.getFileName();
            if (f.getClassName().startsWith("REPL.") || f.getClassName().isEmpty() || (file != null && file.startsWith("#"))) {
                frames.add(frame(f));
            }
        }
        return frames;
    }

    /** One frame of cell code: "at cell 3, line 2" for the cell's body, "at name (cell 3, line 2)" in a method. */
    private String frame(StackTraceElement f) {
        String file = f.getFileName();
        int[] origin = file != null && file.startsWith("#") ? origins.get(file.substring(1)) : null;
        String method = f.getMethodName();
        String where = origin == null ? "line " + f.getLineNumber() : place(origin[0], origin[1] + f.getLineNumber() - 1);
        boolean cellBody = method.isEmpty() || method.startsWith("do_it$");
        return "\tat " + (cellBody ? where : withoutReplNames(method) + " (" + where + ")");
    }

    private CellException compileError(Snippet snippet, String source, int cellNumber, int startLine) {
        List<String> lines = new ArrayList<>();
        List<Diag> diags = shell.diagnostics(snippet).collect(Collectors.toList());
        String[] src = source.split("\n", -1);
        int blankLinesBefore = lineOf(source, leadingBlank(source)) - 1;
        String first = "compilation failed";
        for (Diag d : diags) {
            String msg = withoutReplNames(d.getMessage(Locale.ROOT)).lines()
                    .filter(l -> !l.strip().equals("location: class") && !l.strip().isEmpty())
                    .collect(Collectors.joining("\n"));
            if (d.isError() && first.equals("compilation failed")) {
                first = msg.lines().findFirst().orElse(msg);
            }
            long pos = d.getStartPosition();
            int line = 0;
            int col = 0;
            if (pos >= 0) {
                int offset = 0;
                while (line < src.length - 1 && offset + src[line].length() + 1 <= pos) {
                    offset += src[line].length() + 1;
                    line++;
                }
                col = (int) (pos - offset);
            }
            // startLine is the snippet's first non-blank line, and JShell's source keeps the blank lines before it
            String where = pos >= 0 ? " (" + place(cellNumber, startLine + line - blankLinesBefore) + ")" : "";
            List<String> msgLines = msg.lines().collect(Collectors.toList());
            lines.add((d.isError() ? "error: " : "warning: ") + (msgLines.isEmpty() ? "" : msgLines.get(0)) + where);
            lines.addAll(msgLines.subList(Math.min(1, msgLines.size()), msgLines.size()));
            if (pos >= 0 && line < src.length) {
                lines.add("    " + src[line]);
                lines.add("    " + " ".repeat(Math.max(0, col)) + "^");
            }
        }
        if (lines.isEmpty()) {
            lines.add("error: " + first);
        }
        return new CellException(CellException.Kind.COMPILE_ERROR, "CompilationException", first, lines);
    }

    /** "cell 3, line 2" (or "line 2" when cells are not numbered). */
    private static String place(int cellNumber, int line) {
        return (cellNumber > 0 ? "cell " + cellNumber + ", " : "") + "line " + line;
    }

    /** Removes the names of JShell's wrapper classes from a message ("REPL.$JShell$18.sn" reads "sn"). */
    static String withoutReplNames(String message) {
        if (message == null) {
            return null;
        }
        return message.replaceAll("REPL\\.\\$JShell\\$\\d+[A-Z]?\\$", "")
                .replaceAll("REPL\\.\\$JShell\\$\\d+[A-Z]?\\.", "")
                .replaceAll("\\$JShell\\$\\d+[A-Z]?\\$", "")
                .replaceAll("\\$JShell\\$\\d+[A-Z]?\\.", "");
    }

    private CellException runtimeError(JShellException ex) {
        List<String> lines = new ArrayList<>();
        String name;
        String message;
        if (ex instanceof UnresolvedReferenceException ure) {
            name = "UnresolvedReferenceException";
            message = "cannot use " + ure.getSnippet().source().lines().findFirst().orElse("") + " because it refers to undefined "
                    + shell.unresolvedDependencies(ure.getSnippet()).collect(Collectors.joining(", "));
            lines.add(name + ": " + message);
        } else if (ex instanceof EvalException ee) {
            name = ee.getExceptionClassName();
            message = ee.getMessage() == null ? "" : withoutReplNames(ee.getMessage());
            appendTrace(lines, ee, "");
        } else {
            name = ex.getClass().getName();
            message = String.valueOf(ex.getMessage());
            lines.add(name + ": " + message);
        }
        return new CellException(CellException.Kind.RUNTIME_ERROR, name, message, lines);
    }

    /** Frames shown before the rest of a deep stack is summarised. */
    static final int MAX_FRAMES = 40;

    private void appendTrace(List<String> lines, EvalException ee, String prefix) {
        lines.add(prefix + ee.getExceptionClassName() + (ee.getMessage() == null ? "" : ": " + withoutReplNames(ee.getMessage())));
        List<String> frames = new ArrayList<>();
        for (StackTraceElement f : ee.getStackTrace()) {
            String cls = f.getClassName();
            if (cls.startsWith("jdk.internal.") || cls.startsWith("java.lang.reflect.") || cls.startsWith("fabriclab.kernel.eval.")
                    || cls.startsWith("jdk.jshell.") || cls.equals("java.lang.Thread")) {
                continue;
            }
            String file = f.getFileName();
            if (cls.startsWith("REPL.") || cls.isEmpty() || (file != null && file.startsWith("#"))) {
                frames.add(frame(f));
            } else {
                frames.add("\tat " + withoutReplNames(f.toString()));
            }
        }
        lines.addAll(collapseRepeats(frames));
        if (ee.getCause() instanceof EvalException cause) {
            appendTrace(lines, cause, "Caused by: ");
        }
    }

    /**
     * Frames with runs of a repeated cycle (recursion, mutual recursion up to 8 deep) written once
     * followed by how often they repeat, and at most {@link #MAX_FRAMES} lines (then how many were left out).
     */
    static List<String> collapseRepeats(List<String> frames) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < frames.size()) {
            int bestPeriod = 0;
            int bestRepeats = 0;
            for (int p = 1; p <= 8 && i + 2 * p <= frames.size(); p++) {
                int repeats = 0;
                while (i + (repeats + 2) * p <= frames.size()
                        && frames.subList(i, i + p).equals(frames.subList(i + (repeats + 1) * p, i + (repeats + 2) * p))) {
                    repeats++;
                }
                if (repeats * p > bestRepeats * bestPeriod) {
                    bestPeriod = p;
                    bestRepeats = repeats;
                }
            }
            if (bestRepeats >= 2) {
                out.addAll(frames.subList(i, i + bestPeriod));
                out.add("\t[the " + (bestPeriod == 1 ? "frame" : bestPeriod + " frames") + " above repeated " + bestRepeats + " more times]");
                i += (bestRepeats + 1) * bestPeriod;
            } else {
                out.add(frames.get(i));
                i++;
            }
        }
        if (out.size() > MAX_FRAMES) {
            int left = out.size() - MAX_FRAMES;
            out = new ArrayList<>(out.subList(0, MAX_FRAMES));
            out.add("\t... " + left + " more");
        }
        return out;
    }

    private static List<String> numbered(String code) {
        List<String> out = new ArrayList<>();
        String[] lines = code.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            out.add(String.format(Locale.ROOT, "%4d | %s", i + 1, lines[i]));
        }
        return out;
    }

    private String runMagics(String cell) throws CellException {
        String[] lines = cell.split("\n", -1);
        int i = 0;
        for (; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            if (!line.startsWith("%")) {
                break;
            }
            String[] words = line.substring(1).trim().split("\\s+");
            String magic = words[0];
            List<String> args = List.of(words).subList(1, words.length);
            switch (magic) {
                case "classpath", "jars" -> {
                    if (args.isEmpty()) {
                        throw magicError("%" + magic + " needs at least one path or glob, e.g. %" + magic + " lib/*.jar");
                    }
                    for (String arg : args) {
                        List<Path> matched = glob(arg);
                        if (matched.isEmpty()) {
                            throw magicError("%" + magic + ": nothing matches " + arg);
                        }
                        matched.forEach(p -> addToClasspath(p.toString()));
                    }
                }
                case "maven" -> {
                    if (args.isEmpty()) {
                        throw magicError("%maven needs at least one artifact, e.g. %maven org.apache.commons:commons-text:1.12.0");
                    }
                    List<Path> jars;
                    try {
                        jars = maven().resolve(args);
                    } catch (IllegalArgumentException | MavenArtifacts.ResolutionException e) {
                        throw magicError("%maven: " + e.getMessage());
                    }
                    jars.forEach(p -> addToClasspath(p.toString()));
                    System.out.println("%maven: added " + jars.size() + " jar(s): "
                            + jars.stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(", ")));
                }
                case "mavenRepo" -> {
                    if (args.size() != 2) {
                        throw magicError("%mavenRepo needs an id and a URL, e.g. %mavenRepo jitpack https://jitpack.io");
                    }
                    try {
                        maven().addRepository(args.get(0), args.get(1));
                    } catch (IllegalArgumentException e) {
                        throw magicError("%mavenRepo: " + e.getMessage());
                    }
                }
                default -> throw magicError("unknown magic %" + magic + "; available: %classpath, %jars, %maven, %mavenRepo");
            }
        }
        StringBuilder rest = new StringBuilder();
        for (int j = 0; j < lines.length; j++) {
            // keep line numbers of the code stable for error messages
            rest.append(j < i ? "" : lines[j]);
            if (j < lines.length - 1) {
                rest.append('\n');
            }
        }
        return rest.toString();
    }

    private MavenArtifacts maven() {
        if (maven == null) {
            maven = new MavenArtifacts();
        }
        return maven;
    }

    private static CellException magicError(String message) {
        return new CellException(CellException.Kind.MAGIC_ERROR, "MagicException", message, List.of("MagicException: " + message));
    }

    /** Files matching a path that may contain glob characters in its last element(s). */
    static List<Path> glob(String pattern) {
        if (!pattern.contains("*") && !pattern.contains("?") && !pattern.contains("[") && !pattern.contains("{")) {
            Path p = Path.of(pattern);
            return Files.exists(p) ? List.of(p.toAbsolutePath().normalize()) : List.of();
        }
        Path base = Path.of("").toAbsolutePath();
        String[] parts = pattern.split("/");
        StringBuilder fixed = new StringBuilder(pattern.startsWith("/") ? "/" : "");
        int k = 0;
        for (; k < parts.length - 1; k++) {
            if (parts[k].matches(".*[*?\\[{].*")) {
                break;
            }
            if (!parts[k].isEmpty()) {
                fixed.append(parts[k]).append('/');
            }
        }
        Path root = fixed.length() == 0 ? base : base.resolve(fixed.toString()).normalize();
        String relGlob = String.join("/", List.of(parts).subList(k, parts.length));
        PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + relGlob);
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> m.matches(root.relativize(p))).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Code completion at {@code cursor}.
     *
     * @return the candidates and the range [start, cursor) they replace
     */
    public Completion complete(String code, int cursor) {
        int[] anchor = new int[1];
        List<String> options = analysis.completionSuggestions(code, cursor, anchor).stream()
                .map(SourceCodeAnalysis.Suggestion::continuation).distinct().collect(Collectors.toList());
        return new Completion(options, anchor[0], cursor);
    }

    /** Completion candidates and the text range they replace. */
    public record Completion(List<String> options, int start, int end) {
    }

    /** Help for the identifier at {@code cursor} as plain text, or null when there is none. */
    public String inspect(String code, int cursor) {
        Help h = help(code, cursor);
        return h == null ? null : h.plain();
    }

    /** Help on a name: its signature(s) and Javadoc, as plain text and as Markdown. */
    public record Help(String plain, String markdown) {
    }

    /**
     * Help for the identifier at {@code cursor} (inspect, Shift-Tab): the signatures and their Javadoc
     * rendered for a reader ({@link JavadocText}), or the variable's type; null when there is none.
     */
    public Help help(String code, int cursor) {
        int end = cursor;
        while (end < code.length() && Character.isJavaIdentifierPart(code.charAt(end))) {
            end++;
        }
        List<SourceCodeAnalysis.Documentation> docs = analysis.documentation(code, end, true);
        if (docs.isEmpty() && end < code.length() && code.charAt(end) == '(') {
            docs = analysis.documentation(code, end + 1, true);
        }
        if (docs.isEmpty() && end > 0 && Character.isJavaIdentifierPart(code.charAt(end - 1))) {
            docs = analysis.documentation(code.substring(0, end) + "(", end + 1, true);
        }
        if (docs.isEmpty()) {
            String id = identifierAt(code, cursor);
            if (!id.isEmpty()) {
                String type = analysis.analyzeType(id, id.length());
                return type == null ? null : new Help(id + " : " + type, "`" + id + "` : `" + type + "`");
            }
            return null;
        }
        String plain = docs.stream().map(d -> d.signature() + (d.javadoc() == null || d.javadoc().isBlank() ? ""
                : "\n\n" + JavadocText.plain(d.javadoc()))).collect(Collectors.joining("\n\n"));
        String markdown = docs.stream().map(d -> "```java\n" + d.signature() + "\n```" + (d.javadoc() == null || d.javadoc().isBlank() ? ""
                : "\n\n" + JavadocText.markdown(d.javadoc()))).collect(Collectors.joining("\n\n---\n\n"));
        return new Help(plain, markdown);
    }

    private static String identifierAt(String code, int cursor) {
        int s = Math.min(cursor, code.length());
        while (s > 0 && Character.isJavaIdentifierPart(code.charAt(s - 1))) {
            s--;
        }
        int e = Math.min(cursor, code.length());
        while (e < code.length() && Character.isJavaIdentifierPart(code.charAt(e))) {
            e++;
        }
        return code.substring(s, e);
    }

    private static final java.util.regex.Pattern ENDS_WITH_ANNOTATION =
            java.util.regex.Pattern.compile("(?s)(.*[;{}\\s])?@[\\w.]+(\\s*\\([^()]*\\))?\\s*");

    /** Jupyter's is_complete answer for {@code code}: "complete", "incomplete" or "invalid". */
    public String isComplete(String code) {
        boolean onlyMagics = code.lines().allMatch(l -> l.isBlank() || l.strip().startsWith("%"));
        if (onlyMagics) {
            return "complete";
        }
        String rest = code.lines().dropWhile(l -> l.isBlank() || l.strip().startsWith("%")).collect(Collectors.joining("\n"));
        if (ENDS_WITH_ANNOTATION.matcher(rest).matches()) {
            return "incomplete"; // an annotation needs the declaration it annotates
        }
        while (true) {
            SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(rest);
            switch (info.completeness()) {
                case EMPTY:
                    return "complete";
                case COMPLETE:
                case COMPLETE_WITH_SEMI:
                    if (info.remaining().isBlank()) {
                        return "complete";
                    }
                    rest = info.remaining();
                    continue;
                case DEFINITELY_INCOMPLETE:
                case CONSIDERED_INCOMPLETE:
                    return "incomplete";
                default:
                    return "invalid";
            }
        }
    }

    /**
     * Stops the running cell, or, when none is running, the next one (callable from any thread): an
     * interrupt that comes while the cell is compiling or between its snippets is kept until the cell
     * ends, so it is never lost. A kernel that must not stop a later cell calls {@link #clearInterrupt()}.
     */
    public void interrupt() {
        interrupted = true;
        shell.stop();
    }

    /** Forgets an interrupt that no cell has consumed yet. */
    public void clearInterrupt() {
        interrupted = false;
        control.clearStop();
    }

    @Override
    public void close() {
        shell.close();
    }
}
