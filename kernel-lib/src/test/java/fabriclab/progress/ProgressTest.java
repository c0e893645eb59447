package fabriclab.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressTest {
    @Test
    void progressReportsStartAndEnd() {
        List<Progress.State> seen = new ArrayList<>();
        try (Progress p = Progress.start("sweep", 10, seen::add)) {
            for (int i = 0; i < 10; i++) {
                p.step();
            }
        }
        assertEquals(0, seen.get(0).done());
        Progress.State last = seen.get(seen.size() - 1);
        assertTrue(last.finished());
        assertEquals(10, last.done());
        assertEquals(1.0, last.fraction());
        assertTrue(last.textBar().contains("100%"));
        assertThrows(IllegalArgumentException.class, () -> Progress.start("x", -1, Progress.silent()));
    }

    @Test
    void consoleSinkPrintsStartAndEndButNotEveryStep() {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        ProgressSink console = Progress.console(new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
        for (int i = 0; i <= 100; i++) {
            console.report(new Progress.State("id", "sweep", i, 100, 0.001 * i, false));
        }
        console.report(new Progress.State("id", "sweep", 100, 100, 0.2, true));
        List<String> lines = buf.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(1).endsWith("done in 0.2 s"), lines.get(1));
    }

    @Test
    void aFinishedBarHoldsNoWallClockTimeSoExecutedNotebooksAreReproducible() {
        Progress.State fast = new Progress.State("a", "sweep", 20, 20, 0.25, true);
        Progress.State slow = new Progress.State("a", "sweep", 20, 20, 93.5, true);
        assertEquals(fast.textBar(), slow.textBar());
        assertEquals(fast.htmlBar(), slow.htmlBar());
        assertTrue(fast.textBar().endsWith("20/20 done"), fast.textBar());
        Progress.State running = new Progress.State("a", "sweep", 10, 20, 1.25, false);
        assertTrue(running.textBar().endsWith("10/20 1.3 s") || running.textBar().endsWith("10/20 1.2 s"), running.textBar());
    }
}
