package fabriclab.kernel.eval;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import jdk.jshell.SourceCodeAnalysis;

/**
 * Answers an editor's questions about code that has not run, from JShell's analysis of the session: code
 * completion, help on the name at the cursor (signatures with their Javadoc rendered by {@link JavadocText},
 * or a variable's type), and whether a cell is complete or needs more lines.
 */
final class CodeAssist {
    private static final Pattern ENDS_WITH_ANNOTATION =
            Pattern.compile("(?s)(.*[;{}\\s])?@[\\w.]+(\\s*\\([^()]*\\))?\\s*");

    private final SourceCodeAnalysis analysis;
    private final PackageNames packages;

    CodeAssist(SourceCodeAnalysis analysis, PackageNames packages) {
        this.analysis = analysis;
        this.packages = packages;
    }

    /**
     * Code completion at {@code cursor}: the candidates and the range [start, cursor) they replace. JShell's
     * candidates come first; when the text before the cursor is a qualified name (or a name after
     * {@code import}), the package names it starts ({@link PackageNames}) follow, in alphabetical order, each
     * once and without a trailing dot. JShell suggests packages too ({@code concurrent.}) but only once its
     * background index of the class path is ready; those suggestions are dropped in favour of the package
     * names, so the answer does not depend on how long the session has been running.
     */
    Completion complete(String code, int cursor) {
        int[] anchor = new int[1];
        List<String> options = analysis.completionSuggestions(code, cursor, anchor).stream()
                .map(SourceCodeAnalysis.Suggestion::continuation).distinct().collect(Collectors.toList());
        Completion shell = new Completion(options, anchor[0], cursor);
        Completion names = packages.complete(code, cursor);
        return merge(shell, names);
    }

    /**
     * JShell's completion {@code shell} and the package names' {@code names} (null when the text is not a
     * package name) as one answer: {@code shell}'s candidates other than the packages {@code names} lists
     * (as {@code p} or {@code p.}), then {@code names}' candidates. {@code shell} alone when the two replace
     * different ranges.
     */
    static Completion merge(Completion shell, Completion names) {
        if (names == null || names.options().isEmpty()) {
            return shell;
        }
        if (shell.options().isEmpty()) {
            return names;
        }
        if (shell.start() != names.start()) {
            return shell;
        }
        Set<String> packageOptions = new HashSet<>(names.options());
        List<String> merged = new ArrayList<>();
        for (String o : shell.options()) {
            String bare = o.endsWith(".") ? o.substring(0, o.length() - 1) : o;
            if (!packageOptions.contains(bare)) {
                merged.add(o);
            }
        }
        merged.addAll(names.options());
        return new Completion(merged, shell.start(), shell.end());
    }

    /**
     * Help for the identifier at {@code cursor}: the signatures and their Javadoc rendered for a reader, or the
     * variable's type; null when there is none.
     */
    Help help(String code, int cursor) {
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

    /**
     * Jupyter's is_complete answer for {@code code}: "complete", "incomplete" or "invalid". Magic lines at the
     * top are complete in themselves; an annotation at the end needs the declaration it annotates.
     */
    String isComplete(String code) {
        boolean onlyMagics = code.lines().allMatch(Magics::isBlankOrMagic);
        if (onlyMagics) {
            return "complete";
        }
        String rest = code.lines().dropWhile(Magics::isBlankOrMagic).collect(Collectors.joining("\n"));
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
}
