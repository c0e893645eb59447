package fabriclab.sweep;

import java.io.Serializable;

/**
 * One run of a sweep, as a named library function: {@link #run} maps one parameter record to one result
 * record. A sweep is a list of parameter records plus the class of a task ({@link SweepPlan}); an
 * executor ({@link LocalThreads}, or the Spark executor of the optional fabriclab-spark module) makes an
 * instance of the class where the runs happen and calls it once per record.
 *
 * <p>Contract, so that every executor gives the same results:
 * <ul>
 *   <li>the implementing class is public, top level or a static nested class, with a public no-argument
 *       constructor, and lives in a jar the executors have (kernel-lib, or a jar given to Spark): a class
 *       declared in a notebook (JShell) cell does not exist on a Spark executor, so notebooks pass
 *       parameters to a library task instead of shipping code;</li>
 *   <li>{@link #run} is pure: its result depends only on the record (its seed included), never on
 *       shared mutable state, on the thread or machine that runs it, or on how many times it ran before
 *       (a cluster may run a record again after losing a worker); an instance may cache what its runs share
 *       (thread-safely), if a run's result is the same with the cache as without it;</li>
 *   <li>parameter and result records are {@link Serializable} (records of numbers, strings and enums),
 *       and {@link #validate} rejects a bad record before any run starts.</li>
 * </ul>
 *
 * @param <P> the parameter record
 * @param <R> the result record
 */
public interface SweepTask<P extends Serializable, R extends Serializable> {
    /**
     * Runs the experiment at one point.
     *
     * @param parameters the point, already {@linkplain #validate validated}
     * @return the result, not null
     */
    R run(P parameters);

    /**
     * Checks a parameter record before any run of the sweep starts, throwing an
     * {@link IllegalArgumentException} that names the bad field, its value and the allowed range. The
     * default accepts every record (records that validate in their constructor need nothing more).
     *
     * @param parameters the point
     */
    default void validate(P parameters) {
    }

    /**
     * Whether a run at {@code parameters} is worth recording ({@link RecordedRuns}): {@code ./reproduce} records a
     * sweep, and a check ({@link SweepRuns}) replays it, only if one of its points is. The default, true, suits a
     * simulation; a task whose runs cost less than reading their record (a closed form, a fluid bound) answers false,
     * and its sweeps are then computed in full under every setting and never recorded.
     *
     * @param parameters the point
     */
    default boolean recorded(P parameters) {
        return true;
    }
}
