package fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packet simulator's inside stays inside: no source outside {@code fabriclab.simulation} (kernel-lib's other
 * packages, the kernel and spark modules, the notebooks) mentions its elements, engines or events, and inside
 * what {@link PackageCyclesTest} counts: an import or a fully qualified name anywhere in the text. The layers inside
 * {@code fabriclab.simulation} are {@link LayersTest#SIMULATION}. Inside, no class leaves its mutable state open to
 * the other packages: a field that is not final is package-private or private, except the few named in
 * {@link #OPEN_MUTABLE_FIELDS}, each with its reason.
 */
class SimulationBoundaryTest {
    /** A class (or all classes) of the packages only the simulator may use. */
    private static final Pattern INSIDE = Pattern.compile(
            "\\bfabriclab\\.simulation\\.(?:element|engine|event)\\.(?:[A-Z]\\w*|\\*)");

    /**
     * Test sources outside {@code fabriclab.simulation} allowed to name the simulator's inside: the bad-input contract
     * registry, which calls every public method of kernel-lib by reflection, the simulator's runtime types included.
     */
    private static final Set<String> TESTS_OF_EVERY_PUBLIC_METHOD = Set.of("BadInputRegistry.java");

    /**
     * The fields of {@code fabriclab.simulation}'s classes (named from below that package) that are neither final nor
     * package-private or private: the protected state of the transports' base classes, which the transports in other
     * packages subclass and use at every packet they handle (the pacing time and the partitions of the flow's two ends
     * of {@code Transport}, and its burst flag, which a transport with a token bucket sets after every packet it sends
     * so that the NIC serves it again first; the oldest unacknowledged sequence of {@code ReliableTransport}, which the
     * rate and window control of its subclasses reads). A new entry needs such a reason; everything else goes through accessors.
     */
    private static final Set<String> OPEN_MUTABLE_FIELDS = Set.of(
            "protected element.Transport.nextSendPs",
            "protected element.Transport.keepsNic",
            "protected element.Transport.source",
            "protected element.Transport.destination",
            "protected transport.ReliableTransport.una");

    @Test
    void theSimulatorsMutableStateIsNotPublic() throws IOException, ClassNotFoundException {
        Path dir = PackageCyclesTest.MAIN.resolve("fabriclab/simulation");
        Set<String> open = new TreeSet<>();
        int classes = 0;
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")
                    && !p.getFileName().toString().equals("package-info.java")).sorted().toList()) {
                String name = PackageCyclesTest.MAIN.relativize(f).toString().replace('\\', '/')
                        .replaceAll("\\.java$", "").replace('/', '.');
                List<Class<?>> pending = new ArrayList<>(List.of(Class.forName(name, false, getClass().getClassLoader())));
                while (!pending.isEmpty()) {
                    Class<?> c = pending.remove(pending.size() - 1);
                    classes++;
                    pending.addAll(List.of(c.getDeclaredClasses()));
                    for (Field field : c.getDeclaredFields()) {
                        int m = field.getModifiers();
                        if (!Modifier.isFinal(m) && (Modifier.isPublic(m) || Modifier.isProtected(m))) {
                            open.add((Modifier.isPublic(m) ? "public " : "protected ") + c.getName().substring("fabriclab.simulation.".length()) + "."
                                    + field.getName());
                        }
                    }
                }
            }
        }
        assertTrue(classes >= 50, "found only " + classes + " classes under " + dir.toAbsolutePath());
        assertEquals(new TreeSet<>(OPEN_MUTABLE_FIELDS), open,
                "fields of fabriclab.simulation that are neither final nor package-private (OPEN_MUTABLE_FIELDS)");
    }

    @Test
    void nothingOutsideTheSimulatorMentionsItsElementsEnginesOrEvents() throws IOException {
        Path root = Path.of("..");
        List<String> found = new ArrayList<>();
        for (Path dir : List.of(PackageCyclesTest.MAIN, root.resolve("kernel/src/main/java"),
                root.resolve("spark/src/main/java"), root.resolve("kernel/src/test/java"),
                root.resolve("spark/src/test/java"), Path.of("src", "test", "java"), root.resolve("notebooks"))) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".ipynb"))
                        .sorted().toList()) {
                    if (insideTheSimulator(f) || TESTS_OF_EVERY_PUBLIC_METHOD.contains(f.getFileName().toString())) {
                        continue;
                    }
                    Matcher m = INSIDE.matcher(Files.readString(f));
                    if (m.find()) {
                        found.add(f + ": " + m.group());
                    }
                }
            }
        }
        assertEquals(List.of(), found, "sources outside fabriclab.simulation that use its elements, engines or events");
    }

    /** Whether {@code f} lies in a {@code fabriclab/simulation} source directory. */
    private static boolean insideTheSimulator(Path f) {
        String s = f.toString().replace('\\', '/');
        return s.contains("/java/fabriclab/simulation/");
    }
}
