package fabriclab.spark;

import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepExecutorProvider;

/**
 * Registers {@link SparkSweepExecutor} with {@link fabriclab.sweep.SweepExecutors} (through
 * {@code META-INF/services}): it accepts {@code spark://...} and {@code local}, {@code local[N]},
 * {@code local[*]}, so that {@code FABRICLAB_SWEEP_MASTER=spark://host:7077} moves a notebook's sweep to
 * a cluster.
 */
public final class SparkSweepExecutorProvider implements SweepExecutorProvider {
    /** Stateless. */
    public SparkSweepExecutorProvider() {
    }

    @Override
    public boolean accepts(String master) {
        return master.startsWith("spark://") || master.equals("local") || master.startsWith("local[");
    }

    @Override
    public SweepExecutor executor(String master) {
        return SparkSweepExecutor.connect(master);
    }
}
