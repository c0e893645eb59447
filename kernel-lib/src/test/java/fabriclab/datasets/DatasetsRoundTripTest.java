package fabriclab.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * The round-trip property of {@link Datasets}: whatever {@link Datasets#write} writes, {@link Datasets#load} reads back
 * equal, cell by cell; what it could not read back equal, write refuses, naming the column and row, and leaves no
 * file. Checked over tables drawn from a seed: numbers at the edges of a double and a long, negative zero, missing
 * values, and text with commas, quotes, line breaks and digits.
 */
class DatasetsRoundTripTest {
    private static final double[] DOUBLES = {0.0, -0.0, 1.5, -2.25, 0.1, 1e-300, -1e300, Double.MAX_VALUE,
        Double.MIN_VALUE, 123456789.123, 1e15 + 0.5, Math.PI};
    private static final long[] LONGS = {0, -1, 1, Long.MAX_VALUE, Long.MIN_VALUE + 1, 9_007_199_254_740_993L,
        -9_007_199_254_740_993L, 1L << 40};
    private static final String[] TEXTS = {"plain", "a, b", "\"quoted\"", "say \"hi\", then go", "line\nbreak",
        "two\n\nbreaks, and \"quotes\"", "x,y,z", "ends with comma,", "semi;colon", "unicode µs ≤ 5", "tab\there",
        "(1,000, 2,000]", "> 5,000,000"};

    private static Provenance provenance(List<String> columns) {
        Map<String, String> units = new LinkedHashMap<>();
        columns.forEach(c -> units.put(c, "1"));
        return new Provenance("roundtrip", "round-trip property", "model",
                new Provenance.Paper("000_5f64c80d7629dca1.txt", "a", "t", "v", null), "none", units, null);
    }

    /** A table of 1 to 4 columns of 1 to 6 rows drawn from {@code r}. */
    private static Table draw(SplittableRandom r) {
        int rows = 1 + r.nextInt(6);
        List<Column<?>> cols = new ArrayList<>();
        int n = 1 + r.nextInt(4);
        for (int c = 0; c < n; c++) {
            String name = "c" + c;
            switch (r.nextInt(4)) {
                case 0 -> {
                    DoubleColumn d = DoubleColumn.create(name);
                    for (int i = 0; i < rows; i++) {
                        if (r.nextInt(8) == 0) {
                            d.appendMissing();
                        } else {
                            d.append(DOUBLES[r.nextInt(DOUBLES.length)]);
                        }
                    }
                    cols.add(d);
                }
                case 1 -> {
                    LongColumn l = LongColumn.create(name);
                    for (int i = 0; i < rows; i++) {
                        l.append(LONGS[r.nextInt(LONGS.length)]);
                    }
                    cols.add(l);
                }
                case 2 -> {
                    IntColumn l = IntColumn.create(name);
                    for (int i = 0; i < rows; i++) {
                        l.append(r.nextInt() / 2);
                    }
                    cols.add(l);
                }
                default -> {
                    StringColumn s = StringColumn.create(name);
                    for (int i = 0; i < rows; i++) {
                        s.append(TEXTS[r.nextInt(TEXTS.length)]);
                    }
                    cols.add(s);
                }
            }
        }
        return Table.create("t", cols.toArray(Column[]::new));
    }

    @Test
    void whatWriteWritesLoadReadsBackEqual(@TempDir Path dir) {
        SplittableRandom r = new SplittableRandom(20261202);
        int written = 0;
        int refused = 0;
        java.util.Set<String> reasons = new java.util.TreeSet<>();
        List<String> broken = new ArrayList<>();
        for (int k = 0; k < 300; k++) {
            Table t = draw(r);
            Path csv = dir.resolve("model").resolve("roundtrip.csv");
            try {
                Datasets.write(dir, t, provenance(t.columnNames()));
            } catch (IllegalArgumentException e) {
                refused++;
                reasons.add(e.getMessage().replaceAll(".*: line [0-9]+, ", "").replaceAll("row [0-9]+", "row"));
                assertTrue(e.getMessage().startsWith("table cannot be written as a dataset that load reads back equal"),
                        e.getMessage());
                continue;
            }
            written++;
            Table back = Datasets.load(dir, "roundtrip").table();
            String diff = Datasets.readsBackAs(t, back);
            if (diff != null) {
                broken.add("table " + k + ": " + diff + "\n" + t.print());
            }
            assertTrue(Files.isRegularFile(csv));
        }
        if (!broken.isEmpty()) {
            fail(broken.size() + " tables written but not read back equal:\n" + String.join("\n", broken));
        }
        System.out.println("Datasets round trip: " + written + " tables written and read back equal, " + refused
                + " refused by write: " + reasons);
        assertTrue(written >= 250, "written " + written + ", refused " + refused);
    }

    @Test
    void negativeZeroLargeLongsAndTextWithSeparatorsSurviveExactly(@TempDir Path dir) {
        Table t = Table.create("t", DoubleColumn.create("d", -0.0, 0.1, Double.MAX_VALUE),
                LongColumn.create("l", Long.MAX_VALUE, Long.MIN_VALUE + 1, 9_007_199_254_740_993L),
                StringColumn.create("s", "a, \"b\"", "line\nbreak", "x,y"));
        Datasets.write(dir, t, provenance(t.columnNames()));
        Table back = Datasets.load(dir, "roundtrip").table();
        assertNull(Datasets.readsBackAs(t, back));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(back.numberColumn("d").getDouble(0)));
        assertEquals(Long.MAX_VALUE, ((Number) back.column("l").get(0)).longValue());
        assertEquals("line\nbreak", back.stringColumn("s").get(1));
    }

    @Test
    void whatCannotBeReadBackIsRefusedOnWriteAndNothingIsLeft(@TempDir Path dir) {
        Table inf = Table.create("t", DoubleColumn.create("d", 1.0, Double.POSITIVE_INFINITY));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Datasets.write(dir, inf, provenance(inf.columnNames())));
        assertTrue(e.getMessage().startsWith("table cannot be written as a dataset that load reads back equal: ")
                && e.getMessage().contains("\"d\""), e.getMessage());
        assertTrue(!Files.exists(dir.resolve("model").resolve("roundtrip.csv")));
        try (var s = Files.list(dir.resolve("model"))) {
            assertEquals(0, s.count(), "no draft is left");
        } catch (java.io.IOException x) {
            throw new java.io.UncheckedIOException(x);
        }
        // negative zero in a column of whole numbers is written "-0", which reads back as the integer 0: refused
        Table zero = Table.create("t", DoubleColumn.create("z", -0.0, 2.0));
        e = assertThrows(IllegalArgumentException.class, () -> Datasets.write(dir, zero, provenance(zero.columnNames())));
        assertTrue(e.getMessage().endsWith("column \"z\", row 1: \"-0\" (DOUBLE) reads back as \"0\" (INTEGER)"),
                e.getMessage());
        // text that mixes numbers and words in one column reads back as neither: refused, naming the column
        Table mixed = Table.create("t", StringColumn.create("s", "12", "words"));
        e = assertThrows(IllegalArgumentException.class, () -> Datasets.write(dir, mixed, provenance(mixed.columnNames())));
        assertTrue(e.getMessage().contains("column \"s\""), e.getMessage());
    }
}
