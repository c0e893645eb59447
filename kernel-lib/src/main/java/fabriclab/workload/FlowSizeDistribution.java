package fabriclab.workload;

import fabriclab.Parameters;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Datasets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import tech.tablesaw.api.Table;

/**
 * An empirical flow-size distribution: a cumulative distribution function given at points
 * {@code (size_i, F_i)} (size in bytes, {@code F_i} the fraction of flows of at most that size) and taken as
 * linear in size between consecutive points, the reading of the data centre traces used by DCTCP
 * (Alizadeh et al., SIGCOMM 2010), pFabric and HPCC (Li et al., SIGCOMM 2019).
 *
 * <p>Rules: at least one point; sizes finite, not negative and non-decreasing; probabilities in [0, 1],
 * non-decreasing, the last exactly 1. A first probability {@code F_0 > 0} is a point mass at {@code size_0};
 * two points of equal size a point mass at that size.
 *
 * <p>Sampling is by inverse transform: for {@code u} uniform in [0, 1), the size is {@code size_0} if
 * {@code u < F_0}, else the linear interpolation {@code size_{i-1} + (size_i - size_{i-1}) (u - F_{i-1}) /
 * (F_i - F_{i-1})} on the first segment with {@code F_i > u}. The mean of this piecewise-linear CDF is exact in
 * closed form: {@code F_0 size_0 + sum_i (F_i - F_{i-1}) (size_{i-1} + size_i) / 2}, each segment being a uniform
 * distribution over its size range carrying its share of probability.
 */
public final class FlowSizeDistribution {
    /** The most points a distribution may have. */
    public static final int MAX_POINTS = 100_000;
    /** The largest size a point may have, bytes (1 TB). */
    public static final double MAX_SIZE_BYTES = 1e12;
    /** The published datasets the command names: {@code websearch} and {@code fb-hadoop}. */
    public static final List<String> PUBLISHED = List.of("websearch", "fb-hadoop");

    private final String name;
    private final double[] sizes;
    private final double[] cdf;

    private FlowSizeDistribution(String name, double[] sizes, double[] cdf) {
        this.name = name;
        this.sizes = sizes;
        this.cdf = cdf;
    }

    /**
     * The distribution of the given points.
     *
     * @param name a label for messages and tables, not blank
     * @param sizesBytes sizes in bytes, non-decreasing, in [0, {@link #MAX_SIZE_BYTES}]
     * @param cumulativeProbabilities {@code F_i} in [0, 1], non-decreasing, the last exactly 1; as many as sizes
     */
    public static FlowSizeDistribution of(String name, double[] sizesBytes, double[] cumulativeProbabilities) {
        Parameters.notBlank("name", name);
        Parameters.notNull("sizesBytes", sizesBytes);
        Parameters.notNull("cumulativeProbabilities", cumulativeProbabilities);
        if (sizesBytes.length == 0 || sizesBytes.length > MAX_POINTS) {
            throw new IllegalArgumentException("sizesBytes must have 1 to " + MAX_POINTS + " points, got " + sizesBytes.length);
        }
        if (cumulativeProbabilities.length != sizesBytes.length) {
            throw new IllegalArgumentException("cumulativeProbabilities must have as many points as sizesBytes ("
                    + sizesBytes.length + "), got " + cumulativeProbabilities.length);
        }
        double[] s = sizesBytes.clone();
        double[] f = cumulativeProbabilities.clone();
        for (int i = 0; i < s.length; i++) {
            Parameters.inRange("sizesBytes[" + i + "]", s[i], 0, MAX_SIZE_BYTES);
            Parameters.inRange("cumulativeProbabilities[" + i + "]", f[i], 0, 1);
            if (i > 0 && s[i] < s[i - 1]) {
                throw new IllegalArgumentException("sizesBytes must be non-decreasing, got " + s[i] + " after " + s[i - 1]
                        + " at point " + i);
            }
            if (i > 0 && f[i] < f[i - 1]) {
                throw new IllegalArgumentException("cumulativeProbabilities must be non-decreasing, got " + f[i] + " after "
                        + f[i - 1] + " at point " + i);
            }
        }
        if (f[f.length - 1] != 1.0) {
            throw new IllegalArgumentException("cumulativeProbabilities must end at 1, got " + f[f.length - 1]);
        }
        return new FlowSizeDistribution(name, s, f);
    }

    /**
     * A published distribution from {@code datasets/published/}: {@code websearch} (DCTCP's web search, dataset
     * {@code websearch-flow-sizes}) or {@code fb-hadoop} (Roy et al.'s Hadoop cluster, {@code fb-hadoop-flow-sizes}).
     *
     * @param name one of {@link #PUBLISHED}
     */
    public static FlowSizeDistribution published(String name) {
        if (name == null || !PUBLISHED.contains(name)) {
            throw new IllegalArgumentException("name must be one of " + PUBLISHED + ", got " + name);
        }
        return fromDataset(Datasets.load(name + "-flow-sizes"));
    }

