package fabriclab.kernel.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Imports: each evaluated on one line, the default imports kept whole, and no import ever resetting a variable. */
class ImportsTest {
    @Test
    void importsAreEvaluatedOnOneLine() {
        assertEquals("import a.b.*;", Imports.oneLine("\n  // comment\n import a.b.*;"));
        assertEquals("import static a.B.c;", Imports.oneLine("import static /* x\ny */ a.B\n  .c;"));
        assertEquals("import java.io.*;", Imports.oneLine("import java . io . * ;"));
        assertEquals(null, Imports.oneLine("\nint importance = 1;"));
        assertEquals(null, Imports.oneLine("String s = \"http://x\";"));
    }

    @Test
    void importingTheFirstDefaultPackageAgainKeepsTheOthers() throws Exception {
        try (JavaEvaluator fresh = new JavaEvaluator(List.of(), List.of())) {
            fresh.eval("import java.io.*;");
            assertEquals("[x, 2]", String.valueOf(fresh.eval("List.of(new File(\"x\").getName(), Stream.of(1, 2).count())").value()));
            fresh.eval("import java.util.*;\nimport java.io.File;");
            assertEquals(3, fresh.eval("new ArrayList<>(Set.of(1, 2, 3)).size()").value());
        }
    }

    /**
     * An on-demand import makes JShell recompile every snippet that depends on a name; imports in later cells,
     * below a declaration in their cell (after a line break), after comments and split over lines must leave
     * every recompiled class as it was, so that no variable reads null afterwards.
     */
    @Test
    void importsNeverResetVariables() throws Exception {
        try (JavaEvaluator fresh = new JavaEvaluator(List.of(), List.of("import static fabriclab.kernel.NotebookDisplay.display;"))) {
            fresh.eval("import fabriclab.notebook.*;\nPaperComparison cmp = PaperComparison.of(\"x\", \"outside reference\");\nint k = 5;\n\"a \" + cmp", 1);
            Object cmp = fresh.eval("cmp", 2).value();
            assertNotNull(cmp);
            assertEquals("b " + cmp + " 5", fresh.eval("import java.util.concurrent.*;\n\"b \" + cmp + \" \" + k", 3).value());
            assertEquals("c " + cmp + " 5", fresh.eval("import fabriclab.sweep.*;\n\"c \" + cmp + \" \" + k", 4).value());
            // an import in the same cell after a declaration
            EvalResult d = fresh.eval("PaperComparison cmp2 = PaperComparison.of(\"y\", \"outside reference\");\n"
                    + "import fabriclab.progress.*;\n\"d \" + cmp2 + \" \" + k", 5);
            Object cmp2 = fresh.eval("cmp2", 6).value();
            assertNotNull(cmp2);
            assertEquals("d " + cmp2 + " 5", d.value());
            assertSame(cmp2, fresh.eval("cmp2", 7).value());
            assertSame(cmp, fresh.eval("cmp", 8).value());
            // imports on their own lines below a declaration, after a comment, several on a line
            fresh.eval("PaperComparison cmp3 = PaperComparison.of(\"z\", \"outside reference\");\n// more\n"
                    + "import fabriclab.sweep.*; import java.util.concurrent.atomic.*;\n/* a\n b */ import java.util.concurrent.locks.*;", 9);
            Object cmp3 = fresh.eval("cmp3", 10).value();
            assertNotNull(cmp3);
            // an import between two cells
            fresh.eval("import java.util.concurrent.\n    atomic.AtomicLong;", 11);
            assertEquals(List.of(cmp, cmp2, cmp3, 5, 3L), fresh.eval("List.of(cmp, cmp2, cmp3, k, new AtomicLong(3).get())", 12).value());
            assertSame(cmp, fresh.eval("cmp", 13).value());
            assertSame(cmp2, fresh.eval("cmp2", 14).value());
            assertSame(cmp3, fresh.eval("cmp3", 15).value());
        }
    }

    @Test
    void importingTheFirstDefaultPackageKeepsVariables() throws Exception {
        try (JavaEvaluator fresh = new JavaEvaluator(List.of(), List.of())) {
            Object list = fresh.eval("List<String> l = new ArrayList<>(List.of(\"a\"));\nl").value();
            fresh.eval("import java.io.*;");
            assertSame(list, fresh.eval("l").value());
            fresh.eval("Map<String, Integer> m = new HashMap<>(Map.of(\"b\", 2));\nimport java.io.*;\nimport java . io . *;");
            assertSame(list, fresh.eval("l").value());
            assertEquals(Map.of("b", 2), fresh.eval("m").value());
            assertEquals("[a]f", fresh.eval("l + new File(\"f\").getName()").value());
        }
    }
}
