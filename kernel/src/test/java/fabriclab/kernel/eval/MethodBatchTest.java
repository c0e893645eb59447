package fabriclab.kernel.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cell's methods and types declared in one compilation ({@link MethodBatch}) behave as when JShell declares
 * them one at a time: the same session is run with the batch and, as a second method, with it switched off
 * ({@code -Dfabriclab.kernel.noMethodBatch=true}), and both must agree with values worked out by hand.
 */
class MethodBatchTest {
    static JavaEvaluator batched;
    static JavaEvaluator oneByOne;

    @BeforeAll
    static void start() {
        batched = new JavaEvaluator(List.of(), List.of());
        System.setProperty("fabriclab.kernel.noMethodBatch", "true");
        try {
            oneByOne = new JavaEvaluator(List.of(), List.of());
        } finally {
            System.clearProperty("fabriclab.kernel.noMethodBatch");
        }
    }

    @AfterAll
    static void stop() {
        batched.close();
        oneByOne.close();
    }

    /**
     * {@code n} methods {@code PREFIX_i(int x)}: each calls the next (a forward reference) and adds 1; the last
     * returns x. (One by one, JShell compiles every method above the one it declares again: n squared over 2.)
     */
    static String chain(String prefix, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append("int ").append(prefix).append('_').append(i).append("(int x) { return ")
                    .append(i + 1 < n ? prefix + "_" + (i + 1) + "(x) + 1" : "x").append("; }\n");
        }
        return sb.toString();
    }

    /** {@code n} methods {@code PREFIX_i(int x)}: each calls the one above it and adds 1; the first returns x. */
    static String backChain(String prefix, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append("int ").append(prefix).append('_').append(i).append("(int x) { return ")
                    .append(i > 0 ? prefix + "_" + (i - 1) + "(x) + 1" : "x").append("; }\n");
        }
        return sb.toString();
    }

    @Test
    void theBatchIsReachableWhereTheKernelRuns() {
        // the surefire argLine opens jdk.jshell as kernel.json does: on this JDK the batch must be in use
        assertNotNull(MethodBatch.create(batched.jshell()), "jdk.jshell internals not reachable on " + Runtime.version());
    }

    @Test
    void fortyMethodsWithForwardReferencesAreCallableAndRedefinable() throws Exception {
        assertFalse(batched.eval(chain("fw", 40), 3).hasValue());
        // fw_0(x) = fw_1(x) + 1 = ... = fw_39(x) + 39 = x + 39
        assertEquals(44, batched.eval("fw_0(5)").value());
        assertEquals(5, batched.eval("fw_39(5)").value());
        // a later cell replaces the last one: every caller now reaches the new one
        batched.eval("int fw_39(int x) { return 2 * x; }", 4);
        assertEquals(49, batched.eval("fw_0(5)").value());
        // running the first cell again restores them all
        batched.eval(chain("fw", 40), 5);
        assertEquals(44, batched.eval("fw_0(5)").value());
        for (JavaEvaluator e : List.of(batched, oneByOne)) {
            e.eval(chain("fs", 6) + backChain("bw", 40), 3);
            assertEquals(List.of(10, 44), e.eval("List.of(fs_0(5), bw_39(5))").value());
            e.eval("int fs_5(int x) { return 2 * x; }\nint bw_0(int x) { return 2 * x; }", 4);
            assertEquals(List.of(15, 49), e.eval("List.of(fs_0(5), bw_39(5))").value());
        }
    }

    @Test
    void mutualRecursionAndATypeDeclaredAfterItsUse() throws Exception {
        String cell = "boolean isEven(int n) { return n == 0 || isOdd(n - 1); }\n"
                + "boolean isOdd(int n) { return n != 0 && isEven(n - 1); }\n"
                + "Pair half(int n) { return new Pair(n / 2, n % 2); }\n"
                + "record Pair(int q, int r) { }\n";
        for (JavaEvaluator e : List.of(batched, oneByOne)) {
            e.eval(cell, 6);
            assertEquals(List.of(true, false, "Pair[q=3, r=1]"), e.eval("List.of(isEven(10), isOdd(10), half(7).toString())").value());
        }
    }

    @Test
    void aTypeErrorInTheThirtiethMethodPointsAtItsLine() {
        StringBuilder cell = new StringBuilder(backChain("te", 29));
        cell.append("int te_29(int x) {\n  String s = x;\n  return 0;\n}\n").append(backChain("tf", 10));
        CellException b = assertThrows(CellException.class, () -> batched.eval(cell.toString(), 7));
        CellException s = assertThrows(CellException.class, () -> oneByOne.eval(cell.toString(), 7));
        assertEquals(CellException.Kind.COMPILE_ERROR, b.kind());
        assertTrue(b.getMessage().contains("incompatible types"), b.getMessage());
        // line 31 of the cell: 29 one-line methods, then the header of te_29, then its second line
        String[] shown = sourceAndCaret(b.traceback(), "(cell 7, line 31)");
        assertEquals("      String s = x;", shown[0]);
        assertEquals(shown[0].indexOf("x;"), shown[1].indexOf('^'));
        assertEquals(s.getMessage(), b.getMessage());
        assertEquals(s.traceback(), b.traceback());
    }

    @Test
    void anUndefinedNameInTheThirtiethMethodPointsAtIt() {
        StringBuilder cell = new StringBuilder(backChain("ud", 29));
        cell.append("int ud_29(int x) {\n  return x + ghostRate;\n}\n").append(backChain("ue", 10));
        CellException b = assertThrows(CellException.class, () -> batched.eval(cell.toString(), 8));
        CellException s = assertThrows(CellException.class, () -> oneByOne.eval(cell.toString(), 8));
        assertEquals("cannot find symbol: variable ghostRate", b.getMessage());
        String[] shown = sourceAndCaret(b.traceback(), "(cell 8, line 31)");
        assertEquals("      return x + ghostRate;", shown[0]);
        assertEquals(shown[0].indexOf("ghostRate"), shown[1].indexOf('^'));
        assertEquals(s.getMessage(), b.getMessage());
        assertEquals(s.traceback(), b.traceback());
    }

    @Test
    void aRuntimeErrorInABatchedMethodReadsAsOneByOne() {
        String cell = "int pad = 0;\nint outer(int x) { return inner(x); }\nint inner(int x) {\n  return 10 / x;\n}\nouter(0)";
        CellException b = assertThrows(CellException.class, () -> batched.eval(cell, 9));
        CellException s = assertThrows(CellException.class, () -> oneByOne.eval(cell, 9));
        assertEquals("java.lang.ArithmeticException", b.name());
        assertEquals(s.traceback(), b.traceback());
    }

    @Test
    void overloadsAndADeclarationRepeatedInOneCellGoOneByOne() throws Exception {
        String cell = "String kind(int x) { return \"int\"; }\nString kind(String x) { return \"String\"; }\n"
                + "int twice(int x) { return 3 * x; }\nint twice(int x) { return 2 * x; }\n";
        for (JavaEvaluator e : List.of(batched, oneByOne)) {
            e.eval(cell, 10);
            assertEquals(List.of("int", "String", 8), e.eval("List.of(kind(1), kind(\"a\"), twice(4))").value());
        }
    }

    @Test
    void statementsBetweenMethodsRunInOrder() throws Exception {
        String cell = "int sa(int x) { return x + 1; }\nint sb(int x) { return sa(x) * 2; }\nint sv = sb(1);\n"
                + "int sc(int x) { return sv + x; }\nint sd(int x) { return sc(x) + 1; }\nsd(10)";
        for (JavaEvaluator e : List.of(batched, oneByOne)) {
            // sv = (1 + 1) * 2 = 4; sd(10) = 4 + 10 + 1
            assertEquals(15, e.eval(cell, 11).value());
        }
    }

    @Test
    void mayBeDeclarationLetsStatementsThrough() {
        assertTrue(MethodBatch.mayBeDeclaration("int f() { return 1; }"));
        assertTrue(MethodBatch.mayBeDeclaration("@Deprecated\nstatic <T> List<T> g() { return null; }"));
        assertTrue(MethodBatch.mayBeDeclaration("record P(int a) { }"));
        assertFalse(MethodBatch.mayBeDeclaration("if (true) { }"));
        assertFalse(MethodBatch.mayBeDeclaration("for (;;) { break; }"));
        assertFalse(MethodBatch.mayBeDeclaration("{ int a = 1; }"));
        assertFalse(MethodBatch.mayBeDeclaration("int a = 1;"));
        assertFalse(MethodBatch.mayBeDeclaration("Runnable r = () -> { };"));
    }

    private static String[] sourceAndCaret(List<String> tb, String place) {
        for (int i = 0; i + 2 < tb.size(); i++) {
            if (tb.get(i).endsWith(place)) {
                return new String[] {tb.get(i + 1), tb.get(i + 2)};
            }
        }
        throw new AssertionError("no line ending with " + place + " in " + tb);
    }
}
