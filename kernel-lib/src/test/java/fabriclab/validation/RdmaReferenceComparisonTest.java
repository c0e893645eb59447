package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.ComparisonKind;
import fabriclab.datasets.ComparisonRow;
import fabriclab.notebook.PaperComparison;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/** The validation rows against the RDMA reference that notebook 14 shows and the scorecard lists. */
class RdmaReferenceComparisonTest {
    @Test
    void everyScenarioGivesItsRowsAndOnlyTheNamedFiguresMiss() {
        RdmaReferenceComparison c = RdmaReferenceComparison.run();
        List<ComparisonRow> rows = c.rows();
        // incasts: 8 figures each, no first PAUSE where the reference does not pause (N = 4); victim: 4 + 10 ports + 3
        // queues per run; go-back-N: 4; all-to-all: 8 hashed (flows completed, six FCT statistics, PAUSE), 4 one-spine,
        // 4 one-spine with the reference's NIC rule (token bucket, bursts)
        assertEquals(7 + 8 + 8 + 2 * (4 + 10 + 3) + 4 + 8 + 4 + 4, rows.size());
        for (ComparisonRow r : rows) {
            assertEquals(ComparisonKind.VALIDATION, r.kind(), r.quantity());
            assertEquals(RdmaReferenceComparison.REFERENCE, r.source(), r.quantity());
            assertTrue(!r.toleranceReason().isBlank(), r.quantity() + " states its tolerance's reason");
            if (r.unit().equals("ratio")) { // the same regime: a factor of 3 either way
                assertEquals(1 / 3.0, r.target().published(), 1e-12);
                assertEquals(3.0, r.target().publishedHigh(), 1e-12);
                assertEquals(r.model() >= 1 / 3.0 && r.model() <= 3, r.meetsTarget(), r.quantity());
            }
            if (!r.meetsTarget()) {
                assertTrue(r.quantity().contains("PAUSE frames")
                        || r.quantity().equals("4-to-1 DCQCN+PFC incast, 1 MB each at 100 Gb/s: peak queue at the receiver's port")
                        || r.quantity().endsWith("1 spine (no hashing), 256 KB per pair at 100 Gb/s: mean FCT of the flows"
                                + " within a leaf"), r.quantity());
                assertTrue(r.note().contains("mechanism"), r.quantity() + ": a miss names its mechanism");
            }
            if (r.quantity().contains("as the reference's (token bucket, bursts)")) { // the traced mechanism: its rows pass
                assertTrue(r.meetsTarget(), r.quantity() + ": ours " + r.model() + ", " + r.target().describe());
            }
        }
        assertEquals(rows.size(), c.addTo(PaperComparison.of("t", "outside reference (not a seed paper)")).rows().size());
        List<Table> summaries = c.summaries();
        assertEquals(List.of(23, 34, 4, 16), summaries.stream().map(Table::rowCount).toList(),
                "incasts, victim, go-back-N, all-to-all");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> RdmaReferenceComparison.run((java.nio.file.Path) null));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RdmaReferenceComparison.run((fabriclab.simulation.config.SwitchBuffer.MarkingPoint) null));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> c.incast(5));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> c.addTo(null));
        Table incastDataset = fabriclab.datasets.Datasets.load(RdmaReferenceComparison.INCAST_DATASET).table();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RdmaReferenceComparison.incastRows(4, null, incastDataset));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RdmaReferenceComparison.incastRows(5, c.incast(4), incastDataset), "N = 5 is not in the dataset");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RdmaReferenceComparison.victimRows(true, null, incastDataset));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RdmaReferenceComparison.goBackNRows(c.incast(4), null));
        Table allToAllDataset = fabriclab.datasets.Datasets.load(RdmaReferenceComparison.ALL_TO_ALL_DATASET).table();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RdmaReferenceComparison.allToAllRows(null, c.allToAllControl(), allToAllDataset));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RdmaReferenceComparison.allToAllRows(List.of(), c.allToAllControl(), allToAllDataset), "no run");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RdmaReferenceComparison.allToAllRows(c.allToAll(), null, allToAllDataset));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RdmaReferenceComparison.allToAllRows(c.allToAll(), c.allToAllControl(), incastDataset),
                "the incast dataset has no all-to-all rows");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RdmaReferenceComparison.allToAllTokenBucketRows(null, allToAllDataset));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RdmaReferenceComparison.allToAllTokenBucketRows(c.allToAllControlTokenBucket(), incastDataset),
                "the incast dataset has no all-to-all rows");
        assertEquals(RdmaReferenceComparison.ALL_TO_ALL_RUNS, c.allToAll().size());
        Table fct = c.incastFct();
        assertEquals(4 + 8 + 16, fct.rowCount());
        assertEquals(List.of("senders", "sender", "reference_us", "ours_us"), fct.columnNames());
    }

    /**
     * Run with our switches marking at dequeue, as the reference's do: the same rows, every miss names its mechanism, the
     * tables say so, and the misses the marking point explains (the 4-to-1 incast's PAUSE frames and peak queue) pass.
     */
    @Test
    void underTheReferencesMarkingPointTheSameRowsAndEveryMissNamesItsMechanism() {
        RdmaReferenceComparison c = RdmaReferenceComparison.run(fabriclab.simulation.config.SwitchBuffer.MarkingPoint.DEQUEUE);
        assertEquals(fabriclab.simulation.config.SwitchBuffer.MarkingPoint.DEQUEUE, c.markingPoint());
        List<ComparisonRow> rows = c.rows();
        assertEquals(7 + 8 + 8 + 2 * (4 + 10 + 3) + 4 + 8 + 4 + 4, rows.size());
        for (ComparisonRow r : rows) {
            if (r.quantity().contains("as the reference's (token bucket, bursts)")) { // the traced mechanism: its rows pass
                assertTrue(r.meetsTarget(), r.quantity() + ": ours " + r.model() + ", " + r.target().describe());
            }
            if (!r.meetsTarget()) {
                assertTrue(r.note().contains("mechanism"), r.quantity() + ": a miss names its mechanism");
            }
            if (r.quantity().startsWith("4-to-1") && (r.quantity().endsWith("PAUSE frames the switch sends")
                    || r.quantity().endsWith("peak queue at the receiver's port"))) {
                assertTrue(r.meetsTarget(), r.quantity());
            }
        }
        assertTrue(c.summaries().stream().allMatch(t -> t.name().contains("marking at dequeue")));
    }
}
