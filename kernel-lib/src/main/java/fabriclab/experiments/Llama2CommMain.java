package fabriclab.experiments;

import fabriclab.datasets.Datasets;
import fabriclab.notebook.Progress;
import java.util.List;
import java.util.Locale;

/**
 * The communication runs behind notebook 09 (002 table 1): the four scenarios of {@link Llama2Fabric},
 * RoCE and GSE, 3 seeds, 512 MiB of gradients per rank on the 1.5:1 fabric, too long for a notebook
 * cell. Writes {@code datasets/model/llama2-comm.csv} and prints the wall time.
 * Run: {@code ./bench --main fabriclab.experiments.Llama2CommMain [threads]}.
 */
public final class Llama2CommMain {
    /** Gradient bytes per rank simulated (scaled to 3.25 GB in the notebook, as for the single-job row). */
    public static final long BYTES_PER_RANK = 512L << 20;

    private Llama2CommMain() {
    }

    /** Runs the scenarios. */
    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : Runtime.getRuntime().availableProcessors();
        long t0 = System.nanoTime();
        List<Llama2Fabric.Comm> all = new Llama2Fabric(1.5).sweep(List.of(Llama2Fabric.Scenario.values()),
                List.of(GseVsRoceJct.Fabric.ROCE, GseVsRoceJct.Fabric.GSE), BYTES_PER_RANK, new long[] {1, 2, 3}, threads,
                Progress.console(System.out));
        double wall = (System.nanoTime() - t0) / 1e9;
        Datasets.writeModel(Llama2Fabric.table("llama2-comm", all), Llama2Fabric.provenance("llama2-comm",
                "Written by fabriclab.experiments.Llama2CommMain; " + all.size() + " runs, speedup 1.5, ring AllReduce of "
                        + (BYTES_PER_RANK >> 20) + " MiB per rank (deterministic: each run depends only on its seed)."));
        System.out.printf(Locale.ROOT, "%d runs in %.1f s on %d threads%n", all.size(), wall, threads);
    }
}
