package fabriclab.datasets;

import fabriclab.Parameters;
import fabriclab.project.ProjectPaths;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.numbers.NumberColumnFormatter;

/**
 * The scorecard: every paper-vs-model row the notebooks saved (model datasets named {@code comparison-*},
 * each notebook's closing table) gathered into one table, plus the coverage of the published datasets.
 * It reads results and recomputes nothing, so it is only as fresh as the last run of each notebook.
 *
 * <p>Only canonical {@linkplain ComparisonKind#PREDICTION predictions} are counted
 * ({@link #predictions(Path)}); calibrated, definition, validation, what-if and superseded rows are listed
 * beside them and never counted. A row meets its target as {@link Target} defines it (a point within its
 * tolerance, a bound on the right side, a band, an unsigned magnitude).
 *
 * <p><b>The hit rule.</b> A counted prediction meets the paper only when its whole {@link SeedRange} (its value on
 * every seed, and on every value of an unstated setting where it has such an axis: {@link SeedRanges}) meets the
 * target, that is when at least the share {@link #HIT_SHARE} (all) of those values do; the median the row reports
 * is not enough. A prediction without a known range does not meet the paper.
 *
 * <p><b>How a value was obtained.</b> A row whose value was chosen so that it matches
 * ({@link Calibrations.Origin#FITTED}) is counted as calibrated, whatever kind its notebook gave it; a row
 * computed at a setting fitted to another number keeps its kind and the card names that fit.
 *
 * <p>{@link #summary(Path)} counts physical quantities, not rows: rows of one comparison that restate one
 * quantity ({@link ComparisonRow#sameQuantityAs()}) count once, and meet the paper only when every one of
 * them meets its target; superseded rows of one published quantity count once over all comparisons, with the
 * restatements the canonical rows declare. A canonical prediction whose target the model's construction value already
 * meets ({@link ComparisonRow#trivial()}) is counted apart from the others.
 *
 * <p>{@link #problems(Path)} lists what would make the card flatter than the notebooks: a published
 * quantity (source and quantity) with no canonical row or with two, a superseded row whose canonical
 * row is not in the comparison it names, rows of one quantity that state its target differently, or a
 * restating row whose named quantity has no row of the same source, kind and basis in its comparison.
 *
 * <p>A comparison dataset needs the columns source, quantity, unit, kind, basis, canonical, target,
 * published, published_high, tolerance, model and note; same_quantity_as, trivial_value and
 * tolerance_reason are read when present and otherwise taken as "", none and "".
 */
public final class Scorecard {
    /** Prefix of the comparison datasets. */
    public static final String PREFIX = "comparison-";

    private static final Pattern SEED_FILE = Pattern.compile("(\\d{3})_[0-9a-f]+\\.txt");

    private Scorecard() {
    }

    /**
     * One saved comparison row and the comparison it was saved in.
     *
     * @param comparison the dataset name without {@link #PREFIX} ("07-packet-sim")
     * @param row the row
     */
    public record Entry(String comparison, ComparisonRow row) {
        /** Validates: comparison not blank, row not null. */
        public Entry {
            Parameters.notBlank("comparison", comparison);
            Parameters.notNull("row", row);
        }
    }

