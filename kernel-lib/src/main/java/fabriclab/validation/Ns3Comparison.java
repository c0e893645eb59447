package fabriclab.validation;

import fabriclab.Parameters;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Datasets;
import fabriclab.datasets.Target;
import fabriclab.notebook.PaperComparison;
import fabriclab.project.ProjectPaths;
import java.nio.file.Path;
import java.util.Locale;
import tech.tablesaw.api.Table;
import tech.tablesaw.api.NumericColumn;

/**
 * Our packet simulator against the committed outputs of ns-3 3.37 (the published datasets of {@link Ns3Scenarios}):
 * runs every scenario of those datasets in ours and adds one validation row per compared figure to a
 * {@link PaperComparison}, with the tolerance and its reason.
 *
 * <p>Tolerances (derived in {@code Ns3DifferentialTest} and {@code Ns3EcnDifferentialTest}):
 * <ul>
 * <li>drop-tail incast, ns-3 with our order of simultaneous events: drops, peak occupancy, last delivery exact (both
 * runs deterministic, the admission rule, accounting and timing the same);
 * <li>the same with ns-3's own order: drops within one packet and peak within one packet ({@value Ns3Scenarios#WIRE_BYTES}
 * B), the order of a departure and a batch of arrivals at one instant mattering once, when the buffer first fills;
 * <li>RED at a held queue: ours marks by independent draws at the curve's p, ns-3 with RED's count-based spacing
 * ({@link RedSpacing}); ns-3's fraction is mapped back to the p_b it implies and compared with ours within 4.5
 * combined standard deviations (ours binomial, sqrt(p (1 - p) / L); ns-3's renewal count sqrt(L Var[G] / E[G]^3)
 * through the slope of 1 / E[G]);
 * <li>step marking: marked packets exact (no randomness on either side);
 * <li>leaf-spine permutation with one spine (the same paths): the sorted completion times exact; with four spines
 * (ours CRC-32 ECMP, ns-3 a random spine per flow: the same distribution, not the same choices) the mean over seeds
 * of each seed's mean and largest completion time within {@value #STANDARD_ERRORS} standard errors of the difference
 * (each side's spread over seeds).
 * </ul>
 */
public final class Ns3Comparison {
    /** The outside reference of the drop-tail rows. */
    public static final String INCAST_REFERENCE = "ns-3 3.37 (Debian libns3-dev), kernel-lib/src/test/ns3/fabriclab-incast.cc";
    /** The outside reference of the leaf-spine rows. */
    public static final String LEAFSPINE_REFERENCE = "ns-3 3.37 (Debian libns3-dev), kernel-lib/src/test/ns3/fabriclab-leafspine.cc";
    /** Standard errors allowed between the two sides' means over seeds (four spines). */
    public static final double STANDARD_ERRORS = 4;
    /** The outside reference of the ECN rows. */
    public static final String RED_REFERENCE = "ns-3 3.37 (Debian libns3-dev) RedQueueDisc, kernel-lib/src/test/ns3/fabriclab-red.cc";
    /** Standard deviations allowed between the two marking fractions. */
    public static final double SIGMAS = 4.5;
    /** Seed of our ECN draws in the held-queue runs. */
    public static final long SEED = 1;

    private Ns3Comparison() {
    }

    /** Adds the rows, reading the ns-3 datasets from the project's {@code datasets/}; returns {@code cmp}. */
    public static PaperComparison addTo(PaperComparison cmp) {
        return addTo(cmp, ProjectPaths.datasets());
    }

    /**
     * Adds one validation row per compared figure of every ns-3 dataset row (the scenario found among
     * {@link Ns3Scenarios}' cases by its parameters and run in ours), reading the datasets from {@code root};
     * returns {@code cmp}.
     *
     * @throws IllegalStateException when a dataset row matches none of {@link Ns3Scenarios}' cases
     */
    public static PaperComparison addTo(PaperComparison cmp, Path root) {
        Parameters.notNull("cmp", cmp);
        Parameters.notNull("root", root);
        incastRows(cmp, Datasets.load(root, Ns3Scenarios.INCAST_DATASET));
        heldRows(cmp, Datasets.load(root, Ns3Scenarios.HELD_QUEUE_DATASET));
        stepRows(cmp, Datasets.load(root, Ns3Scenarios.STEP_DATASET));
        permutationRows(cmp, Datasets.load(root, Ns3Scenarios.PERMUTATION_DATASET));
        return cmp;
    }

