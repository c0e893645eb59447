package fabriclab.experiments;

import fabriclab.Parameters;
import fabriclab.experiments.testbed.Duan2024Testbed;
import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.progress.ProgressSink;
import fabriclab.scenarios.TransportChoice;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import fabriclab.sweep.SweepTask;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * A what-if of 000's verdict (RoCE/GSE job completion time, Duan et al. 2024, figures 11 and 12): the same 8 jobs on
 * the same testbed ({@link GseVsRoceTestbed}), RoCE running each congestion control the papers name beside DCQCN in
 * place of it, against GSE. {@link TransportChoice#DCQCN} here is the testbed's own DCQCN (its NIC defaults, marking and
 * PFC); {@link TransportChoice#HPCC}, {@link TransportChoice#DCTCP}, {@link TransportChoice#TIMELY} and
 * {@link TransportChoice#SWIFT} run as {@code bin/simulate --transport} runs them ({@link TransportChoice#model}, with
 * an ACK per packet as HPCC's simulator acknowledges; their switch marking, {@link TransportChoice#buffer}), with the
 * testbed's PFC where the transport keeps PFC ({@link TransportChoice#pfcByDefault}: not Swift). The uplinks, queue
 * pairs, packets, buffers and flows stay the testbed's; GSE runs as the testbed runs it.
 *
 * <p>A row's ratio is RoCE's mean JCT over the 8 jobs divided by GSE's for the same seed (the seed draws the source
 * ports and the ECMP hash seeds): 000 reports GSE faster when the ratio is above 1.
 */
public final class GseVsRoceTransports {
    /** The transports compared, DCQCN first. */
    public static final List<TransportChoice> TRANSPORTS = List.of(TransportChoice.DCQCN, TransportChoice.HPCC,
            TransportChoice.DCTCP, TransportChoice.TIMELY, TransportChoice.SWIFT);

    private GseVsRoceTransports() {
    }

    /**
     * One run: RoCE with {@code transport}, or GSE ({@code transport} null).
     *
     * @param testbed the testbed, not null
     * @param transport one of {@link #TRANSPORTS}, or null for GSE
     * @param algorithm the collective algorithm, not null
     * @param speedup leaf speedup, 1.5 or 2
     * @param bufferBytes data per rank [bytes], 4096 to {@link GseVsRoceJct#MAX_BUFFER_BYTES}
     * @param seed the seed
     */
    public record Point(GseVsRoceTestbed testbed, TransportChoice transport, Algorithm algorithm, double speedup,
            long bufferBytes, long seed) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates. */
        public Point {
            Parameters.notNull("testbed", testbed);
            Parameters.notNull("algorithm", algorithm);
            Duan2024Testbed.checkSpeedup(speedup);
            Parameters.inRange("bufferBytes", bufferBytes, 4096L, GseVsRoceJct.MAX_BUFFER_BYTES);
            if (transport != null && !TRANSPORTS.contains(transport)) {
                throw new IllegalArgumentException("transport must be null (GSE) or one of " + TRANSPORTS + ", got " + transport);
            }
        }

        /** RoCE or GSE. */
        public RoceOrGse fabric() {
            return transport == null ? RoceOrGse.GSE : RoceOrGse.ROCE;
        }

        /** Runs it. */
        public GseVsRoceTestbed.Result run() {
            JobSimulation.FabricSettings s = testbed.fabricSettings(fabric(), false);
            if (transport != null && transport != TransportChoice.DCQCN) {
                s = s.withTransport(transport);
            }
            return testbed.run(algorithm, fabric(), speedup, bufferBytes, seed, s);
        }
    }

    /**
     * A run's outcome.
     *
     * @param point what ran
     * @param run its JCTs and counters (its {@code rateCuts} are DCQCN's, 0 under the other transports)
     */
    public record Result(Point point, GseVsRoceTestbed.Result run) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates. */
        public Result {
            Parameters.notNull("point", point);
            Parameters.notNull("run", run);
        }
    }

    /** Runs a {@link Point} (what a sweep executor instantiates). */
    public static final class Task implements SweepTask<Point, Result> {
        /** Used by the executors. */
        public Task() {
        }

        @Override
        public Result run(Point p) {
            return new Result(Parameters.notNull("p", p), p.run());
        }
    }

    /**
     * The points: for each seed, GSE, then RoCE under each of {@code transports}.
     *
     * @param transports transports of {@link #TRANSPORTS}, not empty, no null
     * @param seeds the seeds, not empty
     */
    public static List<Point> points(GseVsRoceTestbed testbed, List<TransportChoice> transports, Algorithm algorithm, double speedup,
            long bufferBytes, long[] seeds) {
        Parameters.noNullElements("transports", transports);
        Parameters.notNull("seeds", seeds);
        if (transports.isEmpty() || seeds.length == 0) {
            throw new IllegalArgumentException("transports and seeds must not be empty, got " + transports + " and "
                    + seeds.length + " seeds");
        }
        List<Point> out = new ArrayList<>();
        for (long seed : seeds) {
            out.add(new Point(testbed, null, algorithm, speedup, bufferBytes, seed));
            for (TransportChoice t : transports) {
                out.add(new Point(testbed, t, algorithm, speedup, bufferBytes, seed));
            }
        }
        return out;
    }

    /**
     * Runs the what-if and tabulates it: one row per seed and transport, columns {@code transport}, {@code seed},
     * {@code roce_mean_jct_us}, {@code gse_mean_jct_us}, {@code roce_over_gse}, {@code roce_max_jct_us},
     * {@code pfc_pauses}, {@code drops}, {@code timeouts}, {@code retransmits}; rows in seed order, transports in
     * {@code transports}' order. The same rows on any executor.
     *
     * @param testbed the testbed (e.g. {@link GseVsRoceTestbed#documentedDefaults()})
     * @param transports transports of {@link #TRANSPORTS}
     * @param algorithm the collective algorithm
     * @param speedup leaf speedup, 1.5 or 2
     * @param bufferBytes data per rank [bytes]
     * @param seeds the seeds
     * @param executor local threads or a cluster
     * @param sink the progress bar
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static Table ratios(GseVsRoceTestbed testbed, List<TransportChoice> transports, Algorithm algorithm, double speedup,
            long bufferBytes, long[] seeds, SweepExecutor executor, ProgressSink sink) throws InterruptedException {
        List<Point> points = points(testbed, transports, algorithm, speedup, bufferBytes, seeds);
        Parameters.notNull("executor", executor);
        Parameters.notNull("sink", sink);
        List<Result> done = executor.run(new SweepPlan<>("000 under each transport (" + points.size() + " runs)", Task.class,
                points), sink);
        StringColumn transport = StringColumn.create("transport");
        LongColumn seed = LongColumn.create("seed");
        DoubleColumn roce = DoubleColumn.create("roce_mean_jct_us");
        DoubleColumn gse = DoubleColumn.create("gse_mean_jct_us");
        DoubleColumn ratio = DoubleColumn.create("roce_over_gse");
        DoubleColumn max = DoubleColumn.create("roce_max_jct_us");
        LongColumn pauses = LongColumn.create("pfc_pauses");
        LongColumn drops = LongColumn.create("drops");
        LongColumn timeouts = LongColumn.create("timeouts");
        LongColumn retransmits = LongColumn.create("retransmits");
        double gseJct = Double.NaN;
        for (Result r : done) {
            if (r.point().transport() == null) {
                gseJct = r.run().meanJctUs();
                continue;
            }
            transport.append(r.point().transport().optionName());
            seed.append(r.point().seed());
            roce.append(r.run().meanJctUs());
            gse.append(gseJct);
            ratio.append(r.run().meanJctUs() / gseJct);
            max.append(r.run().maxJctUs());
            pauses.append(r.run().pfcPauses());
            drops.append(r.run().drops());
            timeouts.append(r.run().timeouts());
            retransmits.append(r.run().retransmits());
        }
        return Table.create("000's testbed, " + algorithm + " at " + bufferBytes + " B per rank, speedup " + speedup
                + ": RoCE under each transport over GSE", transport, seed, roce, gse, ratio, max, pauses, drops, timeouts, retransmits);
    }

    /**
     * One row per transport of a {@link #ratios} table: columns {@code transport}, {@code seeds}, {@code ratio_mean},
     * {@code ratio_min}, {@code ratio_max} (over its seeds), in the table's order.
     */
    public static Table summary(Table ratios) {
        Parameters.notNull("ratios", ratios);
        StringColumn transport = StringColumn.create("transport");
        IntColumn n = IntColumn.create("seeds");
        DoubleColumn mean = DoubleColumn.create("ratio_mean");
        DoubleColumn min = DoubleColumn.create("ratio_min");
        DoubleColumn max = DoubleColumn.create("ratio_max");
        for (String t : ratios.stringColumn("transport").asList().stream().distinct().toList()) {
            double[] v = ratios.where(ratios.stringColumn("transport").isEqualTo(t)).doubleColumn("roce_over_gse").asDoubleArray();
            transport.append(t);
            n.append(v.length);
            mean.append(java.util.Arrays.stream(v).average().orElseThrow());
            min.append(java.util.Arrays.stream(v).min().orElseThrow());
            max.append(java.util.Arrays.stream(v).max().orElseThrow());
        }
        return Table.create("RoCE/GSE mean JCT per transport over seeds", transport, n, mean, min, max);
    }
}