    /**
     * Every row of every comparison under {@code root}, in dataset then row order.
     *
     * @param root a datasets directory (with published/ and model/)
     * @throws IllegalStateException naming the file and row when a row lacks a column, has an unknown kind
     *     or target form, or breaks a rule of {@link ComparisonRow}
     */
    public static List<Entry> entries(Path root) {
        Parameters.notNull("root", root);
        List<Entry> out = new ArrayList<>();
        for (String name : comparisonNames(root)) {
            Table t = Datasets.load(root, name).table();
            int i = 0;
            for (Row r : t) {
                i++;
                try {
                    out.add(new Entry(name.substring(PREFIX.length()), read(r)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException(root.resolve("model").resolve(name + ".csv") + ", row " + i
                            + ": " + e.getMessage(), e);
                }
            }
        }
        return out;
    }

    /** The whole card of the project's {@code datasets/}: see {@link #gather(Path)}. */
    public static Table gather() {
        return gather(ProjectPaths.datasets());
    }

    /**
     * Every comparison row under {@code root}, the kinds apart: sorted by kind (predictions first), then
     * comparison, then row order. Columns: source (the seed's number, e.g. "001", or the outside
     * reference), notebook, quantity, unit, kind, basis, canonical, counted ({@link #counted}), target (in words),
     * model, relative_difference, meets_target (the reported value), reason (the notebook's note), same_quantity_as,
     * trivial_value (missing for none), trivial (yes/no), tolerance_reason, origin (how the value was obtained:
     * {@link Calibrations.Origin#label()}) and fitted_to (the fit it was chosen for or rests on, "" for none). The model and trivial_value columns print
     * with at most four decimals, relative_difference with three; their values are not rounded.
     */
    public static Table gather(Path root) {
        return toTable("scorecard: every comparison row, by kind", sortedByKind(entries(root)));
    }

    /**
     * Share of a prediction's seed values (and values over an unstated setting) that must meet the target for the
     * prediction to meet the paper: all of them. With five seeds any lower share lets the median decide again
     * (three of five is the median itself), and a published number that one seed of five reproduces is not
     * reproduced by the model but by a draw of its hash.
     */
    public static final double HIT_SHARE = 1.0;

    /** Whether the card counts {@code e}: a canonical prediction whose value was not fitted to match. */
    public static boolean counted(Entry e) {
        return e.row().counted() && Calibrations.origin(e) != Calibrations.Origin.FITTED;
    }

    /**
     * Whether {@code e} meets the paper by the hit rule: for a {@linkplain #counted counted} row, its seed range
     * (from {@code ranges}) meets the target at the share {@link #HIT_SHARE}, and it has one; for any other row, its
     * value meets the target.
     */
    public static boolean meetsPaper(Entry e, Function<Entry, Optional<SeedRange>> ranges) {
        if (!counted(e)) {
            return e.row().meetsTarget();
        }
        return ranges.apply(e).map(s -> s.meets(e.row().target(), HIT_SHARE)).orElse(false);
    }

    /** The counted rows of the project's {@code datasets/}: see {@link #predictions(Path)}. */
    public static Table predictions() {
        return predictions(ProjectPaths.datasets());
    }

    /**
     * The rows the headline count is over: canonical predictions not fitted to match, the columns of
     * {@link #gather(Path)} and then, per row, its seed range against the target: seed_min, seed_max, seeds (values
     * in the range), seeds_inside, share_inside, meets_median (the reported value meets the target: the former rule)
     * and meets_paper (the hit rule), with seed_basis saying what the values are ("none known" without a range).
     */
    public static Table predictions(Path root) {
        return predictions(root, SeedRanges.fromDatasets(root));
    }

    /** As {@link #predictions(Path)}, with the seed ranges from {@code ranges}. */
    public static Table predictions(Path root, Function<Entry, Optional<SeedRange>> ranges) {
        Parameters.notNull("ranges", ranges);
        List<Entry> counted = new ArrayList<>();
        for (Entry e : entries(root)) {
            if (counted(e)) {
                counted.add(e);
            }
        }
        Table t = toTable("scorecard: predictions (counted)", counted);
        DoubleColumn min = DoubleColumn.create("seed_min"), max = DoubleColumn.create("seed_max");
        IntColumn n = IntColumn.create("seeds"), inside = IntColumn.create("seeds_inside");
        DoubleColumn share = DoubleColumn.create("share_inside");
        StringColumn median = StringColumn.create("meets_median"), paper = StringColumn.create("meets_paper");
        StringColumn basis = StringColumn.create("seed_basis");
        for (Entry e : counted) {
            Optional<SeedRange> s = ranges.apply(e);
            if (s.isPresent()) {
                min.append(s.get().min());
                max.append(s.get().max());
                n.append(s.get().values().size());
                inside.append(s.get().inside(e.row().target()));
                share.append(s.get().shareInside(e.row().target()));
                basis.append(s.get().basis());
            } else {
                min.appendMissing();
                max.appendMissing();
                n.appendMissing();
                inside.appendMissing();
                share.appendMissing();
                basis.append("none known");
            }
            median.append(e.row().meetsTarget() ? "yes" : "no");
            paper.append(meetsPaper(e, ranges) ? "yes" : "no");
        }
        DecimalFormat four = new DecimalFormat("0.####", DecimalFormatSymbols.getInstance(Locale.ROOT));
        min.setPrintFormatter(new NumberColumnFormatter(four));
        max.setPrintFormatter(new NumberColumnFormatter(four));
        share.setPrintFormatter(new NumberColumnFormatter(new DecimalFormat("0.##", DecimalFormatSymbols.getInstance(Locale.ROOT))));
        return t.addColumns(min, max, n, inside, share, median, paper, basis);
    }

    /**
     * Every row whose status or class the hit rule and the fits change: a counted prediction whose reported value
     * meets the target but whose seed range does not (or the reverse), and a row whose value was fitted
     * ({@link Calibrations}) although its kind is not calibrated, or computed at a fitted setting. Columns: notebook,
     * quantity, kind, basis, change, before, after, why.
     */
    public static Table changes(Path root) {
        return changes(root, SeedRanges.fromDatasets(root));
    }

    /** The changes of the project's {@code datasets/}: see {@link #changes(Path)}. */
    public static Table changes() {
        return changes(ProjectPaths.datasets());
    }

    /** As {@link #changes(Path)}, with the seed ranges from {@code ranges}. */
    public static Table changes(Path root, Function<Entry, Optional<SeedRange>> ranges) {
        Parameters.notNull("ranges", ranges);
        StringColumn notebook = StringColumn.create("notebook"), quantity = StringColumn.create("quantity");
        StringColumn kind = StringColumn.create("kind"), basis = StringColumn.create("basis");
        StringColumn change = StringColumn.create("change"), before = StringColumn.create("before");
        StringColumn after = StringColumn.create("after"), why = StringColumn.create("why");
        for (Entry e : entries(root)) {
            ComparisonRow r = e.row();
            Calibrations.Origin origin = Calibrations.origin(e);
            if (r.kind() != ComparisonKind.CALIBRATED && origin != Calibrations.Origin.UNFITTED) {
                notebook.append(e.comparison());
                quantity.append(r.quantity());
                kind.append(r.kind().label());
                basis.append(r.basis());
                change.append("class");
                before.append(r.kind().label() + (r.counted() ? ", counted" : ""));
                after.append(origin == Calibrations.Origin.FITTED ? "calibrated (not counted)"
                        : r.kind().label() + (counted(e) ? ", counted" : "") + ", at a fitted setting");
                why.append(Calibrations.fittedTo(e));
            }
            if (counted(e)) {
                boolean median = r.meetsTarget(), paper = meetsPaper(e, ranges);
                if (median != paper) {
                    Optional<SeedRange> s = ranges.apply(e);
                    notebook.append(e.comparison());
                    quantity.append(r.quantity());
                    kind.append(r.kind().label());
                    basis.append(r.basis());
                    change.append("status");
                    before.append(median ? "meets (reported value)" : "misses (reported value)");
                    after.append(paper ? "meets (every seed)" : "misses (seed range)");
                    why.append(s.map(x -> "seed values " + x.values().stream().map(v -> String.format(Locale.ROOT, "%.4g", v))
                            .collect(java.util.stream.Collectors.joining(", ")) + " against " + r.target().describe()
                            + ": " + x.inside(r.target()) + " of " + x.values().size() + " inside").orElse("no seed range known"));
                }
            }
        }
        return Table.create("rows whose status or class changed", notebook, quantity, kind, basis, change, before, after, why);
    }

    /** Category of {@link #summary(Path)}: canonical predictions whose construction value does not meet the target. */
    public static final String NON_TRIVIAL = "prediction, non-trivial";

    /** Category of {@link #summary(Path)}: canonical predictions whose construction value meets the target. */
    public static final String TRIVIAL = "prediction, trivial";

    /**
     * One line of the {@link #summary(Path) summary}.
     *
     * @param category {@link #NON_TRIVIAL}, {@link #TRIVIAL}, or the label of another kind ("calibrated", ...)
     * @param quantities physical quantities in the category: rows restating one quantity count once
     * @param met quantities every row of which meets its target
     * @param rows rows in the category
     */
    public record Tally(String category, int quantities, int met, int rows) {
        /** Validates: category not blank, {@code 0 <= met <= quantities <= rows}. */
        public Tally {
            Parameters.notBlank("category", category);
            Parameters.inRange("met", met, 0, Integer.MAX_VALUE);
            Parameters.inRange("quantities", quantities, met, Integer.MAX_VALUE);
            Parameters.inRange("rows", rows, quantities, Integer.MAX_VALUE);
        }
    }

    /** The summary of the project's {@code datasets/}: see {@link #summary(Path)}. */
    public static List<Tally> summary() {
        return summary(ProjectPaths.datasets());
    }

    /** {@link #summary(Path, Function)} with the seed ranges of {@link SeedRanges#fromDatasets(Path)}. */
    public static List<Tally> summary(Path root) {
        return summary(root, SeedRanges.fromDatasets(root));
    }

    /**
     * Quantities per category and how many meet the paper, in the order: {@link #NON_TRIVIAL} and
     * {@link #TRIVIAL} canonical predictions, then calibrated, definition, validation, what-if and superseded rows
     * (each of these kinds one category, canonical or not). A row whose value was fitted to match
     * ({@link Calibrations.Origin#FITTED}) is in the calibrated category whatever its kind. A quantity is a group of
     * rows of one category with the same source and {@linkplain ComparisonRow#quantityKey() quantity key} (a
     * superseded row's quantity resolved through the restatements of the canonical rows), and for every category but
     * superseded also the same comparison and basis. A prediction meets the paper when every row of it does by the
     * hit rule ({@link #meetsPaper}); a quantity of another category when every row meets its target. A prediction
     * is trivial when every row of it is {@linkplain ComparisonRow#trivial() trivial}. Every category is listed, with
     * zeros when it has no row.
     *
     * @param ranges the seed range of a counted prediction (empty: none known, so it does not meet the paper)
     */
    public static List<Tally> summary(Path root, Function<Entry, Optional<SeedRange>> ranges) {
        Parameters.notNull("ranges", ranges);
        List<Entry> all = entries(root);
        Map<String, String> restated = new LinkedHashMap<>();   // published quantity -> the canonical row's quantity key
        for (Entry e : all) {
            if (e.row().canonical()) {
                restated.put(e.row().publishedQuantity(), e.row().quantityKey());
            }
        }
        Map<String, List<Entry>> groups = new LinkedHashMap<>();
        for (Entry e : all) {
            ComparisonRow r = e.row();
            String category = category(e);
            String key = category.equals(ComparisonKind.SUPERSEDED.label())
                    ? String.join("\u0000", category, restated.getOrDefault(r.publishedQuantity(), r.quantityKey()))
                    : String.join("\u0000", category, e.comparison(), r.basis(), String.valueOf(r.canonical()), r.quantityKey());
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(e);
        }
        Map<String, int[]> counts = new LinkedHashMap<>();   // category -> quantities, met, rows
        counts.put(NON_TRIVIAL, new int[3]);
        counts.put(TRIVIAL, new int[3]);
        for (ComparisonKind k : ComparisonKind.values()) {
            if (k != ComparisonKind.PREDICTION) {
                counts.put(k.label(), new int[3]);
            }
        }
        for (List<Entry> g : groups.values()) {
            Entry first = g.get(0);
            String category = category(first);
            if (category.equals(ComparisonKind.PREDICTION.label())) {
                category = g.stream().allMatch(e -> e.row().trivial()) ? TRIVIAL : NON_TRIVIAL;
            }
            int[] c = counts.get(category);
            c[0]++;
            c[1] += g.stream().allMatch(e -> meetsPaper(e, ranges)) ? 1 : 0;
            c[2] += g.size();
        }
        List<Tally> out = new ArrayList<>();
        counts.forEach((category, c) -> out.add(new Tally(category, c[0], c[1], c[2])));
        return out;
    }

    /** The kind label a row is counted under: calibrated for a fitted value, else its kind's. */
    private static String category(Entry e) {
        return Calibrations.origin(e) == Calibrations.Origin.FITTED ? ComparisonKind.CALIBRATED.label() : e.row().kind().label();
    }

    /** {@link #summary(Path)} as a table: category, quantities, meet the paper, rows. */
    public static Table summaryTable(Path root) {
        StringColumn category = StringColumn.create("category");
        IntColumn quantities = IntColumn.create("quantities");
        IntColumn met = IntColumn.create("meet the paper");
        IntColumn rows = IntColumn.create("rows");
        for (Tally t : summary(root)) {
            category.append(t.category());
            quantities.append(t.quantities());
            met.append(t.met());
            rows.append(t.rows());
        }
        return Table.create("scorecard: quantities per category (restated quantities counted once)", category,
                quantities, met, rows);
    }

    /** The summary table of the project's {@code datasets/}: see {@link #summaryTable(Path)}. */
    public static Table summaryTable() {
        return summaryTable(ProjectPaths.datasets());
    }

    /**
     * The headline in words from {@link #summary(Path)}: non-trivial canonical predictions that meet the
     * paper first, then each other category as met of quantities, e.g. "1 of 17 non-trivial canonical
     * predictions meet the paper; trivial predictions 5 of 6; calibrated 0 of 3; ...".
     */
    public static String headline(Path root) {
        List<Tally> s = summary(root);
        StringBuilder b = new StringBuilder();
        b.append(s.get(0).met()).append(" of ").append(s.get(0).quantities())
                .append(" non-trivial canonical predictions meet the paper");
        for (Tally t : s.subList(1, s.size())) {
            String name = t.category().equals(TRIVIAL) ? "trivial predictions" : t.category();
            b.append("; ").append(name).append(' ').append(t.met()).append(" of ").append(t.quantities());
        }
        return b.append(" (quantities; rows restating one quantity counted once; a prediction meets the paper only when"
                + " every seed does; values fitted to match counted as calibrated)").toString();
    }

    /** The headline of the project's {@code datasets/}: see {@link #headline(Path)}. */
    public static String headline() {
        return headline(ProjectPaths.datasets());
    }

    /** Problems of the project's {@code datasets/}: see {@link #problems(Path)}. */
    public static List<String> problems() {
        return problems(ProjectPaths.datasets());
    }

    /**
     * What keeps the card from being one row per published quantity: each published quantity (source and
     * quantity) without a canonical row or with more than one, each superseded row whose basis does not
     * name the comparison holding that quantity's canonical row, and each row that states the published
     * number (target or unit) differently from the canonical row; also each row restating a quantity
     * ({@link ComparisonRow#sameQuantityAs()}) whose comparison has no row of that quantity name with the same
     * source, kind, basis and canonical flag that restates nothing itself. Empty when the card is sound.
     */
    public static List<String> problems(Path root) {
        List<Entry> all = entries(root);
        Map<String, List<Entry>> byQuantity = new LinkedHashMap<>();
        for (Entry e : all) {
            byQuantity.computeIfAbsent(e.row().publishedQuantity(), k -> new ArrayList<>()).add(e);
        }
        List<String> problems = new ArrayList<>();
        for (Calibrations.Fit f : Calibrations.unmatched(all)) {
            if (all.stream().anyMatch(e -> e.comparison().equals(f.comparison()))) {
                problems.add("the fit \"" + f.phrase() + "\"" + (f.quantity().isEmpty() ? "" : " of \"" + f.quantity() + "\"")
                        + " (Calibrations.FITS) matches no row of " + f.comparison() + ": a row was renamed, update the list");
            }
        }
        for (Entry e : all) {
            ComparisonRow r = e.row();
            if (r.sameQuantityAs().isEmpty()) {
                continue;
            }
            boolean named = all.stream().anyMatch(o -> o.comparison().equals(e.comparison())
                    && o.row().source().equals(r.source()) && o.row().quantity().equals(r.sameQuantityAs())
                    && o.row().kind() == r.kind() && o.row().basis().equals(r.basis())
                    && o.row().canonical() == r.canonical() && o.row().sameQuantityAs().isEmpty());
            if (!named) {
                problems.add("\"" + r.publishedQuantity() + "\" in " + e.comparison() + " restates \"" + r.sameQuantityAs()
                        + "\", but that comparison has no row of that quantity with the same source, kind and basis"
                        + " that restates nothing itself");
            }
        }
        for (Map.Entry<String, List<Entry>> q : byQuantity.entrySet()) {
            List<String> canonical = q.getValue().stream().filter(e -> e.row().canonical()).map(Entry::comparison).toList();
            if (canonical.size() != 1) {
                problems.add("\"" + q.getKey() + "\" has " + canonical.size() + " canonical rows"
                        + (canonical.isEmpty() ? "" : " (in " + String.join(", ", canonical) + ")") + "; it needs exactly one");
                continue;
            }
            ComparisonRow reference = q.getValue().stream().filter(e -> e.row().canonical()).findFirst().orElseThrow().row();
            for (Entry e : q.getValue()) {
                if (e.row().kind() == ComparisonKind.SUPERSEDED && !e.row().basis().equals(canonical.get(0))) {
                    problems.add("\"" + q.getKey() + "\" in " + e.comparison() + " is superseded by \"" + e.row().basis()
                            + "\", but its canonical row is in " + canonical.get(0));
                }
                if (!e.row().target().equals(reference.target()) || !e.row().unit().equals(reference.unit())) {
                    problems.add("\"" + q.getKey() + "\" in " + e.comparison() + " states the target as "
                            + e.row().target().describe() + " " + e.row().unit() + ", its canonical row in " + canonical.get(0)
                            + " as " + reference.target().describe() + " " + reference.unit());
                }
            }
        }
        return problems;
    }

    /**
     * One row per published dataset: name, source seed, title, rows, and the comparisons (notebooks)
     * whose provenance names it.
     */
    public static Table coverage(Path root) {
        Parameters.notNull("root", root);
        List<Dataset> comparisons = new ArrayList<>();
        for (String name : comparisonNames(root)) {
            comparisons.add(Datasets.load(root, name));
        }
        StringColumn dataset = StringColumn.create("dataset");
        StringColumn source = StringColumn.create("source");
        StringColumn title = StringColumn.create("title");
        IntColumn rows = IntColumn.create("rows");
        StringColumn compared = StringColumn.create("compared_in");
        for (String name : Datasets.list(root)) {
            Dataset d = Datasets.load(root, name);
            if (!d.provenance().kind().equals("published")) {
                continue;
            }
            List<String> users = new ArrayList<>();
            for (Dataset c : comparisons) {
                String loc = c.provenance().location();
                int i = loc.indexOf("published datasets: ");
                if (i >= 0 && List.of(loc.substring(i + "published datasets: ".length()).split(",\\s*")).contains(name)) {
                    users.add(c.provenance().name().substring(PREFIX.length()));
                }
            }
            dataset.append(name);
            source.append(shortSource(d.provenance().paper().seedFile()));
            title.append(d.provenance().title());
            rows.append(d.table().rowCount());
            compared.append(users.isEmpty() ? "(not compared yet)" : String.join(", ", users));
        }
        return Table.create("published datasets and where they are compared", dataset, source, title, rows, compared);
    }

    /** Coverage of the project's datasets. */
    public static Table coverage() {
        return coverage(ProjectPaths.datasets());
    }

    /** A seed file's number ("001" for "001_e14cd0b2fa98c259.txt"); any other source unchanged. */
    public static String shortSource(String source) {
        var m = SEED_FILE.matcher(Parameters.notNull("source", source));
        return m.matches() ? m.group(1) : source;
    }

    private static List<Entry> sortedByKind(List<Entry> entries) {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing((Entry e) -> e.row().kind()).thenComparing(Entry::comparison));
        return sorted;
    }

    private static Table toTable(String title, List<Entry> entries) {
        StringColumn source = StringColumn.create("source");
        StringColumn notebook = StringColumn.create("notebook");
        StringColumn quantity = StringColumn.create("quantity");
        StringColumn unit = StringColumn.create("unit");
        StringColumn kind = StringColumn.create("kind");
        StringColumn basis = StringColumn.create("basis");
        StringColumn canonical = StringColumn.create("canonical");
        StringColumn counted = StringColumn.create("counted");
        StringColumn target = StringColumn.create("target");
        DoubleColumn model = DoubleColumn.create("model");
        DoubleColumn rel = DoubleColumn.create("relative_difference");
        StringColumn meets = StringColumn.create("meets_target");
        StringColumn reason = StringColumn.create("reason");
        StringColumn same = StringColumn.create("same_quantity_as");
        DoubleColumn trivialValue = DoubleColumn.create("trivial_value");
        StringColumn trivial = StringColumn.create("trivial");
        StringColumn toleranceReason = StringColumn.create("tolerance_reason");
        StringColumn origin = StringColumn.create("origin");
        StringColumn fittedTo = StringColumn.create("fitted_to");
        for (Entry e : entries) {
            ComparisonRow r = e.row();
            source.append(shortSource(r.source()));
            notebook.append(e.comparison());
            quantity.append(r.quantity());
            unit.append(r.unit());
            kind.append(r.kind().label());
            basis.append(r.basis());
            canonical.append(r.canonical() ? "yes" : "no");
            counted.append(counted(e) ? "yes" : "no");
            target.append(r.target().describe());
            model.append(r.model());
            rel.append(r.relativeDifference());
            meets.append(r.meetsTarget() ? "yes" : "no");
            reason.append(r.note());
            same.append(r.sameQuantityAs());
            if (r.hasTrivialValue()) {
                trivialValue.append(r.trivialValue());
            } else {
                trivialValue.appendMissing();
            }
            trivial.append(r.trivial() ? "yes" : "no");
            toleranceReason.append(r.toleranceReasonOrDefault());
            origin.append(Calibrations.origin(e).label());
            fittedTo.append(Calibrations.fittedTo(e));
        }
        model.setPrintFormatter(new NumberColumnFormatter(new DecimalFormat("0.####", DecimalFormatSymbols.getInstance(Locale.ROOT))));
        rel.setPrintFormatter(new NumberColumnFormatter(new DecimalFormat("0.###", DecimalFormatSymbols.getInstance(Locale.ROOT))));
        trivialValue.setPrintFormatter(new NumberColumnFormatter(new DecimalFormat("0.####", DecimalFormatSymbols.getInstance(Locale.ROOT))));
        return Table.create(title, source, notebook, quantity, unit, kind, basis, canonical, counted, target, model, rel,
                meets, reason, same, trivialValue, trivial, toleranceReason, origin, fittedTo);
    }

    private static ComparisonRow read(Row r) {
        Target target = Target.of(text(r, "target"), number(r, "published"), number(r, "published_high"),
                number(r, "tolerance"));
        return new ComparisonRow(text(r, "source"), text(r, "quantity"), text(r, "unit"),
                ComparisonKind.fromLabel(text(r, "kind")), text(r, "basis"), yesNo(r, "canonical"), target,
                number(r, "model"), text(r, "note"), optionalText(r, "same_quantity_as"),
                optionalNumber(r, "trivial_value"), optionalText(r, "tolerance_reason"));
    }

    private static String optionalText(Row r, String column) {
        return r.columnNames().contains(column) ? text(r, column) : "";
    }

    /** The column's number; NaN when the column is absent or the cell is empty. */
    private static double optionalNumber(Row r, String column) {
        if (!r.columnNames().contains(column)) {
            return Double.NaN;
        }
        Object v = r.getObject(column);
        if (v == null || v instanceof Number n && Double.isNaN(n.doubleValue())) {
            return Double.NaN;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        String s = v.toString().strip();
        if (s.isEmpty()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("column " + column + " must hold a number or nothing, got \"" + s + "\"");
        }
    }

    private static String text(Row r, String column) {
        Object v = cell(r, column);
        return v == null ? "" : v.toString();
    }

    private static double number(Row r, String column) {
        Object v = cell(r, column);
        if (!(v instanceof Number n)) {
            throw new IllegalArgumentException("column " + column + " must hold a number, got " + v);
        }
        return n.doubleValue();
    }

    private static boolean yesNo(Row r, String column) {
        Object v = cell(r, column);
        if (v instanceof Boolean b) {
            return b;
        }
        String s = v == null ? "" : v.toString();
        return switch (s) {
            case "yes", "true" -> true;
            case "no", "false" -> false;
            default -> throw new IllegalArgumentException("column " + column + " must be yes or no, got \"" + s + "\"");
        };
    }

    private static Object cell(Row r, String column) {
        if (!r.columnNames().contains(column)) {
            throw new IllegalArgumentException("no column \"" + column + "\" (comparison datasets need "
                    + "source, quantity, unit, kind, basis, canonical, target, published, published_high, tolerance,"
                    + " model, note)");
        }
        return r.getObject(column);
    }

    private static List<String> comparisonNames(Path root) {
        List<String> names = new ArrayList<>();
        for (String n : Datasets.list(root)) {
            if (n.startsWith(PREFIX)) {
                names.add(n);
            }
        }
        return names;
    }
}
