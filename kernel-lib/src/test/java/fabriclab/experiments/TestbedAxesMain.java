package fabriclab.experiments;

import fabriclab.datasets.Datasets;
import fabriclab.progress.Progress;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Command-line twin of notebook 08's axes cell: runs {@link GseVsRoceTestbed#points} of a grid (SUBSET, the
 * notebook's default, or FULL) at 512 MiB per rank, seed 1, with a console progress bar, saves
 * {@code datasets/model/jct-gse-vs-roce-axes.csv} (and .json) of the checkout, and prints the wall time.
 * Run: {@code ./bench --main fabriclab.experiments.TestbedAxesMain [SUBSET|FULL] [threads]}.
 */
public final class TestbedAxesMain {
    private TestbedAxesMain() {
    }

    /** Runs the grid; arguments: the grid (default SUBSET), the number of worker threads (default: the processors). */
    public static void main(String[] args) throws InterruptedException {
        GseVsRoceTestbed.Grid grid = args.length > 0 ? GseVsRoceTestbed.Grid.valueOf(args[0]) : GseVsRoceTestbed.Grid.SUBSET;
        int threads = JctSweepMain.threads(args.length > 1 ? new String[] {args[1]} : new String[0]);
        List<GseVsRoceTestbed.Point> points = GseVsRoceTestbed.points(grid, 512L << 20, new long[] {1});
        long t0 = System.nanoTime();
        List<GseVsRoceTestbed.Result> runs = GseVsRoceTestbed.sweep(points, threads, Progress.console(System.out));
        double wall = (System.nanoTime() - t0) / 1e9;
        Path csv = Datasets.writeModel(GseVsRoceTestbed.dataset(runs, "Notebook 08, " + (grid == GseVsRoceTestbed.Grid.FULL
                ? "full grid" : "default subset") + " at 512 MiB per rank, seed 1."));
        System.out.printf(Locale.ROOT, "%d runs in %.1f s on %d threads; wrote %s%n", runs.size(), wall, threads, csv);
    }
}
