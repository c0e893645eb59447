package fabriclab.experiments;

import fabriclab.datasets.Datasets;
import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.experiments.testbed.Duan2024Testbed.Marking;
import fabriclab.experiments.testbed.Duan2024Testbed.Recovery;
import fabriclab.progress.Progress;
import java.util.List;
import java.util.Locale;

/**
 * Command-line twin of notebook 08's marking x recovery cell at other sizes and seeds: runs
 * {@link GseVsRoceDcqcnAxes#grid} with a console progress bar and prints the spread table and the wall time (it writes
 * no dataset). Run: {@code ./bench --main fabriclab.experiments.DcqcnAxesMain [MiB per rank] [seeds] [threads]}, e.g.
 * {@code 512 5} for the size of the notebook's other sections.
 */
public final class DcqcnAxesMain {
    private DcqcnAxesMain() {
    }

    /** Arguments: MiB per rank (default 16), number of seeds from 1 (default 3), worker threads (default: the processors). */
    public static void main(String[] args) throws InterruptedException {
        long mib = args.length > 0 ? Long.parseLong(args[0]) : 16;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int threads = JctSweepMain.threads(args.length > 2 ? new String[] {args[2]} : new String[0]);
        long[] seeds = new long[n];
        for (int i = 0; i < n; i++) {
            seeds[i] = i + 1;
        }
        List<GseVsRoceDcqcnAxes.Point> points = GseVsRoceDcqcnAxes.grid(mib << 20, seeds);
        long t0 = System.nanoTime();
        List<GseVsRoceDcqcnAxes.Result> runs = GseVsRoceDcqcnAxes.sweep(points, threads, Progress.console(System.out));
        double wall = (System.nanoTime() - t0) / 1e9;
        System.out.println(GseVsRoceDcqcnAxes.ratioSpread(runs).printAll());
        System.out.printf(Locale.ROOT, "%d runs at %d MiB per rank in %.1f s on %d threads%n", runs.size(), mib, wall, threads);
    }
}
