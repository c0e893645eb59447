package fabriclab.kernel.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The line magics, without a JShell session: what they add to the class path, the code they leave, their errors. */
class MagicsTest {
    private final List<String> added = new ArrayList<>();
    private final Magics magics = new Magics(added::add);

    @Test
    void magicLinesAddTheirPathsAndLeaveEmptyLinesInTheirPlace(@TempDir Path dir) throws Exception {
        Files.createFile(dir.resolve("b.jar"));
        Files.createFile(dir.resolve("a.jar"));
        Files.createDirectories(dir.resolve("classes"));
        String code = magics.run("%classpath " + dir.resolve("classes") + "\n\n  %jars " + dir + "/*.jar\nint x = 1;\n%jars later.jar");
        // three lines of magics and the blank between them become empty lines; a % line below code is code
        assertEquals("\n\n\nint x = 1;\n%jars later.jar", code);
        assertEquals(List.of(dir.resolve("classes").toString(), dir.resolve("a.jar").toString(), dir.resolve("b.jar").toString()), added);
    }

    @Test
    void aCellWithoutMagicsIsUnchanged() throws Exception {
        assertEquals("\n  int y = 2;\n", magics.run("\n  int y = 2;\n"));
        assertEquals(List.of(), added);
    }

    @Test
    void wrongMagicsStopTheCellWithTheirMessage(@TempDir Path dir) {
        assertMagicError("%jars needs at least one path or glob, e.g. %jars lib/*.jar", "%jars");
        assertMagicError("%classpath needs at least one path or glob, e.g. %classpath lib/*.jar", "  %classpath  ");
        assertMagicError("%jars: nothing matches " + dir + "/*.zip", "%jars " + dir + "/*.zip");
        assertMagicError("%maven needs at least one artifact, e.g. %maven org.apache.commons:commons-text:1.12.0", "%maven");
        assertMagicError("%mavenRepo needs an id and a URL, e.g. %mavenRepo jitpack https://jitpack.io", "%mavenRepo central");
        assertMagicError("unknown magic %time; available: %classpath, %jars, %maven, %mavenRepo", "%time 1 + 1");
        assertEquals(List.of(), added);
    }

    private void assertMagicError(String message, String cell) {
        CellException e = assertThrows(CellException.class, () -> magics.run(cell), cell);
        assertEquals(CellException.Kind.MAGIC_ERROR, e.kind());
        assertEquals("MagicException", e.name());
        assertEquals(message, e.getMessage());
        assertEquals(List.of("MagicException: " + message), e.traceback());
    }

    @Test
    void blankAndMagicLinesAreTold() {
        assertTrue(Magics.isBlankOrMagic("  \t"));
        assertTrue(Magics.isBlankOrMagic("  %jars x.jar"));
        assertFalse(Magics.isBlankOrMagic("int percent = 5 % 2;"));
    }

    @Test
    void globMatchesFiles(@TempDir Path dir) throws Exception {
        Files.createFile(dir.resolve("a.jar"));
        Files.createFile(dir.resolve("b.jar"));
        Files.createFile(dir.resolve("c.txt"));
        assertEquals(2, Magics.glob(dir + "/*.jar").size());
        assertSame(0, Magics.glob(dir + "/*.zip").size());
    }
}
