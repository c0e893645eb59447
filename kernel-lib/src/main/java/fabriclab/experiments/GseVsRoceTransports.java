package fabriclab.experiments;

import fabriclab.Parameters;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Provenance;
import fabriclab.experiments.testbed.Duan2024Testbed;
import fabriclab.experiments.testbed.Spread;
import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.progress.ProgressSink;
import fabriclab.scenarios.TransportChoice;
import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.transport.hpcc.HpccTransport;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.simulation.transport.window.DctcpTransport;
import fabriclab.simulation.transport.window.SwiftTransport;
import fabriclab.simulation.transport.window.TimelyTransport;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import fabriclab.sweep.SweepTask;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        public Result run() {
            JobSimulation.FabricSettings s = testbed.fabricSettings(fabric(), false);
            if (transport != null && transport != TransportChoice.DCQCN) {
                s = s.withTransport(transport);
            }
            JobMetrics m = testbed.metrics(algorithm, speedup, bufferBytes, seed, s);
            return new Result(this, testbed.result(algorithm, fabric(), speedup, bufferBytes, seed, m),
                    transport == null ? 0 : m.counter(decreases(transport)), m.dropPlaces());
        }
    }

    /**
     * The counter of {@code transport}'s congestion reactions that lower the sending rate or window:
     * {@link RoceTransport#RATE_CUTS} (DCQCN's rate cuts on CNPs), {@link HpccTransport#DECREASES} (HPCC's window
     * settings by the multiplicative step W_c eta / U), {@link DctcpTransport#CUTS} (DCTCP's cuts on ECN echoes),
     * {@link TimelyTransport#DECREASES} and {@link SwiftTransport#DECREASES} (their rate and window decreases).
     *
     * @param transport one of {@link #TRANSPORTS}
     */
    public static Counter decreases(TransportChoice transport) {
        Parameters.notNull("transport", transport);
        return switch (transport) {
            case DCQCN -> RoceTransport.RATE_CUTS;
            case HPCC -> HpccTransport.DECREASES;
            case DCTCP -> DctcpTransport.CUTS;
            case TIMELY -> TimelyTransport.DECREASES;
            case SWIFT -> SwiftTransport.DECREASES;
            default -> throw new IllegalArgumentException("transport must be one of " + TRANSPORTS + ", got " + transport);
        };
    }

    /**
     * A run's outcome.
     *
     * @param point what ran
     * @param run its JCTs and counters (its {@code rateCuts} are DCQCN's, 0 under the other transports)
     * @param decreases the transport's rate or window decreases ({@link #decreases(TransportChoice)}), 0 for GSE, not
     *        negative
     * @param dropPlaces its data-packet drops by place, not null
     */
    public record Result(Point point, GseVsRoceTestbed.Result run, long decreases, JobMetrics.DropPlaces dropPlaces)
            implements Serializable {
        private static final long serialVersionUID = 2L;

        /** Validates. */
        public Result {
            Parameters.notNull("point", point);
            Parameters.notNull("run", run);
            Parameters.atLeast("decreases", decreases, 0L);
            Parameters.notNull("dropPlaces", dropPlaces);
        }
    }

    /** Runs a {@link Point} (what a sweep executor instantiates). */
    public static final class Task implements SweepTask<Point, Result> {
        /** Used by the executors. */
        public Task() {
        }

        @Override
        public Result run(Point p) {
            return Parameters.notNull("p", p).run();
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
     * {@code pfc_pauses}, {@code pfc_paused_us} (summed over ports), {@code ecn_marks}, {@code decreases} (the
     * transport's rate or window decreases, {@link #decreases(TransportChoice)}), {@code drops} (data packets) and
     * where: {@code drops_host}, {@code drops_leaf_up} (leaf to spine), {@code drops_spine_down} (spine to leaf),
     * {@code drops_leaf_down} (leaf to host); {@code timeouts}, {@code spurious_timeouts}, {@code retransmits} (data
     * packets sent again), {@code gse_drops} and {@code gse_resent_bytes} (the data packets GSE's run of the same seed lost
     * and the payload bytes it sent again); rows in seed order, transports in {@code transports}' order. The same rows on any executor.
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
        DoubleColumn paused = DoubleColumn.create("pfc_paused_us");
        LongColumn marks = LongColumn.create("ecn_marks");
        LongColumn decreases = LongColumn.create("decreases");
        LongColumn drops = LongColumn.create("drops");
        LongColumn dropsHost = LongColumn.create("drops_host");
        LongColumn dropsUp = LongColumn.create("drops_leaf_up");
        LongColumn dropsSpine = LongColumn.create("drops_spine_down");
        LongColumn dropsDown = LongColumn.create("drops_leaf_down");
        LongColumn timeouts = LongColumn.create("timeouts");
        LongColumn spurious = LongColumn.create("spurious_timeouts");
        LongColumn retransmits = LongColumn.create("retransmits");
        LongColumn gseDrops = LongColumn.create("gse_drops");
        LongColumn gseResent = LongColumn.create("gse_resent_bytes");
        Result gseRun = null;
        for (Result r : done) {
            if (r.point().transport() == null) {
                gseRun = r;
                continue;
            }
            GseVsRoceTestbed.Result run = r.run();
            transport.append(r.point().transport().optionName());
            seed.append(r.point().seed());
            roce.append(run.meanJctUs());
            gse.append(gseRun.run().meanJctUs());
            ratio.append(run.meanJctUs() / gseRun.run().meanJctUs());
            max.append(run.maxJctUs());
            pauses.append(run.pfcPauses());
            paused.append(run.pfcPausedUs());
            marks.append(run.ecnMarks());
            decreases.append(r.decreases());
            drops.append(run.drops());
            dropsHost.append(r.dropPlaces().hostEgress());
            dropsUp.append(r.dropPlaces().leafUplinks());
            dropsSpine.append(r.dropPlaces().spineDownlinks());
            dropsDown.append(r.dropPlaces().leafDownlinks());
            timeouts.append(run.timeouts());
            spurious.append(run.delivery().spuriousTimeouts());
            retransmits.append(run.retransmits());
            gseDrops.append(gseRun.run().drops());
            gseResent.append(gseRun.run().delivery().retransmittedBytes());
        }
        return Table.create("000's testbed, " + algorithm + " at " + bufferBytes + " B per rank, speedup " + speedup
                + ": RoCE under each transport over GSE", transport, seed, roce, gse, ratio, max, pauses, paused, marks, decreases,
                drops, dropsHost, dropsUp, dropsSpine, dropsDown, timeouts, spurious, retransmits, gseDrops, gseResent);
    }

    /** The dataset {@link #dataset} names. */
    public static final String DATASET = "jct-gse-vs-roce-transports";

    /**
     * The what-if on the documented-defaults testbed ({@link GseVsRoceTestbed#documentedDefaults()}) at speedup 1.5,
     * AlltoAll at once then H-D_R AllReduce: the {@link #ratios} table of each with an {@code algorithm} column first
     * ({@code all_to_all_at_once}, {@code halving_doubling_all_reduce}), every transport of {@link #TRANSPORTS}.
     *
     * @param bufferBytes data per rank [bytes], 4096 to {@link GseVsRoceJct#MAX_BUFFER_BYTES}
     * @param seeds the seeds, not empty
     * @param executor local threads or a cluster, not null
     * @param sink the progress bar, not null
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static Table whatIf(long bufferBytes, long[] seeds, SweepExecutor executor, ProgressSink sink) throws InterruptedException {
        Table all = null;
        for (Algorithm a : new Algorithm[] {Algorithm.ALL_TO_ALL_AT_ONCE, Algorithm.HALVING_DOUBLING_ALL_REDUCE}) {
            Table t = ratios(GseVsRoceTestbed.documentedDefaults(), TRANSPORTS, a, 1.5, bufferBytes, seeds, executor, sink);
            StringColumn alg = StringColumn.create("algorithm");
            for (int i = 0; i < t.rowCount(); i++) {
                alg.append(a.name().toLowerCase(java.util.Locale.ROOT));
            }
            t.insertColumn(0, alg);
            all = all == null ? t : all.append(t);
        }
        return all.setName("000's testbed under each transport at " + bufferBytes + " B per rank: RoCE/GSE mean JCT");
    }

    /**
     * A {@link #whatIf} table as the model dataset {@value #DATASET}, with its provenance: what ran ({@code bufferBytes}
     * per rank, {@code seeds} seeds from 1) and by whom ({@code writtenBy}).
     *
     * @param whatIf the table of {@link #whatIf}, not null
     * @param bufferBytes the data per rank it ran [bytes], positive
     * @param seeds how many seeds it ran, positive
     * @param writtenBy what wrote it (a notebook or a command), not null
     */
    public static Dataset dataset(Table whatIf, long bufferBytes, int seeds, String writtenBy) {
        Parameters.notNull("whatIf", whatIf);
        Parameters.atLeast("bufferBytes", bufferBytes, 1L);
        Parameters.atLeast("seeds", seeds, 1);
        Parameters.notNull("writtenBy", writtenBy);
        Map<String, String> units = new LinkedHashMap<>();
        for (String c : whatIf.columnNames()) {
            units.put(c, c.endsWith("_us") ? "us" : c.equals("gse_resent_bytes") ? "bytes" : c.equals("roce_over_gse") ? "ratio"
                    : c.startsWith("drops") || c.equals("retransmits") || c.equals("gse_drops") ? "data packets"
                    : c.equals("transport") || c.equals("algorithm") || c.equals("seed") ? "" : "count");
        }
        Provenance p = new Provenance(DATASET, "000's testbed (documented defaults, speedup 1.5) with RoCE under DCQCN, HPCC,"
                + " DCTCP, TIMELY and Swift against GSE: mean JCT, RoCE/GSE and the mechanism counters per seed", "model",
                new Provenance.Paper("000_5f64c80d7629dca1.txt", null, null, null, null),
                "000 section 3, figures 11 and 12 (what-if: RoCE under the congestion controls the papers name beside DCQCN)", units,
                String.format(java.util.Locale.ROOT, "Written by %s at %d bytes (%d MiB) per rank, seeds 1 to %d:"
                        + " fabriclab.experiments.GseVsRoceTransports.whatIf (deterministic: the same rows on any executor).",
                        writtenBy, bufferBytes, bufferBytes >> 20, seeds));
        return new Dataset(p, whatIf);
    }

    /** The counters {@link #spread} averages over seeds, in its column order. */
    public static final List<String> MECHANISMS = List.of("pfc_pauses", "pfc_paused_us", "ecn_marks", "decreases", "drops",
            "drops_leaf_up", "drops_spine_down", "drops_leaf_down", "drops_host", "timeouts", "spurious_timeouts", "retransmits");

    /**
     * One row per (algorithm, transport) of a {@link #whatIf} table, in its order: {@code algorithm}, {@code transport},
     * {@code seeds}, {@code ratio_median}, {@code ratio_min}, {@code ratio_max} (RoCE/GSE over its seeds; the median of an
     * even count is the mean of the middle two), then the mean over seeds of each counter of {@link #MECHANISMS}.
     */
    public static Table spread(Table whatIf) {
        Parameters.notNull("whatIf", whatIf);
        StringColumn algorithm = StringColumn.create("algorithm");
        StringColumn transport = StringColumn.create("transport");
        IntColumn n = IntColumn.create("seeds");
        DoubleColumn median = DoubleColumn.create("ratio_median");
        DoubleColumn min = DoubleColumn.create("ratio_min");
        DoubleColumn max = DoubleColumn.create("ratio_max");
        List<DoubleColumn> means = new ArrayList<>();
        for (String m : MECHANISMS) {
            means.add(DoubleColumn.create(m));
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < whatIf.rowCount(); i++) {
            String k = whatIf.stringColumn("algorithm").get(i) + "\t" + whatIf.stringColumn("transport").get(i);
            if (!keys.contains(k)) {
                keys.add(k);
            }
        }
        for (String k : keys) {
            String[] at = k.split("\t");
            Table rows = whatIf.where(whatIf.stringColumn("algorithm").isEqualTo(at[0]).and(whatIf.stringColumn("transport").isEqualTo(at[1])));
            double[] v = rows.doubleColumn("roce_over_gse").asDoubleArray();
            Spread ratio = Spread.of(v);
            algorithm.append(at[0]);
            transport.append(at[1]);
            n.append(v.length);
            median.append(ratio.median());
            min.append(ratio.min());
            max.append(ratio.max());
            for (int j = 0; j < MECHANISMS.size(); j++) {
                means.get(j).append(((tech.tablesaw.api.NumericColumn<?>) rows.column(MECHANISMS.get(j))).mean());
            }
        }
        Table out = Table.create("RoCE/GSE per collective and transport over seeds, counters averaged over seeds", algorithm, transport, n,
                median, min, max);
        for (DoubleColumn c : means) {
            out.addColumns(c);
        }
        return out;
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
