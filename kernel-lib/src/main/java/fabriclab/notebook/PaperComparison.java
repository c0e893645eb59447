package fabriclab.notebook;

import fabriclab.Parameters;
import fabriclab.datasets.Datasets;
import fabriclab.datasets.Provenance;
import fabriclab.datasets.Scorecard;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The "paper vs model" table every notebook ends with.
 *
 * <p>Columns: {@code quantity}, {@code unit}, {@code published}, {@code model},
 * {@code relative_difference} = (model - published) / |published| (NaN-free: a published value of 0
 * gives the absolute difference instead, flagged in the note), {@code within_tolerance} and
 * {@code note} (why they differ, or what the model assumes).
 */
public final class PaperComparison {
    /** Default tolerance on the relative difference (15%). */
    public static final double DEFAULT_TOLERANCE = 0.15;

    private record Row(String quantity, String unit, double published, double model, String note) {
    }

    private final String title;
    private final double tolerance;
    private final List<Row> rows = new ArrayList<>();

    private PaperComparison(String title, double tolerance) {
        this.title = title;
        this.tolerance = tolerance;
    }

    /** A comparison with the default 15% tolerance. */
    public static PaperComparison of(String title) {
        return of(title, DEFAULT_TOLERANCE);
    }

    /** A comparison with the given relative tolerance in (0, 1]. */
    public static PaperComparison of(String title, double tolerance) {
        return new PaperComparison(Parameters.notBlank("title", title),
                Parameters.inHalfOpenRange("tolerance", tolerance, 0, 1));
    }

    /** Adds one quantity; returns this for chaining. */
    public PaperComparison add(String quantity, String unit, double published, double model, String note) {
        rows.add(new Row(Parameters.notBlank("quantity", quantity), Parameters.notNull("unit", unit),
                Parameters.finite("published", published), Parameters.finite("model", model),
                note == null ? "" : note));
        return this;
    }

    /** Relative difference (model - published) / |published|, or the absolute difference when published is 0. */
    public static double relativeDifference(double published, double model) {
        return published == 0 ? model - published : (model - published) / Math.abs(published);
    }

    /** Prefix of the model datasets written by {@link #save}: {@code comparison-NAME}. */
    public static final String DATASET_PREFIX = Scorecard.PREFIX;

    /**
     * Writes this comparison as the model dataset {@code datasets/model/comparison-NAME.csv} (with
     * its provenance) so that the scorecard notebook can gather every notebook's numbers without
     * recomputing them. Columns: {@code source} (the seed file), then those of
     * {@link #table()}. Returns this, so a cell can end with {@code cmp.save(...).table()}.
     *
     * @param name dataset suffix, usually the notebook's number and topic ("04-incast")
     * @param seedFile the seed file the published numbers come from ("001_e14cd0b2fa98c259.txt")
     * @param publishedDatasets names of the published datasets the numbers were taken from (may be empty)
     */
    public PaperComparison save(String name, String seedFile, String... publishedDatasets) {
        return save(null, name, seedFile, publishedDatasets);
    }

    /** As {@link #save(String, String, String...)}, into the {@code datasets/} directory {@code root} (null: the project's). */
    public PaperComparison save(Path root, String name, String seedFile, String... publishedDatasets) {
        Parameters.notBlank("name", name);
        Parameters.notBlank("seedFile", seedFile);
        Parameters.notNull("publishedDatasets", publishedDatasets);
        if (rows.isEmpty()) {
            throw new IllegalStateException("comparison \"" + title + "\" has no rows to save");
        }
        String source = seedFile;
        Table t = table();
        StringColumn src = StringColumn.create("source");
        for (int i = 0; i < t.rowCount(); i++) {
            src.append(source);
        }
        t.insertColumn(0, src);
        t.setName(DATASET_PREFIX + name);
        Map<String, String> units = new LinkedHashMap<>();
        units.put("source", "");
        units.put("quantity", "");
        units.put("unit", "");
        units.put("published", "see unit column");
        units.put("model", "see unit column");
        units.put("relative_difference", "ratio");
        units.put("within_tolerance", "");
        units.put("note", "");
        String location = "notebook " + name + (publishedDatasets.length == 0 ? ""
                : "; published datasets: " + String.join(", ", publishedDatasets));
        Provenance p = new Provenance(DATASET_PREFIX + name, title, "model",
                new Provenance.Paper(seedFile, null, null, null, null), location, units,
                "Written by PaperComparison.save; tolerance " + tolerance + " on |relative_difference|.");
        if (root == null) {
            Datasets.writeModel(t, p);
        } else {
            Datasets.write(root, t, p);
        }
        return this;
    }

    /** The comparison as a table. */
    public Table table() {
        StringColumn q = StringColumn.create("quantity");
        StringColumn u = StringColumn.create("unit");
        DoubleColumn p = DoubleColumn.create("published");
        DoubleColumn m = DoubleColumn.create("model");
        DoubleColumn d = DoubleColumn.create("relative_difference");
        StringColumn w = StringColumn.create("within_tolerance");
        StringColumn n = StringColumn.create("note");
        for (Row r : rows) {
            double rel = relativeDifference(r.published, r.model);
            q.append(r.quantity);
            u.append(r.unit);
            p.append(r.published);
            m.append(r.model);
            d.append(rel);
            w.append(Math.abs(rel) <= tolerance ? "yes" : "no");
            n.append(r.published == 0 ? (r.note + " (published value is 0: absolute difference shown)").trim() : r.note);
        }
        return Table.create(title, q, u, p, m, d, w, n);
    }
}
