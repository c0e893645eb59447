package fabriclab.notebook;

import fabriclab.Parameters;
import java.util.ArrayList;
import java.util.List;
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
