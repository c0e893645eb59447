package fabriclab.sweep;

import fabriclab.Parameters;
import fabriclab.project.ProjectPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Chooses a {@link SweepExecutor} from one setting: the system property {@value #MASTER_PROPERTY}, else the
 * environment variable {@value #MASTER_ENV}. Unset, blank or {@code threads} means {@link LocalThreads};
 * anything else is a cluster master URL handed to the {@link SweepExecutorProvider} that accepts it
 * (with the fabriclab-spark module on the classpath: {@code spark://host:7077}, {@code local[2]}, ...).
 *
 * <pre>{@code
 * List<GseVsRoceJct.Result> runs = GseVsRoceJct.fullSweep(SweepExecutors.configured(threads), Progress.defaultSink());
 * }</pre>
 */
public final class SweepExecutors {
    /** System property naming the sweep master. */
    public static final String MASTER_PROPERTY = "fabriclab.sweep.master";
    /** Environment variable naming the sweep master (used when the property is unset). */
    public static final String MASTER_ENV = "FABRICLAB_SWEEP_MASTER";

    private SweepExecutors() {
    }

    /** The configured master, or {@code "threads"} when neither the property nor the variable is set. */
    public static String configuredMaster() {
        String m = System.getProperty(MASTER_PROPERTY);
        if (m == null || m.isBlank()) {
            m = System.getenv(MASTER_ENV);
        }
        return m == null || m.isBlank() ? "threads" : m.strip();
    }

    /**
     * The executor the setting chooses; {@link LocalThreads} with {@code threads} threads when it is unset. Under a
     * {@link SweepRuns} setting other than {@code run} ({@value SweepRuns#ENV}), it records its sweeps in, or checks them
     * against, {@code datasets/runs/} of the project ({@link RecordedRunsExecutor}).
     *
     * @param threads local worker threads, at least 1 (ignored for a cluster)
     */
    public static SweepExecutor configured(int threads) {
        Parameters.atLeast("threads", threads, 1);
        SweepExecutor executor = forMaster(configuredMaster(), threads);
        SweepRuns runs = SweepRuns.configured();
        return runs.mode() == SweepRuns.Mode.RUN ? executor
                : new RecordedRunsExecutor(executor, runs, ProjectPaths.datasets().resolve(RecordedRuns.DIRECTORY));
    }

    /**
     * The executor for {@code master}: {@code "threads"} is {@link LocalThreads}, anything else goes to the
     * first {@link SweepExecutorProvider} that accepts it.
     *
     * @param master {@code "threads"} or a cluster master URL
     * @param threads local worker threads for {@code "threads"}, at least 1
     * @throws IllegalArgumentException if no provider on the classpath accepts {@code master}
     */
    public static SweepExecutor forMaster(String master, int threads) {
        Parameters.notBlank("master", master);
        Parameters.atLeast("threads", threads, 1);
        if (master.strip().equals("threads")) {
            return new LocalThreads(threads);
        }
        List<String> seen = new ArrayList<>();
        for (SweepExecutorProvider p : ServiceLoader.load(SweepExecutorProvider.class, SweepExecutors.class.getClassLoader())) {
            if (p.accepts(master.strip())) {
                return p.executor(master.strip());
            }
            seen.add(p.getClass().getName());
        }
        throw new IllegalArgumentException("master must be \"threads\" or a master URL a sweep executor on the classpath accepts "
                + (seen.isEmpty() ? "(none is: for spark:// or local[N] use the fabriclab-spark module, e.g. the "
                        + "\"Java (fabriclab + Spark)\" kernel)" : seen.toString()) + ", got \"" + master + "\"");
    }
}
