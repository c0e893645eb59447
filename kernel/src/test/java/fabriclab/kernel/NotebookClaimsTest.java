package fabriclab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every claim a notebook's prose states in a {@code <!-- claim: ... -->} comment (grammar in {@link Claims}) holds in
 * the committed datasets and the notebook's text outputs. A comparison, direction or range of the prose that the
 * outputs stop supporting (a rerun, a changed event order, a new default) then fails here, in {@code mvn test},
 * without Jupyter; the sentence and its claim are fixed together.
 */
class NotebookClaimsTest {

    @TestFactory
    Stream<DynamicTest> everyClaimOfTheProseHoldsInItsOutputs() throws IOException {
        Map<String, Claims.Table> cache = new HashMap<>();
        Function<String, Claims.Table> tables = path -> cache.computeIfAbsent(path, p -> {
            Path f = NotebookFilesTest.ROOT.resolve(p).normalize();
            if (!f.startsWith(NotebookFilesTest.ROOT.resolve("datasets")) || !f.toFile().isFile()) {
                throw new Claims.ClaimException("no dataset " + p + " under datasets/");
            }
            return Claims.readCsv(f);
        });
        List<DynamicTest> tests = new ArrayList<>();
        for (Path nb : NotebookFilesTest.notebooks()) {
            tests.add(DynamicTest.dynamicTest(nb.getFileName().toString(), () -> check(nb, tables)));
        }
        return tests.stream();
    }

