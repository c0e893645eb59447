package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.ComparisonKind;
import fabriclab.datasets.ComparisonRow;
import fabriclab.notebook.PaperComparison;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Our simulator against the committed ns-3 outputs (datasets/published/ns3-*, checked against ns-3 itself by
 * Ns3ReferenceDatasetsTest): every figure within the tolerance {@link Ns3Comparison} states, and the exact ones equal
 * to the numbers ns-3 printed (read here from the CSV, not from our output).
 */
class Ns3ComparisonTest {
    @Test
    void everyFigureMeetsItsNs3Target() {
        PaperComparison cmp = Ns3Comparison.addTo(PaperComparison.of("ns-3", "outside reference"), Path.of("..", "datasets"));
        // 3 incasts x (3 exact + 2 in ns-3's order + 3 exact under the engines' rule) + 4 held queues + 3 steps
        // + 5 one-spine permutations + 2 over seeds
        assertEquals(3 * 8 + 4 + 3 + 5 + 2, cmp.rows().size());
        for (ComparisonRow r : cmp.rows()) {
            assertEquals(ComparisonKind.VALIDATION, r.kind());
            assertTrue(r.meetsTarget(), r.quantity() + ": ns-3 " + r.target().describe() + ", ours " + r.model());
        }
        // one exact figure spelled out, from the ns-3 dataset: 8 x 100 kB into 200 kB drops 501 packets in ns-3
        ComparisonRow drops = cmp.rows().get(0);
        assertEquals(501, drops.target().published());
        assertEquals(501, drops.model());
    }

    @Test
    void refusesANullComparisonOrADirectoryWithoutTheDatasets(@org.junit.jupiter.api.io.TempDir Path empty) {
        assertThrows(IllegalArgumentException.class, () -> Ns3Comparison.addTo(null, Path.of("..", "datasets")));
        assertThrows(IllegalArgumentException.class, () -> Ns3Comparison.addTo(PaperComparison.of("a", "b"), null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Ns3Comparison.addTo(PaperComparison.of("a", "b"), empty));
        assertTrue(e.getMessage().contains(Ns3Scenarios.INCAST_DATASET), e.getMessage());
    }
}
