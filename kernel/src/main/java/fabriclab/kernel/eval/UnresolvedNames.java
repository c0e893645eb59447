package fabriclab.kernel.eval;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.net.URI;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import javax.tools.JavaCompiler;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/**
 * Where a declaration uses a name that nothing defines. JShell keeps such a declaration (a method or class
 * whose body refers to an undefined name) and names what is missing ("method nowhere()", "variable rate",
 * "class Missing"), but gives no position; this finds it by parsing the declaration's source with the JDK's
 * compiler (syntax only, nothing resolved) and taking the first use of that name in source order: for a
 * method, an unqualified call of it; for a variable, a simple name that is not a call; for a type, a simple
 * name. Strings and comments are never matched, since the parser does not see names in them.
 */
final class UnresolvedNames {
    /** Wraps the declaration so that a method or a field parses as a member of a class. */
    private static final String PREFIX = "class $Cell {\n";

    private UnresolvedNames() {
    }

    /**
     * The offset in {@code source} of the first use of the name {@code dependency} describes, or -1 when
     * there is none (or the source does not parse).
     *
     * @param source a declaration's source, as JShell keeps it
     * @param dependency one of JShell's unresolved dependencies: a kind and a name, as "method nowhere()",
     *     "variable rate" or "class Missing"
     */
    static int find(String source, String dependency) {
        String kind = dependency.contains(" ") ? dependency.substring(0, dependency.indexOf(' ')) : "";
        String name = dependency.substring(dependency.indexOf(' ') + 1);
        if (name.indexOf('(') >= 0) {
            name = name.substring(0, name.indexOf('('));
        }
        if (name.indexOf('<') >= 0) {
            name = name.substring(0, name.indexOf('<'));
        }
        name = name.substring(name.lastIndexOf('.') + 1).strip();
        if (name.isEmpty()) {
            return -1;
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            return -1;
        }
        String text = PREFIX + source + "\n}\n";
        SimpleJavaFileObject file = new SimpleJavaFileObject(URI.create("string:///Cell.java"), javax.tools.JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return text;
            }
        };
        try {
            JavacTask task = (JavacTask) javac.getTask(null, null, d -> { }, List.of("-proc:none"), null, List.of(file));
            CompilationUnitTree unit = task.parse().iterator().next();
            SourcePositions positions = Trees.instance(task).getSourcePositions();
            Uses uses = new Uses(name, kind, unit, positions);
            uses.scan(unit, null);
            long at = uses.best();
            return at < 0 ? -1 : (int) Math.max(0, Math.min(source.length(), at - PREFIX.length()));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Collects the start positions of the uses of a name; the best is the first of the kind asked for. */
    private static final class Uses extends TreeScanner<Void, Void> {
        private final String name;
        private final String kind;
        private final CompilationUnitTree unit;
        private final SourcePositions positions;
        private final Set<Tree> calledNames = Collections.newSetFromMap(new IdentityHashMap<>());
        private long firstCall = -1;
        private long firstNonCall = -1;
        private long firstAny = -1;
        private long firstMember = -1;

        Uses(String name, String kind, CompilationUnitTree unit, SourcePositions positions) {
            this.name = name;
            this.kind = kind;
            this.unit = unit;
            this.positions = positions;
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree call, Void p) {
            Tree select = call.getMethodSelect();
            if (select instanceof IdentifierTree id && id.getName().contentEquals(name)) {
                calledNames.add(select);
                firstCall = min(firstCall, start(select));
            }
            return super.visitMethodInvocation(call, p);
        }

        @Override
        public Void visitIdentifier(IdentifierTree id, Void p) {
            if (id.getName().contentEquals(name)) {
                long at = start(id);
                firstAny = min(firstAny, at);
                if (!calledNames.contains(id)) {
                    firstNonCall = min(firstNonCall, at);
                }
            }
            return super.visitIdentifier(id, p);
        }

        @Override
        public Void visitMemberSelect(MemberSelectTree select, Void p) {
            if (select.getIdentifier().contentEquals(name)) {
                long end = positions.getEndPosition(unit, select);
                if (end >= name.length()) {
                    firstMember = min(firstMember, end - name.length());
                }
            }
            return super.visitMemberSelect(select, p);
        }

        private long start(Tree tree) {
            return positions.getStartPosition(unit, tree);
        }

        private static long min(long current, long candidate) {
            return candidate < 0 ? current : current < 0 ? candidate : Math.min(current, candidate);
        }

        long best() {
            long preferred = switch (kind) {
                case "method" -> firstCall;
                case "variable" -> firstNonCall;
                default -> firstAny;
            };
            return preferred >= 0 ? preferred : firstAny >= 0 ? firstAny : firstMember;
        }
    }
}
