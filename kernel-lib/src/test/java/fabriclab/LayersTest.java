package fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * kernel-lib's packages stand in layers, and a package uses only packages on its own layer or below: no arrow runs
 * up. The layers are declared below from the ground up, for the whole project and again inside the simulator and the
 * experiments; a dependency is what {@link PackageCyclesTest#dependencies} finds (an import or a qualified name,
 * Javadoc included). A package of a declared area that no layer names fails the test, so a new package is placed
 * on purpose. Cycles are {@link PackageCyclesTest}'s concern.
 *
 * <p>A layer names packages exactly ({@code fabriclab.workload}) or with their sub-packages
 * ({@code fabriclab.simulation..}); the most specific name wins.
 */
class LayersTest {
    /** kernel-lib from the ground up. */
    static final List<Layer> PROJECT = List.of(
            layer("foundation: argument checks, progress, the project's files", "fabriclab", "fabriclab.progress",
                    "fabriclab.project"),
            layer("data sets, sweeps and charts", "fabriclab.datasets", "fabriclab.sweep", "fabriclab.notebook"),
            layer("models: fabric, flow control, load balancing, collectives, congestion control, containers, training,"
                    + " scheduling, security", "fabriclab.fabric", "fabriclab.flowcontrol", "fabriclab.loadbalancing..",
                    "fabriclab.collectives", "fabriclab.congestion..", "fabriclab.container", "fabriclab.training",
                    "fabriclab.scheduling", "fabriclab.security"),
            layer("the packet simulator", "fabriclab.simulation.."),
            layer("workloads and their FCT analysis", "fabriclab.workload"),
            layer("runs described by their settings (a workload on a fabric with a transport) and their scenarios",
                    "fabriclab.scenarios"),
            layer("experiments", "fabriclab.experiments..", "fabriclab.telemetry"),
            layer("validation against published results", "fabriclab.validation"),
            layer("the command line (nothing uses it)", "fabriclab.cli"));

    /**
     * The simulator's inside, from the ground up: the run's description and its trace sources, the event queue, the
     * network elements, the transports (the shared go-back-N base, then each transport, CTCC reusing RoCE's), the
     * engines that drive a run, and the simulator's API (scenario, simulator, result).
     */
    static final List<Layer> SIMULATION = List.of(
            layer("vocabulary: configuration and trace sources", "fabriclab.simulation.config",
                    "fabriclab.simulation.trace"),
            layer("the event queue", "fabriclab.simulation.event"),
            layer("elements along a packet's path", "fabriclab.simulation.element"),
            layer("what a transport is", "fabriclab.simulation.transport"),
            layer("RoCE, GSE and UEC", "fabriclab.simulation.transport.roce", "fabriclab.simulation.transport.gse",
                    "fabriclab.simulation.transport.uec"),
            layer("CTCC, on RoCE's reliable connection", "fabriclab.simulation.transport.ctcc"),
            layer("HPCC, on RoCE's reliable connection", "fabriclab.simulation.transport.hpcc"),
            layer("DCTCP, TIMELY and Swift, on the reliable connection", "fabriclab.simulation.transport.window"),
            layer("engines", "fabriclab.simulation.engine"),
            layer("the public API: scenario, simulator, result", "fabriclab.simulation"));

    /** The experiments' inside: the shared testbed below the experiments that use it. */
    static final List<Layer> EXPERIMENTS = List.of(
            layer("the GSE-vs-RoCE testbed the experiments share", "fabriclab.experiments.testbed"),
            layer("the experiments", "fabriclab.experiments"));

    /**
     * Upward dependencies known today, "from -> to" between packages, each to be removed (and then struck from here).
     * The test fails when one of them is gone, so the list does not outlive them.
     */
    // TODO: none today; list here any upward arrow met while the simulator's inside is reshaped, then remove it.
    static final Set<String> KNOWN = Set.of();

    @Test
    void noPackageUsesOneOnAHigherLayer() throws IOException {
        Map<String, Map<String, String>> graph = PackageCyclesTest.dependencies(PackageCyclesTest.MAIN);
        assertTrue(graph.containsKey("fabriclab.simulation.engine"), "the scan sees the simulator's packages");
        List<String> problems = new ArrayList<>();
        problems.addAll(violations("fabriclab", PROJECT, graph, KNOWN));
        problems.addAll(violations("fabriclab.simulation", SIMULATION, graph, KNOWN));
        problems.addAll(violations("fabriclab.experiments", EXPERIMENTS, graph, KNOWN));
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
    }

