package fabriclab.spark;

import fabriclab.Parameters;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.sweep.SweepException;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import fabriclab.sweep.SweepTask;
import java.io.IOException;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;

/**
 * A {@link SweepExecutor} on Apache Spark: every parameter record of a {@link SweepPlan} is one Spark task
 * (one partition), which makes an instance of the plan's task class on its executor and runs it. The
 * results are collected on the driver and returned in the plan's order, so the table built from them is
 * the one {@link fabriclab.sweep.LocalThreads} gives, byte for byte (the runs are pure and seeded; a
 * record run twice, after a lost worker, gives the same result).
 *
 * <p>Before any work starts {@link #connect} checks the master: a {@code spark://} master must accept a
 * TCP connection within the connect timeout, and a cluster must register an executor within the
 * executor timeout (else the job would wait for resources forever). On a cluster the executors load the
 * task from the application jar: the fabriclab-spark jar with kernel-lib inside
 * ({@code fabriclab-spark-VERSION-all.jar}), found as the option {@code jar}, the system property
 * {@value #JAR_PROPERTY}, the environment variable {@value #JAR_ENV}, or the jar this class was loaded
 * from when it holds kernel-lib (under {@code spark-submit}).
 *
 * <p>A run that throws on an executor does not fail the Spark job: its exception travels back as a
 * value, and {@link #run} throws a {@link SweepException} naming the record's index, the record and the
 * executor's exception (class, message, stack). Progress counts successful tasks of the sweep's stage,
 * from the scheduler's task-end events ({@link SparkListener}).
 */
public final class SparkSweepExecutor implements SweepExecutor {
    /** System property naming the application jar shipped to a cluster. */
    public static final String JAR_PROPERTY = "fabriclab.spark.jar";
    /** Environment variable naming the application jar (when the property is unset). */
    public static final String JAR_ENV = "FABRICLAB_SPARK_JAR";
    /** Default time to open a TCP connection to a {@code spark://} master. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Default time for a cluster to register its first executor. */
    public static final Duration EXECUTOR_TIMEOUT = Duration.ofSeconds(60);

    /** The local property in which Spark keeps a job's group (SparkContext.SPARK_JOB_GROUP_ID). */
    private static final String JOB_GROUP_PROPERTY = "spark.jobGroup.id";
    private static final Pattern LOCAL = Pattern.compile("local(\\[(\\*|[1-9]\\d*)(,[1-9]\\d*)?\\])?");
    private static final Pattern HOST_PORT = Pattern.compile("([^:,\\s]+):(\\d{1,5})");

    private final String master;
    private final SparkSession session;
    private final JavaSparkContext context;
    private final Progressing listener = new Progressing();

    private SparkSweepExecutor(String master, SparkSession session) {
        this.master = master;
        this.session = session;
        this.context = JavaSparkContext.fromSparkContext(session.sparkContext());
        context.sc().addSparkListener(listener);
    }

    /**
     * Connects with the default timeouts and no extra configuration.
     *
     * @see #connect(String, Map, Duration, Duration)
     */
    public static SparkSweepExecutor connect(String master) {
        return connect(master, Map.of(), CONNECT_TIMEOUT, EXECUTOR_TIMEOUT);
    }

