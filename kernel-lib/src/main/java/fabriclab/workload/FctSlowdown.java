package fabriclab.workload;

import fabriclab.Parameters;
import fabriclab.simulation.SimulationResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Locale;

/**
 * FCT slowdown by flow size, the figure of the flow-completion literature (pFabric, HPCC's figure 11): for each
 * completed flow its completion time over its {@link IdealFct ideal} (the same flow alone on the empty fabric), and per
 * bin of flow sizes the 50th, 95th and 99th percentiles of those slowdowns.
 *
 * <p>Bins are explicit size ranges {@code (edge_{i-1}, edge_i]}, bytes, the first from 0 and the last unbounded;
 * {@link #decileEdges} gives the deciles of a flow-size distribution, so that each bin holds about a tenth of the
 * flows drawn from it (HPCC's script bins the flows sorted by size into equal-count groups instead, which comes to
 * the same for many flows). A percentile {@code p} of {@code n} sorted slowdowns is the element of 0-based index
 * {@code floor(n p)}, the rule of HPCC's script. Unlike that script, slowdowns below 1 are not raised to 1: one would
 * be a flow faster than the model allows, a fault to see.
 *
 * @param bins the bins, by size
 * @param all every flow counted, one bin over all sizes
 * @param notCompleted flows left out because they did not complete
 */
public record FctSlowdown(List<Bin> bins, Bin all, int notCompleted) {
    /**
     * One bin.
     *
     * @param fromBytes sizes above this, bytes (0 for the first bin)
     * @param toBytes sizes up to and including this, bytes ({@code Long.MAX_VALUE} for the last bin)
     * @param flows completed flows in the bin
     * @param p50 median slowdown, at least 1; empty when the bin is (a statistic of no flows does not exist)
     * @param p95 95th percentile of slowdown, at least {@code p50}; empty when the bin is
     * @param p99 99th percentile of slowdown, at least {@code p95}; empty when the bin is
     */
    public record Bin(long fromBytes, long toBytes, int flows, OptionalDouble p50, OptionalDouble p95, OptionalDouble p99) {
        /** Validates: the percentiles present exactly when the bin has flows, each at least 1 and in order. */
        public Bin {
            Parameters.atLeast("fromBytes", fromBytes, 0L);
            if (toBytes <= fromBytes) {
                throw new IllegalArgumentException("toBytes must exceed fromBytes = " + fromBytes + ", got " + toBytes);
            }
            Parameters.atLeast("flows", flows, 0);
            Parameters.notNull("p50", p50);
            Parameters.notNull("p95", p95);
            Parameters.notNull("p99", p99);
            if (flows == 0) {
                if (p50.isPresent() || p95.isPresent() || p99.isPresent()) {
                    throw new IllegalArgumentException("p50, p95 and p99 must be empty when flows = 0 (no statistic of"
                            + " an empty bin), got " + p50 + ", " + p95 + ", " + p99);
                }
            } else {
                if (p50.isEmpty() || p95.isEmpty() || p99.isEmpty()) {
                    throw new IllegalArgumentException("p50, p95 and p99 must be present when flows = " + flows);
                }
                Parameters.inRange("p50", p50.getAsDouble(), 1.0, Double.MAX_VALUE);
                Parameters.inRange("p95", p95.getAsDouble(), p50.getAsDouble(), Double.MAX_VALUE);
                Parameters.inRange("p99", p99.getAsDouble(), p95.getAsDouble(), Double.MAX_VALUE);
            }
        }
    }

    /** Validates. */
    public FctSlowdown {
        Parameters.noNullElements("bins", bins);
        Parameters.notNull("all", all);
        Parameters.atLeast("notCompleted", notCompleted, 0);
        bins = List.copyOf(bins);
    }

