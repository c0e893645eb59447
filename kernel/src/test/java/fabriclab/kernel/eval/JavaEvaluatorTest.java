package fabriclab.kernel.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaEvaluatorTest {
    static JavaEvaluator eval;

    @BeforeAll
    static void start() {
        eval = new JavaEvaluator(List.of(), List.of("int answer() { return 42; }"));
    }

    @AfterAll
    static void stop() {
        eval.close();
    }

    @Test
    void everyDefaultImportResolves() throws Exception {
        EvalResult r = eval.eval("List.of(new File(\"f\").getName(), BigInteger.ONE, URI.create(\"http://h\").getHost(), Path.of(\"p\"),"
                + " TimeUnit.SECONDS, Function.identity().apply(\"id\"), Preferences.class.getSimpleName(),"
                + " Pattern.compile(\"a+\").matcher(\"aa\").matches(), IntStream.range(0, 3).sum())");
        assertEquals("[f, 1, h, p, SECONDS, id, Preferences, true, 3]", String.valueOf(r.value()));
    }

    @Test
    void expressionGivesTheRealObject() throws Exception {
        EvalResult r = eval.eval("new java.util.ArrayList<>(List.of(1, 2))");
        assertTrue(r.hasValue());
        assertEquals(List.of(1, 2), r.value());
        assertEquals(java.util.ArrayList.class, r.value().getClass());
        assertEquals(7, eval.eval("3 + 4").value());
    }

    @Test
    void statementsAndDeclarationsShowNothing() throws Exception {
        assertFalse(eval.eval("int x = 5;").hasValue());
        assertFalse(eval.eval("void f() {}").hasValue());
        assertFalse(eval.eval("f()").hasValue(), "void call");
        assertFalse(eval.eval("Object o = null; o").hasValue(), "null value");
        assertEquals(10, eval.eval("x * 2").value(), "declared variables persist");
    }

    @Test
    void severalSnippetsInOneCellRunInOrderAndTheLastIsTheValue() throws Exception {
        EvalResult r = eval.eval("int a = 2;\nint b = a * 3;\nString s = \"v\" + b;\ns + answer()");
        assertEquals("v642", r.value());
    }

    @Test
    void statementsContinuedOnLinesStartingWithADotStayOneSnippet() throws Exception {
        // the jshell tool evaluates line by line and would cut these; a cell is evaluated whole
        assertEquals(List.of(2, 4, 6), eval.eval("var doubled = Stream.of(1, 2, 3)\n    .map(v -> v * 2)\n    .toList();\ndoubled").value());
    }

    @Test
    void defaultImportsAndClasspathAreAvailable() throws Exception {
        assertEquals(3L, eval.eval("Stream.of(1, 2, 3).count()").value());
        assertEquals(1.0, eval.eval("fabriclab.Parameters.positive(\"rate\", 1.0)").value());
    }

    @Test
    void stdoutGoesToSystemOut() throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            eval.eval("System.out.println(\"hello from cell\");");
        } finally {
            System.setOut(old);
        }
        assertTrue(buf.toString(StandardCharsets.UTF_8).contains("hello from cell"));
    }

    @Test
    void compileErrorIsReadableAndTheEvaluatorSurvives() throws Exception {
        CellException e = assertThrows(CellException.class, () -> eval.eval("int y = \"text\";"));
        assertEquals(CellException.Kind.COMPILE_ERROR, e.kind());
        assertTrue(e.getMessage().contains("incompatible types"), e.getMessage());
        assertTrue(String.join("\n", e.traceback()).contains("^"), "caret under the error");
        assertEquals(2, eval.eval("1 + 1").value());
    }

    @Test
    void runtimeErrorNamesTheExceptionAndLine() throws Exception {
        CellException e = assertThrows(CellException.class,
                () -> eval.eval("int z = 1;\nfabriclab.Parameters.positive(\"rate\", -1)"));
        assertEquals(CellException.Kind.RUNTIME_ERROR, e.kind());
        assertEquals("java.lang.IllegalArgumentException", e.name());
        assertTrue(e.getMessage().contains("rate must be"), e.getMessage());
        assertTrue(String.join("\n", e.traceback()).contains("fabriclab.Parameters.positive"));
        assertEquals(3, eval.eval("1 + 2").value());
    }

    @Test
    void incompleteCodeIsReported() {
        CellException e = assertThrows(CellException.class, () -> eval.eval("for (int i = 0; i < 3; i++) {"));
        assertEquals(CellException.Kind.COMPILE_ERROR, e.kind());
    }

    @Test
    void interruptStopsACpuBoundLoopAndTheNextCellRuns() throws Exception {
        ExecutorService ex = Executors.newSingleThreadExecutor();
        try {
            Future<?> f = ex.submit(() -> {
                CellException e = assertThrows(CellException.class, () -> eval.eval("long n = 0; while (true) { n++; }"));
                assertEquals(CellException.Kind.INTERRUPTED, e.kind());
                return null;
            });
            Thread.sleep(700);
            eval.interrupt();
            f.get(10, TimeUnit.SECONDS);
            assertEquals(5, eval.eval("2 + 3").value());
            Future<?> g = ex.submit(() -> assertThrows(CellException.class,
                    () -> eval.eval("while (true) { try { Thread.sleep(10); } catch (Throwable t) { } }")));
            Thread.sleep(500);
            eval.interrupt();
            g.get(10, TimeUnit.SECONDS);
            assertEquals(6, eval.eval("3 + 3").value());
        } finally {
            ex.shutdownNow();
        }
    }

    @Test
    void exitInACellIsRefusedWithoutASecurityManager() throws Exception {
        for (String code : List.of("System.exit(3);", "Runtime.getRuntime().halt(1);",
                "java.util.function.IntConsumer q = System::exit; q.accept(2);")) {
            CellException e = assertThrows(CellException.class, () -> eval.eval(code), code);
            assertEquals("java.lang.SecurityException", e.name(), code);
        }
        assertEquals(8, eval.eval("4 + 4").value());
    }

    @Test
    void interruptBeforeTheCellStartsStopsItAndOnlyIt() throws Exception {
        eval.interrupt();
        long start = System.nanoTime();
        CellException e = assertThrows(CellException.class, () -> eval.eval("Thread.sleep(30000);"));
        assertEquals(CellException.Kind.INTERRUPTED, e.kind());
        assertTrue(System.nanoTime() - start < 10_000_000_000L);
        assertEquals(9, eval.eval("4 + 5").value());
    }

    @Test
    void theErrorOfACellStoppedBeforeTheSessionIsReadyIsTheOneEvalGives() throws Exception {
        for (int cell : new int[] {0, 7}) {
            eval.interrupt();
            CellException byEval = assertThrows(CellException.class, () -> eval.eval("1 + 1", cell));
            CellException byKernel = JavaEvaluator.interruptedBeforeStart(cell);
            assertEquals(byEval.kind(), byKernel.kind());
            assertEquals(byEval.name(), byKernel.name());
            assertEquals(byEval.getMessage(), byKernel.getMessage());
            assertEquals(byEval.traceback(), byKernel.traceback());
        }
        assertEquals(List.of("Interrupted: the cell was interrupted", "\tat cell 7, before it started"),
                JavaEvaluator.interruptedBeforeStart(7).traceback());
    }

    @Test
    void expressionValuesAreShownAndLeaveNoTemporaryVariable() throws Exception {
        assertEquals(42, eval.eval("40 + 2").value());
        assertEquals("ab", eval.eval("String.join(\"\", \"a\", \"b\")").value());
        assertEquals(7, eval.eval("int keptSeven = 7;\nkeptSeven * 3;\nkeptSeven").value());
        assertTrue(eval.jshell().variables().anyMatch(v -> v.name().equals("keptSeven")));
        assertEquals(List.of(), eval.jshell().variables().filter(v -> v.subKind() == jdk.jshell.Snippet.SubKind.TEMP_VAR_EXPRESSION_SUBKIND)
                .map(v -> v.name()).toList());
        assertEquals(21, eval.eval("keptSeven * 3").value());
    }

    @Test
    void interruptedRecursionStops() throws Exception {
        ExecutorService ex = Executors.newSingleThreadExecutor();
        try {
            eval.eval("long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }", 3);
            Future<CellException> f = ex.submit(() -> assertThrows(CellException.class, () -> eval.eval("int pad = 0;\nfib(90)", 4)));
            Thread.sleep(700);
            eval.interrupt();
            CellException e = f.get(10, TimeUnit.SECONDS);
            assertEquals(CellException.Kind.INTERRUPTED, e.kind());
            assertTrue(String.join("\n", e.traceback()).contains("at fib (cell 3, line 1)"), e.traceback().toString());
            assertTrue(String.join("\n", e.traceback()).contains("cell 4, line 2"), e.traceback().toString());
        } finally {
            ex.shutdownNow();
        }
    }

    @Test
    void compileErrorNamesTheCellLine() {
        CellException e = assertThrows(CellException.class, () -> eval.eval("int c1 = 1;\n\nint c2 = \"two\";", 7));
        assertTrue(e.traceback().get(0).endsWith("(cell 7, line 3)"), e.traceback().toString());
    }

    @Test
    void isCompleteClassifiesCode() {
        assertEquals("complete", eval.isComplete("int q = 1;"));
        assertEquals("complete", eval.isComplete("1 + 1"));
        assertEquals("incomplete", eval.isComplete("for (int i = 0; i < 3; i++) {"));
        assertEquals("complete", eval.isComplete("%jars foo.jar"));
    }

    @Test
    void completionAndInspection() {
        Completion c = eval.complete("Math.ab", 7);
        assertTrue(c.options().contains("abs("), c.options().toString());
        assertEquals(5, c.start());
        String doc = eval.inspect("Math.abs(1)", 6);
        assertNotNull(doc);
        assertTrue(doc.contains("abs"), doc);
    }

    @Test
    void packageNamesCompleteFromTheJdkAndTheClasspath() {
        String code = "java.util.conc";
        Completion c = eval.complete(code, code.length());
        assertEquals(List.of("concurrent"), c.options());
        assertEquals("java.util.".length(), c.start());
        code = "import tech.tablesaw.a";
        c = eval.complete(code, code.length());
        // "aggregate" from the kernel's package names, "aggregate." from JShell once its background index of the
        // class path is built (seconds after the session starts): either completes the package
        List<String> packages = c.options().stream().map(o -> o.endsWith(".") ? o.substring(0, o.length() - 1) : o).toList();
        assertTrue(packages.containsAll(List.of("aggregate", "analytic", "api")), c.options().toString());
        assertEquals(code.length() - 1, c.start());
        code = "fabriclab.noteb";
        assertEquals(List.of("notebook"), eval.complete(code, code.length()).options());
    }

    @Test
    void jarsMagicAddsToTheClasspath(@TempDir Path dir) throws Exception {
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes.resolve("demo"));
        Path src = dir.resolve("Hello.java");
        Files.writeString(src, "package demo; public class Hello { public static String hi() { return \"hi\"; } }");
        javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), src.toString());
        assertTrue(eval.complete("import dem", 10).options().stream().noneMatch(o -> o.startsWith("demo")));
        EvalResult r = eval.eval("%classpath " + classes + "\ndemo.Hello.hi()");
        assertEquals("hi", r.value());
        List<String> options = eval.complete("import dem", 10).options();
        assertTrue(options.contains("demo") || options.contains("demo."), "a directory added with %classpath: " + options);
        CellException e = assertThrows(CellException.class, () -> eval.eval("%jars " + dir + "/nothing*.jar"));
        assertEquals(CellException.Kind.MAGIC_ERROR, e.kind());
        e = assertThrows(CellException.class, () -> eval.eval("%nosuch x"));
        assertTrue(e.getMessage().contains("unknown magic"));
    }

    /** The line of {@code tb} after the one ending with {@code place}, and the caret line after it. */
    private static String[] sourceAndCaret(List<String> tb, String place) {
        for (int i = 0; i + 2 < tb.size(); i++) {
            if (tb.get(i).endsWith(place)) {
                return new String[] {tb.get(i + 1), tb.get(i + 2)};
            }
        }
        throw new AssertionError("no line ending with " + place + " in " + tb);
    }

    @Test
    void undefinedNameInAMethodBodyPointsAtItsLineAndColumn() {
        String cell = "int before = 1;\n\nvoid report() {\n  String s = \"ghostRate\"; // ghostRate\n  System.out.println(s + ghostRate);\n}";
        CellException e = assertThrows(CellException.class, () -> eval.eval(cell, 21));
        assertEquals(CellException.Kind.COMPILE_ERROR, e.kind());
        assertEquals("cannot find symbol: variable ghostRate", e.getMessage());
        String[] shown = sourceAndCaret(e.traceback(), "(cell 21, line 5)");
        assertEquals("      System.out.println(s + ghostRate);", shown[0]);
        assertEquals(shown[0].indexOf("ghostRate"), shown[1].indexOf('^'));
        assertEquals("^", shown[1].strip());
    }

    @Test
    void undefinedNameInAClassBodyPointsAtIt() {
        CellException e = assertThrows(CellException.class, () -> eval.eval("class Holder {\n  int twice() { return 2 * absentField; }\n}", 22));
        String[] shown = sourceAndCaret(e.traceback(), "(cell 22, line 2)");
        assertEquals(shown[0].indexOf("absentField"), shown[1].indexOf('^'));
    }

    @Test
    void callingAMethodWithAnUndefinedNameNamesTheMethodAndThePlaces() {
        assertThrows(CellException.class, () -> eval.eval("int pad1 = 0;\nvoid usesGhost(int a, String b) {\n  ghostCall(a);\n}", 23));
        CellException e = assertThrows(CellException.class, () -> eval.eval("int pad2 = 0;\nusesGhost(1, \"x\")", 24));
        assertEquals("UnresolvedReferenceException", e.name());
        assertEquals("cannot use method usesGhost(int, String) because it refers to undefined method ghostCall(int)", e.getMessage());
        String tb = String.join("\n", e.traceback());
        assertTrue(tb.contains("at usesGhost (cell 23, line 2)"), tb);
        assertTrue(tb.contains("at cell 24, line 2"), tb);
        String[] shown = sourceAndCaret(e.traceback(), "(cell 23, line 3)");
        assertEquals("      ghostCall(a);", shown[0]);
        assertEquals(shown[0].indexOf("ghostCall"), shown[1].indexOf('^'));
    }

    @Test
    void incompleteCodePointsAtWhereItStarts() {
        CellException e = assertThrows(CellException.class, () -> eval.eval("int done = 1;\nwhile (done < 3) {\n  done++;", 25));
        assertTrue(e.traceback().get(0).endsWith("(cell 25, line 2)"), e.traceback().toString());
        assertEquals("    while (done < 3) {", e.traceback().get(1));
        assertEquals("    ^", e.traceback().get(2));
    }
}
