package fabriclab.experiments;

import fabriclab.progress.Progress;
import java.util.List;
import java.util.Locale;

/**
 * Command-line twin of notebook 09's simulation cell: {@link Llama2Fabric#writeCommRuns} (the four
 * scenarios of 002 table 1, RoCE and GSE, 3 seeds, 512 MiB per rank) with a console progress bar;
 * writes {@code datasets/model/llama2-comm.csv} and prints the wall time.
 * Run: {@code ./bench --main fabriclab.experiments.Llama2CommMain [threads]}.
 */
public final class Llama2CommMain {
    private Llama2CommMain() {
    }

    /** Runs the scenarios. */
    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : Runtime.getRuntime().availableProcessors();
        long t0 = System.nanoTime();
        List<Llama2Fabric.Comm> all = Llama2Fabric.writeCommRuns(threads, Progress.console(System.out));
        double wall = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "%d runs in %.1f s on %d threads%n", all.size(), wall, threads);
    }
}
