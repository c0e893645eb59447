package fabriclab.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.notebook.PaperComparison;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class ScorecardTest {
    @TempDir
    Path root;

    @Test
    void gathersEveryComparisonWithIndependentlyComputedDifferences() {
        Table pub = Table.create("demo", StringColumn.create("quantity", "queue"), DoubleColumn.create("value", 10.0));
        Datasets.write(root, pub, new Provenance("demo", "demo numbers", "published",
                new Provenance.Paper("001_x.txt", null, null, null, null), "table 9", Map.of("quantity", "", "value", "MB"), null));
        PaperComparison.of("first").add("queue", "MB", 10, 12, "model buffers more")
                .add("rate", "Gb/s", 100, 90, "").save(root, "04-demo", "001_x.txt", "demo");
        PaperComparison.of("second").add("latency", "us", 20, 20.5, "close").save(root, "07-demo", "002_y.txt");

        Table s = Scorecard.gather(root, 0.15);
        assertEquals(3, s.rowCount());
        // 12 vs 10 is +20% (outside 15%), 90 vs 100 is -10%, 20.5 vs 20 is +2.5%
        assertEquals(0.2, s.doubleColumn("relative_difference").get(0), 1e-12);
        assertEquals("no", s.stringColumn("within_tolerance").get(0));
        assertEquals(-0.1, s.doubleColumn("relative_difference").get(1), 1e-12);
        assertEquals("yes", s.stringColumn("within_tolerance").get(1));
        assertEquals("002", s.stringColumn("source").get(2));
        assertEquals("07-demo", s.stringColumn("notebook").get(2));
        assertEquals("model buffers more", s.stringColumn("reason").get(0));

        Table c = Scorecard.coverage(root);
        assertEquals(1, c.rowCount());
        assertEquals("04-demo", c.stringColumn("compared_in").get(0));
    }

    @Test
    void rejectsBadTolerance() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Scorecard.gather(root, 0));
        assertTrue(e.getMessage().contains("tolerance"));
    }
}
