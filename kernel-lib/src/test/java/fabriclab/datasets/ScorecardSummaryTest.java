package fabriclab.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.notebook.PaperComparison;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

class ScorecardSummaryTest {
    @TempDir
    Path root;

    /** Every row run once, at its reported value: the hit rule then agrees with the reported value's. */
    static final Function<Scorecard.Entry, Optional<SeedRange>> ONE_RUN =
            e -> Optional.of(new SeedRange("one run", List.of("seed 1"), List.of(e.row().model())));

    /**
     * Two hand-built comparisons. Expected, row by row:
     * "07-a": throughput 97.98 (model 100, construction 100: trivial, met) and utilisation 95.4% restating it
     * (model 100, construction 100: trivial, met) are one trivial quantity, met; latency 1154.77 vs 1126 (2.5% off,
     * no construction value): non-trivial, met; queue at least 10 vs 7.155 with construction 7 (7 < 10): non-trivial,
     * missed; drops at most 0 vs 52120 with construction 0: trivial, missed. "08-b": ratio band 3-3.5 vs 1.0008 with
     * construction 1: non-trivial, missed; a calibrated row met; two what-ifs (one met: 3.1 inside the band); a
     * superseded row (1.5 against 3-3.5) missed.
     */
    private void handBuilt() {
        PaperComparison.of("a", "001_ab.txt")
                .prediction("throughput", "Gb/s", Target.point(97.98), 100, "").trivialAt(100)
                .prediction("utilisation", "%", Target.point(95.4), 100, "").trivialAt(100).sameQuantityAs("throughput")
                .prediction("latency", "us", Target.point(1154.77), 1126, "")
                .prediction("queue", "MB", Target.atLeast(10), 7.155, "").trivialAt(7)
                .prediction("drops", "packets", Target.atMost(0), 52120, "").trivialAt(0)
                .save(root, "07-a");
        PaperComparison.of("b", "000_cd.txt")
                .prediction("ratio", "ratio", Target.band(3.0, 3.5), 1.0008, "").trivialAt(1)
                .calibrated("000's rate", "rate", "Gb/s", Target.point(10), 10, "")
                .whatIf("breakout", "ratio", "ratio", Target.band(3.0, 3.5), 3.1, "")
                .whatIf("fluid", "ratio", "ratio", Target.band(3.0, 3.5), 2.0, "")
                .superseded("08-b", "ratio", "ratio", Target.band(3.0, 3.5), 1.5, "")
                .save(root, "08-b");
    }

    @Test
    void countsQuantitiesPerCategoryWithRestatementsOnce() {
        handBuilt();
        assertEquals(List.of(), Scorecard.problems(root));
        assertEquals(List.of(
                new Scorecard.Tally(Scorecard.NON_TRIVIAL, 3, 1, 3),
                new Scorecard.Tally(Scorecard.TRIVIAL, 2, 1, 3),
                new Scorecard.Tally("calibrated", 1, 1, 1),
                new Scorecard.Tally("definition", 0, 0, 0),
                new Scorecard.Tally("validation", 0, 0, 0),
                new Scorecard.Tally("what-if", 2, 1, 2),
                new Scorecard.Tally("superseded", 1, 0, 1)), Scorecard.summary(root, ONE_RUN));
        // without a seed range no prediction meets the paper
        assertEquals(new Scorecard.Tally(Scorecard.NON_TRIVIAL, 3, 0, 3), Scorecard.summary(root).get(0));
        assertTrue(Scorecard.headline(root).startsWith("0 of 3 non-trivial canonical predictions meet the paper;"
                + " trivial predictions 0 of 2; calibrated 1 of 1;"), Scorecard.headline(root));
        Table t = Scorecard.summaryTable(root);
        assertEquals(List.of("category", "quantities", "meet the paper", "rows"), t.columnNames());
        assertEquals(7, t.rowCount());
    }

    @Test
    void aRestatedQuantityMeetsOnlyWhenEveryStatementDoes() {
        // 100 meets 100 +- 15% but not 50% +- 15%: one quantity, missed; 100 meets the first statement only, so not trivial
        PaperComparison.of("a", "001_ab.txt")
                .prediction("throughput", "Gb/s", Target.point(100), 100, "").trivialAt(100)
                .prediction("utilisation", "%", Target.point(50), 100, "").trivialAt(100).sameQuantityAs("throughput")
                .save(root, "07-a");
        assertEquals(new Scorecard.Tally(Scorecard.NON_TRIVIAL, 1, 0, 2), Scorecard.summary(root, ONE_RUN).get(0));
        assertEquals(new Scorecard.Tally(Scorecard.TRIVIAL, 0, 0, 0), Scorecard.summary(root, ONE_RUN).get(1));
    }

    @Test
    void theSavedColumnsReadBackAndTheGatheredCardShowsThem() {
        handBuilt();
        Table card = Scorecard.predictions(root);
        assertTrue(card.columnNames().containsAll(List.of("same_quantity_as", "trivial_value", "trivial", "tolerance_reason",
                "origin", "fitted_to", "seed_min", "seed_max", "seeds", "seeds_inside", "share_inside", "meets_median",
                "meets_paper", "seed_basis")), card.columnNames().toString());
        assertEquals(List.of("yes", "yes", "no", "no", "yes", "no"), card.stringColumn("trivial").asList());
        assertEquals("throughput", card.stringColumn("same_quantity_as").get(1));
        assertEquals(7.0, card.doubleColumn("trivial_value").get(3));
        assertTrue(card.doubleColumn("trivial_value").isMissing(2));
        assertEquals("a strict bound", card.stringColumn("tolerance_reason").get(3));
    }

    @Test
    void readsAComparisonSavedWithoutTheQualifierColumns() throws Exception {
        PaperComparison.of("a", "001_ab.txt").prediction("throughput", "Gb/s", Target.point(97.98), 100, "").trivialAt(100)
                .save(root, "07-a");
        Path csv = root.resolve("model/comparison-07-a.csv");
        List<String> lines = Files.readAllLines(csv);
        StringBuilder cut = new StringBuilder();
        for (String l : lines) {
            // drop the last four fields (no field of this file holds a comma)
            String[] f = l.split(",", -1);
            cut.append(String.join(",", java.util.Arrays.copyOf(f, f.length - 4))).append('\n');
        }
        Files.writeString(csv, cut);
        Scorecard.Entry e = Scorecard.entries(root).get(0);
        assertTrue(Double.isNaN(e.row().trivialValue()));
        assertEquals("", e.row().sameQuantityAs());
        assertEquals(new Scorecard.Tally(Scorecard.NON_TRIVIAL, 1, 1, 1), Scorecard.summary(root, ONE_RUN).get(0));
    }

    @Test
    void findsARestatementOfAQuantityTheComparisonDoesNotHave() {
        PaperComparison.of("a", "001_ab.txt")
                .prediction("utilisation", "%", Target.point(95.4), 100, "").sameQuantityAs("throughput")
                .save(root, "07-a");
        List<String> problems = Scorecard.problems(root);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("utilisation\" in 07-a restates \"throughput\""), problems.get(0));
    }
}
