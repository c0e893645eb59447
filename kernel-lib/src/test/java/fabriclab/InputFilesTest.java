package fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.Datasets;
import fabriclab.datasets.Provenance;
import fabriclab.workload.FlowSizeDistribution;
import fabriclab.workload.HpccFctFile;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Table;

/**
 * Input files are what they claim: a regular file of bounded size (not a directory, a device or a FIFO, which could be
 * endless or block), UTF-8 text, with numbers read exactly as written or refused.
 */
class InputFilesTest {
    private static final Path DEVICE = Path.of("/dev/zero");

    private static String refused(Class<? extends Throwable> type, org.junit.jupiter.api.function.Executable call) {
        return assertThrows(type, call).getMessage();
    }

    @Test
    void aDistributionFileMustBeARegularFileOfAtMostSixteenMebibytes(@TempDir Path dir) throws Exception {
        String m = refused(IllegalArgumentException.class, () -> FlowSizeDistribution.read(DEVICE));
        assertEquals("file must be a regular file, got /dev/zero (a device, FIFO or socket, which is not read)", m);
        m = refused(IllegalArgumentException.class, () -> FlowSizeDistribution.read(dir));
        assertTrue(m.startsWith("file must be a regular file, got " + dir + " (a directory"), m);
        m = refused(IllegalArgumentException.class, () -> FlowSizeDistribution.read(dir.resolve("none.txt")));
        assertTrue(m.startsWith("file must name an existing file"), m);
        Path big = dir.resolve("big.txt");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(FlowSizeDistribution.MAX_FILE_BYTES + 1); // sparse: no disk used
        }
        m = refused(IllegalArgumentException.class, () -> FlowSizeDistribution.read(big));
        assertTrue(m.startsWith("file must be at most 16777216 bytes (16 MiB), got " + big + " of 16777217 bytes"), m);
        Path latin1 = dir.resolve("latin1.txt");
        Files.write(latin1, new byte[] {'1', '0', ' ', '1', '0', '0', ' ', (byte) 0xe9, '\n'});
        m = refused(IllegalArgumentException.class, () -> FlowSizeDistribution.read(latin1));
        assertTrue(m.startsWith("file must be UTF-8 text"), m);
    }

    @Test
    void aFifoIsRefusedWithoutBeingOpened(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("fifo");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo is not available");
        // reading a FIFO with no writer would block for ever; it is refused before it is opened
        String m = refused(IllegalArgumentException.class, () -> FlowSizeDistribution.read(fifo));
        assertTrue(m.startsWith("file must be a regular file"), m);
        m = refused(IllegalArgumentException.class, () -> HpccFctFile.read(fifo));
        assertTrue(m.startsWith("file must be a regular file"), m);
    }

    @Test
    void theFctFileReaderRefusesADevice() {
        String m = refused(IllegalArgumentException.class, () -> HpccFctFile.read(DEVICE));
        assertTrue(m.startsWith("file must be a regular file, got /dev/zero"), m);
    }

    @Test
    void theHelperNamesTheParameterAndChecksItsOwnArguments(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("a.txt"), "x\ny\r\nz");
        assertEquals(List.of("x", "y", "z"), Parameters.readInputFile("cdf", f, 100));
        assertEquals("cdf must be at most 3 bytes (0 MiB), got " + f + " of 6 bytes",
                refused(IllegalArgumentException.class, () -> Parameters.readInputFile("cdf", f, 3)));
        assertEquals("maxBytes must be >= 1, got 0",
                refused(IllegalArgumentException.class, () -> Parameters.readInputFile("cdf", f, 0)));
        assertEquals(null, Parameters.inputFileProblem(f, 6));
    }

    /** The toy dataset of two numeric columns, written under {@code dir}; returns its CSV. */
    private static Path toy(Path dir) {
        Table t = Table.create("x", DoubleColumn.create("rate_gbps", 1.5, 2.25), DoubleColumn.create("queue_kb", 3.0, 4.0));
        Provenance p = new Provenance("toy", "toy model output", "model",
                new Provenance.Paper("000_5f64c80d7629dca1.txt", "a", "t", "v", null), "figure 1",
                Map.of("rate_gbps", "Gb/s", "queue_kb", "KB"), null);
        return Datasets.write(dir, t, p);
    }

    @Test
    void aDecimalCommaInAQuotedFieldIsRefusedNotReadAsTwentyFive(@TempDir Path dir) throws Exception {
        Path csv = toy(dir);
        for (String v : new String[] {"\"2,5\"", "\"-0,25\"", "\"1,5e3\"", "\"12,34,5\""}) {
            Files.writeString(csv, "rate_gbps,queue_kb\n1.5,3.0\n2.25," + v + "\n");
            String m = refused(IllegalStateException.class, () -> Datasets.load(dir, "toy"));
            assertTrue(m.contains("toy.csv: line 3, column \"queue_kb\"") && m.contains("is a number with a comma"), m);
        }
        // text with commas that is no number stays text
        Files.writeString(csv, "rate_gbps,queue_kb\n1.5,\"a, b\"\n2.25,\"(1,000, 2,000]\"\n");
        Table t = Datasets.load(dir, "toy").table();
        assertEquals("a, b", t.stringColumn("queue_kb").get(0));
    }

    @Test
    void aDatasetCsvThatIsADeviceOrDirectoryIsNotTakenForOne(@TempDir Path dir) throws Exception {
        toy(dir);
        Path csv = dir.resolve("model").resolve("toy.csv");
        Files.delete(csv);
        Files.createSymbolicLink(csv, DEVICE);
        // not a regular file: no dataset of that name (it is never opened)
        String m = refused(IllegalArgumentException.class, () -> Datasets.load(dir, "toy"));
        assertTrue(m.startsWith("no dataset named \"toy\""), m);
        Files.delete(csv);
        Files.createDirectory(csv);
        m = refused(IllegalArgumentException.class, () -> Datasets.load(dir, "toy"));
        assertTrue(m.startsWith("no dataset named \"toy\""), m);
    }

    @Test
    void aProvenanceFileThatIsADeviceIsRefused(@TempDir Path dir) throws Exception {
        toy(dir);
        Path json = dir.resolve("model").resolve("toy.json");
        Files.delete(json);
        Files.createSymbolicLink(json, DEVICE);
        String m = refused(IllegalStateException.class, () -> Datasets.readProvenance(json));
        assertTrue(m.startsWith("dataset has no provenance file"), m);
    }
}
