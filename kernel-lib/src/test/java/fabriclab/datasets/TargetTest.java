package fabriclab.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TargetTest {
    @Test
    void pointIsRelativeToItsValueWithinTolerance() {
        Target t = Target.point(100);
        assertEquals(-0.10, t.relativeDifference(90), 1e-12);   // (90 - 100) / 100
        assertEquals(0.20, t.relativeDifference(120), 1e-12);
        assertTrue(t.met(86));
        assertFalse(t.met(84));
        assertEquals(0.5, Target.point(-2, 0.1).relativeDifference(-1), 1e-12);   // (-1 - (-2)) / |-2|
    }

    @Test
    void lowerBoundCountsOnlyShortfall() {
        Target t = Target.atLeast(10);
        assertEquals(0, t.relativeDifference(90.6));
        assertEquals(0, t.relativeDifference(10));
        assertEquals(-0.2845, t.relativeDifference(7.155), 1e-12);
        assertFalse(t.met(9.99));
    }

    @Test
    void upperBoundOfZeroUsesTheAbsoluteDifference() {
        Target t = Target.atMost(0);
        assertEquals(0, t.relativeDifference(0));
        assertEquals(52120, t.relativeDifference(52120), 0);
        assertFalse(t.met(1));
        assertEquals(0.024, Target.atMost(1).relativeDifference(1.024), 1e-12);
    }

    @Test
    void bandIsZeroInsideAndRelativeToTheNearestEndOutside() {
        Target t = Target.band(3, 3.5);
        assertEquals(0, t.relativeDifference(3.2));
        assertEquals((1.2 - 3) / 3, t.relativeDifference(1.2), 1e-12);
        assertEquals((4 - 3.5) / 3.5, t.relativeDifference(4), 1e-12);
        assertTrue(t.met(2.6));    // 13% below the low end, inside the 15% tolerance
        assertFalse(t.met(2.5));
    }

    @Test
    void magnitudeIgnoresTheModelsSign() {
        Target t = Target.magnitude(1.3);
        assertEquals((6.05 - 1.3) / 1.3, t.relativeDifference(-6.05), 1e-12);
        assertEquals(t.relativeDifference(6.05), t.relativeDifference(-6.05), 0);
        assertTrue(t.met(-1.4));
    }

    @Test
    void roundTripsThroughItsColumns() {
        for (Target t : new Target[] {Target.point(2.5, 0.1), Target.atLeast(10), Target.atMost(0), Target.band(2.6, 3),
                Target.magnitude(1.3)}) {
            assertEquals(t, Target.of(t.form(), t.published(), t.publishedHigh(), t.tolerance()));
        }
        assertEquals("3 to 3.5 \u00b1 15%", Target.band(3, 3.5).describe());
        assertEquals("at least 10", Target.atLeast(10).describe());
        assertEquals("1154.77 \u00b1 15%", Target.point(1154.77).describe());
        assertEquals("|x| = 1.3 \u00b1 15%", Target.magnitude(1.3).describe());
    }

    @Test
    void rejectsBadValuesNamingTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Target.point(Double.NaN)).getMessage()
                .startsWith("published"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Target.point(1, 1.5)).getMessage()
                .startsWith("tolerance"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Target.band(3, 3)).getMessage()
                .startsWith("publishedHigh"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Target.magnitude(-1)).getMessage()
                .startsWith("published"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Target.of("range", 1, 1, 0)).getMessage()
                .startsWith("form"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Target.of("point", 1, 2, 0)).getMessage()
                .startsWith("publishedHigh"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Target.atLeast(1).relativeDifference(Double.NaN))
                .getMessage().startsWith("model"));
    }
}
