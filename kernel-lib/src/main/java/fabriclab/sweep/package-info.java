/**
 * Parameter sweeps. {@link fabriclab.sweep.Sweep} runs a pure experiment function at every point of a
 * list on a pool of threads and returns the results in the order of the points (so the output does not
 * depend on the number of threads), with one progress bar; {@link fabriclab.sweep.Columns} turns the
 * results into a tablesaw table with a unit per column. The experiments of kernel-lib use it and return
 * results; saving them is left to the caller.
 *
 * <p>A sweep that may outgrow one machine is data plus a library function: a
 * {@link fabriclab.sweep.SweepPlan} (serializable parameter records and the class of a
 * {@link fabriclab.sweep.SweepTask}), run by a {@link fabriclab.sweep.SweepExecutor}:
 * {@link fabriclab.sweep.LocalThreads} here, or the Spark executor of the optional fabriclab-spark module,
 * which {@link fabriclab.sweep.SweepExecutors} finds from one setting ({@code FABRICLAB_SWEEP_MASTER}).
 * Every executor returns the results in the plan's order, so the tables are the same byte for byte.
 */
package fabriclab.sweep;
