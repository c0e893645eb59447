package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import org.junit.jupiter.api.Test;

/** The window that {@link HpccEvaluation#forSteps} chooses never overflows into a window of no flows. */
class HpccEvaluationWindowTest {
    @Test
    void aLoadTooSmallForTheStepsWithinOneSecondIsRefusedNotTurnedIntoAnEmptyWindow() {
        // 1e-12 of 320 hosts at 100G with web-search's mean flow: far below one flow a second; the window in
        // microseconds was beyond a long, and times 10^6 ps wrapped to a negative, then the 5 ms floor: 0 flows
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HpccEvaluation.forSteps("websearch", 1e-12, 100, 1));
        assertTrue(e.getMessage().startsWith("load must start at least 12000 flows (1.2 x 100 x flowsPerStep 100) within"
                + " the longest window, 1 s, got 1.0E-12"), e.getMessage());
        // a load that needs just under 1 s is kept, with the window it needs
        HpccEvaluation ok = HpccEvaluation.forSteps("websearch", 0.3, 1, 1);
        assertTrue(ok.durationPs() >= HpccEvaluation.MIN_WINDOW_PS && ok.durationPs() <= Time.S);
        assertTrue(ok.flows().size() > 0);
        assertEquals(0, ok.durationPs() % Time.US);
    }
}
