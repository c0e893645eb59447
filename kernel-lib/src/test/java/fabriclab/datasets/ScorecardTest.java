package fabriclab.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.notebook.PaperComparison;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class ScorecardTest {
    @TempDir
    Path root;

    private void publishedDemo() {
        Table pub = Table.create("demo", StringColumn.create("quantity", "queue"), DoubleColumn.create("value", 10.0));
        Datasets.write(root, pub, new Provenance("demo", "demo numbers", "published",
                new Provenance.Paper("001_ab.txt", null, null, null, null), "table 9", Map.of("quantity", "", "value", "MB"), null));
    }

    @Test
    void countsCanonicalPredictionsOnlyAndListsTheOtherKindsApart() {
        publishedDemo();
        PaperComparison.of("fluid", "001_ab.txt")
                .superseded("07-demo", "max queue", "MB", Target.atLeast(10), 1.05, "fluid, PFC at 1 MB")
                .calibrated("001's 97.98 Gb/s", "throughput", "Gb/s", Target.point(97.98), 97.98, "set from it")
                .save(root, "04-demo", "demo");
        PaperComparison.of("packet", "001_ab.txt")
                .prediction("max queue", "MB", Target.atLeast(10), 7.155, "")
                .prediction("latency", "us", Target.point(20), 20.5, "close")
                .add(new ComparisonRow("002_cd.txt", "gain", "%", ComparisonKind.WHAT_IF, "one spine", true,
                        Target.magnitude(1.3), -6.05, ""))
                .save(root, "07-demo");

        assertEquals(List.of(), Scorecard.problems(root));
        Table card = Scorecard.gather(root);
        assertEquals(5, card.rowCount());
        // kinds apart, predictions first, in the order of ComparisonKind
        assertEquals(List.of("prediction", "prediction", "calibrated", "what-if", "superseded"),
                card.stringColumn("kind").asList());
        // 7.155 MB against "at least 10": (7.155 - 10) / 10; 20.5 vs 20: +2.5%; |-6.05| vs 1.3
        assertEquals(-0.2845, card.doubleColumn("relative_difference").get(0), 1e-12);
        assertEquals("no", card.stringColumn("meets_target").get(0));
        assertEquals(0.025, card.doubleColumn("relative_difference").get(1), 1e-12);
        assertEquals("yes", card.stringColumn("meets_target").get(1));
        assertEquals((6.05 - 1.3) / 1.3, card.doubleColumn("relative_difference").get(3), 1e-12);
        assertEquals("002", card.stringColumn("source").get(3));
        assertEquals("07-demo", card.stringColumn("notebook").get(0));
        assertEquals("at least 10", card.stringColumn("target").get(0));

        Table counted = Scorecard.predictions(root);
        assertEquals(2, counted.rowCount());
        assertEquals(List.of("yes", "yes"), counted.stringColumn("counted").asList());
        assertEquals("no", card.stringColumn("counted").get(2));   // calibrated: listed, not counted

        Table c = Scorecard.coverage(root);
        assertEquals("04-demo", c.stringColumn("compared_in").get(0));
    }

    @Test
    void findsAQuantityWithTwoCanonicalRowsOrNone() {
        PaperComparison.of("a", "001_ab.txt").prediction("max queue", "MB", Target.atLeast(10), 1.05, "")
                .whatIf("PFC off", "latency", "us", Target.point(20), 30, "").save(root, "03-a");
        PaperComparison.of("b", "001_ab.txt").prediction("max queue", "MB", Target.atLeast(10), 7.2, "")
                .superseded("03-a", "throughput", "Gb/s", Target.point(98), 97, "").save(root, "07-b");
        List<String> problems = Scorecard.problems(root);
        assertEquals(3, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("001_ab.txt: max queue\" has 2 canonical rows (in 03-a, 07-b)"), problems.get(0));
        assertTrue(problems.get(1).contains("latency\" has 0 canonical rows"), problems.get(1));
        assertTrue(problems.get(2).contains("throughput\" has 0 canonical rows"), problems.get(2));
    }

    @Test
    void findsASupersededRowPointingAtTheWrongNotebook() {
        PaperComparison.of("a", "001_ab.txt").superseded("05-x", "max queue", "MB", Target.atLeast(10), 1.05, "")
                .save(root, "03-a");
        PaperComparison.of("b", "001_ab.txt").prediction("max queue", "MB", Target.atLeast(10), 7.2, "").save(root, "07-b");
        List<String> problems = Scorecard.problems(root);
        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains("canonical row is in 07-b"), problems.get(0));
    }

    @Test
    void findsARowThatStatesTheTargetDifferently() {
        PaperComparison.of("a", "001_ab.txt").superseded("07-b", "max queue", "MB", Target.point(10), 1.05, "")
                .save(root, "03-a");
        PaperComparison.of("b", "001_ab.txt").prediction("max queue", "MB", Target.atLeast(10), 7.2, "").save(root, "07-b");
        List<String> problems = Scorecard.problems(root);
        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains("in 03-a states the target as 10 \u00b1 15% MB, its canonical row in 07-b as at least 10 MB"),
                problems.get(0));
    }

    @Test
    void rejectsARowWithoutKindNamingTheFileAndRow() throws Exception {
        PaperComparison.of("a", "001_ab.txt").prediction("max queue", "MB", Target.atLeast(10), 1.05, "")
                .definition("quantum", "ns", Target.point(5.12), 5.12, "").save(root, "03-a");
        Path csv = root.resolve("model/comparison-03-a.csv");
        Files.writeString(csv, Files.readString(csv).replace(",definition,", ",,"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Scorecard.entries(root));
        assertTrue(e.getMessage().contains("comparison-03-a.csv, row 2: kind must be one of"), e.getMessage());
    }

    @Test
    void rejectsADatasetWithoutTheKindColumn() {
        Table old = Table.create("comparison-01-old", StringColumn.create("source", "000_ab.txt"),
                StringColumn.create("quantity", "ratio"), StringColumn.create("unit", ""),
                DoubleColumn.create("published", 3.5), DoubleColumn.create("model", 1.0), StringColumn.create("note", ""));
        Datasets.write(root, old, new Provenance("comparison-01-old", "old", "model",
                new Provenance.Paper("000_ab.txt", null, null, null, null), "notebook 01",
                Map.of("source", "", "quantity", "", "unit", "", "published", "", "model", "", "note", ""), null));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Scorecard.gather(root));
        assertTrue(e.getMessage().contains("no column \"target\""), e.getMessage());
    }

    @Test
    void saveRejectsASeedFileWhereADatasetBelongs() {
        PaperComparison c = PaperComparison.of("a", "001_ab.txt").prediction("q", "", Target.point(1), 1, "");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> c.save(root, "01-a", "001_ab.txt", "demo"));
        assertTrue(e.getMessage().startsWith("publishedDatasets"), e.getMessage());
    }
}
