package fabriclab.experiments;

import fabriclab.datasets.Datasets;
import fabriclab.progress.Progress;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Command-line twin of notebook 09's simulation cell: runs {@link Llama2Fabric#commRuns} (the four
 * scenarios of 002 table 1, RoCE and GSE, 3 seeds, 512 MiB per rank) with a console progress bar, saves
 * them as {@code datasets/model/llama2-comm.csv} (and .json) of the checkout, and prints the wall time.
 * Run: {@code ./bench --main fabriclab.experiments.Llama2CommMain [threads]}.
 */
public final class Llama2CommMain {
    private Llama2CommMain() {
    }

    /** Runs the scenarios; the optional argument is the number of worker threads (default: the processors). */
    public static void main(String[] args) throws InterruptedException {
        int threads = JctSweepMain.threads(args);
        long t0 = System.nanoTime();
        List<Llama2Fabric.Result> all = Llama2Fabric.commRuns(threads, Progress.console(System.out));
        double wall = (System.nanoTime() - t0) / 1e9;
        Path csv = Datasets.writeModel(Llama2Fabric.commRunsDataset(all));
        System.out.printf(Locale.ROOT, "%d runs in %.1f s on %d threads; wrote %s%n", all.size(), wall, threads, csv);
    }
}