    /**
     * The distribution of a dataset with columns {@code size_bytes} and {@code cumulative_probability} (a fraction),
     * named after the dataset.
     *
     * @param dataset the dataset
     */
    public static FlowSizeDistribution fromDataset(Dataset dataset) {
        Parameters.notNull("dataset", dataset);
        Table t = dataset.table();
        for (String c : List.of("size_bytes", "cumulative_probability")) {
            if (!t.columnNames().contains(c)) {
                throw new IllegalArgumentException("dataset " + dataset.name() + " has no column " + c + " (columns: "
                        + t.columnNames() + ")");
            }
        }
        double[] s = new double[t.rowCount()];
        double[] f = new double[t.rowCount()];
        for (int i = 0; i < s.length; i++) {
            s[i] = t.numberColumn("size_bytes").getDouble(i);
            f[i] = t.numberColumn("cumulative_probability").getDouble(i);
        }
        return of(dataset.name(), s, f);
    }

    /** The largest distribution file {@link #read} takes: 16 MiB. */
    public static final long MAX_FILE_BYTES = 16L << 20;

    /**
     * Reads a distribution file in the layout of HPCC's {@code traffic_gen} ({@code WebSearch_distribution.txt}): one
     * point per line, the size in bytes and the cumulative percentage of flows (0 to 100, the last 100), separated by
     * blanks; empty lines and lines starting with {@code #} are skipped. Named after the file.
     *
     * @param file the file: a regular file (not a directory, device or FIFO) of at most {@link #MAX_FILE_BYTES}, UTF-8
     * @throws IllegalArgumentException naming the file and line of a point that is not two numbers or breaks a rule,
     *         or naming {@code file} if it is not a regular file of at most {@link #MAX_FILE_BYTES}
     */
    public static FlowSizeDistribution read(Path file) {
        Parameters.notNull("file", file);
        List<String> lines = Parameters.readInputFile("file", file, MAX_FILE_BYTES);
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] parts = l.split("\\s+");
            if (parts.length != 2 || !decimal(parts[0]) || !decimal(parts[1])) {
                throw new IllegalArgumentException("file " + file + ", line " + (i + 1) + ": expected a size in bytes and a"
                        + " cumulative percentage (e.g. \"10000 15\"), got \"" + l + "\"");
            }
            if (points.size() == MAX_POINTS) {
                throw new IllegalArgumentException("file " + file + " has more than " + MAX_POINTS + " points");
            }
            points.add(new double[] {Double.parseDouble(parts[0]), Double.parseDouble(parts[1])});
        }
        if (points.isEmpty()) {
            throw new IllegalArgumentException("file " + file + " holds no points (size and cumulative percentage per line)");
        }
        double[] s = new double[points.size()];
        double[] f = new double[points.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = points.get(i)[0];
            f[i] = points.get(i)[1] / 100.0;
        }
        if (points.get(points.size() - 1)[1] == 100.0) {
            f[f.length - 1] = 1.0; // (x / 100 is exact only for some x; 100 / 100 is exactly 1)
        }
        try {
            return of(file.getFileName() == null ? file.toString() : file.getFileName().toString(), s, f);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("file " + file + ": " + e.getMessage()
                    + " (the file's second column is a percentage, the last 100)", e);
        }
    }

    private static boolean decimal(String t) {
        return t.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    }

    /** The label: the dataset's or file's name. */
    public String name() {
        return name;
    }

    /** The points' sizes, bytes (a copy). */
    public double[] sizesBytes() {
        return sizes.clone();
    }

    /** The points' cumulative probabilities (a copy). */
    public double[] cumulativeProbabilities() {
        return cdf.clone();
    }

    /** The mean flow size, bytes, exact for the piecewise-linear CDF (class comment). */
    public double meanBytes() {
        double m = cdf[0] * sizes[0];
        for (int i = 1; i < sizes.length; i++) {
            m += (cdf[i] - cdf[i - 1]) * (sizes[i - 1] + sizes[i]) / 2;
        }
        return m;
    }

    /**
     * The size at cumulative probability {@code u} by inverse transform with linear interpolation (class comment),
     * bytes.
     *
     * @param u in [0, 1]
     */
    public double quantileBytes(double u) {
        Parameters.inRange("u", u, 0, 1);
        if (u < cdf[0]) {
            return sizes[0];
        }
        int i = Arrays.binarySearch(cdf, u);
        if (i >= 0) { // u equals F_i: the first point holding it (the CDF's left end of a flat stretch)
            while (i > 0 && cdf[i - 1] == u) {
                i--;
            }
            return sizes[i];
        }
        int hi = -i - 1; // first point with F > u (exists: u < 1 = last F here, since u = 1 was found)
        int lo = hi - 1;
        return sizes[lo] + (sizes[hi] - sizes[lo]) * (u - cdf[lo]) / (cdf[hi] - cdf[lo]);
    }

    /** One size drawn from {@code random} by inverse transform, bytes (not rounded). */
    public double sample(SplittableRandom random) {
        Parameters.notNull("random", random);
        return quantileBytes(random.nextDouble());
    }

    /**
     * One flow size drawn from {@code random}, in whole bytes: {@link #sample} rounded to the nearest byte, at least 1
     * (a flow carries a byte; HPCC's generator truncates instead, which lowers the mean by about half a byte).
     */
    public long sampleBytes(SplittableRandom random) {
        return Math.max(1L, Math.round(sample(random)));
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%s (%d points, mean %.1f B)", name, sizes.length, meanBytes());
    }
}
