package fabriclab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.ComparisonKind;
import fabriclab.datasets.ComparisonRow;
import fabriclab.datasets.Target;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class PaperComparisonTest {
    @Test
    void eachKindMethodSetsKindBasisCanonicalAndSource() {
        PaperComparison c = PaperComparison.of("demo", "001_ab.txt")
                .prediction("queue", "MB", Target.atLeast(10), 7.2, "")
                .calibrated("001's 97.98 Gb/s", "rate", "Gb/s", Target.point(97.98), 97.98, "")
                .definition("quantum", "ns", Target.point(5.12), 5.12, "")
                .validation("a white paper", "headroom", "B", Target.point(10882), 10966.5, "")
                .whatIf("PFC off", "queue", "MB", Target.atLeast(10), 0.25, "")
                .superseded("07-x", "latency", "us", Target.point(1154.77), 40, "");
        List<ComparisonRow> rows = c.rows();
        assertEquals(List.of(ComparisonKind.PREDICTION, ComparisonKind.CALIBRATED, ComparisonKind.DEFINITION,
                ComparisonKind.VALIDATION, ComparisonKind.WHAT_IF, ComparisonKind.SUPERSEDED),
                rows.stream().map(ComparisonRow::kind).toList());
        assertEquals(List.of(true, true, true, true, false, false), rows.stream().map(ComparisonRow::canonical).toList());
        assertEquals("a white paper", rows.get(3).source());   // a validation's number is not the seed's
        assertEquals("001_ab.txt", rows.get(4).source());
        assertEquals("07-x", rows.get(5).basis());

        Table t = c.table();
        assertEquals(PaperComparison.COLUMNS, t.columnNames());
        assertEquals("lower-bound", t.stringColumn("target").get(0));
        assertEquals(-0.28, t.doubleColumn("relative_difference").get(0), 1e-12);   // (7.2 - 10) / 10
        assertEquals("no", t.stringColumn("meets_target").get(0));
        assertEquals("no", t.stringColumn("canonical").get(4));
    }

    @Test
    void rejectsMissingBasisAndEmptySave() {
        PaperComparison c = PaperComparison.of("demo", "001_ab.txt");
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> c.calibrated("", "rate", "Gb/s", Target.point(1), 1, "")).getMessage().startsWith("basis"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperComparison.of("demo", " ")).getMessage()
                .startsWith("seedFile"));
        assertThrows(IllegalStateException.class, () -> c.save(java.nio.file.Path.of("/nonexistent"), "01-x"));
    }
}
