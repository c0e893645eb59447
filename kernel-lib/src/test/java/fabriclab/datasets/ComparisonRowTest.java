package fabriclab.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ComparisonRowTest {
    private static ComparisonRow row(ComparisonKind kind, String basis, boolean canonical) {
        return new ComparisonRow("001_x.txt", "queue", "MB", kind, basis, canonical, Target.point(10), 11, null);
    }

    @Test
    void onlyACanonicalPredictionIsCounted() {
        assertTrue(row(ComparisonKind.PREDICTION, "", true).counted());
        assertFalse(row(ComparisonKind.CALIBRATED, "001's 10 MB", true).counted());
        assertFalse(row(ComparisonKind.DEFINITION, "", true).counted());
        assertFalse(row(ComparisonKind.VALIDATION, "a textbook", true).counted());
        assertFalse(row(ComparisonKind.WHAT_IF, "PFC off", true).counted());
        assertFalse(row(ComparisonKind.SUPERSEDED, "07-demo", false).counted());
        assertEquals("", row(ComparisonKind.PREDICTION, "", true).note());
        assertEquals("001_x.txt: queue", row(ComparisonKind.PREDICTION, "", true).publishedQuantity());
    }

    @Test
    void kindsThatNeedABasisRejectABlankOne() {
        for (ComparisonKind k : ComparisonKind.values()) {
            if (k.needsBasis()) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> row(k, " ", k != ComparisonKind.SUPERSEDED));
                assertTrue(e.getMessage().startsWith("basis"), e.getMessage());
            }
        }
    }

    @Test
    void canonicalFlagFollowsTheKind() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> row(ComparisonKind.SUPERSEDED, "07-demo", true))
                .getMessage().startsWith("canonical"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> row(ComparisonKind.PREDICTION, "", false))
                .getMessage().startsWith("canonical"));
        assertFalse(row(ComparisonKind.WHAT_IF, "PFC off", false).canonical());
        // a fit beside the quantity's canonical prediction: calibrated, not canonical
        assertFalse(row(ComparisonKind.CALIBRATED, "002 table 1, row 1", false).canonical());
        ComparisonRow fit = row(ComparisonKind.WHAT_IF, "the point calibrated on this row", false).withTrivialValue(0).asCalibrated("row 1");
        assertEquals(ComparisonKind.CALIBRATED, fit.kind());
        assertEquals("the point calibrated on this row", fit.basis());
        assertFalse(fit.canonical());
        assertEquals(0.0, fit.trivialValue());
        assertEquals("row 1", row(ComparisonKind.PREDICTION, "", true).asCalibrated("row 1").basis());   // a basis where none was
    }

    @Test
    void rejectsMissingFields() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ComparisonRow(" ", "q", "", ComparisonKind.PREDICTION,
                "", true, Target.point(1), 1, "")).getMessage().startsWith("source"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ComparisonRow("s", "q", "", null,
                "", true, Target.point(1), 1, "")).getMessage().startsWith("kind"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ComparisonRow("s", "q", "", ComparisonKind.PREDICTION,
                "", true, Target.point(1), Double.POSITIVE_INFINITY, "")).getMessage().startsWith("model"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ComparisonKind.fromLabel("hit")).getMessage()
                .contains("what-if"));
    }
}
