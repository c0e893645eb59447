package fabriclab.experiments;

import fabriclab.datasets.Datasets;
import fabriclab.progress.Progress;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Command-line twin of notebook 08's simulation cell: runs {@link GseVsRoceJct#fullSweep} (sizes 1 MiB to
 * 512 MiB, AlltoAll and ring AllReduce, both speedups, 3 seeds) with a console progress bar, saves it as
 * {@code datasets/model/jct-gse-vs-roce-full.csv} (and .json) of the checkout, and prints the wall time.
 * Run: {@code ./bench --main fabriclab.experiments.JctSweepMain [threads]}.
 */
public final class JctSweepMain {
    private JctSweepMain() {
    }

    /** Runs the sweep; the optional argument is the number of worker threads (default: the processors). */
    public static void main(String[] args) throws InterruptedException {
        int threads = threads(args);
        long t0 = System.nanoTime();
        List<GseVsRoceJct.Result> all = GseVsRoceJct.fullSweep(threads, Progress.console(System.out));
        double wall = (System.nanoTime() - t0) / 1e9;
        Path csv = Datasets.writeModel(GseVsRoceJct.fullSweepDataset(all));
        System.out.printf(Locale.ROOT, "%d runs in %.1f s on %d threads; wrote %s%n", all.size(), wall, threads, csv);
    }

    /** The thread count of a bench command: its first argument, else the number of processors. */
    static int threads(String[] args) {
        if (args.length == 0) {
            return Runtime.getRuntime().availableProcessors();
        }
        try {
            return Integer.parseInt(args[0]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("threads (the first argument) must be an integer >= 1, got \"" + args[0] + "\"", e);
        }
    }
}
