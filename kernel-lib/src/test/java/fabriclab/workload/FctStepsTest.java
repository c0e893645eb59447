package fabriclab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** HPCC's grouping by size rank, on flows whose groups and percentiles are known by construction. */
class FctStepsTest {

    /**
     * 1000 flows of sizes 1..1000 (given in reverse), flow of size s with slowdown 1 + (s mod 10) / 10: each 10% group
     * holds 100 consecutive sizes, ten of each slowdown 1.0..1.9; the element floor(100 p) of the sorted 100 is
     * 1.5 for p = 0.5 (elements 50..59) and 1.9 for p = 0.95 and 0.99 (elements 90..99).
     */
    @Test
    void groupsOfTenPercentHoldConsecutiveSizesAndTheirPercentiles() {
        int n = 1000;
        long[] sizes = new long[n];
        double[] slow = new double[n];
        for (int i = 0; i < n; i++) {
            sizes[i] = n - i;
            slow[i] = 1 + (sizes[i] % 10) / 10.0;
        }
        FctSteps f = FctSteps.of(sizes, slow, 10);
        assertEquals(10, f.steps().size());
        for (int g = 0; g < 10; g++) {
            FctSteps.Step s = f.steps().get(g);
            assertEquals(100, s.flows());
            assertEquals(100L * (g + 1), s.largestBytes());
            assertEquals(10.0 * g, s.fromPercent());
            assertEquals(1.5, s.p50(), 1e-12);
            assertEquals(1.9, s.p95(), 1e-12);
            assertEquals(1.9, s.p99(), 1e-12);
        }
        assertEquals(1.5, f.medianOver(0, 50, "p50"), 1e-12);
    }

    @Test
    void unevenCountsCutAtFloorOfTheRankAndLeaveOutFlowsNotCompleted() {
        // 7 completed flows (and one NaN) in steps of 50%: ranks 0..2 (floor(3.5) = 3) and 3..6
        long[] sizes = {5, 1, 7, 3, 2, 6, 4, 100};
        double[] slow = {1, 1, 1, 1, 1, 1, 1, Double.NaN};
        FctSteps f = FctSteps.of(sizes, slow, 50);
        assertEquals(List.of(3, 4), f.steps().stream().map(FctSteps.Step::flows).toList());
        assertEquals(3L, f.steps().get(0).largestBytes());
        assertEquals(7L, f.steps().get(1).largestBytes());
    }

    @Test
    void aSlowdownBelowOneCountsAsOne() {
        FctSteps f = FctSteps.of(new long[] {1, 2}, new double[] {0.5, 0.9}, 50);
        assertEquals(1.0, f.steps().get(0).p50());
        assertEquals(1.0, f.steps().get(1).p99());
    }

    @Test
    void refusesWhatItCannotGroup() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FctSteps.of(new long[] {1, 2}, new double[] {1, 1}, 3));
        assertTrue(e.getMessage().contains("stepPercent") && e.getMessage().contains("3"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FctSteps.of(new long[] {1, 2}, new double[] {1, 1}, 1));
        assertTrue(e.getMessage().contains("100 completed flows"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FctSteps.of(new long[] {1}, new double[] {1, 1}, 50));
        assertTrue(e.getMessage().contains("slowdowns"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> FctSteps.of(new long[] {1, 2}, new double[] {1, Double.POSITIVE_INFINITY}, 50));
        assertTrue(e.getMessage().contains("slowdowns[1]"), e.getMessage());
        FctSteps f = FctSteps.of(new long[] {1, 2}, new double[] {1, 1}, 50);
        e = assertThrows(IllegalArgumentException.class, () -> f.medianOver(0, 10, "p90"));
        assertTrue(e.getMessage().contains("p90"), e.getMessage());
    }
}