    static void check(Path path, Function<String, Claims.Table> tables) throws IOException {
        String name = path.getFileName().toString();
        JsonNode cells = NotebookFilesTest.JSON.readTree(path.toFile()).path("cells");
        StringBuilder outputs = new StringBuilder();
        for (JsonNode cell : cells) {
            for (JsonNode o : cell.path("outputs")) {
                outputs.append(NotebookProseTest.text(o.path("text"))).append('\n');
                for (Iterator<Map.Entry<String, JsonNode>> it = o.path("data").fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (e.getKey().startsWith("text/")) {
                        outputs.append(NotebookProseTest.text(e.getValue())).append('\n');
                    }
                }
            }
        }
        int count = 0;
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            JsonNode cell = cells.get(i);
            if (!cell.path("cell_type").asText().equals("markdown")) {
                continue;
            }
            String markdown = NotebookProseTest.text(cell.path("source"));
            String[] lines = markdown.split("\n", -1);
            for (int l = 1; l < lines.length; l++) {
                if (lines[l].stripLeading().startsWith("<!--") && !lines[l - 1].isBlank()) {
                    // an HTML block may interrupt a paragraph: the sentence around it would render as two paragraphs
                    failures.add(name + " cell " + i + ": a comment starts a line inside a paragraph (put it after the"
                            + " sentence, on the sentence's line): " + lines[l]);
                }
            }
            for (String claim : Claims.claimsIn(markdown)) {
                count++;
                Claims.Outcome o = Claims.evaluate(claim, tables, outputs.toString());
                if (!o.holds()) {
                    failures.add(name + " cell " + i + ": claim does not hold: " + claim + "\n    "
                            + o.detail().replace("\n", "\n    "));
                }
            }
        }
        System.out.printf(Locale.ROOT, "%s: %d claims, %d do not hold%n", name, count, failures.size());
        assertTrue(failures.isEmpty(), failures.size() + " claim(s) of the prose do not hold in the outputs:\n"
                + String.join("\n", failures));
    }

    // ---- the evaluator itself, on hand-made tables ----

    static final Claims.Table RUNS = new Claims.Table(
            List.of("scheme", "seed", "load", "jct", "label"),
            List.of(
                    List.of("roce", "1", "0.5", "12.0", "a, b"),
                    List.of("gse", "1", "0.5", "10.0", "a"),
                    List.of("roce", "2", "0.5", "11.0", "a"),
                    List.of("gse", "2", "0.5", "10.5", "a"),
                    List.of("roce", "3", "0.5", "9.0", "a"),
                    List.of("gse", "3", "0.5", "10.0", "a"),
                    List.of("roce", "1", "0.9", "30.0", "b"),
                    List.of("gse", "1", "0.9", "20.0", "b")));

    static boolean holds(String claim) {
        return holds(claim, "");
    }

    static boolean holds(String claim, String outputs) {
        Claims.Outcome o = Claims.evaluate(claim, p -> {
            if (!p.equals("runs.csv")) {
                throw new Claims.ClaimException("no dataset " + p);
            }
            return RUNS;
        }, outputs);
        return o.holds();
    }

    @Test
    void pairedDirectionsHoldInEveryGroupOrFail() {
        // at load 0.5, RoCE is slower in seeds 1 and 2 but faster in seed 3
        assertFalse(holds("runs.csv where load=0.5 for every seed: jct[scheme=roce] > jct[scheme=gse]"));
        assertTrue(holds("runs.csv where load=0.5 for 2 of seed: jct[scheme=roce] > jct[scheme=gse]"));
        assertFalse(holds("runs.csv where load=0.5 for 3 of seed: jct[scheme=roce] > jct[scheme=gse]"));
        assertFalse(holds("runs.csv where load=0.5 for no seed: jct[scheme=roce] > jct[scheme=gse]"));
        assertTrue(holds("runs.csv where load=0.5 for no seed: jct[scheme=roce] / jct[scheme=gse] > 1.25"));
        assertTrue(holds("runs.csv for every seed, load: jct[scheme=roce] - jct[scheme=gse] > -1.5"));
        assertFalse(holds("runs.csv for every seed, load: jct[scheme=roce] - jct[scheme=gse] > -0.5"));
        assertTrue(holds("runs.csv for every row: jct >= 9 and jct <= 30"));
        assertFalse(holds("runs.csv for every row: jct > 9"));
        assertTrue(holds("runs.csv for 1 of row: jct = 9"));
        // {conds}: a reference row outside the group and the where-scope
        assertTrue(holds("runs.csv where scheme=roce for 3 of seed, load: jct > jct{scheme=gse and seed=1 and load=0.5}"));
        assertFalse(holds("runs.csv where scheme=roce for every seed, load: jct > jct{scheme=gse and seed=1 and load=0.5}"));
    }

    @Test
    void aggregatesRangesAndRounding() {
        assertTrue(holds("runs.csv where load=0.5: median(jct[scheme=roce]) = 11.0"));
        assertTrue(holds("runs.csv where load=0.5: median(jct[scheme=gse]) = 10"));
        assertTrue(holds("runs.csv where load=0.5: mean(jct[scheme=gse]) = 10.17"));     // 10.1667 at the literal's decimals
        assertTrue(holds("runs.csv where load=0.5: mean(jct[scheme=gse]) = 10.2"));
        assertFalse(holds("runs.csv where load=0.5: mean(jct[scheme=gse]) = 10.16"));
        assertTrue(holds("runs.csv where load=0.5: median(jct) = 10.25"));              // even count: mean of the middle two
        assertTrue(holds("runs.csv where load=0.5: min(jct) within [9, 12] and max(jct) within [9, 12]"));
        assertFalse(holds("runs.csv: max(jct) within [9, 12]"));
        assertTrue(holds("runs.csv: count(scheme[label ~ b]) = 3 and sum(jct[load >= 0.9]) = 50"));
        assertTrue(holds("runs.csv: count(scheme[label !~ b]) = 5"));
        assertTrue(holds("runs.csv where label = \"a, b\": jct = 12"));
        assertTrue(holds("runs.csv: mean(jct[scheme=roce and load=0.5]) / mean(jct[scheme=gse and load=0.5]) > 1"));
        assertTrue(holds("runs.csv: -min(jct) < -8.5"));
    }

    @Test
    void theNotebookOutputsAreRead() {
        String outputs = "speedup 1.46x over 5 seeds\nratio 2,345.5";
        assertTrue(holds(": output(\"speedup ([\\d.]+)x\") within [1.4, 1.5]", outputs));
        assertTrue(holds(": output(\"ratio ([\\d,.]+)\") > 2000", outputs));
        assertFalse(holds(": output(\"speedup ([\\d.]+)x\") < 1", outputs));
        assertFalse(holds(": output(\"slowdown ([\\d.]+)x\") < 1", outputs));
        String table = "      buffers, 8 paths      \n m  |  late_share  |  max_kb  |\n-------------\n"
                + " 1  |  0.61  |  56  |\n 4  |  0.31  |  60  |\n\nnext";
        assertTrue(holds("output \"buffers\" for every row: max_kb within [40, 64]", table));
        assertTrue(holds("output \"buffers\": late_share[m=4] / late_share[m=1] > 0.5 and count(m) = 2", table));
        assertFalse(holds("output \"buffers\" for every row: max_kb < 60", table));
        assertFalse(holds("output \"buffer sizes\": count(m) = 2", table));
        String spaced = "  runs  \n run  |  flows completed  |\n---\n PFC  |  0  |\n HOOK  |  4  |\n";
        assertTrue(holds("output \"runs\": \"flows completed\"[run=HOOK] = 4 and max(\"flows completed\"[run != HOOK]) = 0", spaced));
    }

    @Test
    void whatCannotBeEvaluatedDoesNotHold() {
        Claims.Outcome several = Claims.evaluate("runs.csv: jct[scheme=roce] > 1", p -> RUNS, "");
        assertFalse(several.holds());
        assertTrue(several.detail().contains("rows where one is meant"), several.detail());
        assertFalse(holds("runs.csv: jct[scheme=tcp] > 1"));                 // no row
        assertFalse(holds("runs.csv: median(jct[scheme=tcp]) > 1"));         // no rows to aggregate
        assertFalse(holds("runs.csv: median(latency) > 1"));                 // no such column
        assertFalse(holds("other.csv: median(jct) > 1"));                     // no such table
        assertFalse(holds("runs.csv where load=0.7 for every seed: jct[scheme=roce] > 0"));  // empty scope
        assertFalse(holds("runs.csv: median(jct) >"));                       // cannot parse
        assertFalse(holds("runs.csv: median(jct) > 1 extra"));
        assertFalse(holds("runs.csv: median(scheme) > 1"));                  // text where a number is meant
    }

    @Test
    void claimsAreFoundInMarkdown() {
        String md = "RoCE is slower in every seed.<!-- claim: runs.csv for every seed: jct[scheme=roce] > 1 -->\n"
                + "And <!--claim:\n runs.csv: max(jct) < 40 --> more. <!-- a plain comment -->";
        assertEquals(List.of("runs.csv for every seed: jct[scheme=roce] > 1", "runs.csv: max(jct) < 40"),
                Claims.claimsIn(md));
    }
}
