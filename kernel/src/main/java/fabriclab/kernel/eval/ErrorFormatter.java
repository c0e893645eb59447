package fabriclab.kernel.eval;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jshell.DeclarationSnippet;
import jdk.jshell.Diag;
import jdk.jshell.EvalException;
import jdk.jshell.JShell;
import jdk.jshell.JShellException;
import jdk.jshell.MethodSnippet;
import jdk.jshell.Snippet;
import jdk.jshell.UnresolvedReferenceException;

/**
 * Turns what went wrong in a cell into a {@link CellException} a reader can act on.
 *
 * <p>Compile errors name the place ("cell 3, line 2"), then show the source line with a caret under the
 * column; exceptions show their class, message and stack, with frames of cell code written as their place
 * in the cell ("at fib (cell 3, line 1)"), the kernel's and JShell's own frames left out, runs of a repeated
 * cycle (recursion) written once with their count and at most {@link #MAX_FRAMES} lines, and causes below
 * ("Caused by: "). The names of JShell's wrapper classes ({@code REPL.$JShell$18.}) are removed from every
 * message. An interrupt shows where the cell's code was when it stopped.
 *
 * <p>Keeps, for each snippet evaluated, the cell and line it came from ({@link #recordOrigin}), which the
 * frames of later errors read.
 */
final class ErrorFormatter {
    /** Frames shown before the rest of a deep stack is summarised. */
    static final int MAX_FRAMES = 40;

    private final JShell shell;
    /** Snippet id to {cell number, first line of the snippet in its cell}, for error frames. */
    private final Map<String, int[]> origins = new HashMap<>();

    ErrorFormatter(JShell shell) {
        this.shell = shell;
    }

    /** Records that snippet {@code snippetId} starts at line {@code startLine} of cell {@code cellNumber}. */
    void recordOrigin(String snippetId, int cellNumber, int startLine) {
        origins.put(snippetId, new int[] {cellNumber, startLine});
    }

    /** "method name(int, String)", "class Name", "variable name": a declaration as a reader knows it. */
    static String described(DeclarationSnippet declaration) {
        if (declaration instanceof MethodSnippet method) {
            return "method " + method.name() + "(" + method.parameterTypes().replace(",", ", ") + ")";
        }
        String kind = switch (declaration.subKind()) {
            case INTERFACE_SUBKIND -> "interface";
            case ENUM_SUBKIND -> "enum";
            case ANNOTATION_TYPE_SUBKIND -> "annotation type";
            case RECORD_SUBKIND -> "record";
            case CLASS_SUBKIND -> "class";
            default -> declaration.kind() == Snippet.Kind.VAR ? "variable" : "declaration";
        };
        return kind + " " + declaration.name();
    }

    /** A bad magic line: the message alone. */
    static CellException magicError(String message) {
        return new CellException(CellException.Kind.MAGIC_ERROR, "MagicException", message, List.of("MagicException: " + message));
    }

    /**
     * Code left unfinished at the end of the cell: the place where the unfinished code starts, that line with
     * a caret, and the rest of the cell with its line numbers in the cell.
     *
     * @param code the cell's code (after its magic lines)
     * @param rest the unfinished end of {@code code}
     */
    static CellException incompleteCode(String code, String rest, int cellNumber) {
        int start = code.length() - rest.length() + SourceLines.leadingBlank(rest);
        int firstLine = SourceLines.lineOf(code, start);
        List<String> lines = new ArrayList<>();
        String message = "incomplete code at the end of the cell (a missing ';', ')' or '}'?)";
        lines.add("error: " + message + " (" + place(cellNumber, firstLine) + ")");
        lines.addAll(pointer(code, start));
        String[] restLines = code.substring(code.length() - rest.length()).split("\n", -1);
        int restFirst = SourceLines.lineOf(code, code.length() - rest.length());
        for (int i = 0; i < restLines.length; i++) {
            if (restFirst + i >= firstLine) {
                lines.add(String.format(Locale.ROOT, "%4d | %s", restFirst + i, restLines[i]));
            }
        }
        return new CellException(CellException.Kind.COMPILE_ERROR, "CompilationException", message, lines);
    }

    /**
     * A declaration that still refers to names ({@code missing}) that nothing defined by the end of its cell:
     * for each name, the place of its first use in the declaration, that line and a caret under the name.
     */
    CellException undefinedReferences(DeclarationSnippet declaration, List<String> missing) {
        List<String> lines = new ArrayList<>();
        for (String name : missing) {
            lines.addAll(use(declaration, name, "error: " + declaration.name() + " refers to " + name
                    + ", defined nowhere in this cell or before it"));
        }
        return new CellException(CellException.Kind.COMPILE_ERROR, "CompilationException",
                "cannot find symbol: " + String.join(", ", missing), lines);
    }

