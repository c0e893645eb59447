package fabriclab.datasets;

import fabriclab.Parameters;
import fabriclab.project.ProjectPaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.api.Row;

/**
 * The scorecard: every paper-vs-model comparison the notebooks saved (model datasets named
 * {@code comparison-*}, each notebook's closing table) gathered into one table, plus the coverage of
 * the published datasets. It reads results and recomputes nothing, so it is only as fresh as the last
 * run of each notebook.
 *
 * <p>Relative difference is (model - published) / |published|; a row is within tolerance when its
 * absolute value is at most the tolerance (15% by default). The reason column is the note the
 * notebook gave for that row (why the numbers differ, or what the model assumes).
 */
public final class Scorecard {
    /** Prefix of the comparison datasets. */
    public static final String PREFIX = "comparison-";

    private Scorecard() {
    }

    /** All comparisons of the project's {@code datasets/} with a 15% tolerance. */
    public static Table gather() {
        return gather(ProjectPaths.datasets(), 0.15);
    }

    /**
     * All comparisons under {@code root}: columns source, notebook, quantity, unit, published, model,
     * relative_difference, within_tolerance ("yes"/"no"), reason; sorted by notebook then input order.
     *
     * @param root a datasets directory (with published/ and model/)
     * @param tolerance relative tolerance in (0, 1]
     */
    public static Table gather(Path root, double tolerance) {
        Parameters.notNull("root", root);
        Parameters.inHalfOpenRange("tolerance", tolerance, 0, 1);
        StringColumn source = StringColumn.create("source");
        StringColumn notebook = StringColumn.create("notebook");
        StringColumn quantity = StringColumn.create("quantity");
        StringColumn unit = StringColumn.create("unit");
        DoubleColumn published = DoubleColumn.create("published");
        DoubleColumn model = DoubleColumn.create("model");
        DoubleColumn rel = DoubleColumn.create("relative_difference");
        StringColumn within = StringColumn.create("within_tolerance");
        StringColumn reason = StringColumn.create("reason");
        for (String name : comparisonNames(root)) {
            Dataset ds = Datasets.load(root, name);
            String seed = ds.provenance().paper().seedFile();
            String seedNumber = seed.substring(0, Math.min(3, seed.length()));
            for (Row r : ds.table()) {
                double p = r.getNumber("published");
                double m = r.getNumber("model");
                double d = p == 0 ? m - p : (m - p) / Math.abs(p);
                source.append(seedNumber);
                notebook.append(name.substring(PREFIX.length()));
                quantity.append(r.getString("quantity"));
                unit.append(String.valueOf(r.getObject("unit")));
                published.append(p);
                model.append(m);
                rel.append(d);
                within.append(Math.abs(d) <= tolerance ? "yes" : "no");
                Object note = r.getObject("note");
                reason.append(note == null ? "" : note.toString());
            }
        }
        return Table.create("scorecard: published vs model", source, notebook, quantity, unit, published, model, rel,
                within, reason);
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
            source.append(d.provenance().paper().seedFile().substring(0, Math.min(3, d.provenance().paper().seedFile().length())));
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
