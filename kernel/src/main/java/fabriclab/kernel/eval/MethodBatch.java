package fabriclab.kernel.eval;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import jdk.jshell.DeclarationSnippet;
import jdk.jshell.JShell;
import jdk.jshell.JShellException;
import jdk.jshell.MethodSnippet;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.TypeDeclSnippet;

/**
 * Declares several methods of one cell in one compilation, where {@link JShell#eval} compiles each on its own.
 *
 * <p>{@code JShell.eval} takes one snippet: it parses it, then analyses and compiles it in a class of its own
 * whose source starts with an import of every declaration defined so far (two javac tasks on JDK 17, three on
 * JDK 25, which also looks for overloads), each task reading the class files of those declarations again. A
 * cell of 40 short methods was 40 such rounds, about 40 times a cell of one. JShell already compiles several
 * snippets in one javac task when a change to one makes others compile again (its {@code Eval.compileAndLoad}
 * takes a set of units, each able to refer to the others); this class hands it a cell's methods as one such
 * set: each is parsed into its snippet as {@code eval} does ({@code Eval.sourceToSnippets}), and the set is
 * analysed, compiled and loaded together, in two or three javac tasks in all. The methods end as they would
 * one by one: each its own snippet with its own wrapper class, callable from later cells and replaced by a
 * later declaration of the same signature; methods of the set may call each other in either order.
 *
 * <p>These are members of {@code jdk.jshell} that are not public API (the same on JDK 17 and 25): the
 * kernelspec opens the package to the kernel ({@code --add-opens jdk.jshell/jdk.jshell=ALL-UNNAMED}). When
 * they cannot be reached (the package not opened, another JDK), {@link #create} returns null and the caller
 * evaluates one snippet at a time.
 */
final class MethodBatch {
    private final JShell shell;
    private final Object eval;
    private final Method sourceToSnippets;
    private final Method compileAndLoad;
    private final Method events;
    private final Constructor<?> unit;
    private final Method initialize;
    private final Method setWrap;
    private final Method syntheticDiags;
    private final Field unresolvedSelf;
    private final Method notify;
    private final Method suspendIndexing;
    private final Method resumeIndexing;

    private MethodBatch(JShell shell) throws ReflectiveOperationException {
        this.shell = shell;
        Field evalField = JShell.class.getDeclaredField("eval");
        evalField.setAccessible(true);
        eval = evalField.get(shell);
        Class<?> evalClass = eval.getClass();
        Class<?> unitClass = Class.forName("jdk.jshell.Unit");
        Class<?> diagList = Class.forName("jdk.jshell.DiagList");
        sourceToSnippets = accessible(evalClass.getDeclaredMethod("sourceToSnippets", String.class));
        compileAndLoad = accessible(evalClass.getDeclaredMethod("compileAndLoad", Set.class));
        events = accessible(evalClass.getDeclaredMethod("events", unitClass, Collection.class, String.class, JShellException.class));
        unit = unitClass.getDeclaredConstructor(JShell.class, Snippet.class, Snippet.class, diagList);
        unit.setAccessible(true);
        initialize = accessible(unitClass.getDeclaredMethod("initialize"));
        setWrap = accessible(unitClass.getDeclaredMethod("setWrap", Collection.class, Collection.class));
        syntheticDiags = accessible(Snippet.class.getDeclaredMethod("syntheticDiags"));
        unresolvedSelf = MethodSnippet.class.getDeclaredField("unresolvedSelf");
        unresolvedSelf.setAccessible(true);
        notify = accessible(JShell.class.getDeclaredMethod("notifyKeyStatusEvent", SnippetEvent.class));
        Class<?> analysis = Class.forName("jdk.jshell.SourceCodeAnalysisImpl");
        suspendIndexing = accessible(analysis.getDeclaredMethod("suspendIndexing"));
        resumeIndexing = accessible(analysis.getDeclaredMethod("resumeIndexing"));
        if (!analysis.isInstance(shell.sourceCodeAnalysis())) {
            throw new NoSuchMethodException("SourceCodeAnalysisImpl");
        }
    }

    private static Method accessible(Method m) {
        m.setAccessible(true);
        return m;
    }

    /** The batch evaluator of {@code shell}, or null when JShell's internals cannot be reached. */
    static MethodBatch create(JShell shell) {
        if (Boolean.getBoolean("fabriclab.kernel.noMethodBatch")) {
            return null;
        }
        try {
            return new MethodBatch(shell);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether {@code source}, one complete snippet, may be a method or type declaration: it ends with a block
     * and does not start with a statement's keyword. A cheap filter; {@link #eval} checks with the parser.
     */
    static boolean mayBeDeclaration(String source) {
        String s = source.strip();
        if (!s.endsWith("}") || s.startsWith("{")) {
            return false;
        }
        int end = 0;
        while (end < s.length() && Character.isJavaIdentifierPart(s.charAt(end))) {
            end++;
        }
        return switch (s.substring(0, end)) {
            case "if", "for", "while", "do", "try", "switch", "synchronized", "return", "throw", "new", "var",
                    "import", "yield", "assert" -> false;
            default -> true;
        };
    }

    /**
     * Declares the methods {@code sources} (each one complete snippet, in the cell's order) in one compilation.
     *
     * @return the events as {@link JShell#eval} gives them: one per method, in order, whose cause is null,
     *     then those of earlier snippets the methods changed; or null, with nothing declared, when a source
     *     is not a method with a body, or two have the same name (overloads and a method declared twice go
     *     one by one, as JShell orders them)
     */
    @SuppressWarnings("unchecked")
    List<SnippetEvent> eval(List<String> sources) {
        Object analysis = shell.sourceCodeAnalysis();
        invoke(suspendIndexing, analysis);
        try {
            List<Snippet> snippets = new ArrayList<>();
            Set<String> names = new HashSet<>();
            for (String source : sources) {
                List<Snippet> parsed = (List<Snippet>) invoke(sourceToSnippets, eval, source);
                if (parsed.size() != 1 || !batchable(parsed.get(0)) || !names.add(((DeclarationSnippet) parsed.get(0)).name())) {
                    return null;
                }
                snippets.add(parsed.get(0));
            }
            Set<Object> units = new LinkedHashSet<>();
            for (Snippet s : snippets) {
                units.add(unit.newInstance(shell, s, null, invoke(syntheticDiags, s)));
            }
            // each unit's wrapper imports the others by their wrapper class, whose name its first wrap sets
            for (Object u : units) {
                invoke(initialize, u);
                invoke(setWrap, u, units, List.of(u));
            }
            Set<Object> outs = (Set<Object>) invoke(compileAndLoad, eval, units);
            List<SnippetEvent> result = (List<SnippetEvent>) invoke(events, eval, units.iterator().next(), outs, null, null);
            for (SnippetEvent e : result) {
                invoke(notify, shell, e);
            }
            return result;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("JShell's declaration of a cell's methods failed", e);
        } finally {
            invoke(resumeIndexing, analysis);
        }
    }

    /** A method with a body, or a class, interface, enum, record or annotation type. */
    private boolean batchable(Snippet s) throws IllegalAccessException {
        return s instanceof MethodSnippet method ? unresolvedSelf.get(method) == null
                : s.kind() == Snippet.Kind.TYPE_DECL && s instanceof TypeDeclSnippet;
    }

    private static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
