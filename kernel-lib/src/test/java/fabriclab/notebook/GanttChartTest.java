package fabriclab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

class GanttChartTest {
    @Test
    void touchingBarsOfALaneAndCategoryBecomeOneSeriesWithOneLegendEntryPerCategory() {
        List<GanttChart.Bar> bars = List.of(new GanttChart.Bar("gpu", "compute", 0, 1), new GanttChart.Bar("gpu", "compute", 1, 2),
                new GanttChart.Bar("gpu", "compute", 5, 6), new GanttChart.Bar("nic", "comm", 2, 5));
        XYChart c = GanttChart.of("t", "time [s]", bars);
        assertEquals(3, c.getSeriesMap().size()); // [0, 2] and [5, 6] on the gpu lane, [2, 5] on the nic lane
        assertEquals(2, c.getSeriesMap().values().stream().filter(XYSeries::isShowInLegend).count());
        XYSeries first = c.getSeriesMap().get("compute");
        assertEquals(2.0, first.getXData()[1], 1e-12);
        assertEquals(1.0, first.getYData()[0], 1e-12); // the first lane is at the top
        assertEquals(List.of("gpu", "nic"), GanttChart.lanes(bars));
    }

    @Test
    void rejectsBadBarsNamingTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new GanttChart.Bar("l", "c", 2, 1)).getMessage()
                .contains("end must be at least start"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GanttChart.of("t", "x", List.of())).getMessage()
                .contains("bars"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new GanttChart.Bar("l", "c", Double.NaN, 1)).getMessage()
                .contains("start"));
    }
}
