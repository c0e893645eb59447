package fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packet simulator's inside stays inside: no source outside {@code fabriclab.simulation} (kernel-lib's other
 * packages, the kernel and spark modules, the notebooks) mentions its elements, engines or events, and inside
 * {@code fabriclab.simulation} the sub-packages form layers, each depending only on layers below it. A mention is
 * what {@link PackageCyclesTest} counts: an import or a fully qualified name anywhere in the text.
 */
class SimulationBoundaryTest {
    /** A class (or all classes) of the packages only the simulator may use. */
    private static final Pattern INSIDE = Pattern.compile(
            "\\bfabriclab\\.simulation\\.(?:element|engine|event)\\.(?:[A-Z]\\w*|\\*)");

    /**
     * The layers of {@code fabriclab.simulation}, lowest first: a package depends only on packages of lower layers.
     * The run's description and its traces at the bottom, then the event queue, the network elements, the
     * transports (the shared go-back-N base, then each transport, CTCC reusing RoCE's), the engines that drive a
     * run, the simulator's API (scenario, simulator, result) and the command line on top.
     */
    static final List<Set<String>> LAYERS = List.of(
            Set.of("fabriclab.simulation.config", "fabriclab.simulation.trace"),
            Set.of("fabriclab.simulation.event"),
            Set.of("fabriclab.simulation.element"),
            Set.of("fabriclab.simulation.transport"),
            Set.of("fabriclab.simulation.transport.roce", "fabriclab.simulation.transport.gse"),
            Set.of("fabriclab.simulation.transport.ctcc"),
            Set.of("fabriclab.simulation.engine"),
            Set.of("fabriclab.simulation"),
            Set.of("fabriclab.simulation.command"));

    /**
     * Test sources outside {@code fabriclab.simulation} allowed to name the simulator's inside: the bad-input contract
     * tests, which call every public method of kernel-lib by reflection, the simulator's runtime types included.
     */
    private static final Set<String> TESTS_OF_EVERY_PUBLIC_METHOD = Set.of("BadInputRegistry.java",
            "BadInputRound3Test.java");

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

    @Test
    void theSimulatorsPackagesFormLayers() throws IOException {
        Map<String, Map<String, String>> graph = PackageCyclesTest.dependencies(PackageCyclesTest.MAIN);
        Map<String, Integer> layer = new TreeMap<>();
        for (int i = 0; i < LAYERS.size(); i++) {
            for (String p : LAYERS.get(i)) {
                layer.put(p, i);
            }
        }
        List<String> upward = new ArrayList<>();
        for (var e : graph.entrySet()) {
            String from = e.getKey();
            if (!from.equals("fabriclab.simulation") && !from.startsWith("fabriclab.simulation.")) {
                continue;
            }
            assertTrue(layer.containsKey(from), from + " is in no layer of " + LAYERS + ": declare its layer");
            for (var d : e.getValue().entrySet()) {
                Integer to = layer.get(d.getKey());
                if (to != null && to >= layer.get(from)) {
                    upward.add(from + " -> " + d.getKey() + " (" + d.getValue() + ")");
                }
            }
        }
        assertTrue(graph.containsKey("fabriclab.simulation.element")
                && graph.get("fabriclab.simulation.element").containsKey("fabriclab.simulation.event"),
                "the scan sees the simulator's packages");
        assertEquals(List.of(), upward, "dependencies on the same or a higher layer");
    }

    /** Whether {@code f} lies in a {@code fabriclab/simulation} source directory. */
    private static boolean insideTheSimulator(Path f) {
        String s = f.toString().replace('\\', '/');
        return s.contains("/java/fabriclab/simulation/");
    }
}
