package fabriclab.notebook;

import fabriclab.Parameters;
import fabriclab.datasets.Calibrations;
import fabriclab.datasets.ComparisonKind;
import fabriclab.datasets.ComparisonRow;
import fabriclab.datasets.Datasets;
import fabriclab.datasets.Provenance;
import fabriclab.datasets.Scorecard;
import fabriclab.datasets.Target;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The "paper vs model" table every notebook ends with, saved for the scorecard.
 *
 * <p>Each row says what kind of comparison it is ({@link ComparisonKind}: prediction, calibrated,
 * definition, validation, what-if, superseded), states the published number in the form the paper gives
 * it ({@link Target}: point, bound, band, magnitude) and carries its own source. Rows are added with one
 * method per kind; the comparison's seed file is the source of the rows added that way, and
 * {@link #add(ComparisonRow)} takes a row with another source (a number of another paper, an outside
 * reference) or a canonical what-if.
 *
 * <p>Columns of {@link #table()} and of the saved dataset: {@code source}, {@code quantity},
 * {@code unit}, {@code kind}, {@code basis}, {@code canonical} (yes/no), {@code target} (the form),
 * {@code published}, {@code published_high} (a band's high end, else equal to {@code published}),
 * {@code tolerance}, {@code model}, {@code relative_difference} (see {@link Target}),
 * {@code meets_target} (yes/no), {@code note}, {@code same_quantity_as} (the quantity this row restates,
 * "" for none), {@code trivial_value} (the value the model reaches by construction, empty for none),
 * {@code trivial} (yes/no: whether that value meets the target) and {@code tolerance_reason}.
 *
 * <p>{@link #sameQuantityAs}, {@link #trivialAt}, {@link #tolerance} and {@link #toleranceReason} qualify
 * the row added last (see {@link ComparisonRow}).
 */
public final class PaperComparison {
    /** Column names of {@link #table()}, in order. */
    public static final List<String> COLUMNS = List.of("source", "quantity", "unit", "kind", "basis", "canonical",
            "target", "published", "published_high", "tolerance", "model", "relative_difference", "meets_target", "note",
            "same_quantity_as", "trivial_value", "trivial", "tolerance_reason");

    private final String title;
    private final String seedFile;
    private final List<ComparisonRow> rows = new ArrayList<>();

    private PaperComparison(String title, String seedFile) {
        this.title = title;
        this.seedFile = seedFile;
    }

    /**
     * An empty comparison.
     *
     * @param title the table's title
     * @param seedFile the seed file the rows' published numbers come from unless a row says otherwise
     *     ("001_e14cd0b2fa98c259.txt"); also the paper named in the saved dataset's provenance
     */
    public static PaperComparison of(String title, String seedFile) {
        return new PaperComparison(Parameters.notBlank("title", title), Parameters.notBlank("seedFile", seedFile));
    }

    /** A prediction: no published number of this experiment went into the model. Counted by the scorecard. */
    public PaperComparison prediction(String quantity, String unit, Target target, double model, String note) {
        return add(ComparisonKind.PREDICTION, "", true, quantity, unit, target, model, note);
    }

    /**
     * A calibrated row: a constant of the model was set from a published number.
     *
     * @param fromPublished which published number, e.g. "002 table 1, RoCE single job, 2.66 samples/s"
     */
    public PaperComparison calibrated(String fromPublished, String quantity, String unit, Target target, double model,
            String note) {
        return add(ComparisonKind.CALIBRATED, fromPublished, true, quantity, unit, target, model, note);
    }

    /** A definition: true by construction (a unit conversion, a standard's definition, the paper's own algebra). */
    public PaperComparison definition(String quantity, String unit, Target target, double model, String note) {
        return add(ComparisonKind.DEFINITION, "", true, quantity, unit, target, model, note);
    }

    /**
     * A validation against an outside reference that is not a seed paper's number. The row's source is
     * the reference, not the comparison's seed file.
     *
     * @param reference the outside reference, e.g. "Cisco Nexus 5000 PFC white paper"
     */
    public PaperComparison validation(String reference, String quantity, String unit, Target target, double model,
            String note) {
        return add(new ComparisonRow(Parameters.notBlank("reference", reference), quantity, unit,
                ComparisonKind.VALIDATION, reference, true, target, model, note));
    }

    /**
     * A what-if: the model run in a setting different from the paper's. Not canonical: the published
     * quantity's canonical row is elsewhere (for a canonical what-if, build the row and {@link #add} it).
     *
     * @param setting what differs from the paper's setting
     */
    public PaperComparison whatIf(String setting, String quantity, String unit, Target target, double model,
            String note) {
        return add(ComparisonKind.WHAT_IF, setting, false, quantity, unit, target, model, note);
    }

    /**
     * A superseded row: this notebook's cruder model of a quantity that another notebook models better.
     *
     * @param canonicalComparison the comparison dataset name (without "comparison-") holding the
     *     canonical row, e.g. "07-packet-sim"
     */
    public PaperComparison superseded(String canonicalComparison, String quantity, String unit, Target target,
            double model, String note) {
        return add(ComparisonKind.SUPERSEDED, canonicalComparison, false, quantity, unit, target, model, note);
    }

    /** Adds a row built by hand (another source, a canonical what-if); returns this. */
    public PaperComparison add(ComparisonRow row) {
        rows.add(Parameters.notNull("row", row));
        return this;
    }

    /**
     * Marks the row added last as restating the quantity of this comparison's row named {@code quantity}
     * (same source and kind): the scorecard counts the two as one quantity. Returns this.
     *
     * @throws IllegalStateException if no row was added yet
     */
    public PaperComparison sameQuantityAs(String quantity) {
        return replaceLast(last().withSameQuantityAs(quantity));
    }

    /**
     * Declares for the row added last the value the model reaches by construction ({@code value}, finite,
     * in the row's unit: the line rate for a throughput, 1 for a ratio of two fabrics, 0 for a loss); the
     * row is trivial when that value meets its target. Returns this.
     *
     * @throws IllegalStateException if no row was added yet
     */
    public PaperComparison trivialAt(double value) {
        return replaceLast(last().withTrivialValue(value));
    }

    /**
     * Sets the tolerance of the row added last's target to {@code tolerance} (in [0, 1]) for the stated
     * reason (not blank). Returns this.
     *
     * @throws IllegalStateException if no row was added yet
     */
    public PaperComparison tolerance(double tolerance, String reason) {
        return replaceLast(last().withTolerance(tolerance, reason));
    }

    /**
     * States why the row added last's target has its present tolerance (not blank). Returns this.
     *
     * @throws IllegalStateException if no row was added yet
     */
    public PaperComparison toleranceReason(String reason) {
        return replaceLast(last().withToleranceReason(reason));
    }

    private ComparisonRow last() {
        if (rows.isEmpty()) {
            throw new IllegalStateException("comparison \"" + title + "\" has no row yet to qualify");
        }
        return rows.get(rows.size() - 1);
    }

    private PaperComparison replaceLast(ComparisonRow row) {
        rows.set(rows.size() - 1, row);
        return this;
    }

    private PaperComparison add(ComparisonKind kind, String basis, boolean canonical, String quantity, String unit,
            Target target, double model, String note) {
        return add(new ComparisonRow(seedFile, quantity, unit, kind, basis, canonical, target, model, note));
    }

    /** The rows added so far, in order (an unmodifiable copy). */
    public List<ComparisonRow> rows() {
        return List.copyOf(rows);
    }

    /** Prefix of the model datasets written by {@link #save}: {@code comparison-NAME}. */
    public static final String DATASET_PREFIX = Scorecard.PREFIX;

    /**
     * Writes this comparison as the model dataset {@code datasets/model/comparison-NAME.csv} (with its
     * provenance) so that the scorecard notebook can gather every notebook's rows without recomputing
     * them. Returns this, so a cell can end with {@code cmp.save(...).table()}.
     *
     * @param name dataset suffix: the notebook's number and topic ("07-packet-sim")
     * @param publishedDatasets names of the published datasets the numbers were taken from (may be empty)
     */
    public PaperComparison save(String name, String... publishedDatasets) {
        return save(null, name, publishedDatasets);
    }

    /** As {@link #save(String, String...)}, into the {@code datasets/} directory {@code root} (null: the project's). */
    public PaperComparison save(Path root, String name, String... publishedDatasets) {
        Parameters.notBlank("name", name);
        Parameters.notNull("publishedDatasets", publishedDatasets);
        for (String d : publishedDatasets) {
            if (Parameters.notBlank("publishedDatasets[i]", d).endsWith(".txt")) {
                throw new IllegalArgumentException("publishedDatasets must name datasets, not seed files (the seed file"
                        + " is given to PaperComparison.of), got \"" + d + "\"");
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalStateException("comparison \"" + title + "\" has no rows to save");
        }
        classify(name);
        Table t = table();
        t.setName(DATASET_PREFIX + name);
        Map<String, String> units = new LinkedHashMap<>();
        for (String c : COLUMNS) {
            units.put(c, switch (c) {
                case "published", "published_high", "model", "trivial_value" -> "see unit column";
                case "tolerance", "relative_difference" -> "ratio (absolute, in the row's unit, when the target's end is 0)";
                default -> "";
            });
        }
        String location = "notebook " + name + (publishedDatasets.length == 0 ? ""
                : "; published datasets: " + String.join(", ", publishedDatasets));
        Provenance p = new Provenance(DATASET_PREFIX + name, title, "model",
                new Provenance.Paper(seedFile, null, null, null, null), location, units,
                "Written by PaperComparison.save. One row per compared quantity; kind and canonical say whether the"
                        + " scorecard counts it (canonical predictions only); source is per row. A row with"
                        + " same_quantity_as restates that row's quantity (counted once); trivial: the value the model"
                        + " reaches by construction (trivial_value) meets the target.");
        if (root == null) {
            Datasets.writeModel(t, p);
        } else {
            Datasets.write(root, t, p);
        }
        return this;
    }

    /**
     * Gives each row the kind the library's classification ({@link Calibrations#origin}) gives it as a row of the
     * comparison {@code name}: a row whose value was chosen so that it matches its published number
     * ({@link Calibrations.Origin#FITTED}) becomes {@linkplain ComparisonRow#asCalibrated(String) calibrated}, whatever kind
     * the notebook gave it, so the notebook's table and the scorecard classify it alike. Called by {@link #save}.
     */
    private void classify(String name) {
        for (int i = 0; i < rows.size(); i++) {
            ComparisonRow r = rows.get(i);
            Scorecard.Entry e = new Scorecard.Entry(name, r);
            if (r.kind() != ComparisonKind.CALIBRATED && Calibrations.origin(e) == Calibrations.Origin.FITTED) {
                rows.set(i, r.asCalibrated(Calibrations.fittedTo(e)));
            }
        }
    }

    /** The comparison as a table with the columns {@link #COLUMNS}. */
    public Table table() {
        StringColumn source = StringColumn.create("source");
        StringColumn quantity = StringColumn.create("quantity");
        StringColumn unit = StringColumn.create("unit");
        StringColumn kind = StringColumn.create("kind");
        StringColumn basis = StringColumn.create("basis");
        StringColumn canonical = StringColumn.create("canonical");
        StringColumn target = StringColumn.create("target");
        DoubleColumn published = DoubleColumn.create("published");
        DoubleColumn high = DoubleColumn.create("published_high");
        DoubleColumn tolerance = DoubleColumn.create("tolerance");
        DoubleColumn model = DoubleColumn.create("model");
        DoubleColumn rel = DoubleColumn.create("relative_difference");
        StringColumn meets = StringColumn.create("meets_target");
        StringColumn note = StringColumn.create("note");
        StringColumn same = StringColumn.create("same_quantity_as");
        DoubleColumn trivialValue = DoubleColumn.create("trivial_value");
        StringColumn trivial = StringColumn.create("trivial");
        StringColumn reason = StringColumn.create("tolerance_reason");
        for (ComparisonRow r : rows) {
            source.append(r.source());
            quantity.append(r.quantity());
            unit.append(r.unit());
            kind.append(r.kind().label());
            basis.append(r.basis());
            canonical.append(r.canonical() ? "yes" : "no");
            target.append(r.target().form());
            published.append(r.target().published());
            high.append(r.target().publishedHigh());
            tolerance.append(r.target().tolerance());
            model.append(r.model());
            rel.append(r.relativeDifference());
            meets.append(r.meetsTarget() ? "yes" : "no");
            note.append(r.note());
            same.append(r.sameQuantityAs());
            if (r.hasTrivialValue()) {
                trivialValue.append(r.trivialValue());
            } else {
                trivialValue.appendMissing();
            }
            trivial.append(r.trivial() ? "yes" : "no");
            reason.append(r.toleranceReasonOrDefault());
        }
        return Table.create(title, source, quantity, unit, kind, basis, canonical, target, published, high, tolerance,
                model, rel, meets, note, same, trivialValue, trivial, reason);
    }
}
