package fabriclab.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spark standalone cluster on loopback for tests: a master and workers, each a separate JVM started
 * from the Spark jars Maven resolved (the class path file the build writes), with a Spark home made of
 * an empty {@code jars/} directory (the workers hand their class path to their executors through
 * {@code SPARK_DIST_CLASSPATH}). fabriclab is not on that class path: executors load it from the
 * application jar, as on a real cluster. Logs go to {@code DIR/*.log}.
 */
final class LoopbackCluster implements AutoCloseable {
    private static final Pattern ALIVE = Pattern.compile("\"aliveworkers\"\\s*:\\s*(\\d+)");

    private final Path dir;
    private final String classpath;
    private final List<String> javaOptions;
    private final int masterPort = freePort();
    private final int masterUiPort = freePort();
    private final Process master;
    private final List<Process> workers = new ArrayList<>();

    LoopbackCluster(Path dir, int workerCount, String workerMemory) throws IOException, InterruptedException {
        this.dir = dir;
        this.classpath = Files.readString(Path.of(System.getProperty("fabriclab.spark.clusterClasspath"))).strip();
        this.javaOptions = List.of(System.getProperty("fabriclab.spark.javaOptions", "").strip().split("\\s+"));
        Path home = dir.resolve("spark-home");
        Files.createDirectories(home.resolve("jars"));
        Files.createDirectories(home.resolve("conf"));
        Files.writeString(home.resolve("RELEASE"), "Spark from Maven jars, for fabriclab tests\n");
        master = start("master", List.of("org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port",
                String.valueOf(masterPort), "--webui-port", String.valueOf(masterUiPort)), "256m");
        awaitPort(masterPort, Duration.ofSeconds(90));
        for (int i = 0; i < workerCount; i++) {
            Path work = dir.resolve("work-" + i);
            Files.createDirectories(work);
            workers.add(start("worker-" + i, List.of("org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores",
                    "1", "--memory", workerMemory, "--webui-port", String.valueOf(freePort()), "--work-dir", work.toString(),
                    url()), "256m"));
        }
        awaitAliveWorkers(workerCount, Duration.ofSeconds(120));
    }

    /** The master URL. */
    String url() {
        return "spark://127.0.0.1:" + masterPort;
    }

    /** The class path of the cluster's JVMs (Spark without fabriclab). */
    String classpath() {
        return classpath;
    }

    /** The JVM options the cluster's JVMs get (Spark's module openings on Java 17). */
    List<String> javaOptions() {
        return javaOptions;
    }

    /** Kills worker {@code i} and the executors it started, as when its machine dies (SIGKILL). */
    void killWorker(int i) {
        Process w = workers.get(i);
        w.descendants().forEach(ProcessHandle::destroyForcibly);
        w.destroyForcibly();
    }

    /** Number of workers the master lists as alive. */
    int aliveWorkers() throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + masterUiPort + "/json/")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher m = ALIVE.matcher(r.body());
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    private Process start(String name, List<String> mainAndArgs, String heap) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + heap);
        cmd.addAll(javaOptions);
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.addAll(mainAndArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile());
        pb.environment().put("SPARK_HOME", dir.resolve("spark-home").toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        pb.environment().put("SPARK_DIST_CLASSPATH", classpath);
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        return pb.start();
    }

    private void awaitPort(int port, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline || !master.isAlive()) {
                    throw new IllegalStateException("the test master did not open port " + port + " (see "
                            + dir.resolve("master.log") + ")", e);
                }
                Thread.sleep(200);
            }
        }
    }

    private void awaitAliveWorkers(int n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int alive = 0;
        while (System.nanoTime() < deadline) {
            try {
                alive = aliveWorkers();
                if (alive >= n) {
                    return;
                }
            } catch (IOException e) {
                // the web UI is not up yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(alive + " of " + n + " test workers registered in " + timeout.toSeconds() + " s (see "
                + dir + "/worker-*.log)");
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills every JVM of the cluster (executors included). */
    @Override
    public void close() {
        for (Process w : workers) {
            w.descendants().forEach(ProcessHandle::destroyForcibly);
            w.destroyForcibly();
        }
        master.descendants().forEach(ProcessHandle::destroyForcibly);
        master.destroyForcibly();
    }
}
