package fabriclab.experiments;

import fabriclab.datasets.Datasets;
import fabriclab.progress.Progress;
import fabriclab.sweep.SweepExecutors;
import java.nio.file.Path;
import tech.tablesaw.api.Table;

/**
 * 000's testbed under each transport ({@link GseVsRoceTransports#whatIf}) at a size and over seeds, written as the
 * model dataset {@value GseVsRoceTransports#DATASET}: the documented-defaults testbed at speedup 1.5, AlltoAll at once
 * and H-D_R AllReduce. Notebook 08 writes the same dataset at its size.
 *
 * <p>Run: {@code ./bench --main fabriclab.experiments.GseVsRoceTransportsMain [<datasets dir> [<bytes per rank> [<seeds>]]]}
 * (defaults {@code datasets}, 512 MiB as notebook 08's axes, 3 seeds), from the repository's root.
 */
public final class GseVsRoceTransportsMain {
    private GseVsRoceTransportsMain() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : "datasets");
        long bytes = args.length > 1 ? Long.parseLong(args[1]) : 512L << 20;
        int n = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        long[] seeds = new long[n];
        for (int i = 0; i < n; i++) {
            seeds[i] = i + 1;
        }
        long t0 = System.nanoTime();
        Table all = GseVsRoceTransports.whatIf(bytes, seeds, SweepExecutors.configured(Runtime.getRuntime().availableProcessors()),
                Progress.defaultSink());
        for (String a : all.stringColumn("algorithm").asList().stream().distinct().toList()) {
            System.out.println(a);
            System.out.println(GseVsRoceTransports.summary(all.where(all.stringColumn("algorithm").isEqualTo(a))).print());
        }
        System.out.printf("%d runs in %.1f s%n", all.rowCount() + 2 * n, (System.nanoTime() - t0) / 1e9);
        System.out.println(Datasets.write(root, GseVsRoceTransports.dataset(all, bytes, n,
                "./bench --main fabriclab.experiments.GseVsRoceTransportsMain")));
    }
}
