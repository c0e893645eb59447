package fabriclab.kernel.eval;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import jdk.jshell.ImportSnippet;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;

/**
 * The session's imports: the default imports every cell sees, and the rules that keep an import from ever
 * resetting a variable.
 *
 * <p>The ten {@link #DEFAULT_IMPORTS} are one JShell snippet, compiled once at start-up instead of ten times.
 * JShell keys an import snippet by its first import, so a cell importing that package again would replace
 * the whole snippet: such an import is skipped ({@link #coveredByDefaults}), and should another form of it
 * still replace the snippet ({@link #onSideEffect}), the others come back as separate snippets when the cell
 * ends ({@link #endCell}).
 *
 * <p>Every import is evaluated on one line ({@link #oneLine}). JShell compiles each snippet in a wrapper
 * class whose source starts with every import so far, each import snippet's text as it was given (comments
 * blanked, line breaks kept), and a type-import-on-demand ({@code import p.*;}) makes JShell compile again
 * every snippet that depends on any name. An import that came after a line break (one below a declaration
 * in its cell, or a comment above it) added a line to that prefix, so every recompiled class differed from
 * the loaded one in its line numbers alone; JShell then asks the execution engine to redefine it, the
 * in-process engine ({@link jdk.jshell.execution.DirectExecutionControl}) cannot, and JShell replaces the
 * class with a new one: each variable declared before the import would be reset to null or 0 (the jshell
 * tool redefines the class over JDI and keeps the value). With every import one line, the prefix is always
 * one line long and a recompiled class is identical to the loaded one, so it is kept.
 * {@link CellExecutionControl#redefine} keeps a class that differs only in its debug information in any case.
 */
final class Imports {
    /** Imports every cell sees, the same as IJava's and the jshell tool's defaults. */
    static final List<String> DEFAULT_IMPORTS = List.of(
            "java.io.*", "java.math.*", "java.net.*", "java.nio.file.*", "java.util.*",
            "java.util.concurrent.*", "java.util.function.*", "java.util.prefs.*", "java.util.regex.*",
            "java.util.stream.*");

    private final JShell shell;
    /** The {@link #DEFAULT_IMPORTS} as one snippet, or null once they are separate snippets again. */
    private Snippet defaultImports;
    /** The import that replaced {@link #defaultImports} in the current cell, or null. */
    private ImportSnippet replacedDefaultImports;

    Imports(JShell shell) {
        this.shell = shell;
    }

    /**
     * Evaluates the {@link #DEFAULT_IMPORTS} as one snippet, on one line.
     *
     * @throws IllegalStateException when they do not compile
     */
    void evalDefaults() {
        StringBuilder source = new StringBuilder();
        for (String imp : DEFAULT_IMPORTS) {
            source.append("import ").append(imp).append("; ");
        }
        List<SnippetEvent> events = shell.eval(source.toString());
        if (events.isEmpty() || events.get(0).status() != Snippet.Status.VALID) {
            throw new IllegalStateException("the default imports do not compile: "
                    + (events.isEmpty() ? "no snippet" : shell.diagnostics(events.get(0).snippet())
                            .map(d -> d.getMessage(Locale.ROOT)).collect(Collectors.joining("; "))));
        }
        defaultImports = events.get(0).snippet();
    }

    /**
     * Whether the import {@code oneLine} (from {@link #oneLine}, or null for a snippet that is no import) is
     * the first of the default imports while they are one snippet: it is imported already, and evaluating it
     * would replace that snippet, which every snippet needs; re-evaluating every declaration against the
     * smaller set of imports would reset the variables among them. Such an import is not evaluated.
     */
    boolean coveredByDefaults(String oneLine) {
        return oneLine != null && defaultImports != null && oneLine.equals("import " + DEFAULT_IMPORTS.get(0) + ";");
    }

    /** Notes a side effect of a cell's snippet on an earlier one: whether it replaced the default imports' snippet. */
    void onSideEffect(SnippetEvent event) {
        if (event.snippet() == defaultImports && event.status() == Snippet.Status.OVERWRITTEN
                && event.causeSnippet() instanceof ImportSnippet cause) {
            replacedDefaultImports = cause;
        }
    }

    /**
     * At the end of a cell whose import replaced the snippet of the default imports (the same package as its
     * first one), evaluates the other default imports again, one snippet each.
     */
    void endCell() {
        if (replacedDefaultImports == null) {
            return;
        }
        ImportSnippet by = replacedDefaultImports;
        replacedDefaultImports = null;
        defaultImports = null;
        for (String imp : DEFAULT_IMPORTS) {
            if (!imp.equals(by.fullname()) || by.isStatic()) {
                shell.eval("import " + imp + ";");
            }
        }
    }

    /**
     * An import snippet's source as one line without comments and without spaces around dots
     * ({@code "import a.b.*;"}), or null when the snippet is not an import.
     */
    static String oneLine(String source) {
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
}
