package fabriclab.notebook;

import fabriclab.Parameters;
import java.awt.BasicStroke;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A Gantt chart in the house style ({@link Figures#xy}): one row per lane (first lane at the top, its name
 * right of the bars), one thick bar per interval, coloured by category (one legend entry per category). Intervals of a lane and
 * category closer than 1/1000 of the time axis are drawn as one bar (they would touch on screen anyway),
 * so a schedule of thousands of intervals stays a light figure.
 */
public final class GanttChart {
    private GanttChart() {
    }

    /**
     * One bar.
     *
     * @param lane the row
     * @param category the legend entry (colour)
     * @param start start, in the unit of the time axis
     * @param end end, at least start
     */
    public record Bar(String lane, String category, double start, double end) {
        /** Validates. */
        public Bar {
            Parameters.notBlank("lane", lane);
            Parameters.notBlank("category", category);
            Parameters.finite("start", start);
            Parameters.finite("end", end);
            if (end < start) {
                throw new IllegalArgumentException("end must be at least start = " + start + ", got " + end);
            }
        }
    }

    /**
     * The chart.
     *
     * @param title the title
     * @param timeAxisTitle the x axis, with its unit
     * @param bars the bars, at least one
     */
    public static XYChart of(String title, String timeAxisTitle, List<Bar> bars) {
        Parameters.notNull("bars", bars);
        if (bars.isEmpty()) {
            throw new IllegalArgumentException("bars must not be empty");
        }
        List<String> lanes = new ArrayList<>(new LinkedHashSet<>(bars.stream().map(Bar::lane).toList()));
        double end = bars.stream().mapToDouble(Bar::end).max().orElseThrow();
        double start = bars.stream().mapToDouble(Bar::start).min().orElseThrow();
        double join = (end - start) / 1000;
        Map<String, List<Bar>> byKey = new LinkedHashMap<>();
        for (Bar b : bars) {
            byKey.computeIfAbsent(b.lane() + "\u0000" + b.category(), k -> new ArrayList<>()).add(b);
        }
        XYChart chart = Figures.xy(title, timeAxisTitle, "stream");



        double span = end - start;
        chart.getStyler().setYAxisMin(-0.7);
        chart.getStyler().setYAxisMax(lanes.size() - 0.3);
        chart.getStyler().setYAxisTicksVisible(false);
        chart.getStyler().setXAxisMin(start);
        chart.getStyler().setXAxisMax(end + 0.45 * span); // room for the lane names, right of the bars
        for (int i = 0; i < lanes.size(); i++) {
            chart.addAnnotation(new org.knowm.xchart.AnnotationText(lanes.get(i), end + 0.23 * span, lanes.size() - 1 - i, false));
        }
        chart.getStyler().setMarkerSize(0);
        Map<String, java.awt.Color> colour = new LinkedHashMap<>();
        java.awt.Color[] palette = {new java.awt.Color(0x1F, 0x77, 0xB4), new java.awt.Color(0xFF, 0x7F, 0x0E),
            new java.awt.Color(0x2C, 0xA0, 0x2C), new java.awt.Color(0x94, 0x67, 0xBD), new java.awt.Color(0x8C, 0x56, 0x4B),
            new java.awt.Color(0x17, 0xBE, 0xCF), new java.awt.Color(0x7F, 0x7F, 0x7F), new java.awt.Color(0xBC, 0xBD, 0x22)};
        float width = Math.max(4f, Math.min(24f, 300f / lanes.size()));
        int n = 0;
        for (List<Bar> group : byKey.values()) {
            group.sort(Comparator.comparingDouble(Bar::start));
            List<double[]> merged = new ArrayList<>();
            for (Bar b : group) {
                double[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
                if (last != null && b.start() - last[1] <= join) {
                    last[1] = Math.max(last[1], b.end());
                } else {
                    merged.add(new double[] {b.start(), b.end()});
                }
            }
            Bar first = group.get(0);
            double y = lanes.size() - 1 - lanes.indexOf(first.lane());
            for (double[] m : merged) {
                boolean legend = !colour.containsKey(first.category());
                String name = legend ? first.category() : first.category() + " #" + n;
                XYSeries s = chart.addSeries(name, new double[] {m[0], Math.max(m[1], m[0] + join / 4)}, new double[] {y, y});
                s.setMarker(SeriesMarkers.NONE);
                s.setLineStyle(new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER));
                s.setShowInLegend(legend);
                colour.computeIfAbsent(first.category(), c -> palette[colour.size() % palette.length]);
                s.setLineColor(colour.get(first.category()));
                n++;
            }
        }
        return chart;
    }

    /** The lanes of {@code bars} in first-use order, top to bottom (for a caption naming the rows). */
    public static List<String> lanes(List<Bar> bars) {
        Parameters.notNull("bars", bars);
        return new ArrayList<>(new LinkedHashSet<>(bars.stream().map(Bar::lane).toList()));
    }
}
