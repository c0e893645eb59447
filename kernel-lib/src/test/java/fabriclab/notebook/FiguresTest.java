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
}
