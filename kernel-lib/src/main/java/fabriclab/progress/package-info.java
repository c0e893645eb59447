/**
 * Progress of long computations: {@link fabriclab.progress.Progress} counts the units of work done and
 * reports snapshots to a {@link fabriclab.progress.ProgressSink} (the console, nothing, or the Jupyter
 * kernel's HTML bar, which the kernel registers through {@link java.util.ServiceLoader}). Models take a
 * sink as a parameter, so they report progress without depending on the notebook or on the kernel; this
 * package uses nothing of fabriclab but its argument checks ({@link fabriclab.Parameters}).
 */
package fabriclab.progress;