    /**
     * The bin edges at the deciles of {@code sizes}: its sizes at cumulative probability 0.1, ..., 0.9 rounded to
     * whole bytes, repeated edges (a point mass) once, bytes.
     *
     * @param sizes the distribution
     */
    public static long[] decileEdges(FlowSizeDistribution sizes) {
        Parameters.notNull("sizes", sizes);
        List<Long> edges = new ArrayList<>();
        for (int d = 1; d <= 9; d++) {
            long e = Math.max(1, Math.round(sizes.quantileBytes(d / 10.0)));
            if (edges.isEmpty() || e > edges.get(edges.size() - 1)) {
                edges.add(e);
            }
        }
        return edges.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * The slowdowns of the flows of {@code result} marked in {@code include}.
     *
     * @param result the run
     * @param idealPs the ideal FCT of each flow of the run, ps, each positive ({@link IdealFct#of(fabriclab.fabric.Topology,
     *     fabriclab.simulation.config.SimulationConfig, List)})
     * @param edgesBytes the bins' upper edges but the last, bytes, increasing, each at least 1 and below
     *     {@code Long.MAX_VALUE}
     * @param include which flows to count (e.g. the background flows only), one per flow
     */
    public static FctSlowdown of(SimulationResult result, long[] idealPs, long[] edgesBytes, boolean[] include) {
        Parameters.notNull("result", result);
        Parameters.notNull("idealPs", idealPs);
        Parameters.notNull("edgesBytes", edgesBytes);
        Parameters.notNull("include", include);
        int n = result.flows().size();
        if (idealPs.length != n) {
            throw new IllegalArgumentException("idealPs must have one entry per flow (" + n + "), got " + idealPs.length);
        }
        if (include.length != n) {
            throw new IllegalArgumentException("include must have one entry per flow (" + n + "), got " + include.length);
        }
        for (int i = 0; i < n; i++) {
            Parameters.atLeast("idealPs[" + i + "]", idealPs[i], 1L);
        }
        if (edgesBytes.length > 1000) {
            throw new IllegalArgumentException("edgesBytes must have at most 1000 edges, got " + edgesBytes.length);
        }
        for (int b = 0; b < edgesBytes.length; b++) {
            Parameters.inRange("edgesBytes[" + b + "]", edgesBytes[b], b == 0 ? 1L : edgesBytes[b - 1] + 1, Long.MAX_VALUE - 1);
        }
        List<List<Double>> perBin = new ArrayList<>();
        for (int b = 0; b <= edgesBytes.length; b++) {
            perBin.add(new ArrayList<>());
        }
        List<Double> every = new ArrayList<>();
        int notCompleted = 0;
        for (int i = 0; i < n; i++) {
            if (!include[i]) {
                continue;
            }
            SimulationResult.FlowRecord f = result.flows().get(i);
            if (!f.completed()) {
                notCompleted++;
                continue;
            }
            double slowdown = (double) f.completionTimePs() / idealPs[i];
            if (slowdown < 1) {
                throw new IllegalArgumentException("idealPs[" + i + "] must be at most flow " + i + "'s completion time "
                        + f.completionTimePs() + " ps (a slowdown is at least 1), got " + idealPs[i]);
            }
            int b = Arrays.binarySearch(edgesBytes, f.spec().bytes());
            int bin = b >= 0 ? b : -b - 1; // (edge_{b-1}, edge_b]: an exact edge belongs to the bin it closes
            perBin.get(bin).add(slowdown);
            every.add(slowdown);
        }
        List<Bin> bins = new ArrayList<>();
        for (int b = 0; b <= edgesBytes.length; b++) {
            long from = b == 0 ? 0 : edgesBytes[b - 1];
            long to = b == edgesBytes.length ? Long.MAX_VALUE : edgesBytes[b];
            bins.add(bin(from, to, perBin.get(b)));
        }
        return new FctSlowdown(bins, bin(0, Long.MAX_VALUE, every), notCompleted);
    }

    private static Bin bin(long from, long to, List<Double> slowdowns) {
        double[] s = slowdowns.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (s.length == 0) {
            return new Bin(from, to, 0, OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty());
        }
        return new Bin(from, to, s.length, OptionalDouble.of(percentile(s, 0.50)), OptionalDouble.of(percentile(s, 0.95)),
                OptionalDouble.of(percentile(s, 0.99)));
    }

    /** The element of index {@code floor(n p)} of sorted {@code s}, 0 when empty. */
    static double percentile(double[] s, double p) {
        return s.length == 0 ? 0 : s[(int) Math.floor(s.length * p)];
    }

    /**
     * The table as text: one line per bin (its size range, flows, p50, p95, p99 of slowdown; "-" for an empty bin),
     * then the line of all sizes.
     */
    public String table() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-24s %8s %9s %9s %9s%n", "flow size (bytes)",
                "flows", "p50", "p95", "p99"));
        for (Bin bin : bins) {
            b.append(line(range(bin), bin));
        }
        b.append(line("all sizes", all));
        return b.toString();
    }

    private static String range(Bin bin) {
        return bin.toBytes() == Long.MAX_VALUE ? String.format(Locale.ROOT, "> %,d", bin.fromBytes())
                : String.format(Locale.ROOT, "(%,d, %,d]", bin.fromBytes(), bin.toBytes());
    }

    private static String line(String label, Bin bin) {
        if (bin.flows() == 0) {
            return String.format(Locale.ROOT, "%-24s %8d %9s %9s %9s%n", label, 0, "-", "-", "-");
        }
        return String.format(Locale.ROOT, "%-24s %8d %9.3f %9.3f %9.3f%n", label, bin.flows(), bin.p50().getAsDouble(),
                bin.p95().getAsDouble(), bin.p99().getAsDouble());
    }
}
