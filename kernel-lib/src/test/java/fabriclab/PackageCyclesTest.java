package fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No two packages of kernel-lib's main code depend on each other, directly or through others. A
 * dependency is any mention of a class of the other package in a source file: an import (static and
 * wildcard ones included) or a fully qualified name anywhere in the text, Javadoc included, since a
 * reader follows those too.
 */
public class PackageCyclesTest {
    /** Main sources (tests run with kernel-lib/ as working directory). */
    static final Path MAIN = Path.of("src", "main", "java");

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** A qualified class name: lower-case segments, then the first upper-case one is the class. */
    private static final Pattern QUALIFIED = Pattern.compile("\\bfabriclab((?:\\.[a-z_][a-z0-9_]*)*)\\.[A-Z]\\w*");
    private static final Pattern WILDCARD = Pattern.compile("^import\\s+(?:static\\s+)?(fabriclab(?:\\.[a-z_][a-z0-9_]*)*)\\.\\*\\s*;",
            Pattern.MULTILINE);

    @Test
    void mainCodeHasNoPackageCycle() throws IOException {
        Map<String, Map<String, String>> graph = dependencies(MAIN);
        assertTrue(graph.size() >= 10, "found only the packages " + graph.keySet() + " under " + MAIN.toAbsolutePath());
        assertTrue(graph.get("fabriclab.experiments").containsKey("fabriclab.sweep"), "the scan sees imports");
        List<String> cycle = findCycle(graph);
        if (!cycle.isEmpty()) {
            fail("package cycle: " + describe(cycle, graph));
        }
    }

    @Test
    void theCycleFinderFindsACycleAndNamesItsEdges() {
        Map<String, Map<String, String>> g = new TreeMap<>();
        g.put("a", new TreeMap<>(Map.of("b", "A.java: a.b.B")));
        g.put("b", new TreeMap<>(Map.of("c", "B.java: a.c.C")));
        g.put("c", new TreeMap<>(Map.of("a", "C.java: a.A")));
        g.put("d", new TreeMap<>(Map.of("a", "D.java: a.A")));
        List<String> cycle = findCycle(g);
        assertEquals(List.of("a", "b", "c", "a"), cycle);
        assertEquals("a -> b (A.java: a.b.B), b -> c (B.java: a.c.C), c -> a (C.java: a.A)", describe(cycle, g));
        g.get("c").clear();
        assertEquals(List.of(), findCycle(g));
    }

    /** Package -> package it depends on -> the first evidence found ("File.java: fabriclab.x.Y"). */
    static Map<String, Map<String, String>> dependencies(Path root) throws IOException {
        Map<Path, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                sources.put(f, Files.readString(f));
            }
        }
        Map<Path, String> packageOf = new HashMap<>();
        Map<String, Map<String, String>> graph = new TreeMap<>();
        for (var e : sources.entrySet()) {
            Matcher m = PACKAGE.matcher(e.getValue());
            if (!m.find()) {
                throw new IllegalStateException(e.getKey() + " has no package declaration");
            }
            packageOf.put(e.getKey(), m.group(1));
            graph.putIfAbsent(m.group(1), new TreeMap<>());
        }
        for (var e : sources.entrySet()) {
            String from = packageOf.get(e.getKey());
            String file = e.getKey().getFileName().toString();
            Matcher q = QUALIFIED.matcher(e.getValue());
            while (q.find()) {
                addEdge(graph, from, "fabriclab" + q.group(1), file + ": " + q.group());
            }
            Matcher w = WILDCARD.matcher(e.getValue());
            while (w.find()) {
                addEdge(graph, from, w.group(1), file + ": import " + w.group(1) + ".*");
            }
        }
        return graph;
    }

    private static void addEdge(Map<String, Map<String, String>> graph, String from, String to, String evidence) {
        if (!to.equals(from) && graph.containsKey(to)) {
            graph.get(from).putIfAbsent(to, evidence);
        }
    }

    /** A cycle as its packages, first repeated at the end; empty if there is none. Deterministic (sorted search). */
    public static List<String> findCycle(Map<String, Map<String, String>> graph) {
        Map<String, Integer> state = new HashMap<>(); // 1: on the current path, 2: finished
        for (String start : new TreeSet<>(graph.keySet())) {
            if (state.containsKey(start)) {
                continue;
            }
            Deque<String> path = new ArrayDeque<>();
            List<String> cycle = visit(start, graph, state, path);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        return List.of();
    }

    private static List<String> visit(String node, Map<String, Map<String, String>> graph, Map<String, Integer> state,
            Deque<String> path) {
        state.put(node, 1);
        path.addLast(node);
        for (String next : new TreeSet<>(graph.getOrDefault(node, Map.of()).keySet())) {
            Integer s = state.get(next);
            if (s == null) {
                List<String> cycle = visit(next, graph, state, path);
                if (!cycle.isEmpty()) {
                    return cycle;
                }
            } else if (s == 1) {
                List<String> onPath = new ArrayList<>(path);
                List<String> cycle = new ArrayList<>(onPath.subList(onPath.indexOf(next), onPath.size()));
                cycle.add(next);
                return cycle;
            }
        }
        path.removeLast();
        state.put(node, 2);
        return List.of();
    }

    /** "a -> b (evidence), b -> a (evidence)". */
    static String describe(List<String> cycle, Map<String, Map<String, String>> graph) {
        List<String> edges = new ArrayList<>();
        for (int i = 0; i + 1 < cycle.size(); i++) {
            edges.add(cycle.get(i) + " -> " + cycle.get(i + 1) + " (" + graph.get(cycle.get(i)).get(cycle.get(i + 1)) + ")");
        }
        return String.join(", ", edges);
    }
}
