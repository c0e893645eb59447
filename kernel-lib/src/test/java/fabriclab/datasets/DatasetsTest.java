package fabriclab.datasets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Table;

class DatasetsTest {
    /** The checked-in datasets directory (tests run with kernel-lib/ as working directory). */
    static final Path ROOT = Path.of("..", "datasets");

    @Test
    void everyCheckedInDatasetLoadsWithUnitsForEveryColumn() {
        assertTrue(Datasets.list(ROOT).size() >= 3, "at least the three seed datasets");
        for (String name : Datasets.list(ROOT)) {
            Dataset d = Datasets.load(ROOT, name);
            assertEquals(name, d.name());
            assertTrue(d.table().rowCount() > 0, name + " has rows");
        }
    }

    @Test
    void llamaTableGainsFollowFromTheThroughputs() {
        Table t = Datasets.load(ROOT, "llama2-13b-samples-per-second").table();
        assertEquals(4, t.rowCount());
        // The printed gains agree with (gse/roce - 1) to the paper's rounding (within 1 point).
        for (int i = 0; i < t.rowCount(); i++) {
            double gain = 100 * (t.doubleColumn("gse_samples_per_s").get(i) / t.doubleColumn("roce_samples_per_s").get(i) - 1);
            assertEquals(t.numberColumn("published_gain_percent").getDouble(i), gain, 1.0);
        }
    }

    /** Writes the toy dataset under {@code dir} and returns its CSV. */
    private static Path toy(Path dir) {
        Table t = Table.create("x", DoubleColumn.create("rate_gbps", 1.5, 2.25), DoubleColumn.create("queue_kb", 3.0, 4.0));
        Provenance p = new Provenance("toy", "toy model output", "model",
                new Provenance.Paper("000_5f64c80d7629dca1.txt", "a", "t", "v", null), "figure 1",
                Map.of("rate_gbps", "Gb/s", "queue_kb", "KB"), null);
        return Datasets.write(dir, t, p);
    }

    /** A broken CSV fails with a message that names the file and says what is wrong. */
    @Test
    void emptyHeaderOnlyAndMixedCsvFilesAreRejectedClearly(@TempDir Path dir) throws Exception {
        Path csv = toy(dir);
        Files.writeString(csv, "");
        String m = assertThrows(IllegalStateException.class, () -> Datasets.load(dir, "toy")).getMessage();
        assertTrue(m.endsWith("toy.csv is empty: a dataset needs a header line and at least one row"), m);

        Files.writeString(csv, "rate_gbps,queue_kb\n");
        m = assertThrows(IllegalStateException.class, () -> Datasets.load(dir, "toy")).getMessage();
        assertTrue(m.endsWith("toy.csv has a header line but no rows"), m);

        Files.writeString(csv, "rate_gbps,queue_kb\n1.5,3.0\nfast,4.0\n");
        m = assertThrows(IllegalStateException.class, () -> Datasets.load(dir, "toy")).getMessage();
        assertTrue(m.contains("column \"rate_gbps\" mixes numbers with text, row 2 holds \"fast\""), m);
    }

    /** A number is read exactly as written, or the file is refused naming the line and column. */
    @Test
    void numbersNotReadAsWrittenAreRefusedNamingLineAndColumn(@TempDir Path dir) throws Exception {
        Path csv = toy(dir);
        String[][] cases = {
            {"1e400", "beyond the range of a double"},
            {"-1e400", "beyond the range of a double"},
            {"Infinity", "not a decimal number as written"},
            {"NaN", "not a decimal number as written"},
            {"\"1,000\"", "thousands separators"},
            {"1e-400", "underflows to 0"},
            {"2.5d", "not a decimal number as written"},
            {"0x1p3", "not a decimal number as written"},
            {"4\0.0", "NUL byte"},
        };
        for (String[] c : cases) {
            Files.writeString(csv, "rate_gbps,queue_kb\n1.5,3.0\n2.25," + c[0] + "\n");
            String m = assertThrows(IllegalStateException.class, () -> Datasets.load(dir, "toy"), c[0]).getMessage();
            assertTrue(m.contains("toy.csv: line 3, column \"queue_kb\"") && m.contains(c[1]), c[0] + ": " + m);
        }
        // what is written as a decimal number is read as it is: zero, signs, exponents within range
        Files.writeString(csv, "rate_gbps,queue_kb\n0e-400,-3.0\n+2.25,4.5e2\n");
        Table t = Datasets.load(dir, "toy").table();
        assertEquals(0.0, t.numberColumn("rate_gbps").getDouble(0));
        assertEquals(2.25, t.numberColumn("rate_gbps").getDouble(1));
        assertEquals(-3.0, t.numberColumn("queue_kb").getDouble(0));
        assertEquals(450.0, t.numberColumn("queue_kb").getDouble(1));
    }

