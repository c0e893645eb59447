package fabriclab.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.project.ProjectPaths;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/**
 * The project's own comparison datasets ({@code datasets/model/comparison-*.csv}, written by the
 * notebooks): the scorecard they make must not flatter.
 */
class ProjectScorecardTest {
    @Test
    void everyRowHasAKindAndASourceAndParses() {
        List<Scorecard.Entry> entries = Scorecard.entries(ProjectPaths.datasets());   // throws on a row without kind/source
        assertFalse(entries.isEmpty(), "no comparison datasets under " + ProjectPaths.datasets());
    }

    @Test
    void everyPublishedQuantityHasExactlyOneCanonicalRow() {
        assertEquals(List.of(), Scorecard.problems(ProjectPaths.datasets()));
    }

    @Test
    void onlyPredictionsAreCounted() {
        Table counted = Scorecard.predictions(ProjectPaths.datasets());
        for (int i = 0; i < counted.rowCount(); i++) {
            assertEquals("prediction", counted.stringColumn("kind").get(i),
                    "counted row \"" + counted.stringColumn("quantity").get(i) + "\" of " + counted.stringColumn("notebook").get(i));
            assertEquals("yes", counted.stringColumn("canonical").get(i));
        }
        for (Scorecard.Entry e : Scorecard.entries(ProjectPaths.datasets())) {
            if (e.row().kind() != ComparisonKind.PREDICTION) {
                assertFalse(e.row().counted(), e.row().kind().label() + " row \"" + e.row().quantity() + "\" of "
                        + e.comparison() + " is counted");
            }
        }
        long predictions = Scorecard.entries(ProjectPaths.datasets()).stream().filter(e -> e.row().counted()).count();
        assertTrue(predictions == counted.rowCount());
    }

    @Test
    void everyCountedPredictionHasASeedRangeAroundItsReportedValue() {
        var ranges = SeedRanges.fromDatasets(ProjectPaths.datasets());
        for (Scorecard.Entry e : Scorecard.entries(ProjectPaths.datasets())) {
            if (!Scorecard.counted(e)) {
                continue;
            }
            String what = "\"" + e.row().quantity() + "\" of " + e.comparison();
            SeedRange s = ranges.apply(e).orElseThrow(() -> new AssertionError(what + " has no seed range in the saved runs"));
            // a median, or a ratio of medians of positive runs, lies between the smallest and largest seed
            assertTrue(s.min() <= e.row().model() + 1e-9 && e.row().model() <= s.max() + 1e-9,
                    what + ": reported " + e.row().model() + " outside its seed range " + s.min() + " to " + s.max());
            // the hit rule is never looser than the reported value's
            if (Scorecard.meetsPaper(e, ranges)) {
                assertTrue(e.row().meetsTarget(), what);
            }
        }
    }
}