    /**
     * Starts a Spark application on {@code master} (or joins this JVM's running one if it has the same
     * master) after checking that the master is reachable.
     *
     * @param master {@code local}, {@code local[N]}, {@code local[*]}, {@code spark://host:port} (or a
     *        comma-separated list of host:port for standby masters)
     * @param conf extra Spark settings (e.g. {@code spark.executor.memory}, {@code spark.driver.host}); the
     *        option {@code jar} names the application jar for a cluster
     * @param connectTimeout time for the TCP check of a {@code spark://} master, positive
     * @param executorTimeout time for a cluster to register its first executor, positive
     * @throws IllegalArgumentException if the URL is malformed, the master unreachable, no application jar
     *         is found for a cluster, or another Spark application runs in this JVM
     * @throws IllegalStateException if no executor registers within {@code executorTimeout}
     */
    public static SparkSweepExecutor connect(String master, Map<String, String> conf, Duration connectTimeout,
            Duration executorTimeout) {
        Parameters.notBlank("master", master);
        Parameters.notNull("conf", conf);
        Parameters.notNull("connectTimeout", connectTimeout);
        Parameters.notNull("executorTimeout", executorTimeout);
        if (connectTimeout.isNegative() || connectTimeout.isZero() || executorTimeout.isNegative() || executorTimeout.isZero()) {
            throw new IllegalArgumentException("connectTimeout and executorTimeout must be positive, got " + connectTimeout
                    + " and " + executorTimeout);
        }
        boolean local = LOCAL.matcher(master).matches();
        if (!local) {
            checkReachable(master, connectTimeout);
        }
        Map<String, String> settings = new LinkedHashMap<>(conf);
        String jar = settings.remove("jar");
        if (!local) {
            settings.put("spark.jars", applicationJar(jar).toString());
        }
        SparkContext running = SparkSession.getDefaultSession().isDefined()
                ? SparkSession.getDefaultSession().get().sparkContext() : null;
        if (running != null && !running.isStopped() && !running.master().equals(master)) {
            throw new IllegalArgumentException("master must be the one of the Spark application already running in this "
                    + "JVM (" + running.master() + ") until it is closed, got \"" + master + "\"");
        }
        SparkSession.Builder b = SparkSession.builder().master(master).appName("fabriclab sweep")
                .config("spark.ui.showConsoleProgress", "false");
        settings.forEach(b::config);
        SparkSession session = b.getOrCreate();
        if (!local) {
            awaitExecutor(session.sparkContext(), master, executorTimeout);
        }
        return new SparkSweepExecutor(master, session);
    }

    /** The Spark session (for writing results, e.g. {@link SweepParquet}). */
    public SparkSession session() {
        return session;
    }

    @Override
    public String describe() {
        return "Spark " + master;
    }

