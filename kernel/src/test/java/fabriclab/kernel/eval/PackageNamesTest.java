package fabriclab.kernel.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Package names from the JDK's modules and the class path's jars and directories, and their completion. */
class PackageNamesTest {
    private static void jar(Path jar, String... entries) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (String e : entries) {
                zip.putNextEntry(new ZipEntry(e));
                zip.closeEntry();
            }
        }
    }

    @Test
    void aJarsPackagesAreTheDirectoriesOfItsClassesWithTheirParents(@TempDir Path dir) throws IOException {
        Path jar = dir.resolve("lib.jar");
        jar(jar, "META-INF/MANIFEST.MF", "module-info.class", "Top.class", "org/demo/api/Table.class", "org/demo/api/",
                "org/demo/io/csv/Reader.class", "org/demo/res/logo.png", "META-INF/versions/11/org/demo/v11/X.class",
                "bad-name/Y.class");
        assertEquals(Set.of("org", "org.demo", "org.demo.api", "org.demo.io", "org.demo.io.csv"), PackageNames.ofJar(jar));
    }

    @Test
    void aDirectorysPackagesAreItsSubdirectoriesWithClasses(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("net/x/y"));
        Files.createDirectories(dir.resolve("net/empty"));
        Files.writeString(dir.resolve("net/x/y/A.class"), "");
        Files.writeString(dir.resolve("net/x/notes.txt"), "");
        assertEquals(Set.of("net", "net.x", "net.x.y"), PackageNames.ofDirectory(dir));
    }

    @Test
    void theJdksExportedPackagesAreKnownAndItsInternalOnesAreNot() {
        Set<String> jdk = PackageNames.ofJdk();
        assertTrue(jdk.containsAll(List.of("java", "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "javax.tools")));
        assertTrue(!jdk.contains("jdk.internal.misc") && !jdk.contains("sun.nio.ch"), "packages not exported to every module");
    }

    @Test
    void completesTheNextSegmentOfQualifiedNamesInOrder(@TempDir Path dir) throws IOException {
        Path jar = dir.resolve("lib.jar");
        jar(jar, "org/demo/api/Table.class", "org/demo/aggregate/Sum.class", "org/demo/analytic/Rank.class", "org/demo/io/R.class");
        PackageNames names = new PackageNames(() -> List.of(jar.toString()));
        String code = "var t = org.demo.a";
        Completion c = names.complete(code, code.length());
        assertEquals(List.of("aggregate", "analytic", "api"), c.options());
        assertEquals(code.length() - 1, c.start());
        assertEquals(code.length(), c.end());
        code = "java.util.conc";
        c = names.complete(code, code.length());
        assertEquals(List.of("concurrent"), c.options());
        assertEquals("java.util.".length(), c.start());
        code = "org.demo.";
        assertEquals(List.of("aggregate", "analytic", "api", "io"), names.complete(code, code.length()).options());
    }

    @Test
    void aNameWithoutADotCompletesOnlyAfterImport(@TempDir Path dir) throws IOException {
        Path jar = dir.resolve("lib.jar");
        jar(jar, "orchid/Flower.class");
        PackageNames names = new PackageNames(() -> List.of(jar.toString()));
        assertNull(names.complete("int x = or", 10));
        String code = "import or";
        Completion c = names.complete(code, code.length());
        assertTrue(c.options().contains("orchid"), c.options().toString());
        assertTrue(c.options().contains("org"), "the JDK's org.w3c.dom, org.xml.sax: " + c.options());
        assertEquals(7, c.start());
        code = "import static orc";
        assertEquals(List.of("orchid"), names.complete(code, code.length()).options());
        assertNull(names.complete("reimport or", 11));
        assertNull(names.complete("x = 1.5", 7), "a number is no package name");
    }

    @Test
    void anEntryAddedLaterIsIndexedAndAChangedJarIsReadAgain(@TempDir Path dir) throws IOException {
        Path first = dir.resolve("a.jar");
        Path second = dir.resolve("b.jar");
        jar(first, "zeta/one/A.class");
        jar(second, "zeta/two/B.class");
        List<String> classpath = new ArrayList<>(List.of(first.toString()));
        PackageNames names = new PackageNames(() -> classpath);
        assertEquals(List.of("one"), names.complete("zeta.", 5).options());
        classpath.add(second.toString());
        assertEquals(List.of("one", "two"), names.complete("zeta.", 5).options());
        jar(first, "zeta/one/A.class", "zeta/three/C.class", "zeta/three/D.class");
        assertTrue(first.toFile().setLastModified(first.toFile().lastModified() + 5000));
        classpath.add(dir.resolve("missing.jar").toString());
        assertEquals(List.of("one", "three", "two"), names.complete("zeta.", 5).options());
    }
}
