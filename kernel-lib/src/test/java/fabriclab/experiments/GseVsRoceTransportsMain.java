package fabriclab.experiments;

import fabriclab.datasets.Datasets;
import fabriclab.datasets.Provenance;
import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.progress.Progress;
import fabriclab.sweep.SweepExecutors;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import tech.tablesaw.api.Table;

/**
 * 000's testbed under each transport ({@link GseVsRoceTransports}) at a size and over seeds, written as the model dataset
 * {@value #DATASET}: the documented-defaults testbed ({@link GseVsRoceTestbed#documentedDefaults()}) at speedup 1.5,
 * AlltoAll at once and H-D_R AllReduce.
 *
 * <p>Run: {@code ./bench --main fabriclab.experiments.GseVsRoceTransportsMain [<datasets dir> [<bytes per rank> [<seeds>]]]}
 * (defaults {@code datasets}, 512 MiB as notebook 08's axes, 3 seeds), from the repository's root.
 */
public final class GseVsRoceTransportsMain {
    /** The dataset written. */
    public static final String DATASET = "jct-gse-vs-roce-transports";

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
        Table all = null;
        for (Algorithm a : new Algorithm[] {Algorithm.ALL_TO_ALL_AT_ONCE, Algorithm.HALVING_DOUBLING_ALL_REDUCE}) {
            Table t = GseVsRoceTransports.ratios(GseVsRoceTestbed.documentedDefaults(), GseVsRoceTransports.TRANSPORTS, a, 1.5, bytes,
                    seeds, SweepExecutors.configured(Runtime.getRuntime().availableProcessors()), Progress.defaultSink());
            tech.tablesaw.api.StringColumn alg = tech.tablesaw.api.StringColumn.create("algorithm");
            for (int i = 0; i < t.rowCount(); i++) {
                alg.append(a.name());
            }
            t.insertColumn(0, alg);
            System.out.println(GseVsRoceTransports.summary(t).print());
            all = all == null ? t : all.append(t);
        }
        all.setName("000's testbed under each transport: RoCE/GSE mean JCT");
        Map<String, String> units = new LinkedHashMap<>();
        for (String c : all.columnNames()) {
            units.put(c, c.endsWith("_us") ? "us" : "");
        }
        Provenance p = new Provenance(DATASET, "000's testbed (documented defaults, speedup 1.5) with RoCE under DCQCN, HPCC,"
                + " DCTCP, TIMELY and Swift against GSE: mean JCT and RoCE/GSE per seed", "model",
                new Provenance.Paper("000_5f64c80d7629dca1.txt", null, null, null, null),
                "000 section 3, figures 11 and 12 (what-if: RoCE under the congestion controls the papers name beside DCQCN)", units,
                String.format(java.util.Locale.ROOT, "Written by ./bench --main fabriclab.experiments.GseVsRoceTransportsMain at %d bytes"
                        + " per rank, seeds 1 to %d: fabriclab.experiments.GseVsRoceTransports.ratios for each algorithm.", bytes, n));
        System.out.println(Datasets.write(root, all, p));
    }
}
