package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.PackageCyclesTest;
import fabriclab.sweep.SweepTask;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The experiments have one shape: a shared base ({@code fabriclab.experiments.testbed}, and beside the experiments
 * the job run and its metrics) that imports no experiment, no cycle between the classes of the experiments, and the same role names in every experiment: {@code X.Point}
 * for the inputs of one run of its sweep (or the experiment record itself when it is its own inputs),
 * {@code X.Result} for what a run returns, {@code X.Task} for its {@link SweepTask}. The papers are named in code by
 * author and year (000 is Duan et al. 2024: {@code Duan2024Testbed}), never by their file number.
 */
class ExperimentsShapeTest {
    /** Main sources (tests run with kernel-lib/ as working directory). */
    private static final Path MAIN = Path.of("src", "main", "java");
    private static final Path EXPERIMENTS = MAIN.resolve(Path.of("fabriclab", "experiments"));
    private static final Path BASE = EXPERIMENTS.resolve("testbed");
    /** The packages whose classes are experiments of the papers. */
    private static final List<String> EXPERIMENT_PACKAGES = List.of("fabriclab.experiments", "fabriclab.experiments.testbed",
            "fabriclab.validation", "fabriclab.telemetry");

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern EXPERIMENTS_NAME = Pattern.compile("\\bfabriclab\\.experiments\\.(?!testbed\\b)(\\*|[A-Z]\\w*)");
    private static final Pattern IDENTIFIER = Pattern.compile("\\b[A-Z]\\w*\\b");
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?fabriclab\\.experiments\\.(?:testbed\\.)?([A-Z]\\w*)",
            Pattern.MULTILINE);
    private static final Pattern STRING = Pattern.compile("\"(?:\\\\.|[^\"\\\\\\n])*\"");

    @Test
    void theSharedBaseImportsNoExperiment() throws IOException {
        Map<Path, String> base = sources(BASE);
        assertTrue(base.keySet().stream().anyMatch(p -> p.endsWith("Duan2024Testbed.java")), "found " + base.keySet() + " under " + BASE);
        List<String> found = new ArrayList<>();
        for (var e : base.entrySet()) {
            Matcher m = EXPERIMENTS_NAME.matcher(e.getValue());
            while (m.find()) {
                found.add(e.getKey().getFileName() + ": " + m.group());
            }
        }
        assertEquals(List.of(), found, "the shared base must name no class of fabriclab.experiments (the experiments import it)");
    }

    @Test
    void theJobRunAndItsMetricsBuildOnTheBaseAlone() throws IOException {
        Map<String, Set<String>> graph = classGraph(sources(EXPERIMENTS));
        Set<String> base = new TreeSet<>(List.of("JobSimulation", "JobMetrics"));
        for (Path p : sources(BASE).keySet()) {
            base.add(p.getFileName().toString().replace(".java", ""));
        }
        assertTrue(graph.get("JobSimulation").contains("RoceOrGse"), "the scan sees imports: " + graph.get("JobSimulation"));
        for (String b : List.of("JobSimulation", "JobMetrics")) {
            Set<String> outside = new TreeSet<>(graph.get(b));
            outside.removeAll(base);
            assertEquals(Set.of(), outside, b + " must name no experiment");
        }
    }

    @Test
    void noCycleBetweenTheClassesOfTheExperiments() throws IOException {
        Map<String, Set<String>> graph = classGraph(sources(EXPERIMENTS));
        assertTrue(graph.get("GseVsRoceTestbed").contains("Duan2024Testbed"), "the scan sees imports: " + graph.get("GseVsRoceTestbed"));
        assertTrue(graph.get("GseVsRoceTestbed").contains("GseVsRoceJct"), "the scan sees the package's own names");
        assertEquals(List.of(), cycle(graph), "a cycle of classes under fabriclab/experiments");
    }

    @Test
    void everySweepTaskIsTaskOfPointToResult() throws Exception {
        int tasks = 0;
        List<String> wrong = new ArrayList<>();
        for (Class<?> top : topLevelClasses()) {
            for (Class<?> nested : top.getDeclaredClasses()) {
                if (!SweepTask.class.isAssignableFrom(nested)) {
                    continue;
                }
                tasks++;
                if (!nested.getSimpleName().equals("Task") || !Modifier.isPublic(nested.getModifiers())) {
                    wrong.add(nested.getName() + ": a sweep task is the public X.Task");
                }
                Type[] args = sweepTaskArguments(nested);
                Class<?> point = (Class<?>) args[0];
                Class<?> result = (Class<?>) args[1];
                boolean ownPoint = point.getSimpleName().equals("Point") && point.getEnclosingClass() == top;
                boolean experimentItself = point.getEnclosingClass() == null && point.isRecord()
                        && EXPERIMENT_PACKAGES.contains(point.getPackageName());
                if (!ownPoint && !experimentItself) {
                    wrong.add(nested.getName() + ": its inputs " + point.getName() + " must be " + top.getSimpleName()
                            + ".Point or an experiment record");
                }
                if (!result.getSimpleName().equals("Result") || result.getEnclosingClass() != top) {
                    wrong.add(nested.getName() + ": its result " + result.getName() + " must be " + top.getSimpleName() + ".Result");
                }
            }
        }
        assertTrue(tasks >= 5, "found only " + tasks + " sweep tasks");
        assertEquals(List.of(), wrong);
    }

    @Test
    void rolesHaveOneNameAndPapersAreNotNumbers() throws Exception {
        Set<String> otherRoleNames = Set.of("Run", "Runs", "Comm", "Outcome", "Reading", "Parameters", "Params");
        Pattern paperNumber = Pattern.compile(".*(?<![0-9])00[0-4](?![0-9]).*");
        List<String> wrong = new ArrayList<>();
        for (Class<?> top : topLevelClasses()) {
            if (paperNumber.matcher(top.getSimpleName()).matches()) {
                wrong.add(top.getName() + ": a paper by its number");
            }
            for (Class<?> nested : top.getDeclaredClasses()) {
                if (!Modifier.isPublic(nested.getModifiers())) {
                    continue;
                }
                String n = nested.getSimpleName();
                if (otherRoleNames.contains(n) || n.endsWith("Parameters") || n.endsWith("Task") && !n.equals("Task")) {
                    wrong.add(nested.getName() + ": a role named apart from Point, Result and Task");
                }
                if (paperNumber.matcher(n).matches()) {
                    wrong.add(nested.getName() + ": a paper by its number");
                }
            }
            for (var m : top.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) && paperNumber.matcher(m.getName()).matches()) {
                    wrong.add(top.getName() + "#" + m.getName() + ": a paper by its number");
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** The type arguments of {@code SweepTask<P, R>} on {@code task}. */
    private static Type[] sweepTaskArguments(Class<?> task) {
        for (Type t : task.getGenericInterfaces()) {
            if (t instanceof ParameterizedType p && p.getRawType() == SweepTask.class) {
                return p.getActualTypeArguments();
            }
        }
        throw new AssertionError(task.getName() + " must implement SweepTask<P, R> directly");
    }

    /** The top-level classes of the experiment packages, from their sources. */
    private static List<Class<?>> topLevelClasses() throws IOException, ClassNotFoundException {
        List<Class<?>> out = new ArrayList<>();
        for (String pkg : EXPERIMENT_PACKAGES) {
            Path dir = MAIN.resolve(pkg.replace('.', '/'));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    String name = f.getFileName().toString().replace(".java", "");
                    if (!name.equals("package-info")) {
                        out.add(Class.forName(pkg + "." + name));
                    }
                }
            }
        }
        return out;
    }

    /** The sources under {@code root}, by path. */
    private static Map<Path, String> sources(Path root) throws IOException {
        Map<Path, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java") && !p.endsWith("package-info.java")).sorted().toList()) {
                out.put(f, Files.readString(f));
            }
        }
        return out;
    }

    /**
     * Class -> the classes of the same tree it names: an import of one, or, for a class of the same package, its
     * simple name anywhere outside string literals (Javadoc included, since a reader follows those too).
     */
    private static Map<String, Set<String>> classGraph(Map<Path, String> sources) {
        Map<String, String> packageOf = new HashMap<>();
        for (var e : sources.entrySet()) {
            Matcher p = PACKAGE.matcher(e.getValue());
            assertTrue(p.find(), e.getKey() + " has a package declaration");
            packageOf.put(e.getKey().getFileName().toString().replace(".java", ""), p.group(1));
        }
        Map<String, Set<String>> graph = new TreeMap<>();
        for (var e : sources.entrySet()) {
            String from = e.getKey().getFileName().toString().replace(".java", "");
            Set<String> to = new TreeSet<>();
            String text = STRING.matcher(e.getValue()).replaceAll("\"\"");
            Matcher id = IDENTIFIER.matcher(text);
            while (id.find()) {
                String n = id.group();
                if (!n.equals(from) && packageOf.containsKey(n) && packageOf.get(n).equals(packageOf.get(from))) {
                    to.add(n);
                }
            }
            Matcher imp = IMPORT.matcher(text);
            while (imp.find()) {
                if (packageOf.containsKey(imp.group(1)) && !imp.group(1).equals(from)) {
                    to.add(imp.group(1));
                }
            }
            graph.put(from, to);
        }
        return graph;
    }

    /** A cycle as its classes, the first repeated at the end; empty if there is none ({@link PackageCyclesTest#findCycle}). */
    private static List<String> cycle(Map<String, Set<String>> graph) {
        Map<String, Map<String, String>> edges = new TreeMap<>();
        graph.forEach((from, to) -> {
            Map<String, String> m = new TreeMap<>();
            to.forEach(t -> m.put(t, from + " -> " + t));
            edges.put(from, m);
        });
        return PackageCyclesTest.findCycle(edges);
    }
}
