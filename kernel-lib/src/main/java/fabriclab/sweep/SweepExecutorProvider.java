package fabriclab.sweep;

/**
 * A source of cluster {@link SweepExecutor}s, found by {@link SweepExecutors#forMaster} through
 * {@link java.util.ServiceLoader} (the optional fabriclab-spark module registers one for Spark master
 * URLs), so kernel-lib does not depend on any cluster engine.
 */
public interface SweepExecutorProvider {
    /** Whether this provider understands {@code master} (e.g. {@code spark://host:7077}, {@code local[2]}). */
    boolean accepts(String master);

    /**
     * An executor running on {@code master}; fails with a clear message, before any sweep runs, if the
     * master cannot be reached.
     */
    SweepExecutor executor(String master);
}
