package fabriclab;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A notebook imports whole packages ({@code import fabriclab.congestion.*; import fabriclab.fabric.*;}),
 * and JShell adds its own on-demand imports (java.util, java.io, ...). Two public top-level types
 * with the same simple name in two imported packages make every use of that name ambiguous, so
 * kernel-lib's public top-level types must have distinct simple names, and none may share a name
 * with a type of JShell's default packages or of the chart and table packages the notebooks import.
 * Nested types (such as {@code BufferDependencyGraph.Queue}) are reached through their outer type
 * and are not checked.
 */
class PublicNamesTest {
    /** Packages every notebook has on demand: JShell's defaults, XChart and tablesaw's API. */
    private static final List<String> NOTEBOOK_PACKAGES = List.of("java.lang", "java.io", "java.math", "java.net",
            "java.nio.file", "java.util", "java.util.concurrent", "java.util.function", "java.util.prefs",
            "java.util.regex", "java.util.stream", "org.knowm.xchart", "tech.tablesaw.api");

    private static Map<String, List<String>> publicTopLevelTypesBySimpleName() throws IOException, URISyntaxException {
        Path classes = Path.of(Parameters.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, List<String>> bySimpleName = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String file = classes.relativize(p).toString().replace(p.getFileSystem().getSeparator(), ".");
                if (!file.endsWith(".class") || file.contains("$") || file.endsWith("package-info.class")) {
                    continue;
                }
                String name = file.substring(0, file.length() - ".class".length());
                Class<?> type;
                try {
                    type = Class.forName(name, false, PublicNamesTest.class.getClassLoader());
                } catch (ClassNotFoundException e) {
                    throw new AssertionError("cannot load " + name, e);
                }
                if (Modifier.isPublic(type.getModifiers())) {
                    bySimpleName.computeIfAbsent(type.getSimpleName(), k -> new ArrayList<>()).add(name);
                }
            }
        }
        return bySimpleName;
    }

    @Test
    void publicTopLevelTypesHaveDistinctSimpleNames() throws Exception {
        Map<String, List<String>> types = publicTopLevelTypesBySimpleName();
        assertTrue(types.size() > 50, "expected kernel-lib's classes on the class path, found " + types.size());
        Map<String, List<String>> clashes = new TreeMap<>();
        types.forEach((simple, names) -> {
            if (names.size() > 1) {
                clashes.put(simple, names);
            }
        });
        assertTrue(clashes.isEmpty(), "public top-level types with the same simple name in two packages "
                + "(a notebook importing both packages cannot use the name): " + clashes);
    }

    @Test
    void noPublicTopLevelTypeShadowsANotebookDefaultImport() throws Exception {
        TreeSet<String> clashes = new TreeSet<>();
        for (Map.Entry<String, List<String>> e : publicTopLevelTypesBySimpleName().entrySet()) {
            for (String pkg : NOTEBOOK_PACKAGES) {
                try {
                    Class<?> other = Class.forName(pkg + "." + e.getKey(), false, PublicNamesTest.class.getClassLoader());
                    if (Modifier.isPublic(other.getModifiers())) {
                        clashes.add(e.getValue() + " vs " + other.getName());
                    }
                } catch (ClassNotFoundException absent) {
                    // no clash with this package
                }
            }
        }
        assertTrue(clashes.isEmpty(), "kernel-lib types named like a type of a package every notebook imports: " + clashes);
    }
}
