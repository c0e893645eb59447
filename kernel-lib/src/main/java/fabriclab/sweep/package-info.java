/**
 * Parameter sweeps: {@link fabriclab.sweep.Sweep} runs a pure experiment function at every point of a
 * list on a pool of threads and returns the results in the order of the points (so the output does not
 * depend on the number of threads), with one progress bar; {@link fabriclab.sweep.Columns} turns the
 * results into a tablesaw table with a unit per column. The experiments of kernel-lib use it and return
 * results; saving them is left to the caller.
 */
package fabriclab.sweep;