    private static void incastRows(PaperComparison cmp, Dataset d) {
        Table t = d.table();
        for (int i = 0; i < t.rowCount(); i++) {
            Ns3Scenarios.DropTailIncast c = new Ns3Scenarios.DropTailIncast((int) num(t, "senders", i),
                    (long) num(t, "bytes_per_sender", i), (long) num(t, "rate_bps", i), (long) num(t, "delay_ps", i),
                    (long) num(t, "buffer_bytes", i));
            if (!Ns3Scenarios.INCASTS.contains(c)) {
                throw new IllegalStateException(d.provenance().name() + " row " + (i + 1) + ": no such incast in Ns3Scenarios.INCASTS: " + c);
            }
            int tie = (int) num(t, "tie_order", i);
            Ns3Scenarios.IncastFigures ours = c.runOurs(tie == 2); // tie order 2: both under the engines' rule
            String what = String.format(Locale.ROOT, "drop-tail incast %d x %d kB into %d kB at %d Gb/s", c.senders(),
                    c.bytesPerSender() / 1000, c.bufferBytes() / 1000, c.rateBitsPerSecond() / 1_000_000_000L);
            double drops = num(t, "drops", i);
            double peak = num(t, "peak_bytes", i);
            double lastUs = num(t, "last_delivery_ps", i) / 1e6;
            if (tie == 2) {
                exactRows(cmp, what, ", both under the engines' order of simultaneous events", ours, drops, peak, lastUs,
                        "ns-3 run under our rule (CanonicalOrder, seed 1) by a scheduler of ours; ours in"
                                + " TieOrder.CANONICAL",
                        "deterministic, same rules and the same order of simultaneous events: exact");
            } else if (tie == 1) {
                exactRows(cmp, what, "", ours, drops, peak, lastUs, "same order of simultaneous events as ours",
                        "deterministic, same rules: exact");
            } else {
                double dropTol = drops == 0 ? 1 : Math.min(1, 1 / drops);
                cmp.validation(INCAST_REFERENCE, what + ": drops, ns-3's own order of simultaneous events", "packets",
                        Target.point(drops, dropTol), ours.drops(),
                        "ns-3 runs arrivals before a departure at the same instant, ours the departure first")
                        .tolerance(dropTol, "one packet: the order matters once, when the buffer first fills");
                double peakTol = Math.min(1, Ns3Scenarios.WIRE_BYTES / peak);
                cmp.validation(INCAST_REFERENCE, what + ": peak occupancy, ns-3's own order", "kB",
                        Target.point(peak / 1000, peakTol), ours.peakBytes() / 1000.0, "")
                        .tolerance(peakTol, "one packet: the order matters once, when the buffer first fills");
            }
        }
    }

    /**
     * The three figures of an incast compared exactly (drops, peak port occupancy, last delivery), each quantity
     * named {@code what} + its figure + {@code order}.
     */
    private static void exactRows(PaperComparison cmp, String what, String order, Ns3Scenarios.IncastFigures ours,
            double drops, double peakBytes, double lastUs, String dropsNote, String tolerance) {
        cmp.validation(INCAST_REFERENCE, what + ": drops" + order, "packets", Target.point(drops, 0), ours.drops(), dropsNote)
                .tolerance(0, tolerance);
        cmp.validation(INCAST_REFERENCE, what + ": peak port occupancy" + order, "kB", Target.point(peakBytes / 1000, 0),
                ours.peakBytes() / 1000.0, "counted our way on both sides (admitted minus fully transmitted)")
                .tolerance(0, tolerance);
        cmp.validation(INCAST_REFERENCE, what + ": last delivery" + order, "us", Target.point(lastUs, 0),
                ours.lastDeliveryPs() / 1e6, "").tolerance(0, tolerance);
    }