    /**
     * A CSV the parser cannot split is refused naming the file, line and column, not with the parser's
     * settings or an index out of bounds.
     */
    @Test
    void unsplittableCsvFilesAreRefusedNamingLineAndColumn(@TempDir Path dir) throws Exception {
        Path csv = toy(dir);
        Files.writeString(csv, "rate_gbps,queue_kb\n1.5,3.0\n\"2.25,4.0\n");
        String m = assertThrows(IllegalStateException.class, () -> Datasets.load(dir, "toy")).getMessage();
        assertTrue(m.contains("toy.csv: line 3, column \"rate_gbps\": a quoted field is not closed before the end of the"
                + " file"), m);
        Files.writeString(csv, "rate_gbps,queue_kb\n1.5,3.0\n2.25," + "7".repeat(Datasets.MAX_FIELD_CHARS + 1) + "\n");
        m = assertThrows(IllegalStateException.class, () -> Datasets.load(dir, "toy")).getMessage();
        assertTrue(m.contains("toy.csv: line 3, column \"queue_kb\": a field longer than 4096 characters, the most a field may hold"), m);
        assertTrue(!m.contains("maxCharsPerColumn"), m);
        Files.writeString(csv, "rate_gbps,queue_kb\n1.5,3.0\n2.25,4.0,5.0\n");
        m = assertThrows(IllegalStateException.class, () -> Datasets.load(dir, "toy")).getMessage();
        assertTrue(m.contains("toy.csv: line 3: 3 fields, but the header has 2"), m);
        Files.writeString(csv, "rate_gbps,queue_kb\n1.5,3.0\n2.25\n");
        m = assertThrows(IllegalStateException.class, () -> Datasets.load(dir, "toy")).getMessage();
        assertTrue(m.contains("toy.csv: line 3: 1 field, but the header has 2"), m);
        // a field of the most characters, quoted over two lines, is read as written
        String text = "a\n" + "b".repeat(Datasets.MAX_FIELD_CHARS - 2);
        Files.writeString(csv, "rate_gbps,queue_kb\n1.5,\"" + text + "\"\n");
        assertEquals(text, Datasets.load(dir, "toy").table().stringColumn("queue_kb").get(0));
    }

    @Test
    void aSymlinkOutOfTheDatasetsDirectoryIsNotFollowed(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("datasets"));
        Path csv = toy(root);
        Path outside = Files.copy(csv, dir.resolve("elsewhere.csv"));
        Files.delete(csv);
        Files.createSymbolicLink(csv, outside);
        String m = assertThrows(IllegalStateException.class, () -> Datasets.load(root, "toy")).getMessage();
        assertTrue(m.contains("outside the datasets directory"), m);
    }

    @Test
    void writeThenLoadRoundTripsAndIsDeterministic(@TempDir Path dir) throws Exception {
        Table t = Table.create("x", DoubleColumn.create("rate_gbps", 1.5, 2.25), DoubleColumn.create("queue_kb", 3.0, 4.0));
        Provenance p = new Provenance("toy", "toy model output", "model",
                new Provenance.Paper("000_5f64c80d7629dca1.txt", "a", "t", "v", null), "figure 1",
                Map.of("rate_gbps", "Gb/s", "queue_kb", "KB"), null);
        Path csv = Datasets.write(dir, t, p);
        byte[] first = Files.readAllBytes(csv);
        Datasets.write(dir, t, p);
        assertArrayEquals(first, Files.readAllBytes(csv));
        Dataset back = Datasets.load(dir, "toy");
        assertEquals(2.25, back.table().doubleColumn("rate_gbps").get(1));
        assertEquals("Gb/s", back.provenance().columns().get("rate_gbps"));
    }

    @Test
    void aDatasetIsWrittenAsItsTableAndProvenance(@TempDir Path dir) throws Exception {
        Table t = Table.create("x", DoubleColumn.create("rate_gbps", 1.5, 2.25));
        Provenance p = new Provenance("toy", "toy model output", "model",
                new Provenance.Paper("000_5f64c80d7629dca1.txt", null, null, null, null), "figure 1",
                Map.of("rate_gbps", "Gb/s"), null);
        Path separate = Datasets.write(dir.resolve("a"), t, p);
        Path together = Datasets.write(dir.resolve("b"), new Dataset(p, t));
        assertEquals(dir.resolve("b").resolve("model").resolve("toy.csv"), together);
        assertArrayEquals(Files.readAllBytes(separate), Files.readAllBytes(together));
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/model/toy.json")), Files.readAllBytes(dir.resolve("b/model/toy.json")));
        assertEquals("dataset must not be null",
                assertThrows(IllegalArgumentException.class, () -> Datasets.write(dir, (Dataset) null)).getMessage());
        assertEquals("root must not be null",
                assertThrows(IllegalArgumentException.class, () -> Datasets.write(null, new Dataset(p, t))).getMessage());
    }

    @Test
    void badInputNamesTheProblem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Datasets.load(ROOT, "no-such"));
        assertTrue(e.getMessage().contains("no-such") && e.getMessage().contains("available"));
        e = assertThrows(IllegalArgumentException.class, () -> Datasets.load(ROOT, "../etc"));
        assertTrue(e.getMessage().contains("dataset name"));
        e = assertThrows(IllegalArgumentException.class, () -> new Provenance("a", "b", "guess",
                new Provenance.Paper("f", null, null, null, null), "l", Map.of("c", ""), null));
        assertTrue(e.getMessage().contains("kind"));
    }

    @Test
    void listOfNullNamesTheParameter() {
        String m = assertThrows(IllegalArgumentException.class, () -> Datasets.list(null)).getMessage();
        assertTrue(m != null && m.contains("root"), m);
    }
}
