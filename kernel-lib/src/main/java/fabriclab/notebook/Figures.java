package fabriclab.notebook;

import fabriclab.Parameters;
import fabriclab.project.ProjectPaths;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The house style of fabriclab figures, and where they are saved.
 *
 * <p>Every chart gets a title, axis titles (the caller puts units in brackets, for example
 * {@code "data size [MB]"}), a legend, white background and light grid. Published values from the
 * papers are drawn in one recognisable way: {@link #PAPER_COLOR} diamonds for points
 * ({@link #markPaperValue}) and a dashed line for levels ({@link #markPaperLevel}), with a legend
 * entry that starts with "paper:".
 *
 * <p>{@link #save} writes {@code images/NAME.png} (for reports) and {@code images/NAME.svg} (for
 * front ends that take SVG) and returns the chart, so a notebook cell can end with
 * {@code Figures.save(chart, "name")} and see it inline. Output is deterministic: the same chart
 * gives byte-identical files.
 */
public final class Figures {
    /** Width of saved figures, pixels. */
    public static final int WIDTH = 860;
    /** Height of saved figures, pixels. */
    public static final int HEIGHT = 520;
    /** Colour of every published (paper) value. */
    public static final Color PAPER_COLOR = new Color(0xC0, 0x1C, 0x28);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Color[] SERIES_COLORS = {
        new Color(0x1F, 0x77, 0xB4), new Color(0xFF, 0x7F, 0x0E), new Color(0x2C, 0xA0, 0x2C),
        new Color(0x94, 0x67, 0xBD), new Color(0x8C, 0x56, 0x4B), new Color(0x17, 0xBE, 0xCF),
        new Color(0x7F, 0x7F, 0x7F), new Color(0xBC, 0xBD, 0x22),
    };

    private Figures() {
    }

    /** A line chart in the house style. Axis titles should carry units, e.g. {@code "time [us]"}. */
    public static XYChart xy(String title, String xAxisTitle, String yAxisTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(Parameters.notBlank("title", title))
                .xAxisTitle(Parameters.notBlank("xAxisTitle", xAxisTitle))
                .yAxisTitle(Parameters.notBlank("yAxisTitle", yAxisTitle)).build();
        style(chart.getStyler());
        chart.getStyler().setMarkerSize(6);
        return chart;
    }

    /** A bar chart in the house style. */
    public static CategoryChart bars(String title, String xAxisTitle, String yAxisTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title(Parameters.notBlank("title", title))
                .xAxisTitle(Parameters.notBlank("xAxisTitle", xAxisTitle))
                .yAxisTitle(Parameters.notBlank("yAxisTitle", yAxisTitle)).build();
        style(chart.getStyler());
        chart.getStyler().setOverlapped(false);
        return chart;
    }

    /**
     * A heat map in the house style: cells coloured from white ({@code min}) to dark red ({@code max}),
     * each showing its value with {@code decimalPattern} (e.g. "0.00"). Add the cells with
     * {@code chart.addSeries(name, xCategories, yCategories, cells)}, each cell {x index, y index, value}.
     *
     * @param min value drawn white
     * @param max value drawn darkest, above {@code min}
     */
    public static HeatMapChart heatmap(String title, String xAxisTitle, String yAxisTitle, double min, double max,
            String decimalPattern) {
        Parameters.finite("min", min);
        Parameters.finite("max", max);
        if (!(max > min)) {
            throw new IllegalArgumentException("max must be above min = " + min + ", got " + max);
        }
        HeatMapChart chart = new HeatMapChartBuilder().width(WIDTH).height(HEIGHT)
                .title(Parameters.notBlank("title", title))
                .xAxisTitle(Parameters.notBlank("xAxisTitle", xAxisTitle))
                .yAxisTitle(Parameters.notBlank("yAxisTitle", yAxisTitle)).build();
        style(chart.getStyler());
        chart.getStyler().setShowValue(true);
        chart.getStyler().setMin(min);
        chart.getStyler().setMax(max);
        chart.getStyler().setHeatMapValueDecimalPattern(Parameters.notBlank("decimalPattern", decimalPattern));
        chart.getStyler().setRangeColors(new Color[] {Color.WHITE, new Color(0xF4, 0xA5, 0x82), PAPER_COLOR});
        chart.getStyler().setPlotGridLinesVisible(false);
        return chart;
    }

    private static void style(AxesChartStyler s) {
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderColor(new Color(0x99, 0x99, 0x99));
        s.setPlotGridLinesColor(new Color(0xE3, 0xE3, 0xE3));
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setLegendBorderColor(Color.WHITE);
        s.setSeriesColors(SERIES_COLORS);
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        s.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        s.setChartTitleBoxVisible(false);
        s.setAntiAlias(true);
    }

    /**
     * Marks one published value as a red diamond with the legend entry {@code "paper: label"}.
     *
     * @return the added series
     */
    public static XYSeries markPaperValue(XYChart chart, String label, double x, double y) {
        Parameters.notNull("chart", chart);
        Parameters.finite("x", x);
        Parameters.finite("y", y);
        XYSeries s = chart.addSeries("paper: " + Parameters.notBlank("label", label), new double[] {x}, new double[] {y});
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(SeriesMarkers.DIAMOND);
        s.setMarkerColor(PAPER_COLOR);
        return s;
    }

    /**
     * Marks a published level as a dashed horizontal line from {@code xFrom} to {@code xTo}, with the
     * legend entry {@code "paper: label"}.
     */
    public static XYSeries markPaperLevel(XYChart chart, String label, double y, double xFrom, double xTo) {
        Parameters.notNull("chart", chart);
        Parameters.finite("y", y);
        Parameters.finite("xFrom", xFrom);
        Parameters.finite("xTo", xTo);
        XYSeries s = chart.addSeries("paper: " + Parameters.notBlank("label", label), new double[] {xFrom, xTo}, new double[] {y, y});
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(PAPER_COLOR);
        s.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 5f}, 0f));
        return s;
    }

    /**
     * The spread of a quantity over seeds as a category chart: for each category its median (a filled circle) and
     * its lowest and highest seed (triangles pointing down and up), no bars, so that a band drawn with
     * {@link #markPaperLevel(CategoryChart, String, double)} is read against the whole range.
     *
     * @param categories one label per configuration, not empty, no duplicate
     * @param median the median per category, finite
     * @param min the lowest value per category, finite, at most the median
     * @param max the highest value per category, finite, at least the median
     * @param seeds how many seeds each category ran, at least 1 (named in the legend)
     */
    public static CategoryChart spread(String title, String xAxisTitle, String yAxisTitle, java.util.List<String> categories,
            double[] median, double[] min, double[] max, int seeds) {
        Parameters.noNullElements("categories", categories);
        if (categories.isEmpty()) {
            throw new IllegalArgumentException("categories must not be empty");
        }
        if (new java.util.HashSet<>(categories).size() != categories.size()) {
            throw new IllegalArgumentException("categories must not repeat a label, got " + categories);
        }
        Parameters.notNull("median", median);
        Parameters.notNull("min", min);
        Parameters.notNull("max", max);
        Parameters.atLeast("seeds", seeds, 1);
        int n = categories.size();
        for (double[] a : new double[][] {median, min, max}) {
            if (a.length != n) {
                throw new IllegalArgumentException("median, min and max must hold one value per category (" + n
                        + "), got " + median.length + ", " + min.length + " and " + max.length);
            }
        }
        for (int i = 0; i < n; i++) {
            Parameters.finite("median[" + i + "]", median[i]);
            Parameters.finite("min[" + i + "]", min[i]);
            Parameters.finite("max[" + i + "]", max[i]);
            if (!(min[i] <= median[i] && median[i] <= max[i])) {
                throw new IllegalArgumentException("category " + categories.get(i) + ": min <= median <= max must hold, got "
                        + min[i] + ", " + median[i] + ", " + max[i]);
            }
        }
        CategoryChart chart = bars(title, xAxisTitle, yAxisTitle);
        chart.getStyler().setOverlapped(true);
        chart.getStyler().setXAxisLabelRotation(20);
        Object[][] series = {{"median over " + seeds + " seeds", median, SeriesMarkers.CIRCLE},
            {"lowest seed", min, SeriesMarkers.TRIANGLE_DOWN}, {"highest seed", max, SeriesMarkers.TRIANGLE_UP}};
        for (Object[] s : series) {
            double[] y = (double[]) s[1];
            java.util.List<Double> ys = new java.util.ArrayList<>();
            for (double v : y) {
                ys.add(v);
            }
            org.knowm.xchart.CategorySeries c = chart.addSeries((String) s[0], categories, ys);
            c.setChartCategorySeriesRenderStyle(org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle.Scatter);
            c.setMarker((org.knowm.xchart.style.markers.Marker) s[2]);
        }
        chart.getStyler().setMarkerSize(9);
        return chart;
    }

    /**
     * Marks a published level on a category chart as a dashed line across every category, with the legend entry
     * {@code "paper: label"}. Add it after the chart's other series (it takes their categories).
     *
     * @return the added series
     */
    public static org.knowm.xchart.CategorySeries markPaperLevel(CategoryChart chart, String label, double y) {
        Parameters.notNull("chart", chart);
        Parameters.finite("y", y);
        if (chart.getSeriesMap().isEmpty()) {
            throw new IllegalArgumentException("chart must hold a series before a level is marked (the level takes its categories)");
        }
        java.util.List<?> categories = new java.util.ArrayList<>(chart.getSeriesMap().values().iterator().next().getXData());
        java.util.List<Double> ys = new java.util.ArrayList<>();
        for (int i = 0; i < categories.size(); i++) {
            ys.add(y);
        }
        org.knowm.xchart.CategorySeries s = chart.addSeries("paper: " + Parameters.notBlank("label", label), categories, ys);
        s.setChartCategorySeriesRenderStyle(org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(PAPER_COLOR);
        s.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 5f}, 0f));
        return s;
    }

    /**
     * Saves {@code images/NAME.png} and {@code images/NAME.svg} and returns the chart unchanged.
     *
     * @param name file name without extension: letters, digits, '.', '_' and '-'
     */
    public static <C extends Chart<?, ?>> C save(C chart, String name) {
        return save(chart, name, ProjectPaths.images());
    }

    /** Like {@link #save(Chart, String)} into the given directory (created if missing). */
    public static <C extends Chart<?, ?>> C save(C chart, String name, Path directory) {
        Parameters.notNull("chart", chart);
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name must match " + NAME.pattern() + " (no directories, no extension), got " + name);
        }
        Parameters.notNull("directory", directory);
        try {
            Files.createDirectories(directory);
            Files.write(directory.resolve(name + ".png"), png(chart));
            try (OutputStream out = Files.newOutputStream(directory.resolve(name + ".svg"))) {
                VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write figure " + name + " to " + directory, e);
        }
        return chart;
    }

    /** The chart as PNG bytes. */
    public static byte[] png(Chart<?, ?> chart) {
        try {
            return BitmapEncoder.getBitmapBytes(Parameters.notNull("chart", chart), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode chart as PNG", e);
        }
    }

    /** The chart as an SVG document. */
    public static String svg(Chart<?, ?> chart) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try {
            VectorGraphicsEncoder.saveVectorGraphic(Parameters.notNull("chart", chart), out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode chart as SVG", e);
        }
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
