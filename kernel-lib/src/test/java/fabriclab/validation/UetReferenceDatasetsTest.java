package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.Datasets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * The UEC reference simulator's committed datasets ({@code uet-htsim-permutation}, {@code uet-htsim-incast},
 * {@code uet-htsim-failed-link}, {@code uet-htsim-incast-rccc}, written by {@code tools/UetReferenceRuns.java} from htsim_uec of
 * ultraethernet/uet-htsim) against themselves and against bounds derived here from the scenario's settings
 * ({@code tools/uet-reference/README.md}), none taken from the reference's output:
 * <ul>
 *   <li>every run of every scenario, load-balancing mode and seed is present, and its flows are exactly those of the
 *       scenario's connection matrix ({@code tools/uet-reference/scenarios/*.cm}), each delivering its size;</li>
 *   <li>the run's summary rows agree with its flow rows (min, mean rounded half up, nearest-rank p50 and p99, max,
 *       goodput as all bytes x 8 over the last completion);</li>
 *   <li>every flow's FCT is at least its packets' serialisation at 100 Gb/s on the sender's link, the store-and-forward
 *       of the last packet over the three further links, and the propagation of four links out and four back; an
 *       incast's last completion at least all senders' packets serialised through the receiver's port plus the same
 *       path terms; goodput at most the bottleneck's payload rate (100 Gb/s x 4096 / 4160 per receiver);</li>
 *   <li>packet accounting: first transmissions are the flows' bytes over the 4096 B payload; every NACK is answered by
 *       one retransmission (retransmissions at least NACKs);</li>
 *   <li>an incast trims: N senders start with the reference's initial window of 1.5 BDP each (175,342 B), more than
 *       one port's BDP plus its 120,640 B buffer for every N here, so every incast run has NACKs, and a run with NACKs
 *       had some queue within one packet of its data buffer (a packet is trimmed only when it does not fit);</li>
 *   <li>the seeds vary the result (the spread over seeds is what the comparison's tolerances are taken from), and the
 *       spread of the last completion over seeds is printed.</li>
 * </ul>
 */
class UetReferenceDatasetsTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize(); // tests run in kernel-lib/
    static final Path SCENARIOS = ROOT.resolve("tools/uet-reference/scenarios");
    static final List<String> LOAD_BALANCING = List.of("oblivious", "reps");
    static final int SEEDS = 10;
    /** Payload and wire bytes of a data packet (-mtu 4160: 4096 B of payload and htsim's 64 B header). */
    static final long PAYLOAD = 4096;
    static final long WIRE = 4160;
    static final double LINK_BPS = 100e9;
    static final double PROPAGATION_NS = 1000;
    /** Links between hosts on different leaves. */
    static final int PATH_LINKS = 4;
    /** Data buffer per port (-q 29 x 4160 B) and that of a degraded link (-failed: a quarter of it). */
    static final long BUFFER = 29 * WIRE;
    static final long DEGRADED_BUFFER = BUFFER / 4;
    /** The reference's initial window: 1.5 x BDP, its BDP from its unloaded RTT (2 x 4 links x 1 us + a data packet's and an ACK's serialisation on 4 links). */
    static final double RTT_NS = 2 * PATH_LINKS * PROPAGATION_NS + PATH_LINKS * (WIRE + 64) * 8 / LINK_BPS * 1e9;
    static final double BDP_BYTES = RTT_NS * 1e-9 * LINK_BPS / 8;

    /** One scenario: its dataset, id, connection matrix and smallest data buffer. */
    record Scenario(String dataset, String id, String matrix, long smallestBuffer) {
    }

    static final List<Scenario> SCENARIO_LIST = List.of(
            new Scenario("uet-htsim-permutation", "permutation32", "permutation32.cm", BUFFER),
            new Scenario("uet-htsim-incast", "incast4", "incast4.cm", BUFFER),
            new Scenario("uet-htsim-incast", "incast8", "incast8.cm", BUFFER),
            new Scenario("uet-htsim-incast", "incast16", "incast16.cm", BUFFER),
            new Scenario("uet-htsim-incast", "incast24", "incast24.cm", BUFFER),
            new Scenario("uet-htsim-failed-link", "permutation32_failed1", "permutation32.cm", DEGRADED_BUFFER),
            new Scenario("uet-htsim-incast-rccc", "incast4_rccc", "incast4.cm", BUFFER),
            new Scenario("uet-htsim-incast-rccc", "incast8_rccc", "incast8.cm", BUFFER),
            new Scenario("uet-htsim-incast-rccc", "incast16_rccc", "incast16.cm", BUFFER),
            new Scenario("uet-htsim-incast-rccc", "incast24_rccc", "incast24.cm", BUFFER));

    /** A run's rows: per flow (source, destination) and per run (quantity). */
    record RunRows(Map<String, Map<List<Integer>, Long>> flows, Map<String, Long> run) {
    }

    static Map<String, RunRows> load(String dataset) {
        Table t = Datasets.load(dataset).table();
        Map<String, RunRows> runs = new TreeMap<>();
        for (Row r : t) {
            String key = r.getString("scenario") + "/" + r.getString("load_balancing") + "/" + r.getInt("seed");
            RunRows rows = runs.computeIfAbsent(key, k -> new RunRows(new HashMap<>(), new HashMap<>()));
            long value = (long) r.getNumber("value");
            assertEquals((double) value, r.getNumber("value"), key + ": values are whole numbers");
            if (r.getInt("source") < 0) {
                assertEquals(-1, r.getInt("destination"));
                assertEquals(null, rows.run().put(r.getString("quantity"), value), key + ": one row per quantity");
            } else {
                rows.flows().computeIfAbsent(r.getString("quantity"), k -> new HashMap<>())
                        .put(List.of(r.getInt("source"), r.getInt("destination")), value);
            }
        }
        return runs;
    }

    /** The flows of a connection matrix: (source, destination) to bytes. */
    static Map<List<Integer>, Long> matrix(String file) throws Exception {
        Map<List<Integer>, Long> flows = new HashMap<>();
        for (String line : Files.readAllLines(SCENARIOS.resolve(file))) {
            String[] f = line.trim().split("\\s+");
            if (f[0].contains("->")) {
                String[] ends = f[0].split("->");
                assertEquals("start", f[3]);
                assertEquals("0", f[4], "every flow starts at 0");
                assertEquals("size", f[5]);
                flows.put(List.of(Integer.parseInt(ends[0]), Integer.parseInt(ends[1])), Long.parseLong(f[6]));
            }
        }
        return flows;
    }

    static double serialisationNs(double bytes) {
        return bytes * 8 / LINK_BPS * 1e9;
    }

    @Test
    void everyRunIsConsistentWithItselfAndWithTheScenariosBounds() throws Exception {
        Map<String, Map<String, RunRows>> datasets = new HashMap<>();
        for (Scenario s : SCENARIO_LIST) {
            Map<String, RunRows> runs = datasets.computeIfAbsent(s.dataset(), UetReferenceDatasetsTest::load);
            Map<List<Integer>, Long> flows = matrix(s.matrix());
            Map<Integer, Long> perReceiver = new HashMap<>();
            flows.forEach((k, v) -> perReceiver.merge(k.get(1), v, Long::sum));
            long totalBytes = flows.values().stream().mapToLong(Long::longValue).sum();
            boolean incast = perReceiver.size() == 1;
            for (String lb : LOAD_BALANCING) {
                List<Long> makespans = new ArrayList<>();
                for (int seed = 1; seed <= SEEDS; seed++) {
                    String key = s.id() + "/" + lb + "/" + seed;
                    RunRows rows = runs.get(key);
                    assertTrue(rows != null, key + " is in " + s.dataset());
                    checkRun(key, rows, flows, totalBytes, incast, s.smallestBuffer(), perReceiver.size());
                    makespans.add(rows.run().get("fct_max_ns"));
                }
                long lo = makespans.stream().min(Long::compare).orElseThrow();
                long hi = makespans.stream().max(Long::compare).orElseThrow();
                assertTrue(hi > lo, s.id() + " " + lb + ": the seeds vary the last completion");
                System.out.printf(Locale.ROOT, "%-22s %-9s last completion over %d seeds: %,d to %,d ns (spread %.1f%%)%n",
                        s.id(), lb, SEEDS, lo, hi, 100.0 * (hi - lo) / lo);
            }
        }
        for (Map.Entry<String, Map<String, RunRows>> d : datasets.entrySet()) {
            long expected = SCENARIO_LIST.stream().filter(s -> s.dataset().equals(d.getKey())).count()
                    * LOAD_BALANCING.size() * SEEDS;
            assertEquals(expected, d.getValue().size(), d.getKey() + ": no run beyond the scenarios'");
        }
    }

    private static void checkRun(String key, RunRows rows, Map<List<Integer>, Long> flows, long totalBytes, boolean incast,
            long smallestBuffer, int receivers) {
        Map<List<Integer>, Long> fct = rows.flows().get("fct_ns");
        assertEquals(flows.keySet(), fct.keySet(), key + ": the flows of the connection matrix");
        assertEquals(flows, rows.flows().get("bytes"), key + ": each flow delivers its size");
        Map<String, Long> run = rows.run();
        long[] sorted = fct.values().stream().mapToLong(Long::longValue).sorted().toArray();
        int n = sorted.length;
        assertEquals(n, run.get("flows"), key);
        assertEquals(sorted[0], run.get("fct_min_ns"), key);
        assertEquals(sorted[n - 1], run.get("fct_max_ns"), key);
        assertEquals(sorted[(int) Math.ceil(0.5 * n) - 1], run.get("fct_p50_ns"), key);
        assertEquals(sorted[(int) Math.ceil(0.99 * n) - 1], run.get("fct_p99_ns"), key);
        double mean = Arrays.stream(sorted).average().orElseThrow();
        assertEquals(mean, run.get("fct_mean_ns"), 0.5, key + ": mean");
        assertTrue(run.get("fct_min_ns") <= run.get("fct_mean_ns") && run.get("fct_mean_ns") <= run.get("fct_max_ns"), key);
        assertTrue(run.get("fct_p50_ns") <= run.get("fct_p99_ns") && run.get("fct_p99_ns") <= run.get("fct_max_ns"), key);
        double goodput = totalBytes * 8 / (run.get("fct_max_ns") * 1e-9);
        assertEquals(goodput, run.get("goodput_bps"), 1.0, key + ": goodput");
        assertTrue(goodput <= receivers * LINK_BPS * PAYLOAD / WIRE, key + ": goodput " + goodput + " above the receivers' payload rate");

        // lower bounds: the packets' serialisation on the first link, the last packet's store-and-forward on the three
        // further links, four propagation delays out and four back
        double pathNs = (PATH_LINKS - 1) * serialisationNs(WIRE) + 2 * PATH_LINKS * PROPAGATION_NS;
        for (Map.Entry<List<Integer>, Long> f : fct.entrySet()) {
            double bound = serialisationNs(flows.get(f.getKey()) / PAYLOAD * WIRE) + pathNs;
            assertTrue(f.getValue() >= bound, key + " flow " + f.getKey() + ": FCT " + f.getValue() + " ns below " + bound);
        }
        if (incast) {
            double bound = serialisationNs((double) totalBytes / PAYLOAD * WIRE) + pathNs;
            assertTrue(run.get("fct_max_ns") >= bound, key + ": last completion " + run.get("fct_max_ns") + " ns below " + bound);
        }

        assertEquals(totalBytes / PAYLOAD, run.get("new_pkts"), key + ": first transmissions");
        assertTrue(run.get("rtx_pkts") >= run.get("nacks"), key + ": a retransmission per NACK");
        for (String q : List.of("rts_pkts", "bounced_pkts", "acks", "nacks", "pulls", "sleek_pkts")) {
            assertTrue(run.get(q) >= 0, key + ": " + q);
        }
        assertTrue(run.get("acks") > 0, key + ": ACKs");
        assertEquals(key.contains("_rccc"), run.get("pulls") > 0, key + ": pulls exactly where the receivers grant credit");
        if (incast) {
            double firstWindows = n * 1.5 * BDP_BYTES;
            assertTrue(firstWindows > BDP_BYTES + BUFFER, key + ": the initial windows overflow the receiver's port");
            assertTrue(run.get("nacks") > 0, key + ": an incast trims");
        }
        long peak = 0;
        for (String c : List.of("nic", "leaf_down", "leaf_up", "spine_down")) {
            long p = run.get("peak_" + c + "_queue_bytes");
            assertTrue(p >= 0 && p <= 3 * BUFFER, key + ": peak " + c + " " + p + " B beyond a data buffer and its header queue");
            if (!c.equals("nic")) {
                peak = Math.max(peak, p);
            }
        }
        if (run.get("nacks") > 0) {
            assertTrue(peak > smallestBuffer - WIRE, key + ": trims, yet no switch queue came within a packet of its buffer");
        }
    }

    /**
     * Where a built copy of the reference is at hand ({@code -Dfabriclab.uet.reference=DIR}, else
     * {@code /work/refs/uet-htsim}), the tool reruns it and regenerates the committed CSVs byte for byte.
     */
    @Test
    void theToolReproducesTheCommittedCsvsByteForByte() throws Exception {
        String configured = System.getProperty("fabriclab.uet.reference");
        Path tree = Path.of(configured == null || configured.isBlank() ? "/work/refs/uet-htsim" : configured);
        Assumptions.assumeTrue(Files.isExecutable(tree.resolve("htsim/sim/build/datacenter/htsim_uec"))
                && Files.isExecutable(tree.resolve("htsim/sim/build/parse_output")), "no built reference at " + tree);
        Path log = Files.createTempFile("uet-check-", ".txt");
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(javaBin.toString(), ROOT.resolve("tools/UetReferenceRuns.java").toString(), "--check",
                tree.toString()).directory(ROOT.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the tool did not finish in 10 minutes");
        String out = Files.readString(log);
        Files.delete(log);
        assertEquals(0, p.exitValue(), out);
    }
}
