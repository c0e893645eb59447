package fabriclab.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ComparisonRowQualifiersTest {
    private static ComparisonRow prediction(String quantity, Target target, double model) {
        return new ComparisonRow("001_x.txt", quantity, "Gb/s", ComparisonKind.PREDICTION, "", true, target, model, "");
    }

    @Test
    void aConstructionValueInsideTheToleranceMakesTheRowTrivial() {
        // 100 against "100 +- 15%": difference 0
        assertTrue(prediction("rate", Target.point(100), 80).withTrivialValue(100).trivial());
        // 1 against the band 3.0 to 3.5: (1 - 3) / 3 = -0.67, far outside 15%
        assertFalse(prediction("ratio", Target.band(3.0, 3.5), 3.2).withTrivialValue(1).trivial());
        // 100 against 90.7 +- 15%: (100 - 90.7) / 90.7 = 0.1025 <= 0.15
        assertTrue(prediction("rate", Target.point(90.7), 89).withTrivialValue(100).trivial());
        // 100 against 80 +- 15%: (100 - 80) / 80 = 0.25 > 0.15
        assertFalse(prediction("rate", Target.point(80), 80).withTrivialValue(100).trivial());
        // "no loss": 0 meets "at most 0"; 7 MB does not meet "at least 10 MB"
        assertTrue(prediction("drops", Target.atMost(0), 5).withTrivialValue(0).trivial());
        assertFalse(prediction("queue", Target.atLeast(10), 7.2).withTrivialValue(7).trivial());
        // no construction value declared: never trivial, whatever the target
        ComparisonRow plain = prediction("rate", Target.point(100), 100);
        assertFalse(plain.hasTrivialValue());
        assertFalse(plain.trivial());
        assertTrue(Double.isNaN(plain.trivialValue()));
    }

    @Test
    void trivialityFollowsTheRowsOwnTolerance() {
        // 100 against 90.7: 10.25% off; met at the default 15%, not at 5%
        ComparisonRow r = prediction("rate", Target.point(90.7), 89).withTrivialValue(100);
        assertTrue(r.trivial());
        ComparisonRow tight = r.withTolerance(0.05, "a throughput the paper prints to four digits");
        assertFalse(tight.trivial());
        assertEquals(0.05, tight.target().tolerance());
        assertEquals("point", tight.target().form());
        assertEquals(90.7, tight.target().published());
        assertEquals("a throughput the paper prints to four digits", tight.toleranceReasonOrDefault());
    }

    @Test
    void theToleranceReasonDefaultsByForm() {
        assertEquals("default 15% on a number the paper states as about",
                prediction("rate", Target.point(90.7), 89).toleranceReasonOrDefault());
        assertEquals("a strict bound", prediction("queue", Target.atLeast(10), 7).toleranceReasonOrDefault());
        assertEquals("not stated", prediction("rate", Target.point(90.7, 0.1), 89).toleranceReasonOrDefault());
        assertEquals("two numbers in text", prediction("rate", Target.point(90.7, 0.1), 89)
                .withToleranceReason("two numbers in text").toleranceReasonOrDefault());
        assertThrows(IllegalArgumentException.class, () -> prediction("rate", Target.point(1), 1).withToleranceReason(" "));
    }

    @Test
    void aRestatingRowSharesTheQuantityKeyOfTheRowItNames() {
        ComparisonRow rate = prediction("DCQCN throughput", Target.point(97.98), 100);
        ComparisonRow util = new ComparisonRow("001_x.txt", "DCQCN utilisation", "%", ComparisonKind.PREDICTION, "", true,
                Target.point(95.4), 100, "").withSameQuantityAs("DCQCN throughput");
        assertEquals("001_x.txt: DCQCN throughput", rate.quantityKey());
        assertEquals(rate.quantityKey(), util.quantityKey());
        assertEquals("001_x.txt: DCQCN utilisation", util.publishedQuantity());   // still its own published quantity
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rate.withSameQuantityAs("DCQCN throughput"));
        assertTrue(e.getMessage().startsWith("sameQuantityAs"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> rate.withTrivialValue(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> rate.withTrivialValue(Double.NaN));
    }
}
