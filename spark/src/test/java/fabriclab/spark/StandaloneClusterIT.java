package fabriclab.spark;

import fabriclab.experiments.testbed.RoceOrGse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.collectives.Collective;
import fabriclab.datasets.Dataset;
import fabriclab.experiments.GseVsRoceJct;
import fabriclab.experiments.NamedSweeps;
import fabriclab.progress.Progress;
import fabriclab.sweep.LocalThreads;
import fabriclab.sweep.SweepPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A real standalone Spark cluster on loopback (a master and two workers, separate JVMs, one core and
 * 640 MB each): sweeps of small simulator runs give the local executor's table byte for byte, from
 * spark-submit and from a driver in this JVM, and still do after a worker is killed mid-sweep.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StandaloneClusterIT {
    private static final Path DIR = Path.of("target", "it-cluster").toAbsolutePath();
    private static LoopbackCluster cluster;
    private static SparkSweepExecutor spark;

    @BeforeAll
    static void startCluster() throws IOException, InterruptedException {
        if (Files.exists(DIR)) {
            try (var files = Files.walk(DIR)) {
                for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
        Files.createDirectories(DIR);
        cluster = new LoopbackCluster(DIR, 2, "640m");
    }

    @AfterAll
    static void stopCluster() {
        if (spark != null) {
            spark.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Map<String, String> driverConf() {
        return Map.of("spark.driver.host", "127.0.0.1", "spark.driver.bindAddress", "127.0.0.1", "spark.ui.enabled", "false",
                "spark.executor.memory", "512m");
    }

    /** The sweep of the kill test: 12 runs of 4 MiB AlltoAll (several seconds in all). */
    private static SweepPlan<GseVsRoceJct.Point, GseVsRoceJct.Result> twelveRuns() {
        return new GseVsRoceJct(1.5).sweepPlan(List.of(Collective.ALL_TO_ALL), new long[] {4L << 20},
                List.of(RoceOrGse.ROCE, RoceOrGse.GSE), new long[] {1, 2, 3, 4, 5, 6});
    }

    private static Dataset dataset(String name, List<GseVsRoceJct.Result> runs) {
        return new Dataset(GseVsRoceJct.provenance(name, "test"), GseVsRoceJct.table(name, runs));
    }

    @Test
    @Order(1)
    void sparkSubmitOfTheJarWritesTheLocalTable() throws IOException, InterruptedException {
        Path out = DIR.resolve("submit-out");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        cmd.addAll(cluster.javaOptions());
        cmd.addAll(List.of("-cp", cluster.classpath(), "org.apache.spark.deploy.SparkSubmit", "--master", cluster.url(),
                "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1", "--conf",
                "spark.ui.enabled=false", "--conf", "spark.executor.memory=512m", "--class", "fabriclab.spark.SweepMain",
                System.getProperty(SparkSweepExecutor.JAR_PROPERTY), NamedSweeps.JCT_SMOKE, "--out", out.toString(),
                "--format", "both"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(DIR.resolve("submit.log").toFile());
        pb.environment().put("SPARK_HOME", DIR.resolve("spark-home").toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        Process p = pb.start();
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), "spark-submit finished (see " + DIR.resolve("submit.log") + ")");
        String log = Files.readString(DIR.resolve("submit.log"));
        assertEquals(0, p.exitValue(), log);
        assertTrue(log.contains("jct-smoke: 8 runs in "), log);
        Dataset local = NamedSweeps.byName(NamedSweeps.JCT_SMOKE).run(new LocalThreads(2), Progress.silent());
        String expected = Tables.savedBytes(local, DIR.resolve("submit-local"));
        assertEquals(expected, Files.readString(out.resolve("model/jct-smoke.csv")) + "\n--- provenance ---\n"
                + Files.readString(out.resolve("model/jct-smoke.json")));
        assertTrue(Files.isDirectory(out.resolve("model/jct-smoke.parquet")), "Parquet written");
    }

    @Test
    @Order(2)
    void aDriverInThisJvmGetsTheLocalTable() throws InterruptedException {
        spark = SparkSweepExecutor.connect(cluster.url(), driverConf(), SparkSweepExecutor.CONNECT_TIMEOUT,
                SparkSweepExecutor.EXECUTOR_TIMEOUT);
        SweepPlan<GseVsRoceJct.Point, GseVsRoceJct.Result> plan = NamedSweeps.jctSmokePlan();
        List<GseVsRoceJct.Result> onCluster = spark.run(plan, Progress.silent());
        List<GseVsRoceJct.Result> onThreads = new LocalThreads(2).run(plan, Progress.silent());
        assertEquals(Tables.savedBytes(dataset("cluster", onThreads), DIR.resolve("driver-local")),
                Tables.savedBytes(dataset("cluster", onCluster), DIR.resolve("driver-cluster")));
    }

    @Test
    @Order(3)
    void aWorkerKilledMidSweepLeavesTheTableUnchanged() throws InterruptedException, IOException {
        SweepPlan<GseVsRoceJct.Point, GseVsRoceJct.Result> plan = twelveRuns();
        List<GseVsRoceJct.Result> onThreads = new LocalThreads(2).run(plan, Progress.silent());
        AtomicLong doneAtKill = new AtomicLong(-1);
        List<GseVsRoceJct.Result> onCluster = spark.run(plan, state -> {
            if (state.done() >= 2 && !state.finished() && doneAtKill.compareAndSet(-1, state.done())) {
                cluster.killWorker(1);
            }
        });
        assertTrue(doneAtKill.get() >= 2 && doneAtKill.get() < 12, "worker killed after " + doneAtKill.get() + " of 12 runs");
        assertEquals(1, cluster.aliveWorkers(), "the master saw the worker die");
        assertEquals(Tables.savedBytes(dataset("kill", onThreads), DIR.resolve("kill-local")),
                Tables.savedBytes(dataset("kill", onCluster), DIR.resolve("kill-cluster")));
    }
}
