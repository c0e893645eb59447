package fabriclab.validation;

import fabriclab.simulation.Simulator;
import fabriclab.Parameters;
import fabriclab.fabric.Time;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.scenarios.ScenarioSettings;
import fabriclab.scenarios.TransportChoice;
import fabriclab.workload.FctSlowdown;
import fabriclab.workload.FlowSizeDistribution;
import fabriclab.workload.IdealFct;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The field's standard flow-completion workload on a small leaf-spine, run exactly as {@code bin/simulate} runs the
 * command line {@link #args} ({@code --workload websearch --load 0.3 ...}): the same {@link ScenarioSettings}
 * ({@link #settings}). Flows between random host pairs with sizes from a
 * published distribution ({@link FlowSizeDistribution#PUBLISHED}), Poisson arrivals at the target load of each host
 * link over an arrival window, and the FCT slowdown (completion time over the ideal on the empty fabric,
 * {@link IdealFct}) by flow-size bin at the deciles of the distribution, p50, p95 and p99 ({@link FctSlowdown}, as
 * HPCC's analysis script computes it). Every run takes a seed (the flows, the hashes, the draws) and is
 * byte-deterministic.
 *
 * @param workload {@code websearch} or {@code fb-hadoop}
 * @param load offered load of each host link, in (0, 1]
 * @param hosts hosts of the leaf-spine, a multiple of {@code hostsPerLeaf}, in [2, 1024]
 * @param hostsPerLeaf hosts per leaf, in [1, 64]
 * @param spines spine switches, in [1, 64]; two links between each leaf and spine, every link 100 Gb/s with 1 us
 *     delay, 16 MB shared buffer per switch, 1000-byte payload and 64-byte header per packet (bin/simulate's defaults)
 * @param durationPs the arrival window, ps, in [1 us, 1 s]; the run continues until every flow has completed
 */
public record FctWorkload(String workload, double load, int hosts, int hostsPerLeaf, int spines, long durationPs) {
    /** The transports compared, by their {@code bin/simulate --transport} names: DCQCN (RoCE with PFC), CTCC, GSE. */
    public static final List<String> TRANSPORTS = Stream.of(TransportChoice.DCQCN, TransportChoice.CTCC, TransportChoice.GSE)
            .map(TransportChoice::optionName).toList();

    /** Validates as stated on the record. */
    public FctWorkload {
        Parameters.notNull("workload", workload);
        if (!FlowSizeDistribution.PUBLISHED.contains(workload)) {
            throw new IllegalArgumentException("workload must be one of " + FlowSizeDistribution.PUBLISHED + ", got \""
                    + workload + "\"");
        }
        if (!(load > 0 && load <= 1)) {
            throw new IllegalArgumentException("load must be in (0, 1], got " + load);
        }
        Parameters.inRange("hostsPerLeaf", hostsPerLeaf, 1, 64);
        Parameters.inRange("hosts", hosts, 2, 1024);
        if (hosts % hostsPerLeaf != 0) {
            throw new IllegalArgumentException("hosts must be a multiple of hostsPerLeaf = " + hostsPerLeaf + ", got " + hosts);
        }
        Parameters.inRange("spines", spines, 1, 64);
        Parameters.inRange("durationPs", durationPs, Time.US, Time.S);
    }

    /** The notebook's setting: 32 hosts (4 leaves x 8, 4 spines), arrivals over 5 ms, at {@code load} of {@code workload}. */
    public static FctWorkload small(String workload, double load) {
        return new FctWorkload(workload, load, 32, 8, 4, 5 * Time.MS);
    }

    /** The {@code bin/simulate} command line of this workload with {@code transport} and {@code seed}. */
    public List<String> args(String transport, long seed) {
        checkTransport(transport);
        return List.of("--workload", workload, "--load", Double.toString(load), "--hosts", Integer.toString(hosts),
                "--hosts-per-leaf", Integer.toString(hostsPerLeaf), "--spines", Integer.toString(spines),
                "--duration", durationPs + "ps", "--transport", transport, "--seed", Long.toString(seed));
    }

    /**
     * The settings of this workload with {@code transport} and {@code seed}, the rest {@code bin/simulate}'s defaults:
     * the scenario {@link #args} describes.
     */
    public ScenarioSettings settings(String transport, long seed) {
        checkTransport(transport);
        return ScenarioSettings.standard(workload, load, durationPs, hosts, hostsPerLeaf, spines,
                TransportChoice.named(transport), seed);
    }

    private static void checkTransport(String transport) {
        Parameters.notNull("transport", transport);
        if (!TRANSPORTS.contains(transport)) {
            throw new IllegalArgumentException("transport must be one of " + TRANSPORTS + ", got \"" + transport + "\"");
        }
    }

    /** Runs the workload with {@code transport} and {@code seed}: its FCT slowdown by size bin (all flows counted). */
    public FctSlowdown run(String transport, long seed) {
        return runFigures(transport, seed).slowdown();
    }

    /**
     * What one run gives besides the slowdowns.
     *
     * @param slowdown the FCT slowdown by size bin
     * @param drops data packets dropped in the fabric (each copy)
     * @param timeouts retransmission timeouts at the senders
     * @param pausedUs time paused by PFC summed over every port, us
     * @param notCompletedWithinLeaf of the flows not completed, those whose source and destination share a leaf
     */
    public record Result(FctSlowdown slowdown, long drops, long timeouts, double pausedUs, int notCompletedWithinLeaf) {
        /** Validates: the slowdown not null, the counts and the paused time at least 0 and finite. */
        public Result {
            Parameters.notNull("slowdown", slowdown);
            Parameters.atLeast("drops", drops, 0L);
            Parameters.atLeast("timeouts", timeouts, 0L);
            Parameters.finite("pausedUs", pausedUs);
            Parameters.nonNegative("pausedUs", pausedUs);
            Parameters.inRange("notCompletedWithinLeaf", notCompletedWithinLeaf, 0, slowdown.notCompleted());
        }
    }

    /** Runs the workload with {@code transport} and {@code seed}: the slowdowns and the run's losses ({@link Result}). */
    public Result runFigures(String transport, long seed) {
        ScenarioSettings settings = settings(transport, seed);
        Scenario s = settings.scenario();
        SimulationResult r = new Simulator(s).run();
        long[] ideal = IdealFct.of(s.topology(), s.config(), s.flows());
        boolean[] all = new boolean[s.flows().size()];
        Arrays.fill(all, true);
        int withinLeaf = 0;
        for (SimulationResult.FlowRecord f : r.flows()) {
            if (f.completionTimePs() < 0 && f.spec().source() / hostsPerLeaf == f.spec().destination() / hostsPerLeaf) {
                withinLeaf++;
            }
        }
        return new Result(FctSlowdown.of(r, ideal, FctSlowdown.decileEdges(settings.traffic().distribution()), all), r.droppedPackets(),
                r.timeouts(), r.pausedPs() / 1e6, withinLeaf);
    }

    /**
     * Every transport with every seed: one row per run and size bin, columns {@code transport}, {@code seed},
     * {@code bin} (the size range, bytes), {@code to_bytes} (the bin's upper edge, the distribution's largest size for
     * the last bin), {@code flows}, {@code p50}, {@code p95}, {@code p99} (slowdowns), and the run's {@code not_completed}
     * flows, {@code not_completed_within_leaf} (of those, source and destination under one leaf), {@code drops}
     * (packets), {@code timeouts} and {@code paused_us} (PFC, summed over ports) on every row of the run.
     */
    public Table runs(List<String> transports, List<Long> seeds) {
        Parameters.noNullElements("transports", transports);
        Parameters.noNullElements("seeds", seeds);
        double largest = FlowSizeDistribution.published(workload).quantileBytes(1.0);
        StringColumn tr = StringColumn.create("transport");
        LongColumn sd = LongColumn.create("seed");
        StringColumn bin = StringColumn.create("bin");
        DoubleColumn to = DoubleColumn.create("to_bytes");
        IntColumn flows = IntColumn.create("flows");
        DoubleColumn p50 = DoubleColumn.create("p50");
        DoubleColumn p95 = DoubleColumn.create("p95");
        DoubleColumn p99 = DoubleColumn.create("p99");
        IntColumn missing = IntColumn.create("not_completed");
        IntColumn missingLeaf = IntColumn.create("not_completed_within_leaf");
        LongColumn drops = LongColumn.create("drops");
        LongColumn timeouts = LongColumn.create("timeouts");
        DoubleColumn paused = DoubleColumn.create("paused_us");
        for (String t : transports) {
            for (long seed : seeds) {
                Result run = runFigures(t, seed);
                FctSlowdown f = run.slowdown();
                for (FctSlowdown.Bin b : f.bins()) {
                    tr.append(t);
                    sd.append(seed);
                    bin.append(b.toBytes() == Long.MAX_VALUE ? String.format(Locale.ROOT, "> %,d", b.fromBytes())
                            : String.format(Locale.ROOT, "(%,d, %,d]", b.fromBytes(), b.toBytes()));
                    to.append(b.toBytes() == Long.MAX_VALUE ? largest : b.toBytes());
                    flows.append(b.flows());
                    if (b.flows() == 0) { // an empty bin has no percentiles: missing, not 0
                        p50.appendMissing();
                        p95.appendMissing();
                        p99.appendMissing();
                    } else {
                        p50.append(b.p50().getAsDouble());
                        p95.append(b.p95().getAsDouble());
                        p99.append(b.p99().getAsDouble());
                    }
                    missing.append(f.notCompleted());
                    missingLeaf.append(run.notCompletedWithinLeaf());
                    drops.append(run.drops());
                    timeouts.append(run.timeouts());
                    paused.append(run.pausedUs());
                }
            }
        }
        return Table.create(workload + " at load " + load + ": FCT slowdown by size bin, per transport and seed", tr, sd,
                bin, to, flows, p50, p95, p99, missing, missingLeaf, drops, timeouts, paused);
    }

    /**
     * The spread over seeds of a {@link #runs} table: one row per transport and bin, the median, least and largest of
     * {@code percentile} ({@code p50}, {@code p95} or {@code p99}) over the seeds, columns {@code transport},
     * {@code bin}, {@code to_bytes}, {@code seeds} (those whose bin holds flows; a bin empty in every seed has no row), {@code median},
     * {@code min}, {@code max}.
     */
    public static Table spread(Table runs, String percentile) {
        Parameters.notNull("runs", runs);
        checkPercentile(percentile);
        StringColumn tr = StringColumn.create("transport");
        StringColumn bin = StringColumn.create("bin");
        DoubleColumn to = DoubleColumn.create("to_bytes");
        IntColumn n = IntColumn.create("seeds");
        DoubleColumn med = DoubleColumn.create("median");
        DoubleColumn min = DoubleColumn.create("min");
        DoubleColumn max = DoubleColumn.create("max");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < runs.rowCount(); i++) {
            String key = runs.stringColumn("transport").get(i) + "\u0000" + runs.stringColumn("bin").get(i);
            if (keys.contains(key)) {
                continue;
            }
            keys.add(key);
            List<Double> v = new ArrayList<>();
            for (int j = 0; j < runs.rowCount(); j++) {
                if (runs.stringColumn("transport").get(j).equals(runs.stringColumn("transport").get(i))
                        && runs.stringColumn("bin").get(j).equals(runs.stringColumn("bin").get(i))
                        && !runs.doubleColumn(percentile).isMissing(j)) { // an empty bin of a seed has no percentile
                    v.add(runs.doubleColumn(percentile).get(j));
                }
            }
            if (v.isEmpty()) {
                continue; // no seed has flows in the bin: no spread of an empty set
            }
            fabriclab.experiments.testbed.Spread over = fabriclab.experiments.testbed.Spread.of(v.stream().mapToDouble(Double::doubleValue).toArray());
            tr.append(runs.stringColumn("transport").get(i));
            bin.append(runs.stringColumn("bin").get(i));
            to.append(runs.doubleColumn("to_bytes").get(i));
            n.append(v.size());
            med.append(over.median());
            min.append(over.min());
            max.append(over.max());
        }
        return Table.create(runs.name() + ": " + percentile + " over seeds", tr, bin, to, n, med, min, max);
    }

    /**
     * HPCC's figure 11 drawn for a {@link #runs} table: x the bins' upper edges (bytes, log scale), y the median over
     * seeds of {@code percentile} (log scale), one series per transport, error bars none (the spread is in
     * {@link #spread}).
     */
    public static XYChart chart(Table runs, String percentile) {
        Table s = spread(runs, percentile);
        XYChart c = fabriclab.notebook.Figures.xy(runs.name().replaceFirst(":.*", "") + ": " + percentile
                + " FCT slowdown (median over seeds)", "flow size, bin's upper edge [bytes]", percentile + " FCT slowdown");
        c.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
        for (String t : s.stringColumn("transport").asList().stream().distinct().toList()) {
            Table one = s.where(s.stringColumn("transport").isEqualTo(t));
            c.addSeries(t, one.doubleColumn("to_bytes").asDoubleArray(), one.doubleColumn("median").asDoubleArray());
        }
        return c;
    }

    /**
     * Per transport and seed of a {@link #runs} table: the flows counted (completed, summed over the bins) and the
     * flows that did not complete (left out of every percentile), columns {@code transport}, {@code seed},
     * {@code completed}, {@code not_completed}, {@code not_completed_within_leaf}, {@code drops}, {@code timeouts},
     * {@code paused_us}.
     */
    public static Table completion(Table runs) {
        Parameters.notNull("runs", runs);
        StringColumn tr = StringColumn.create("transport");
        LongColumn sd = LongColumn.create("seed");
        IntColumn done = IntColumn.create("completed");
        IntColumn missing = IntColumn.create("not_completed");
        IntColumn missingLeaf = IntColumn.create("not_completed_within_leaf");
        LongColumn drops = LongColumn.create("drops");
        LongColumn timeouts = LongColumn.create("timeouts");
        DoubleColumn paused = DoubleColumn.create("paused_us");
        for (int i = 0; i < runs.rowCount(); i++) {
            String t = runs.stringColumn("transport").get(i);
            long seed = runs.longColumn("seed").get(i);
            int last = tr.size() - 1;
            if (last >= 0 && tr.get(last).equals(t) && sd.get(last) == seed) {
                done.set(last, done.get(last) + runs.intColumn("flows").get(i));
            } else {
                tr.append(t);
                sd.append(seed);
                done.append(runs.intColumn("flows").get(i));
                missing.append(runs.intColumn("not_completed").get(i));
                missingLeaf.append(runs.intColumn("not_completed_within_leaf").get(i));
                drops.append(runs.longColumn("drops").get(i));
                timeouts.append(runs.longColumn("timeouts").get(i));
                paused.append(runs.doubleColumn("paused_us").get(i));
            }
        }
        return Table.create(runs.name().replaceFirst(":.*", "") + ": flows completed and losses per run", tr, sd, done, missing,
                missingLeaf, drops, timeouts, paused);
    }

    private static void checkPercentile(String percentile) {
        Parameters.notNull("percentile", percentile);
        if (!List.of("p50", "p95", "p99").contains(percentile)) {
            throw new IllegalArgumentException("percentile must be p50, p95 or p99, got \"" + percentile + "\"");
        }
    }
}