    private static void heldRows(PaperComparison cmp, Dataset d) {
        Table t = d.table();
        for (int i = 0; i < t.rowCount(); i++) {
            Ns3Scenarios.HeldQueue c = new Ns3Scenarios.HeldQueue((long) num(t, "kmin_bytes", i),
                    (long) num(t, "kmax_bytes", i), num(t, "pmax", i));
            if (!Ns3Scenarios.HELD_QUEUES.contains(c)) {
                throw new IllegalStateException(d.provenance().name() + " row " + (i + 1) + ": no such held queue in Ns3Scenarios.HELD_QUEUES: " + c);
            }
            double held = num(t, "held_packets", i);
            double ns3Fraction = num(t, "marked_packets", i) / held;
            Ns3Scenarios.HeldQueueFigures ours = c.runOurs(SEED);
            double oursFraction = ours.markedPackets() / (double) ours.deliveredPackets();
            double p = c.curveProbability();
            double implied = RedSpacing.impliedProbability(ns3Fraction);
            double oursSigma = Math.sqrt(p * (1 - p) / held);
            double countSigma = Math.sqrt(held * RedSpacing.gapVariance(p) / Math.pow(RedSpacing.meanGap(p), 3));
            double slope = (RedSpacing.markingFraction(p * 1.001) - RedSpacing.markingFraction(p * 0.999)) / (0.002 * p);
            double ns3Sigma = countSigma / held / slope;
            double tol = Math.min(1, SIGMAS * Math.hypot(oursSigma, ns3Sigma) / implied);
            String what = String.format(Locale.ROOT, "RED at a queue held at 41 kB (Kmin %d kB, Kmax %d kB, Pmax %s):"
                    + " marking probability", c.kMinBytes() / 1000, c.kMaxBytes() / 1000, fmt(c.pMax()));
            cmp.validation(RED_REFERENCE, what, "", Target.point(implied, tol), oursFraction, String.format(Locale.ROOT,
                    "curve p = %.4f; ns-3 marked %.4f of the packets (RED's spacing: 1/E[G] = %.4f on the curve), which"
                            + " implies p_b = %.4f; ours: independent draws, seed %d", p, ns3Fraction,
                    RedSpacing.markingFraction(p), implied, SEED))
                    .tolerance(tol, "4.5 combined standard deviations (binomial draws; RED's renewal count)");
        }
    }

    private static void stepRows(PaperComparison cmp, Dataset d) {
        Table t = d.table();
        for (int i = 0; i < t.rowCount(); i++) {
            Ns3Scenarios.DropTailIncast in = new Ns3Scenarios.DropTailIncast((int) num(t, "senders", i),
                    (long) num(t, "bytes_per_sender", i), (long) num(t, "rate_bps", i), (long) num(t, "delay_ps", i),
                    (long) num(t, "buffer_bytes", i));
            Ns3Scenarios.StepMarking c = new Ns3Scenarios.StepMarking(in, (long) num(t, "threshold_bytes", i));
            if (!Ns3Scenarios.STEPS.contains(c)) {
                throw new IllegalStateException(d.provenance().name() + " row " + (i + 1) + ": no such step in Ns3Scenarios.STEPS: " + c);
            }
            Ns3Scenarios.StepFigures ours = c.runOurs();
            String what = String.format(Locale.ROOT, "step marking at %d kB, incast %d x %d kB: marked packets",
                    c.thresholdBytes() / 1000, in.senders(), in.bytesPerSender() / 1000);
            cmp.validation(RED_REFERENCE, what, "packets", Target.point(num(t, "marked_packets", i), 0), ours.markedPackets(),
                    "every admitted packet that finds more than K bytes is marked").tolerance(0, "no randomness on either side: exact");
        }
    }

