package fabriclab.kernel.display;

import fabriclab.notebook.Figures;
import io.github.spencerpark.jupyter.kernel.display.Renderer;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import java.util.Base64;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.ShortColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * How the kernel shows notebook values: an XChart chart as {@code image/png} (plus
 * {@code image/svg+xml} when asked for it by {@code display(chart, "image/svg+xml")}), a tablesaw
 * {@link Table} as an HTML table (floating-point numbers with {@link DisplayOptions}' precision) plus
 * plain text, anything else as its {@code toString()}.
 */
public final class RichDisplay {
    /** Rows of a table shown before it is cut (the text says how many were left out). */
    public static final int MAX_TABLE_ROWS = 60;

    private RichDisplay() {
    }

    /** Registers the renderers on a kernel's renderer. */
    public static void register(Renderer renderer) {
        renderer.createRegistration(Chart.class)
                .preferring(MIMEType.IMAGE_PNG)
                .supporting(MIMEType.IMAGE_SVG, MIMEType.TEXT_PLAIN)
                .register((chart, ctx) -> {
                    ctx.renderIfRequested(MIMEType.IMAGE_PNG, () -> Base64.getEncoder().encodeToString(Figures.png(chart)));
                    ctx.renderIfRequested(MIMEType.IMAGE_SVG, () -> Figures.svg(chart));
                    ctx.renderIfRequested(MIMEType.TEXT_PLAIN, () -> chartText(chart));
                });
        renderer.createRegistration(Table.class)
                .preferring(MIMEType.TEXT_HTML, MIMEType.TEXT_PLAIN)
                .register((table, ctx) -> {
                    ctx.renderIfRequested(MIMEType.TEXT_HTML, () -> html(table));
                    ctx.renderIfRequested(MIMEType.TEXT_PLAIN, () -> text(table));
                });
    }

    private static String chartText(Chart<?, ?> chart) {
        return chart.getClass().getSimpleName() + " \"" + chart.getTitle() + "\"";
    }

    /** The table as an HTML table with a caption (name and size). */
    public static String html(Table table) {
        StringBuilder b = new StringBuilder(1024);
        b.append("<table class=\"fabriclab-table\"><caption style=\"text-align:left\">")
                .append(escape(table.name() == null ? "" : table.name()))
                .append(" <span style=\"color:#777\">(").append(table.rowCount()).append(" rows &times; ")
                .append(table.columnCount()).append(" columns)</span></caption><thead><tr>");
        for (String c : table.columnNames()) {
            b.append("<th>").append(escape(c)).append("</th>");
        }
        b.append("</tr></thead><tbody>");
        int rows = Math.min(table.rowCount(), MAX_TABLE_ROWS);
        for (int r = 0; r < rows; r++) {
            b.append("<tr>");
            for (int c = 0; c < table.columnCount(); c++) {
                b.append(cell(table.column(c), r));
            }
            b.append("</tr>");
        }
        b.append("</tbody></table>");
        if (table.rowCount() > rows) {
            b.append("<p style=\"color:#777\">").append(table.rowCount() - rows).append(" more rows not shown</p>");
        }
        return b.toString();
    }

    /** The table as text, floating-point numbers with {@link DisplayOptions}' precision. */
    public static String text(Table table) {
        Table shown = Table.create(table.name());
        for (Column<?> c : table.columns()) {
            if (isFloating(c)) {
                NumericColumn<?> n = (NumericColumn<?>) c;
                StringColumn s = StringColumn.create(c.name());
                for (int r = 0; r < c.size(); r++) {
                    s.append(n.isMissing(r) ? "" : DisplayOptions.format(n.getDouble(r)));
                }
                shown.addColumns(s);
            } else {
                shown.addColumns(c.copy());
            }
        }
        return shown.printAll();
    }

    private static boolean isFloating(Column<?> column) {
        return column instanceof NumericColumn<?> && !(column instanceof IntColumn) && !(column instanceof LongColumn)
                && !(column instanceof ShortColumn);
    }

    /** One cell: numbers right-aligned with {@link DisplayOptions}' precision, the rest as tablesaw prints them. */
    private static String cell(Column<?> column, int row) {
        if (isFloating(column)) {
            NumericColumn<?> n = (NumericColumn<?>) column;
            String text = n.isMissing(row) ? "" : DisplayOptions.format(n.getDouble(row));
            return "<td style=\"text-align:right\">" + escape(text) + "</td>";
        }
        String align = column instanceof NumericColumn<?> ? " style=\"text-align:right\"" : "";
        return "<td" + align + ">" + escape(column.getString(row)) + "</td>";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
