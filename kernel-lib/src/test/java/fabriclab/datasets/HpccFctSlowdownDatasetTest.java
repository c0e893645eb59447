package fabriclab.datasets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * The published dataset {@code hpcc-fct-slowdown-30pct}, read from the HPCC authors' figures by
 * {@code tools/DigitizeHpccFigures.java}: checks what must hold whatever the reading (slowdowns are at least 1 and
 * inside the figure's y axis, every curve has its 100 steps, the 50th percentile is at most the 95th and that at most
 * the 99th), and, where a copy of the figures' repository is at hand, that the tool gives the committed CSV byte for
 * byte.
 */
class HpccFctSlowdownDatasetTest {
    private static final String NAME = "hpcc-fct-slowdown-30pct";
    private static final List<String> SCHEMES = List.of("hpcc_pint", "hpcc_int", "dcqcn_w", "timely_w", "dctcp");
    private static final List<String> WORKLOADS = List.of("websearch", "fb_hadoop");
    private static final List<Integer> PERCENTILES = List.of(50, 95, 99);
    private static final int STEPS = 100;
    /** Top of the y axis of the figures (the bottom is 1 in all): WebSearch 10, FB Hadoop 8. */
    private static final Map<String, Double> AXIS_TOP = Map.of("websearch", 10.0, "fb_hadoop", 8.0);
    /**
     * Pixels of reading error allowed where a curve may be partly hidden under a curve drawn later: half the width of
     * the lines (about 7 pixels), as the dataset's notes state.
     */
    private static final double HIDDEN_PX = 4;
    private static final Path DEFAULT_MIRROR = Path.of("/work/.mirror/hpcc-group+hpcc-group.github.io/repo");

    private static String key(Row r) {
        return r.getString("workload") + "," + r.getString("scheme") + "," + r.getInt("step");
    }

    @Test
    void everyCurveHasItsStepsAndSlowdownsAreAtLeastOneAndOnTheAxis() {
        Table t = Datasets.load(NAME).table();
        assertEquals(WORKLOADS.size() * PERCENTILES.size() * SCHEMES.size() * STEPS, t.rowCount());
        Map<String, Integer> steps = new HashMap<>();
        for (Row r : t) {
            String w = r.getString("workload");
            assertTrue(WORKLOADS.contains(w), w);
            assertTrue(PERCENTILES.contains(r.getInt("percentile")), "percentile " + r.getInt("percentile"));
            assertTrue(SCHEMES.contains(r.getString("scheme")), r.getString("scheme"));
            int k = r.getInt("step");
            assertTrue(k >= 0 && k < STEPS, "step " + k);
            assertEquals(k, r.getInt("flows_from_pct"));
            assertEquals(k + 1, r.getInt("flows_to_pct"));
            assertEquals(r.getString("reading").equals("interpolated"), r.getBoolean("interpolated"), key(r));
            double s = r.getDouble("slowdown");
            double px = r.getDouble("one_pixel");
            assertTrue(px > 0 && px < 0.003 * s, key(r) + ": one pixel " + px);
            assertTrue(s >= 1 - HIDDEN_PX * px, key(r) + " p" + r.getInt("percentile") + ": slowdown " + s + " below 1");
            assertTrue(s <= AXIS_TOP.get(w) + px, key(r) + ": slowdown " + s + " above the axis");
            steps.merge(w + "," + r.getInt("percentile") + "," + r.getString("scheme"), 1, Integer::sum);
        }
        for (String w : WORKLOADS) {
            for (int p : PERCENTILES) {
                for (String c : SCHEMES) {
                    assertEquals(STEPS, steps.getOrDefault(w + "," + p + "," + c, 0), w + " p" + p + " " + c);
                }
            }
        }
    }

    @Test
    void higherPercentilesAreNotBelowLowerOnesWithinTheReadingsUncertainty() {
        Table t = Datasets.load(NAME).table();
        Map<String, double[]> value = new HashMap<>(); // key -> slowdown at p50, p95, p99
        Map<String, double[]> pixel = new HashMap<>();
        for (Row r : t) {
            int i = PERCENTILES.indexOf(r.getInt("percentile"));
            value.computeIfAbsent(key(r), k -> new double[3])[i] = r.getDouble("slowdown");
            pixel.computeIfAbsent(key(r), k -> new double[3])[i] = r.getDouble("one_pixel");
        }
        assertEquals(WORKLOADS.size() * SCHEMES.size() * STEPS, value.size());
        for (Map.Entry<String, double[]> e : value.entrySet()) {
            double[] v = e.getValue();
            double[] px = pixel.get(e.getKey());
            for (int i = 0; i < 2; i++) {
                double tolerance = HIDDEN_PX * (px[i] + px[i + 1]);
                assertTrue(v[i] <= v[i + 1] + tolerance, e.getKey() + ": p" + PERCENTILES.get(i) + " " + v[i] + " above p"
                        + PERCENTILES.get(i + 1) + " " + v[i + 1]);
            }
        }
    }

    @Test
    void theToolReproducesTheCommittedCsvByteForByte(@TempDir Path tmp) throws Exception {
        String configured = System.getProperty("fabriclab.hpcc.mirror");
        Path mirror = configured == null || configured.isBlank() ? DEFAULT_MIRROR : Path.of(configured);
        Assumptions.assumeTrue(Files.isDirectory(mirror), "no copy of hpcc-group.github.io at " + mirror
                + " (set -Dfabriclab.hpcc.mirror to its git directory)");
        Path root = Path.of("..").toAbsolutePath().normalize(); // tests run in kernel-lib/
        Path tool = root.resolve("tools").resolve("DigitizeHpccFigures.java");
        Path out = tmp.resolve(NAME + ".csv");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), tool.toString(), mirror.toString(), out.toString())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("log.txt").toFile()).start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the tool did not finish in 5 minutes");
        String log = Files.readString(tmp.resolve("log.txt"), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "the tool failed:\n" + log);
        byte[] committed = Files.readAllBytes(root.resolve("datasets").resolve("published").resolve(NAME + ".csv"));
        assertArrayEquals(committed, Files.readAllBytes(out), "the tool now reads other values than the committed CSV;"
                + " its report:\n" + log);
    }
}
