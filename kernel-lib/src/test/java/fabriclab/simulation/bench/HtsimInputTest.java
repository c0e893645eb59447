package fabriclab.simulation.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.cli.SimulateCommand;
import fabriclab.fabric.Topology;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The htsim input files of {@code ./bench htsim} ({@link HtsimInput}): the topology file read back the way htsim's
 * {@code FatTreeTopology} derives a two-tier fabric from it (its {@code set_custom_params}: leaves
 * {@code Nodes / Radix_Down0}, leaf uplinks {@code Nodes * speed0 / (speed1 * Oversubscribed)}, spines
 * {@code uplinks / Radix_Down1}, each leaf joined to each spine by {@code Bundle} links, host {@code h} on leaf
 * {@code h / Radix_Down0}) gives the closed-form link counts of the leaf-spine ({@code N} host links and
 * {@code N/16 leaves x 8 spines x 2} = {@code N} leaf-spine links) and joins every host pair; the connection matrix
 * holds exactly the flows {@code bin/simulate --flows} wrote.
 */
class HtsimInputTest {
    /** The fabric htsim would build from a topology file: its links as pairs of node names. */
    record HtsimFabric(int hosts, int leaves, int spines, int bundle, List<String[]> links, long gbps, long[] latencyNs) {
    }

    /** Reads a two-tier topology file by htsim's rules (the class comment). */
    static HtsimFabric readAsHtsim(String file) {
        Map<String, Long> header = new HashMap<>();
        List<Map<String, Long>> tiers = new ArrayList<>();
        for (String raw : file.split("\n")) {
            String[] t = raw.trim().split("\\s+");
            if (t[0].isEmpty() || t[0].startsWith("#")) {
                continue;
            }
            String key = t[0].toLowerCase(java.util.Locale.ROOT);
            if (key.equals("tier")) {
                assertEquals(tiers.size(), Integer.parseInt(t[1]), "tiers in order");
                tiers.add(new HashMap<>());
            } else if (tiers.isEmpty()) {
                header.put(key, Long.parseLong(t[1]));
            } else {
                assertTrue(tiers.get(tiers.size() - 1).put(key, Long.parseLong(t[1])) == null, "duplicate " + key);
            }
        }
        assertEquals(2L, header.get("tiers"));
        assertEquals(2, tiers.size());
        int nodes = header.get("nodes").intValue();
        assertEquals(nodes, header.get("podsize").intValue(), "one pod");
        Map<String, Long> t0 = tiers.get(0);
        Map<String, Long> t1 = tiers.get(1);
        long oversub = t0.getOrDefault("oversubscribed", 1L);
        long bundle = t1.getOrDefault("bundle", 1L);
        assertEquals(oversub, t0.get("radix_down") / t0.get("radix_up"), "htsim's radix check");
        assertEquals(0, nodes % t0.get("radix_down"));
        int leaves = (int) (nodes / t0.get("radix_down"));
        long uplinks = nodes * t0.get("downlink_speed_gbps") / (t1.get("downlink_speed_gbps") * oversub);
        assertEquals(0, uplinks % t1.get("radix_down"));
        int spines = (int) (uplinks / t1.get("radix_down"));
        assertEquals(t0.get("radix_up"), spines * bundle, "htsim's up-radix check");
        assertEquals(0, t1.get("radix_down") % bundle);
        List<String[]> links = new ArrayList<>();
        for (int h = 0; h < nodes; h++) {
            links.add(new String[] {"h" + h, "leaf" + h / t0.get("radix_down")});
        }
        for (int l = 0; l < leaves; l++) {
            for (int s = 0; s < spines; s++) {
                for (int b = 0; b < bundle; b++) {
                    links.add(new String[] {"leaf" + l, "spine" + s});
                }
            }
        }
        return new HtsimFabric(nodes, leaves, spines, (int) bundle, links, t0.get("downlink_speed_gbps"),
                new long[] {t0.get("downlink_latency_ns"), t1.get("downlink_latency_ns")});
    }

