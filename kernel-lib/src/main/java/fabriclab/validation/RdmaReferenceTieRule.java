package fabriclab.validation;

import fabriclab.simulation.TieOrder;
import fabriclab.Parameters;
import fabriclab.datasets.ComparisonKind;
import fabriclab.datasets.ComparisonRow;
import fabriclab.datasets.Datasets;
import fabriclab.datasets.Target;
import fabriclab.project.ProjectPaths;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Our packet simulator against the RDMA reference with both simulators under one order of simultaneous events, the
 * engines' rule ({@link fabriclab.simulation.TieOrder#CANONICAL}), on the scenarios of {@link RdmaReferenceComparison}: the
 * DCQCN+PFC incasts (N = 4, 8, 16), the PFC victim (DCQCN+PFC and PFC alone), go-back-N after a link goes down and the
 * DCQCN all-to-all (four spines hashed, one spine with either NIC rule).
 *
 * <p>The reference's runs under the rule are the datasets {@code <dataset>-tie-rule} of {@code datasets/published/}
 * ({@link #dataset}): the reference run with a scheduler of ours that applies the rule
 * ({@code tools/rdma-reference/tie_rule_scheduler.cc}), draw seeds 1 to {@value #DRAWS}. Ours runs each scenario with
 * the run's seed 1 to {@value #DRAWS} under the rule (the seed also draws our ECN marks). A draw of the one cannot be
 * matched with a draw of the other event by event (the reference keeps time in ns, ours in ps, so their instants differ):
 * what is compared is where each simulator falls over the draws.
 *
 * <p>Each row of {@link RdmaReferenceComparison} (its quantity, unit, reason and tolerance) is computed once per draw,
 * ours of draw d against the reference's of draw d, and the draws merged ({@link #overDraws}): the target becomes the
 * reference's range over its draws, [smallest, largest] of the per-draw values (for a row whose target is already a
 * range, the all-to-all's range over path choices, the union of the ranges), with the median of the per-draw tolerances
 * beyond either end; ours is the median of our per-draw values. So the tolerance is the reference's own variation over
 * the order of ties, widened by the row's own stated reason, never fitted. A row present in only some draws (the first
 * PAUSE, where the reference pauses in some draws only) is merged over those and says so.
 */
public final class RdmaReferenceTieRule {
    /** Draws on each side: seeds 1 to this. */
    public static final int DRAWS = 5;
    /** Prefix of every merged row's quantity. */
    public static final String PREFIX = "both under one tie rule, draws 1-" + DRAWS + ": ";

    private final Map<Integer, List<SimulationResult>> incasts;
    private final List<SimulationResult> victimDcqcn;
    private final List<SimulationResult> victimPfc;
    private final List<SimulationResult> goBackN;
    private final List<List<SimulationResult>> allToAll;
    private final List<SimulationResult> allToAllControl;
    private final List<SimulationResult> allToAllControlTokenBucket;
    private final SwitchBuffer.MarkingPoint markingPoint;
    private final Path root;

    private RdmaReferenceTieRule(Map<Integer, List<SimulationResult>> incasts, List<SimulationResult> victimDcqcn,
            List<SimulationResult> victimPfc, List<SimulationResult> goBackN, List<List<SimulationResult>> allToAll,
            List<SimulationResult> allToAllControl, List<SimulationResult> allToAllControlTokenBucket,
            SwitchBuffer.MarkingPoint markingPoint, Path root) {
        this.incasts = incasts;
        this.victimDcqcn = victimDcqcn;
        this.victimPfc = victimPfc;
        this.goBackN = goBackN;
        this.allToAll = allToAll;
        this.allToAllControl = allToAllControl;
        this.allToAllControlTokenBucket = allToAllControlTokenBucket;
        this.markingPoint = markingPoint;
        this.root = root;
    }

    /** The name of the reference's runs of dataset {@code name} under the rule: {@code name + "-tie-rule"}. */
    public static String dataset(String name) {
        return Parameters.notBlank("name", name) + "-tie-rule";
    }

    /** As {@link #run(Path, SwitchBuffer.MarkingPoint)} with the project's {@code datasets/}, marking at enqueue (ours). */
    public static RdmaReferenceTieRule run() {
        return run(ProjectPaths.datasets(), SwitchBuffer.MarkingPoint.ENQUEUE);
    }

    /** As {@link #run(Path, SwitchBuffer.MarkingPoint)} with the project's {@code datasets/}. */
    public static RdmaReferenceTieRule run(SwitchBuffer.MarkingPoint markingPoint) {
        return run(ProjectPaths.datasets(), markingPoint);
    }

    /**
     * Runs ours under the rule on every scenario with the run's seeds 1 to {@value #DRAWS} (the hashed all-to-all: ECMP
     * seeds 1 to {@value RdmaReferenceComparison#ALL_TO_ALL_RUNS} under each seed): 5 x (3 + 2 + 1 + 12) = 90 runs.
     *
     * @param root the datasets directory holding {@code published/} with the reference's runs under the rule
     * @param markingPoint where our switches decide ECN marks (the reference: {@code DEQUEUE})
     */
    public static RdmaReferenceTieRule run(Path root, SwitchBuffer.MarkingPoint markingPoint) {
        Parameters.notNull("root", root);
        Parameters.notNull("markingPoint", markingPoint);
        Map<Integer, List<SimulationResult>> incasts = new LinkedHashMap<>();
        for (int n : RdmaReferenceComparison.INCAST_SENDERS) {
            incasts.put(n, runs(new RdmaReferenceIncast(n).scenario(markingPoint)));
        }
        List<List<SimulationResult>> allToAll = new ArrayList<>();
        for (int d = 1; d <= DRAWS; d++) {
            List<SimulationResult> hashed = new ArrayList<>();
            for (int seed = 1; seed <= RdmaReferenceComparison.ALL_TO_ALL_RUNS; seed++) {
                hashed.add(underRule(new RdmaReferenceAllToAll(RdmaReferenceComparison.ALL_TO_ALL_SPINES, seed)
                        .scenario(markingPoint), d));
            }
            allToAll.add(List.copyOf(hashed));
        }
        return new RdmaReferenceTieRule(incasts, runs(new RdmaReferencePfcVictim(true).scenario(markingPoint)),
                runs(new RdmaReferencePfcVictim(false).scenario(markingPoint)), runs(new RdmaReferenceGoBackN().scenario()),
                List.copyOf(allToAll), runs(new RdmaReferenceAllToAll(1, 1).scenario(markingPoint)),
                runs(new RdmaReferenceAllToAll(1, 1).scenario(markingPoint, RoceTransport.TokenBucket.reference())),
                markingPoint, root);
    }

    /** {@code scenario} run by the sequential engine under the rule with the run's seed {@code seed}. */
    static SimulationResult underRule(Scenario scenario, long seed) {
        return new Simulator(scenario.withSeed(seed).withTieOrder(TieOrder.CANONICAL)).run();
    }

    private static List<SimulationResult> runs(Scenario scenario) {
        List<SimulationResult> out = new ArrayList<>();
        for (int d = 1; d <= DRAWS; d++) {
            out.add(underRule(scenario, d));
        }
        return List.copyOf(out);
    }

    /** Where our switches decided ECN marks in these runs. */
    public SwitchBuffer.MarkingPoint markingPoint() {
        return markingPoint;
    }

    /**
     * The reference's run with draw seed {@code seed} out of its runs under the rule: the rows of that seed, without the
     * {@code tie_seed} column (the shape of the dataset run in the reference's own order).
     *
     * @param tieRule a {@code -tie-rule} dataset's table (its second column {@code tie_seed})
     * @param seed a draw seed, 1 to {@value #DRAWS}
     */
    public static Table referenceRun(Table tieRule, int seed) {
        Parameters.notNull("tieRule", tieRule);
        Parameters.inRange("seed", seed, 1, DRAWS);
        if (!tieRule.columnNames().contains("tie_seed")) {
            throw new IllegalArgumentException("tieRule must be a -tie-rule dataset (a tie_seed column), got columns "
                    + tieRule.columnNames());
        }
        Table t = tieRule.where(((IntColumn) tieRule.column("tie_seed")).isEqualTo(seed));
        if (t.rowCount() == 0) {
            throw new IllegalArgumentException("tieRule holds no run with tie_seed " + seed);
        }
        return t.removeColumns("tie_seed");
    }

    /** Every merged row: the incasts, the victim with DCQCN+PFC and with PFC alone, go-back-N, the all-to-all. */
    public List<ComparisonRow> rows() {
        List<List<ComparisonRow>> perDraw = new ArrayList<>();
        Table incast = Datasets.load(root, dataset(RdmaReferenceComparison.INCAST_DATASET)).table();
        Table victim = Datasets.load(root, dataset(RdmaReferenceComparison.VICTIM_DATASET)).table();
        Table gbn = Datasets.load(root, dataset(RdmaReferenceComparison.GO_BACK_N_DATASET)).table();
        Table a2a = Datasets.load(root, dataset(RdmaReferenceComparison.ALL_TO_ALL_DATASET)).table();
        for (int d = 1; d <= DRAWS; d++) {
            List<ComparisonRow> rows = new ArrayList<>();
            Table incastRun = referenceRun(incast, d);
            for (int n : RdmaReferenceComparison.INCAST_SENDERS) {
                rows.addAll(RdmaReferenceComparison.incastRows(n, incasts.get(n).get(d - 1), incastRun, markingPoint));
            }
            Table victimRun = referenceRun(victim, d);
            rows.addAll(RdmaReferenceComparison.victimRows(true, victimDcqcn.get(d - 1), victimRun, markingPoint));
            rows.addAll(RdmaReferenceComparison.victimRows(false, victimPfc.get(d - 1), victimRun, markingPoint));
            rows.addAll(RdmaReferenceComparison.goBackNRows(goBackN.get(d - 1), referenceRun(gbn, d)));
            Table a2aRun = referenceRun(a2a, d);
            rows.addAll(RdmaReferenceComparison.allToAllRows(allToAll.get(d - 1), allToAllControl.get(d - 1), a2aRun,
                    markingPoint));
            rows.addAll(RdmaReferenceComparison.allToAllTokenBucketRows(allToAllControlTokenBucket.get(d - 1), a2aRun));
            perDraw.add(rows);
        }
        return overDraws(perDraw);
    }

    /**
     * Merges the rows of several draws, matched by quantity, in the order of their first appearance: the target the
     * range of the per-draw targets ([smallest published, largest published high]; a point where they all agree) with
     * the median of the per-draw tolerances, ours the median of the per-draw values (the mean of the middle two for an
     * even count; a negative value, ours' "none" of a first PAUSE, ranks above every value, and a median of none is -1),
     * the note the draws share (where they differ, the mechanism a draw's note names, or none); the quantity prefixed
     * with {@link #PREFIX} and, where the row is missing from some draws, suffixed with the count of draws that have it.
     *
     * @param perDraw each draw's rows, at least one draw; every row a validation row
     */
    public static List<ComparisonRow> overDraws(List<List<ComparisonRow>> perDraw) {
        Parameters.notNull("perDraw", perDraw);
        if (perDraw.isEmpty()) {
            throw new IllegalArgumentException("perDraw must hold at least one draw's rows, got none");
        }
        Map<String, List<ComparisonRow>> byQuantity = new LinkedHashMap<>();
        for (int d = 0; d < perDraw.size(); d++) {
            List<ComparisonRow> rows = perDraw.get(d);
            if (rows == null) {
                throw new IllegalArgumentException("perDraw[" + d + "] must hold a draw's rows, got null");
            }
            for (ComparisonRow r : rows) {
                if (r == null || r.kind() != ComparisonKind.VALIDATION) {
                    throw new IllegalArgumentException("perDraw[" + d + "] must hold validation rows, got "
                            + (r == null ? "null" : r.kind() + " row \"" + r.quantity() + "\""));
                }
                List<ComparisonRow> same = byQuantity.computeIfAbsent(r.quantity(), q -> new ArrayList<>());
                if (same.size() > d) {
                    throw new IllegalArgumentException("perDraw[" + d + "] holds \"" + r.quantity() + "\" twice");
                }
                same.add(r);
            }
        }
        List<ComparisonRow> out = new ArrayList<>();
        for (Map.Entry<String, List<ComparisonRow>> e : byQuantity.entrySet()) {
            out.add(merge(e.getKey(), e.getValue(), perDraw.size()));
        }
        return out;
    }

    private static ComparisonRow merge(String quantity, List<ComparisonRow> rows, int draws) {
        ComparisonRow first = rows.get(0);
        double low = rows.stream().mapToDouble(r -> r.target().published()).min().orElseThrow();
        double high = rows.stream().mapToDouble(r -> r.target().publishedHigh()).max().orElseThrow();
        double tolerance = RdmaReferenceComparison.median(rows.stream().mapToDouble(r -> r.target().tolerance()).toArray());
        Target target = high > low ? new Target.Band(low, high, tolerance) : Target.point(low, tolerance);
        double ours = medianOrNone(rows.stream().mapToDouble(ComparisonRow::model).toArray());
        String note = mergedNote(rows);
        String present = rows.size() == draws ? "" : " (in " + rows.size() + " of " + draws + " draws)";
        String reason = "the reference's range over its draws under the rule, and beyond it "
                + (first.toleranceReason().isBlank() ? first.toleranceReasonOrDefault() : first.toleranceReason());
        return new ComparisonRow(first.source(), PREFIX + quantity + present, first.unit(), ComparisonKind.VALIDATION,
                first.basis(), true, target, ours, note, "", Double.NaN, reason);
    }

    /**
     * The note of merged rows: the draws' note where every draw has the same; otherwise the mechanism the first draw's
     * note names (its text from "mechanism" on), or none: a note that differs between draws states one draw's figures.
     */
    private static String mergedNote(List<ComparisonRow> rows) {
        String first = rows.get(0).note();
        if (rows.stream().allMatch(r -> r.note().equals(first))) {
            return first;
        }
        String named = rows.stream().map(ComparisonRow::note).filter(n -> n.contains("mechanism")).findFirst().orElse("");
        return named.isEmpty() ? "" : named.substring(named.indexOf("mechanism"));
    }

    /**
     * The median of {@code v} where a negative value stands for none (ours' first PAUSE where ours sent none), ranked
     * above every value: -1 when the median is none, the mean of the middle two values when both are values.
     */
    private static double medianOrNone(double[] v) {
        double m = RdmaReferenceComparison.median(Arrays.stream(v).map(x -> x < 0 ? Double.POSITIVE_INFINITY : x).toArray());
        return Double.isInfinite(m) ? -1 : m;
    }


    /**
     * The merged rows as a reader checks them, one table per scenario (the incasts, the PFC victim, go-back-N, the
     * all-to-all): columns {@code quantity}, {@code unit}, {@code reference_low} and {@code reference_high} (the
     * reference's range over its draws), {@code ours} (median over our draws), {@code tolerance} (relative, beyond either
     * end), {@code result} (pass or miss), {@code note}; each named by its scenario and how many of its rows pass.
     */
    public List<Table> summaries() {
        String[][] parts = {{"-to-1 DCQCN+PFC incast", "DCQCN+PFC N-to-1 incasts"}, {"PFC victim", "PFC propagation with a victim"},
                {"go-back-N", "go-back-N after a link goes down"}, {"all-to-all", "DCQCN all-to-all on a leaf-spine"}};
        List<ComparisonRow> all = rows();
        List<Table> out = new ArrayList<>();
        for (String[] p : parts) {
            StringColumn quantity = StringColumn.create("quantity");
            StringColumn unit = StringColumn.create("unit");
            DoubleColumn low = DoubleColumn.create("reference_low");
            DoubleColumn high = DoubleColumn.create("reference_high");
            DoubleColumn ours = DoubleColumn.create("ours");
            DoubleColumn tolerance = DoubleColumn.create("tolerance");
            StringColumn result = StringColumn.create("result");
            StringColumn note = StringColumn.create("note");
            int pass = 0;
            for (ComparisonRow r : all) {
                if (!r.quantity().contains(p[0])) {
                    continue;
                }
                quantity.append(r.quantity().substring(PREFIX.length()));
                unit.append(r.unit());
                low.append(round(r.target().published()));
                high.append(round(r.target().publishedHigh()));
                ours.append(round(r.model()));
                tolerance.append(Math.round(r.target().tolerance() * 1000) / 1000.0);
                result.append(r.meetsTarget() ? "pass" : "miss");
                pass += r.meetsTarget() ? 1 : 0;
                note.append(r.note());
            }
            out.add(Table.create(String.format(Locale.ROOT, "RDMA reference, both under one tie rule (draws 1-%d), %s%s: %d of %d"
                    + " rows pass", DRAWS, p[1], markingPoint == SwitchBuffer.MarkingPoint.DEQUEUE
                    ? ", ours marking at dequeue as the reference does" : "", pass, quantity.size()),
                    quantity, unit, low, high, ours, tolerance, result, note));
        }
        return out;
    }

    /** Four significant digits (a value of 0 stays 0). */
    private static double round(double v) {
        if (v == 0) {
            return 0;
        }
        double scale = Math.pow(10, 3 - Math.floor(Math.log10(Math.abs(v))));
        return Math.round(v * scale) / scale;
    }
}
