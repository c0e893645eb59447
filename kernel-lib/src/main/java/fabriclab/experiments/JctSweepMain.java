package fabriclab.experiments;

import fabriclab.collectives.Collective;
import fabriclab.datasets.Datasets;
import fabriclab.notebook.Progress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The full GSE vs RoCE sweep of issue 8 (sizes 1 MiB to 512 MiB, AlltoAll and ring AllReduce, both
 * speedups, 3 seeds), too long for a notebook cell: writes {@code datasets/model/jct-gse-vs-roce-full.csv}
 * and prints the wall time. Run: {@code ./bench --main fabriclab.experiments.JctSweepMain [threads]}.
 */
public final class JctSweepMain {
    private JctSweepMain() {
    }

    /** Runs the sweep. */
    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : Runtime.getRuntime().availableProcessors();
        long[] sizes = new long[10];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = (1L << 20) << i;
        }
        long t0 = System.nanoTime();
        List<GseVsRoceJct.Run> all = new ArrayList<>();
        for (double speedup : new double[] {1.5, 2.0}) {
            all.addAll(new GseVsRoceJct(speedup).sweep(List.of(Collective.ALL_TO_ALL, Collective.RING_ALL_REDUCE), sizes,
                    List.of(GseVsRoceJct.Fabric.ROCE, GseVsRoceJct.Fabric.GSE), new long[] {1, 2, 3}, threads,
                    Progress.console(System.out)));
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        Datasets.writeModel(GseVsRoceJct.table("jct-gse-vs-roce-full", all), GseVsRoceJct.provenance("jct-gse-vs-roce-full",
                "Written by fabriclab.experiments.JctSweepMain; " + all.size() + " runs (deterministic: each run depends only on its seed)."));
        System.out.printf(Locale.ROOT, "%d runs in %.1f s on %d threads%n", all.size(), wall, threads);
    }
}
