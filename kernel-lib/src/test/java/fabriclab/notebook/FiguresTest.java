package fabriclab.notebook;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

class FiguresTest {
    private static XYChart chart() {
        XYChart c = Figures.xy("queue", "time [us]", "queue [KB]");
        c.addSeries("model", new double[] {0, 1, 2}, new double[] {0, 5, 3});
        Figures.markPaperValue(c, "1.22 MB", 1, 4);
        Figures.markPaperLevel(c, "level", 2, 0, 2);
        return c;
    }

    @Test
    void savesPngAndSvgDeterministically(@TempDir Path dir) throws Exception {
        Figures.save(chart(), "q", dir);
        byte[] png = Files.readAllBytes(dir.resolve("q.png"));
        byte[] svg = Files.readAllBytes(dir.resolve("q.svg"));
        assertEquals((byte) 0x89, png[0]);
        assertEquals('P', png[1]);
        assertTrue(new String(svg, java.nio.charset.StandardCharsets.UTF_8).contains("<svg"));
        Figures.save(chart(), "q", dir);
        assertArrayEquals(png, Files.readAllBytes(dir.resolve("q.png")));
        assertArrayEquals(svg, Files.readAllBytes(dir.resolve("q.svg")));
    }

    @Test
    void paperValuesAreLabelled() {
        assertTrue(chart().getSeriesMap().containsKey("paper: 1.22 MB"));
    }

    @Test
    void rejectsBadNames(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Figures.save(chart(), "../x", dir));
        assertTrue(e.getMessage().startsWith("name"));
        assertThrows(IllegalArgumentException.class, () -> Figures.markPaperValue(chart(), "x", Double.NaN, 1));
    }

    @Test
    void spreadDrawsMedianAndRangePerCategoryAndTheBandAcrossAll() {
        var c = Figures.spread("ratio over seeds", "configuration", "ratio", java.util.List.of("a", "b"),
                new double[] {2, 3}, new double[] {1, 3}, new double[] {2.5, 4}, 5);
        Figures.markPaperLevel(c, "band low", 3.0);
        assertEquals(java.util.List.of("median over 5 seeds", "lowest seed", "highest seed", "paper: band low"),
                java.util.List.copyOf(c.getSeriesMap().keySet()));
        assertEquals(java.util.List.of(3.0, 3.0), java.util.List.copyOf(c.getSeriesMap().get("paper: band low").getYData()));
        assertThrows(IllegalArgumentException.class, () -> Figures.spread("t", "x", "y", java.util.List.of("a"),
                new double[] {2}, new double[] {2.5}, new double[] {3}, 5)); // min above the median
        assertThrows(IllegalArgumentException.class, () -> Figures.spread("t", "x", "y", java.util.List.of("a", "a"),
                new double[] {2, 2}, new double[] {1, 1}, new double[] {3, 3}, 5));
        assertThrows(IllegalArgumentException.class, () -> Figures.spread("t", "x", "y", java.util.List.of("a"),
                new double[] {Double.NaN}, new double[] {1}, new double[] {3}, 5));
        assertThrows(IllegalArgumentException.class, () -> Figures.markPaperLevel(Figures.bars("t", "x", "y"), "l", 1.0));
    }
}
