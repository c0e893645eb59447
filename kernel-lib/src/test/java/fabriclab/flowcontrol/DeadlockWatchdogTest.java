package fabriclab.flowcontrol;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeadlockWatchdogTest {
    @Test
    void shortPausesAreNotDeadlocks() {
        DeadlockWatchdog w = new DeadlockWatchdog(0.1, 0.2, 10, 3);
        for (int k = 0; k < 50; k++) {
            w.observe(k * 0.1, true);
            w.observe(k * 0.1 + 0.09, false);
        }
        assertEquals(DeadlockWatchdog.State.NORMAL, w.state());
        assertEquals(0, w.deadlocksDetected());
    }

    @Test
    void continuousPauseIsDetectedAtTheDetectionPeriodAndRecovers() {
        DeadlockWatchdog w = new DeadlockWatchdog(0.1, 0.2, 10, 3);
        w.observe(1.0, true);
        assertEquals(DeadlockWatchdog.State.NORMAL, w.advanceTo(1.099));
        assertEquals(DeadlockWatchdog.State.RECOVERING, w.advanceTo(1.1));
        assertEquals(1.1, w.transitions().get(0).timeS(), 1e-12);
        w.observe(1.15, false);
        assertEquals(DeadlockWatchdog.State.NORMAL, w.advanceTo(1.3));
        assertEquals(1.3, w.transitions().get(1).timeS(), 1e-12);
    }

    @Test
    void persistentDeadlockDisablesPfcAfterNInTheWindow() {
        // paused forever: detections at 0.1, then every recovery+detection = 0.3 s: 0.1, 0.4, 0.7
        DeadlockWatchdog w = new DeadlockWatchdog(0.1, 0.2, 1.0, 3);
        w.observe(0, true);
        assertEquals(DeadlockWatchdog.State.PFC_DISABLED, w.advanceTo(5));
        assertEquals(2, w.deadlocksDetected());
        var last = w.transitions().get(w.transitions().size() - 1);
        assertEquals(0.7, last.timeS(), 1e-12);
        assertEquals(DeadlockWatchdog.State.PFC_DISABLED, last.to());
        // with a window shorter than the spacing of detections, PFC is never disabled
        DeadlockWatchdog w2 = new DeadlockWatchdog(0.1, 0.2, 0.5, 3);
        w2.observe(0, true);
        assertEquals(DeadlockWatchdog.State.RECOVERING, w2.advanceTo(5.05));
        assertTrue(w2.deadlocksDetected() >= 16);
    }

    @Test
    void badInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DeadlockWatchdog(-1, 1, 1, 1));
        assertTrue(e.getMessage().contains("detectionPeriodS"));
        DeadlockWatchdog w = new DeadlockWatchdog(1, 1, 1, 1);
        w.advanceTo(2);
        e = assertThrows(IllegalArgumentException.class, () -> w.observe(1, true));
        assertTrue(e.getMessage().contains("timeS"));
    }
}
