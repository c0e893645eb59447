package fabriclab.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.Table;

class ColumnsTest {
    private record Run(String fabric, double jctUs, long drops, int links, boolean ok) {
    }

    private static final Columns<Run> COLUMNS = Columns.<Run>of()
            .stringColumn("fabric", "", Run::fabric)
            .doubleColumn("jct_ms", "ms", r -> r.jctUs() / 1000)
            .longColumn("drops", "packets", Run::drops)
            .intColumn("links", "links", Run::links)
            .booleanColumn("ok", "", Run::ok);

    @Test
    void oneRowPerResultInOrderWithTheDeclaredTypesAndUnits() {
        Table t = COLUMNS.table("runs", List.of(new Run("roce", 1500, 7, 3, false), new Run("gse", 500, 0, 4, true)));
        assertEquals("runs", t.name());
        assertEquals(List.of("fabric", "jct_ms", "drops", "links", "ok"), t.columnNames());
        assertEquals(List.of(ColumnType.STRING, ColumnType.DOUBLE, ColumnType.LONG, ColumnType.INTEGER, ColumnType.BOOLEAN),
                List.of(t.columnTypes()));
        assertEquals(2, t.rowCount());
        assertEquals("roce", t.stringColumn("fabric").get(0));
        assertEquals(0.5, t.doubleColumn("jct_ms").get(1));
        assertEquals(7L, t.longColumn("drops").get(0));
        assertEquals(4, t.intColumn("links").get(1));
        assertEquals(true, t.booleanColumn("ok").get(1));
        assertEquals(List.of("fabric", "jct_ms", "drops", "links", "ok"), List.copyOf(COLUMNS.units().keySet()));
        assertEquals("ms", COLUMNS.units().get("jct_ms"));
        assertEquals(0, COLUMNS.table("none", List.of()).rowCount());
    }

    @Test
    void badArgumentsAreNamed() {
        assertEquals("name must differ from the existing columns [fabric, jct_ms, drops, links, ok], got \"drops\"",
                assertThrows(IllegalArgumentException.class, () -> COLUMNS.longColumn("drops", "", Run::drops)).getMessage());
        assertEquals("unit must not be null",
                assertThrows(IllegalArgumentException.class, () -> COLUMNS.longColumn("x", null, Run::drops)).getMessage());
        assertEquals("results[0] must not be null", assertThrows(IllegalArgumentException.class,
                () -> COLUMNS.table("t", java.util.Arrays.asList((Run) null))).getMessage());
        assertThrows(IllegalStateException.class, () -> Columns.<Run>of().table("t", List.of()));
    }
}