    /** Whether every pair of hosts is joined by a path of {@code links}. */
    static boolean hostsConnected(int hosts, List<String[]> links) {
        Map<String, List<String>> adj = new HashMap<>();
        for (String[] l : links) {
            adj.computeIfAbsent(l[0], k -> new ArrayList<>()).add(l[1]);
            adj.computeIfAbsent(l[1], k -> new ArrayList<>()).add(l[0]);
        }
        Set<String> seen = new HashSet<>(List.of("h0"));
        ArrayDeque<String> queue = new ArrayDeque<>(List.of("h0"));
        while (!queue.isEmpty()) {
            for (String n : adj.getOrDefault(queue.poll(), List.of())) {
                if (seen.add(n)) {
                    queue.add(n);
                }
            }
        }
        for (int h = 0; h < hosts; h++) {
            if (!seen.contains("h" + h)) {
                return false;
            }
        }
        return true;
    }

    @Test
    void leafSpineFileGivesTheClosedFormFabric() {
        for (int n : new int[] {32, 128, 1024, 3456}) {
            Topology ours = ClusterBenchMain.scenario("roce", n).topology();
            HtsimFabric f = readAsHtsim(HtsimInput.topologyFile(HtsimInput.shapeOf(ours), "test"));
            assertEquals(n, f.hosts());
            assertEquals(n / 16, f.leaves(), "leaves of 16 hosts");
            assertEquals(8, f.spines());
            assertEquals(2, f.bundle());
            assertEquals(100, f.gbps());
            assertEquals(1000, f.latencyNs()[0]);
            assertEquals(1000, f.latencyNs()[1]);
            // n host links + n/16 leaves x 8 spines x 2 links = 2n, as many as our fabric has
            assertEquals(2L * n, f.links().size());
            assertEquals(ours.links().size(), f.links().size());
            assertTrue(hostsConnected(n, f.links()), n + " hosts");
            // host h on leaf h/16 in both
            for (int h = 0; h < n; h += 7) {
                int hh = h;
                int leafNode = ours.links().stream().filter(l -> l.nodeA() == hh || l.nodeB() == hh)
                        .mapToInt(l -> l.nodeA() == hh ? l.nodeB() : l.nodeA()).findFirst().orElseThrow();
                assertEquals("leaf" + (h / 16 + 1), ours.nodeName(leafNode));
            }
        }
    }

    @Test
    void singleSwitchFileIsOneLeafWithAnUnusedSpine() {
        Topology ours = ClusterBenchMain.scenario("incast", 32).topology();
        assertEquals(65, ours.hosts());
        HtsimInput.FatTree shape = HtsimInput.shapeOf(ours);
        assertEquals(0, shape.spines());
        HtsimFabric f = readAsHtsim(HtsimInput.topologyFile(shape, "incast"));
        assertEquals(65, f.hosts());
        assertEquals(1, f.leaves());
        assertEquals(1, f.spines());
        assertEquals(66, f.links().size(), "65 host links and the unused spine's one");
        assertTrue(hostsConnected(65, f.links()));
    }

    @Test
    void fabricsHtsimCannotBuildAreRefused() {
        Topology ours = ClusterBenchMain.scenario("roce", 32).topology();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HtsimInput.shapeOf(ours.withoutLink("leaf1", "spine1")));
        assertTrue(e.getMessage().contains("every leaf to every spine by the same number of links"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> HtsimInput.shapeOf(ours.withLinkRate("leaf1", "spine1", 25_000_000_000L)));
        assertTrue(e.getMessage().contains("one link rate"), e.getMessage());
    }

