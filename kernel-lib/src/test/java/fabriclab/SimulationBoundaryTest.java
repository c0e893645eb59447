package fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packet simulator's inside stays inside: no source outside {@code fabriclab.simulation} (kernel-lib's other
 * packages, the kernel and spark modules, the notebooks) mentions its elements, engines or events, and inside
 * what {@link PackageCyclesTest} counts: an import or a fully qualified name anywhere in the text. The layers inside
 * {@code fabriclab.simulation} are {@link LayersTest#SIMULATION}.
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
