package fabriclab.experiments;

import fabriclab.progress.Progress;
import java.util.List;
import java.util.Locale;

/**
 * Command-line twin of notebook 08's simulation cell: {@link GseVsRoceJct#writeFullSweep} (sizes 1 MiB to
 * 512 MiB, AlltoAll and ring AllReduce, both speedups, 3 seeds) with console progress bars; writes
 * {@code datasets/model/jct-gse-vs-roce-full.csv} and prints the wall time.
 * Run: {@code ./bench --main fabriclab.experiments.JctSweepMain [threads]}.
 */
public final class JctSweepMain {
    private JctSweepMain() {
    }

    /** Runs the sweep. */
    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : Runtime.getRuntime().availableProcessors();
        long t0 = System.nanoTime();
        List<GseVsRoceJct.Run> all = GseVsRoceJct.writeFullSweep(threads, Progress.console(System.out));
        double wall = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "%d runs in %.1f s on %d threads%n", all.size(), wall, threads);
    }
}