    private static List<HtsimInput.Flow> flowsOf(Path dir, String... args) throws Exception {
        Path csv = dir.resolve("flows.csv");
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("--quiet", "--time-limit", "1ps", "--flows", csv.toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = SimulateCommand.run(a, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, status, out.toString(StandardCharsets.UTF_8));
        return HtsimInput.readFlows(csv);
    }

    /** The matrix's connections as {source, destination, id, start, size}, checking its header. */
    private static List<long[]> readMatrix(String matrix, int nodes) {
        String[] lines = matrix.split("\n");
        assertEquals("Nodes " + nodes, lines[0]);
        int n = Integer.parseInt(lines[1].substring("Connections ".length()));
        assertEquals(n + 2, lines.length);
        List<long[]> c = new ArrayList<>();
        for (int i = 2; i < lines.length; i++) {
            String[] t = lines[i].split(" ");
            String[] sd = t[0].split("->");
            assertEquals("id", t[1]);
            assertEquals("start", t[3]);
            assertEquals("size", t[5]);
            c.add(new long[] {Long.parseLong(sd[0]), Long.parseLong(sd[1]), Long.parseLong(t[2]), Long.parseLong(t[4]),
                    Long.parseLong(t[6])});
        }
        return c;
    }

    @Test
    void permutationMatrixHasExactlyTheFlowsOfFlowsFile(@TempDir Path dir) throws Exception {
        List<HtsimInput.Flow> flows = flowsOf(dir, "--hosts", "32");
        List<long[]> m = readMatrix(HtsimInput.connectionMatrix(32, flows), 32);
        // a permutation of 32 hosts: 32 flows of 2 MB at 0, every host once a source and once a destination
        assertEquals(32, m.size());
        Set<Long> sources = new HashSet<>();
        Set<Long> destinations = new HashSet<>();
        for (int i = 0; i < m.size(); i++) {
            long[] c = m.get(i);
            assertEquals(i + 1, c[2], "ids from 1");
            assertEquals(0, c[3]);
            assertEquals(2_000_000, c[4]);
            assertTrue(c[0] != c[1]);
            sources.add(c[0]);
            destinations.add(c[1]);
            HtsimInput.Flow f = flows.get(i);
            assertEquals(List.of((long) f.source(), (long) f.destination(), f.startPs(), f.bytes()),
                    List.of(c[0], c[1], c[3], c[4]));
        }
        assertEquals(32, sources.size());
        assertEquals(32, destinations.size());
        Files.delete(dir.resolve("flows.csv"));
    }

    @Test
    void incastMatrixHasSixtyFourSendersToOneReceiver(@TempDir Path dir) throws Exception {
        List<HtsimInput.Flow> flows = flowsOf(dir, "--workload", "incast");
        List<long[]> m = readMatrix(HtsimInput.connectionMatrix(65, flows), 65);
        assertEquals(64, m.size());
        Set<Long> sources = new HashSet<>();
        Set<Long> destinations = new HashSet<>();
        long bytes = 0;
        for (long[] c : m) {
            sources.add(c[0]);
            destinations.add(c[1]);
            bytes += c[4];
        }
        assertEquals(64, sources.size());
        assertEquals(1, destinations.size());
        assertEquals(64L * 4_000_000, bytes);
    }

    @Test
    void matrixRefusesWhatHtsimCannotRead() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HtsimInput.connectionMatrix(4, List.of(new HtsimInput.Flow(0, 1, 1000, (1 << 24) + 1))));
        assertTrue(e.getMessage().contains("start") && e.getMessage().contains("16777217"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> HtsimInput.connectionMatrix(4, List.of(new HtsimInput.Flow(0, 4, 1000, 0))));
        assertTrue(e.getMessage().contains("[0, 4)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> HtsimInput.connectionMatrix(4, List.of(new HtsimInput.Flow(0, 1, 1L << 31, 0))));
        assertTrue(e.getMessage().contains("bytes") && e.getMessage().contains("2147483648"), e.getMessage());
    }

    @Test
    void benchOptionsAreValidatedWithTheirNameValueAndRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HtsimBenchMain.parse(List.of("--rounds", "0")));
        assertEquals("--rounds must be in [1, 1000], got 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HtsimBenchMain.parse(List.of("--hosts", "128,100")));
        assertTrue(e.getMessage().startsWith("--hosts must be multiples of 16") && e.getMessage().contains("got 100"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HtsimBenchMain.parse(List.of("--hosts", "16")));
        assertEquals("--hosts must be in [32, 65536], got 16", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HtsimBenchMain.parse(List.of("--scenarios", "roce,gse")));
        assertTrue(e.getMessage().contains("\"gse\"") && e.getMessage().contains("roce, spray, incast"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HtsimBenchMain.parse(List.of("--htsim", "/nonexistent/htsim_roce")));
        assertTrue(e.getMessage().contains("--htsim") && e.getMessage().contains("/nonexistent/htsim_roce"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HtsimBenchMain.parse(List.of("--rounds")));
        assertEquals("option --rounds needs a value", e.getMessage());
        assertEquals("HEAD~1", HtsimBenchMain.parse(List.of()).against(), "the previous commit without htsim");
        e = assertThrows(IllegalArgumentException.class, () -> HtsimBenchMain.parse(List.of("--parallel-links", "0")));
        assertEquals("--parallel-links must be in [1, 64], got 0", e.getMessage());
        assertEquals(0, HtsimBenchMain.parse(List.of()).parallelLinks(), "the scenario's own links unless given");
        assertEquals(1, HtsimBenchMain.parse(List.of("--parallel-links", "1")).parallelLinks());
    }

    @Test
    void oneLinkPerLeafSpinePairBringsThe1024HostFabricWithinHtsimsPorts() {
        // 64 leaves of 16 hosts: 2 links per leaf-spine pair give each spine 128 ports, 1 gives 64, htsim_roce's most
        assertTrue(HtsimInput.htsimCannotBuild(HtsimInput.shapeOf(ClusterBenchMain.scenario("roce", 1024).topology()))
                .contains("128 ports"));
        List<String> args = HtsimBenchMain.scenarioArgs("roce", 1024, 1);
        assertEquals(List.of("--hosts", "1024", "--parallel-links", "1"), args);
        fabriclab.fabric.Topology t = ClusterBenchMain.scenario(args).topology();
        assertEquals(1, HtsimInput.shapeOf(t).bundle());
        assertEquals(null, HtsimInput.htsimCannotBuild(HtsimInput.shapeOf(t)));
        assertEquals(List.of("--workload", "incast"), HtsimBenchMain.scenarioArgs("incast", 65, 1), "one switch: no links to set");
    }

    @Test
    void htsimOptionsMapTheScenario() {
        fabriclab.simulation.Scenario incast = ClusterBenchMain.scenario("incast", 32);
        List<HtsimInput.Flow> flows = new ArrayList<>();
        incast.flows().forEach(f -> flows.add(new HtsimInput.Flow(f.source(), f.destination(), f.bytes(), 0)));
        String o = String.join(" ", HtsimBenchMain.htsimOptions("incast", incast, flows, "m.cm", "t.topo"));
        // XOFF 15 x 1064 B exactly; XON 12,000 B = 11.3 packets of 1064 B, rounded up to 12
        assertTrue(o.contains("-nodes 65 -mtu 1000 -q 16000 -pfc_thresholds 12 15 -strat ecmp_host -paths 1"), o);
        // the receiver's 64 x 4,000 packets of 1064 B at 100 Gb/s: 21,790.72 us; twice that plus 100 us, rounded up
        assertTrue(o.endsWith("-end 43682 -o htsim.log"), o);
        fabriclab.simulation.Scenario spray = ClusterBenchMain.scenario("spray", 128);
        List<HtsimInput.Flow> sprayFlows = new ArrayList<>();
        spray.flows().forEach(f -> sprayFlows.add(new HtsimInput.Flow(f.source(), f.destination(), f.bytes(), 0)));
        String so = String.join(" ", HtsimBenchMain.htsimOptions("spray", spray, sprayFlows, "m.cm", "t.topo"));
        // 2,000 packets of 1064 B at 100 Gb/s: 170.24 us; twice that plus 100 us
        assertTrue(so.contains("-strat ecmp_rr -end 441 "), so);
    }

    @Test
    void fabricsBeyondHtsimsPortLimitsAreNamed() {
        // 16 hosts per leaf, 8 spines x 2 links: a spine has 2 ports per leaf, htsim_roce allows 64
        assertEquals(null, HtsimInput.htsimCannotBuild(HtsimInput.shapeOf(ClusterBenchMain.scenario("roce", 512).topology())));
        String why = HtsimInput.htsimCannotBuild(HtsimInput.shapeOf(ClusterBenchMain.scenario("roce", 1024).topology()));
        assertTrue(why != null && why.contains("128 ports (64 leaves x 2 links)") && why.contains("64"), why);
        assertEquals(null, HtsimInput.htsimCannotBuild(HtsimInput.shapeOf(ClusterBenchMain.scenario("incast", 32).topology())),
                "the incast's leaf: 65 + 1 ports of 96");
    }
}
