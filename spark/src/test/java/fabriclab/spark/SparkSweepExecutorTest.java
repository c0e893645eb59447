package fabriclab.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.Dataset;
import fabriclab.experiments.NamedSweeps;
import fabriclab.progress.Progress;
import fabriclab.sweep.LocalThreads;
import fabriclab.sweep.SweepException;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepExecutors;
import fabriclab.sweep.SweepPlan;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Spark executor in local mode ({@code local[2]}, in this JVM): same table as local threads. */
class SparkSweepExecutorTest {
    private static SparkSweepExecutor spark;

    @BeforeAll
    static void start() {
        spark = SparkSweepExecutor.connect("local[2]", Map.of("spark.driver.host", "127.0.0.1",
                "spark.driver.bindAddress", "127.0.0.1", "spark.ui.enabled", "false", "spark.sql.shuffle.partitions", "2"),
                SparkSweepExecutor.CONNECT_TIMEOUT, SparkSweepExecutor.EXECUTOR_TIMEOUT);
    }

    @AfterAll
    static void stop() {
        spark.close();
    }

    @Test
    void local2GivesTheLocalThreadsTableByteForByte(@TempDir Path dir) throws InterruptedException {
        NamedSweeps.Named<?, ?> smoke = NamedSweeps.byName(NamedSweeps.JCT_SMOKE);
        List<Progress.State> states = Collections.synchronizedList(new ArrayList<>());
        Dataset onSpark = smoke.run(spark, states::add);
        Dataset onThreads = smoke.run(new LocalThreads(2), Progress.silent());
        assertEquals(8, onSpark.table().rowCount());
        assertEquals(Tables.savedBytes(onThreads, dir.resolve("threads")), Tables.savedBytes(onSpark, dir.resolve("spark")));
        Progress.State last = states.get(states.size() - 1);
        assertTrue(last.finished());
        assertEquals(8, last.done(), "progress counts the Spark tasks: " + states);
        assertEquals(8, last.total());
    }

    @Test
    void aRunThatThrowsOnAnExecutorNamesItsParametersAndMessage() {
        List<Failing.X> xs = List.of(new Failing.X(1), new Failing.X(13), new Failing.X(2));
        SweepException e = assertThrows(SweepException.class,
                () -> spark.run(new SweepPlan<>("failing sweep", Failing.class, xs), Progress.silent()));
        assertEquals(1, e.index());
        assertEquals(new Failing.X(13), e.point());
        assertTrue(e.getMessage().startsWith("failing sweep: points[1] = X[x=13] failed: "), e.getMessage());
        assertTrue(e.getMessage().contains("java.lang.IllegalStateException: unlucky x = 13"), e.getMessage());
        assertTrue(e.getCause().getCause().getMessage().contains("ArithmeticException: the cause"), e.getCause().toString());
    }

    @Test
    void anInvalidRecordIsRejectedBeforeAnySparkJob() {
        int jobsBefore = spark.session().sparkContext().statusTracker().getJobIdsForGroup(null).length;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SweepPlan<>("failing sweep",
                Failing.class, List.of(new Failing.X(1), new Failing.X(-4))));
        assertEquals("failing sweep: parameters[1] = X[x=-4] is invalid: x must be >= 0, got -4", e.getMessage());
        assertEquals(jobsBefore, spark.session().sparkContext().statusTracker().getJobIdsForGroup(null).length);
    }

    @Test
    void theSettingFindsTheSparkExecutor() {
        SweepExecutor e = SweepExecutors.forMaster("local[2]", 1);
        assertInstanceOf(SparkSweepExecutor.class, e);
        assertEquals("Spark local[2]", e.describe());
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> SweepExecutors.forMaster("local[3]", 1));
        assertTrue(other.getMessage().startsWith("master must be the one of the Spark application already running in this JVM "
                + "(local[2]) until it is closed"), other.getMessage());
    }

    @Test
    void anUnreachableMasterFailsQuicklyWithAClearMessage() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String url = "spark://127.0.0.1:" + port;
        IllegalArgumentException e = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(
                IllegalArgumentException.class, () -> SparkSweepExecutor.connect(url)));
        assertTrue(e.getMessage().startsWith("Spark master " + url + " is unreachable (TCP check, 5000 ms timeout): 127.0.0.1:"
                + port + ": Connection refused"), e.getMessage());
        IllegalArgumentException host = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(
                IllegalArgumentException.class, () -> SparkSweepExecutor.connect("spark://no-such-host.invalid:7077")));
        assertTrue(host.getMessage().contains("no-such-host.invalid:7077: unknown host"), host.getMessage());
        assertEquals("master must be spark://host:port (port 1-65535), got \"spark://127.0.0.1\"",
                assertThrows(IllegalArgumentException.class, () -> SparkSweepExecutor.connect("spark://127.0.0.1")).getMessage());
        assertEquals("master must be local, local[N], local[*] or spark://host:port, got \"yarn\"",
                assertThrows(IllegalArgumentException.class, () -> SparkSweepExecutor.connect("yarn")).getMessage());
    }

    @Test
    void parquetHoldsTheTableWithItsProvenanceBeside(@TempDir Path dir) throws InterruptedException, IOException {
        NamedSweeps.Named<?, ?> smoke = NamedSweeps.byName(NamedSweeps.JCT_SMOKE);
        Dataset d = smoke.run(new LocalThreads(2), Progress.silent());
        Path parquet = SweepParquet.write(spark.session(), dir, d);
        assertEquals(dir.resolve("model").resolve("jct-smoke.parquet"), parquet);
        assertTrue(Files.isRegularFile(dir.resolve("model").resolve("jct-smoke.json")));
        List<Row> rows = spark.session().read().parquet(parquet.toString()).collectAsList();
        // Spark reads every Parquet column back as nullable: compare names and types
        assertEquals(List.of(SweepParquet.schema(d.table()).fields()).stream().map(f -> f.name() + " " + f.dataType()).toList(),
                List.of(spark.session().read().parquet(parquet.toString()).schema().fields()).stream()
                        .map(f -> f.name() + " " + f.dataType()).toList());
        assertEquals(d.table().rowCount(), rows.size());
        for (int r = 0; r < rows.size(); r++) {
            for (int c = 0; c < d.table().columnCount(); c++) {
                assertEquals(d.table().column(c).get(r), rows.get(r).get(c), "row " + r + " column " + d.table().column(c).name());
            }
        }
    }
}
