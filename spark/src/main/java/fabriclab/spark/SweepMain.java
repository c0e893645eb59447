package fabriclab.spark;

import fabriclab.datasets.Dataset;
import fabriclab.datasets.Datasets;
import fabriclab.experiments.NamedSweeps;
import fabriclab.progress.Progress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a named sweep ({@link NamedSweeps}) on Spark and writes its dataset. The main class of the
 * fabriclab-spark jar, for {@code spark-submit}:
 *
 * <pre>
 * spark-submit --master spark://HOST:7077 spark/target/fabriclab-spark-0.1.0-SNAPSHOT-all.jar \
 *     jct-gse-vs-roce-full --out /shared/datasets --format both
 * </pre>
 *
 * Arguments: the sweep's name ({@code --list} prints them), then {@code --out DIR} (datasets directory,
 * default {@code datasets}; the files go to {@code DIR/model/}), {@code --format csv|parquet|both}
 * (default csv), {@code --master URL} (default: the master spark-submit sets, else local[*]).
 * Prints a progress line at most every 2 s, then the wall time and the files written.
 */
public final class SweepMain {
    private SweepMain() {
    }

    /** Runs the command; exits with status 2 and a usage line on bad arguments. */
    public static void main(String[] args) throws InterruptedException {
        try {
            run(args);
        } catch (IllegalArgumentException e) {
            System.err.println("fabriclab-spark: " + e.getMessage());
            System.err.println("usage: SweepMain NAME [--out DIR] [--format csv|parquet|both] [--master URL] | --list");
            System.exit(2);
        }
    }

    static List<Path> run(String[] args) throws InterruptedException {
        if (args.length == 1 && args[0].equals("--list")) {
            NamedSweeps.names().forEach(System.out::println);
            return List.of();
        }
        if (args.length == 0 || args[0].startsWith("--")) {
            throw new IllegalArgumentException("the first argument must be a sweep name, one of " + NamedSweeps.names());
        }
        String name = args[0];
        Path out = Path.of("datasets");
        String format = "csv";
        String master = System.getProperty("spark.master", "local[*]");
        for (int i = 1; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--out" -> out = Path.of(args[i + 1]);
                case "--format" -> format = args[i + 1];
                case "--master" -> master = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (!List.of("csv", "parquet", "both").contains(format)) {
            throw new IllegalArgumentException("--format must be csv, parquet or both, got \"" + format + "\"");
        }
        NamedSweeps.Named<?, ?> sweep = NamedSweeps.byName(name);
        List<Path> written = new ArrayList<>();
        try (SparkSweepExecutor spark = SparkSweepExecutor.connect(master, Map.of(), SparkSweepExecutor.CONNECT_TIMEOUT,
                SparkSweepExecutor.EXECUTOR_TIMEOUT)) {
            long t0 = System.nanoTime();
            Dataset d = sweep.run(spark, Progress.console(System.out));
            double wall = (System.nanoTime() - t0) / 1e9;
            if (!format.equals("parquet")) {
                written.add(Datasets.write(out, d));
            }
            if (!format.equals("csv")) {
                written.add(SweepParquet.write(spark.session(), out, d));
            }
            System.out.printf(Locale.ROOT, "%s: %d runs in %.1f s on %s; wrote %s%n", name, d.table().rowCount(), wall,
                    spark.describe(), written);
        }
        return written;
    }
}