    @Override
    public <P extends Serializable, R extends Serializable> List<R> run(SweepPlan<P, R> plan, ProgressSink sink)
            throws InterruptedException {
        Parameters.notNull("plan", plan);
        Parameters.notNull("sink", sink);
        checkShippable(plan);
        List<Indexed<P>> records = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            records.add(new Indexed<>(i, plan.parameters().get(i)));
        }
        int n = records.size();
        try (Progress progress = Progress.start(plan.label(), n, sink)) {
            if (n == 0) {
                return List.of();
            }
            String group = "fabriclab-sweep-" + UUID.randomUUID();
            listener.watch(group, progress);
            context.setJobGroup(group, plan.label(), true);
            JavaFutureAction<List<Outcome<R>>> job;
            try {
                job = context.parallelize(records, n).map(new RunOne<P, R>(plan.task().getName())).collectAsync();
            } finally {
                context.clearJobGroup();
            }
            List<Outcome<R>> outcomes;
            try {
                outcomes = job.get();
            } catch (InterruptedException e) {
                context.cancelJobGroup(group);
                throw e;
            } catch (ExecutionException e) {
                throw new IllegalStateException(plan.label() + ": the Spark job failed (" + describe() + "): "
                        + e.getCause().getMessage(), e.getCause());
            } finally {
                listener.unwatch(group);
            }
            // the last task-end events may reach the listener after the job's result: count them here
            progress.advance(Math.max(0, n - progress.done()));
            List<Outcome<R>> sorted = new ArrayList<>(outcomes);
            sorted.sort(Comparator.comparingInt(Outcome::index));
            List<R> results = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                Outcome<R> o = sorted.get(i);
                if (o.index() != i) {
                    throw new IllegalStateException(plan.label() + ": Spark returned record " + o.index() + " where " + i
                            + " was expected");
                }
                if (o.failure() != null || o.result() == null) {
                    throw new SweepException(plan.label(), i, plan.parameters().get(i), o.failure());
                }
                results.add(o.result());
            }
            return List.copyOf(results);
        }
    }

    /** Stops the Spark application. */
    @Override
    public void close() {
        context.sc().removeSparkListener(listener);
        session.stop();
    }

    /** A record with its position in the plan. */
    record Indexed<P>(int index, P value) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** What one Spark task sends back: the result, or what the run threw. */
    record Outcome<R>(int index, R result, RemoteFailure failure) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /**
     * The function of a Spark task: makes the task by name once per executor (per deserialized copy) and
     * runs it on one record, catching what it throws.
     */
    static final class RunOne<P extends Serializable, R extends Serializable> implements Function<Indexed<P>, Outcome<R>> {
        private static final long serialVersionUID = 1L;
        private final String taskClass;
        private transient SweepTask<P, R> task;

        RunOne(String taskClass) {
            this.taskClass = taskClass;
        }

        @Override
        public Outcome<R> call(Indexed<P> record) throws Exception {
            try {
                if (task == null) {
                    task = newTask(taskClass);
                }
                R r = task.run(record.value());
                return new Outcome<>(record.index(), r, null);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (RuntimeException | Error e) {
                return new Outcome<>(record.index(), null, RemoteFailure.of(e));
            }
        }

        @SuppressWarnings("unchecked")
        private static <P extends Serializable, R extends Serializable> SweepTask<P, R> newTask(String name)
                throws ClassNotFoundException {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            Class<?> c = Class.forName(name, true, loader != null ? loader : RunOne.class.getClassLoader());
            return (SweepTask<P, R>) SweepPlan.instantiate(c);
        }
    }

    /**
     * An exception thrown by a run on an executor, carried back as a value: the original's class and
     * message as its message, its stack, and its cause chain the same way (so it deserializes on any
     * driver, whatever the original class).
     */
    public static final class RemoteFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private RemoteFailure(String message, RemoteFailure cause) {
            super(message, cause);
        }

        static RemoteFailure of(Throwable t) {
            RemoteFailure cause = t.getCause() == null || t.getCause() == t ? null : of(t.getCause());
            RemoteFailure f = new RemoteFailure(t.toString() + " (on a Spark executor)", cause);
            f.setStackTrace(t.getStackTrace());
            return f;
        }
    }

    /** Counts the finished tasks of the watched sweep's stages into its progress bar. */
    private static final class Progressing extends SparkListener {
        private final Map<String, Progress> groups = new ConcurrentHashMap<>();
        private final Map<Integer, Progress> stages = new ConcurrentHashMap<>();
        private final Map<Integer, Set<Integer>> done = new ConcurrentHashMap<>();

        synchronized void watch(String group, Progress p) {
            groups.put(group, p);
        }

        synchronized void unwatch(String group) {
            Progress p = groups.remove(group);
            stages.values().removeIf(v -> v == p);
        }

        @Override
        public synchronized void onStageSubmitted(SparkListenerStageSubmitted e) {
            String group = e.properties() == null ? null : e.properties().getProperty(JOB_GROUP_PROPERTY);
            Progress p = group == null ? null : groups.get(group);
            if (p != null) {
                stages.put(e.stageInfo().stageId(), p);
                done.putIfAbsent(e.stageInfo().stageId(), ConcurrentHashMap.newKeySet());
            }
        }

        @Override
        public synchronized void onTaskEnd(SparkListenerTaskEnd e) {
            Progress p = stages.get(e.stageId());
            // a partition counts once, even if a lost executor makes Spark run it again
            if (p != null && e.taskInfo().successful() && done.get(e.stageId()).add(e.taskInfo().index())) {
                p.step();
            }
        }
    }

    private static <P extends Serializable, R extends Serializable> void checkShippable(SweepPlan<P, R> plan) {
        List<Class<?>> classes = new ArrayList<>();
        classes.add(plan.task());
        plan.parameters().forEach(p -> classes.add(p.getClass()));
        for (Class<?> c : classes) {
            if (c.getName().startsWith("REPL.")) {
                throw new IllegalArgumentException(plan.label() + ": class " + c.getName() + " was declared in a notebook cell "
                        + "and does not exist on Spark executors; use a task and parameter records from kernel-lib "
                        + "(or from a jar given to Spark)");
            }
        }
    }

    /** Checks that at least one master of a {@code spark://} URL accepts a TCP connection in time. */
    static void checkReachable(String master, Duration timeout) {
        if (!master.startsWith("spark://")) {
            throw new IllegalArgumentException("master must be local, local[N], local[*] or spark://host:port, got \""
                    + master + "\"");
        }
        String[] hosts = master.substring("spark://".length()).split(",");
        List<String> problems = new ArrayList<>();
        for (String h : hosts) {
            Matcher m = HOST_PORT.matcher(h.strip());
            if (!m.matches() || Integer.parseInt(m.group(2)) > 65535) {
                throw new IllegalArgumentException("master must be spark://host:port (port 1-65535), got \"" + master + "\"");
            }
            InetSocketAddress address = new InetSocketAddress(m.group(1), Integer.parseInt(m.group(2)));
            if (address.isUnresolved()) {
                problems.add(h + ": unknown host");
                continue;
            }
            try (Socket s = new Socket()) {
                s.connect(address, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
                return;
            } catch (IOException e) {
                problems.add(h + ": " + e.getMessage());
            }
        }
        throw new IllegalArgumentException("Spark master " + master + " is unreachable (TCP check, " + timeout.toMillis()
                + " ms timeout): " + String.join("; ", problems) + ". Is the master running, and is this its host:port "
                + "(the URL its log and web UI show)?");
    }

    private static void awaitExecutor(SparkContext sc, String master, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (sc.statusTracker().getExecutorInfos().length < 2) { // the driver is listed too
            if (System.nanoTime() > deadline) {
                sc.stop();
                throw new IllegalStateException("Spark master " + master + " gave no executor within " + timeout.toSeconds()
                        + " s: does the cluster have a live worker with free cores and at least spark.executor.memory ("
                        + sc.getConf().get("spark.executor.memory", "1g") + ") of free memory, and can its workers reach "
                        + "this driver (spark.driver.host)?");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                sc.stop();
                throw new IllegalStateException("interrupted while waiting for an executor of " + master, e);
            }
        }
    }

    /** The jar shipped to a cluster: it must hold kernel-lib and this module. */
    static Path applicationJar(String option) {
        String[][] sources = {{"the option jar", option}, {"the system property " + JAR_PROPERTY, System.getProperty(JAR_PROPERTY)},
                {"the environment variable " + JAR_ENV, System.getenv(JAR_ENV)}};
        for (String[] s : sources) {
            if (s[1] != null && !s[1].isBlank()) {
                Path p = Path.of(s[1]);
                if (!Files.isRegularFile(p)) {
                    throw new IllegalArgumentException(s[0] + " must name the fabriclab-spark jar with kernel-lib inside "
                            + "(fabriclab-spark-*-all.jar), but " + p + " is not a file");
                }
                return p.toAbsolutePath();
            }
        }
        try {
            Path self = Path.of(SparkSweepExecutor.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(self)) {
                try (ZipFile z = new ZipFile(self.toFile())) {
                    if (z.getEntry("fabriclab/sweep/SweepTask.class") != null) {
                        return self;
                    }
                }
            }
        } catch (URISyntaxException | IOException | SecurityException | NullPointerException e) {
            // fall through to the error below
        }
        throw new IllegalArgumentException("a Spark cluster needs the fabriclab-spark jar with kernel-lib inside "
                + "(spark/target/fabriclab-spark-*-all.jar): set " + JAR_PROPERTY + " or " + JAR_ENV + ", or use spark-submit");
    }
}