    private static void permutationRows(PaperComparison cmp, Dataset d) {
        Table t = d.table();
        java.util.Map<Ns3Scenarios.LeafSpinePermutation, java.util.List<Long>> ns3 = new java.util.LinkedHashMap<>();
        for (int i = 0; i < t.rowCount(); i++) {
            Ns3Scenarios.LeafSpinePermutation c = new Ns3Scenarios.LeafSpinePermutation((int) num(t, "spines", i),
                    (long) num(t, "seed", i));
            if (!Ns3Scenarios.PERMUTATIONS.contains(c)) {
                throw new IllegalStateException(d.provenance().name() + " row " + (i + 1) + ": no such permutation in Ns3Scenarios.PERMUTATIONS: " + c);
            }
            ns3.computeIfAbsent(c, k -> new java.util.ArrayList<>()).add((long) num(t, "fct_ps", i));
        }
        java.util.List<double[]> spread = new java.util.ArrayList<>(); // per seed of the multi-spine runs: ours mean, max; ns-3 mean, max
        int spines = 0;
        for (var e : ns3.entrySet()) {
            long[] ours = e.getKey().runOurs();
            long[] theirs = e.getValue().stream().mapToLong(Long::longValue).toArray();
            if (e.getKey().spines() == 1) {
                long[] a = ours.clone();
                long[] b = theirs.clone();
                java.util.Arrays.sort(a);
                java.util.Arrays.sort(b);
                long worst = a.length == b.length ? 0 : Long.MAX_VALUE / 2;
                for (int i = 0; i < Math.min(a.length, b.length); i++) {
                    worst = Math.max(worst, Math.abs(a[i] - b[i]));
                }
                cmp.validation(LEAFSPINE_REFERENCE, "leaf-spine permutation, 1 spine, seed " + e.getKey().seed()
                        + ": largest difference of the sorted completion times", "us", Target.point(0, 0), worst / 1e6,
                        String.format(Locale.ROOT, "the same paths; ns-3's completion times %.2f to %.2f us",
                                b[0] / 1e6, b[b.length - 1] / 1e6))
                        .tolerance(0, "the same paths and rules: exact");
            } else {
                spines = e.getKey().spines();
                spread.add(new double[] {mean(ours), max(ours), mean(theirs), max(theirs)});
            }
        }
        if (spread.isEmpty()) {
            return;
        }
        String[] what = {"mean", "largest"};
        for (int q = 0; q < 2; q++) {
            double[] o = new double[spread.size()];
            double[] n = new double[spread.size()];
            for (int i = 0; i < o.length; i++) {
                o[i] = spread.get(i)[q] / 1e6;
                n[i] = spread.get(i)[2 + q] / 1e6;
            }
            double se = Math.sqrt((variance(o) + variance(n)) / o.length);
            double theirs = average(n);
            double tol = Math.min(1, STANDARD_ERRORS * se / theirs);
            cmp.validation(LEAFSPINE_REFERENCE, String.format(Locale.ROOT,
                    "leaf-spine permutation, %d spines, %d seeds: %s completion time of a seed, averaged over the seeds",
                    spines, o.length, what[q]), "us", Target.point(theirs, tol), average(o), String.format(Locale.ROOT,
                    "ours CRC-32 ECMP, ns-3 a random spine per flow: the same distribution, not the same paths;"
                            + " sd over seeds ours %.3f us, ns-3 %.3f us", Math.sqrt(variance(o)), Math.sqrt(variance(n))))
                    .tolerance(tol, "4 standard errors of the difference of the two means over seeds");
        }
    }

    private static double mean(long[] v) {
        return java.util.Arrays.stream(v).average().orElse(0);
    }

    private static double max(long[] v) {
        return java.util.Arrays.stream(v).max().orElse(0);
    }

    private static double average(double[] v) {
        return java.util.Arrays.stream(v).average().orElse(0);
    }

    private static double variance(double[] v) {
        if (v.length < 2) {
            return 0;
        }
        double m = average(v);
        return java.util.Arrays.stream(v).map(x -> (x - m) * (x - m)).sum() / (v.length - 1);
    }

    /**
     * The rows of {@code cmp} as a reader checks them: {@code reference}, {@code quantity}, {@code unit},
     * {@code outside} (the reference's value; a band's low end), {@code ours}, {@code tolerance} (relative, or absolute
     * in the row's unit when the outside value is 0), {@code result} ({@code pass} or {@code miss}) and {@code note}
     * (for a miss, the mechanism).
     */
    public static Table summary(PaperComparison cmp) {
        Parameters.notNull("cmp", cmp);
        tech.tablesaw.api.StringColumn ref = tech.tablesaw.api.StringColumn.create("reference");
        tech.tablesaw.api.StringColumn q = tech.tablesaw.api.StringColumn.create("quantity");
        tech.tablesaw.api.StringColumn unit = tech.tablesaw.api.StringColumn.create("unit");
        tech.tablesaw.api.DoubleColumn outside = tech.tablesaw.api.DoubleColumn.create("outside");
        tech.tablesaw.api.DoubleColumn ours = tech.tablesaw.api.DoubleColumn.create("ours");
        tech.tablesaw.api.DoubleColumn tol = tech.tablesaw.api.DoubleColumn.create("tolerance");
        tech.tablesaw.api.StringColumn result = tech.tablesaw.api.StringColumn.create("result");
        tech.tablesaw.api.StringColumn note = tech.tablesaw.api.StringColumn.create("note");
        int pass = 0;
        for (fabriclab.datasets.ComparisonRow r : cmp.rows()) {
            ref.append(r.source());
            q.append(r.quantity());
            unit.append(r.unit());
            outside.append(r.target().published());
            ours.append(r.model());
            tol.append(r.target().tolerance());
            result.append(r.meetsTarget() ? "pass" : "miss");
            pass += r.meetsTarget() ? 1 : 0;
            note.append(r.note());
        }
        return Table.create("checked from outside: " + pass + " of " + cmp.rows().size() + " rows pass", ref, q, unit,
                outside, ours, tol, result, note);
    }

    private static double num(Table t, String column, int row) {
        return ((NumericColumn<?>) t.column(column)).getDouble(row);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%s", v);
    }
}