    @Test
    void theKnownUpwardDependenciesStillExist() throws IOException {
        Map<String, Map<String, String>> graph = PackageCyclesTest.dependencies(PackageCyclesTest.MAIN);
        for (String k : KNOWN) {
            String[] fromTo = k.split(" -> ");
            assertTrue(graph.getOrDefault(fromTo[0], Map.of()).containsKey(fromTo[1]),
                    k + " is gone: strike it from LayersTest.KNOWN");
        }
    }

    @Test
    void theCheckNamesTheFileAndTheUseThatRunsUp() {
        List<Layer> layers = List.of(layer("ground", "t.a", "t.a.sub.."), layer("top", "t.b", "t.b.c"));
        Map<String, Map<String, String>> g = new TreeMap<>();
        g.put("t.a", new TreeMap<>(Map.of("t.a.sub.x", "A.java: t.a.sub.x.X")));
        g.put("t.a.sub.x", new TreeMap<>(Map.of("t.b", "X.java: t.b.B", "u", "X.java: u.U")));
        g.put("t.b", new TreeMap<>(Map.of("t.a", "B.java: t.a.A")));
        g.put("t.b.c", new TreeMap<>(Map.of("t.b.c.d", "C.java: t.b.c.d.D")));
        g.put("t.b.c.d", new TreeMap<>());
        g.put("u", new TreeMap<>(Map.of("t.b", "U.java: t.b.B")));
        assertEquals(List.of("t: t.a.sub.x (ground) uses t.b (top), a higher layer: X.java: t.b.B",
                "t: package t.b.c.d is on no layer: add it to one"), violations("t", layers, g, Set.of()));
        assertEquals(List.of("t: package t.b.c.d is on no layer: add it to one"),
                violations("t", layers, g, Set.of("t.a.sub.x -> t.b")));
    }

    /** A layer: its description and the packages on it ({@code p} exactly, {@code p..} with its sub-packages). */
    record Layer(String description, List<String> packages) {
    }

    static Layer layer(String description, String... packages) {
        return new Layer(description, List.of(packages));
    }

    /**
     * What breaks {@code layers} in {@code graph} within {@code area} (a package and its sub-packages): each
     * dependency between two of its packages that runs to a higher layer (not in {@code known}), with its evidence,
     * and each of its packages on no layer.
     */
    static List<String> violations(String area, List<Layer> layers, Map<String, Map<String, String>> graph,
            Set<String> known) {
        List<String> problems = new ArrayList<>();
        for (String from : graph.keySet()) {
            if (!within(from, area + "..")) {
                continue;
            }
            int f = layerOf(from, layers);
            if (f < 0) {
                problems.add(area + ": package " + from + " is on no layer: add it to one");
                continue;
            }
            for (var e : graph.get(from).entrySet()) {
                int t = within(e.getKey(), area + "..") ? layerOf(e.getKey(), layers) : -1;
                if (t > f && !known.contains(from + " -> " + e.getKey())) {
                    problems.add(area + ": " + from + " (" + layers.get(f).description() + ") uses " + e.getKey() + " ("
                            + layers.get(t).description() + "), a higher layer: " + e.getValue());
                }
            }
        }
        return problems;
    }

    /** The index of the layer whose name of {@code pkg} is the most specific, or -1. */
    private static int layerOf(String pkg, List<Layer> layers) {
        int best = -1;
        int bestLength = -1;
        for (int i = 0; i < layers.size(); i++) {
            for (String p : layers.get(i).packages()) {
                int length = pkg.equals(p) ? Integer.MAX_VALUE : p.endsWith("..") && within(pkg, p) ? p.length() : -1;
                if (length > bestLength) {
                    best = i;
                    bestLength = length;
                }
            }
        }
        return best;
    }

    /** Whether {@code pkg} is {@code p..}'s package or one of its sub-packages. */
    private static boolean within(String pkg, String p) {
        String root = p.substring(0, p.length() - 2);
        return pkg.equals(root) || pkg.startsWith(root + ".");
    }
}