    /**
     * {@code headline} followed by the place where {@code declaration} uses the undefined {@code name}
     * ("(cell 3, line 4)"), then that source line and a caret under the name; the declaration's first line when
     * the use cannot be found.
     */
    private List<String> use(DeclarationSnippet declaration, String name, String headline) {
        String source = declaration.source();
        int at = UnresolvedNames.find(source, name);
        if (at < 0) {
            at = SourceLines.leadingBlank(source);
        }
        int[] origin = origins.get(declaration.id());
        int cellNumber = origin == null ? 0 : origin[0];
        // the origin's line is the snippet's first non-blank line, and JShell's source keeps the blank lines before it
        int startLine = origin == null ? 1 : origin[1];
        int blankLinesBefore = SourceLines.lineOf(source, SourceLines.leadingBlank(source)) - 1;
        int line = startLine + SourceLines.lineOf(source, at) - 1 - blankLinesBefore;
        List<String> lines = new ArrayList<>();
        lines.add(headline + " (" + place(cellNumber, line) + ")");
        lines.addAll(pointer(source, at));
        return lines;
    }

    /** The line of {@code text} holding character {@code offset}, indented, and a caret under that character. */
    static List<String> pointer(String text, int offset) {
        int begin = offset == 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
        int end = text.indexOf('\n', begin);
        String line = text.substring(begin, end < 0 ? text.length() : end);
        return List.of("    " + line, "    " + " ".repeat(Math.max(0, offset - begin)) + "^");
    }

    /**
     * The error of an interrupted cell: where its code was when it stopped (the frames of cell code of the
     * error the stop threw, as in a runtime error's trace), else the line of the snippet that was about to
     * start, or had started (0: the cell's start).
     */
    CellException interrupted(int cellNumber, int startLine, EvalException stopped) {
        String message = "the cell was interrupted";
        List<String> lines = new ArrayList<>();
        lines.add("Interrupted: " + message);
        List<String> frames = stopped == null ? List.of() : cellFrames(stopped.getStackTrace());
        if (!frames.isEmpty()) {
            lines.addAll(collapseRepeats(frames));
        } else if (startLine > 0) {
            lines.add("\tat " + place(cellNumber, startLine));
        } else {
            return interruptedBeforeStart(cellNumber);
        }
        return new CellException(CellException.Kind.INTERRUPTED, "Interrupted", message, lines);
    }

    /** A cell interrupted before any of its code started (while it waited for the session, say). */
    static CellException interruptedBeforeStart(int cellNumber) {
        String message = "the cell was interrupted";
        return new CellException(CellException.Kind.INTERRUPTED, "Interrupted", message, List.of("Interrupted: " + message,
                "\tat " + (cellNumber > 0 ? "cell " + cellNumber + ", " : "") + "before it started"));
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

    /**
     * The compiler's diagnostics of a rejected snippet, each with its place in the cell, the source line and a
     * caret under the column; the first error's first line is the message.
     *
     * @param source the snippet's source as JShell compiled it
     * @param startLine the cell line of the snippet's first non-blank line
     */
    CellException compileError(Snippet snippet, String source, int cellNumber, int startLine) {
        List<String> lines = new ArrayList<>();
        List<Diag> diags = shell.diagnostics(snippet).collect(Collectors.toList());
        String[] src = source.split("\n", -1);
        int blankLinesBefore = SourceLines.lineOf(source, SourceLines.leadingBlank(source)) - 1;
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
        if (diags.stream().noneMatch(d -> d.getStartPosition() >= 0)) {
            // no position from the compiler: the snippet's first line
            lines.set(0, lines.get(0) + " (" + place(cellNumber, startLine) + ")");
            lines.addAll(1, pointer(source, SourceLines.leadingBlank(source)));
        }
        return new CellException(CellException.Kind.COMPILE_ERROR, "CompilationException", first, lines);
    }

    /**
     * What the cell's code threw: the exception's class and message with its stack trace and causes, or, for a
     * declaration used while what it refers to is undefined, the names still undefined, where the declaration
     * was used, and where it uses each of them (the line and a caret).
     *
     * @param cellNumber the running cell's number (0: none)
     * @param startLine the cell line of the snippet that threw
     */
    CellException runtimeError(JShellException ex, int cellNumber, int startLine) {
        List<String> lines = new ArrayList<>();
        String name;
        String message;
        if (ex instanceof UnresolvedReferenceException ure) {
            DeclarationSnippet declaration = ure.getSnippet();
            List<String> missing = shell.unresolvedDependencies(declaration).collect(Collectors.toList());
            name = "UnresolvedReferenceException";
            message = "cannot use " + described(declaration) + " because it refers to undefined " + String.join(", ", missing);
            lines.add(name + ": " + message);
            List<String> frames = cellFrames(ure.getStackTrace());
            if (frames.isEmpty() && cellNumber > 0) {
                frames = List.of("\tat " + place(cellNumber, startLine));
            }
            lines.addAll(collapseRepeats(frames));
            for (String m : missing) {
                lines.addAll(use(declaration, m, declaration.name() + " refers to " + m + ", defined nowhere"));
            }
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

    /** "cell 3, line 2" (or "line 2" when cells are not numbered). */
    private static String place(int cellNumber, int line) {
        return (cellNumber > 0 ? "cell " + cellNumber + ", " : "") + "line " + line;
    }
}
