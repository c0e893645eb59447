package fabriclab.congestion;

import fabriclab.fabric.EcnMarking;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EcnMarkingTest {
    private final EcnMarking w = EcnMarking.dcqcnDefaults();

    @Test
    void probabilityAtChosenQueues() {
        // Kmin 5 KB, Kmax 200 KB, Pmax 1%: the ramp is (q - 5000) / 195000 * 0.01
        assertEquals(0.0, w.probability(0), 0);
        assertEquals(0.0, w.probability(5_000), 0);
        assertEquals(0.005, w.probability(102_500), 1e-15);
        assertEquals(0.01 * 45_000 / 195_000, w.probability(50_000), 1e-15);
        assertEquals(0.01, w.probability(200_000), 1e-15);
        assertEquals(1.0, w.probability(200_001), 0);
        assertEquals(1.0, w.probability(1e9), 0);
    }

    @Test
    void equalThresholdsMarkAStepAndOffNeverMarks() {
        EcnMarking step = new EcnMarking(1000, 1000, 0.3); // Kmin = Kmax: 0 up to K, 1 above, Pmax unused
        assertEquals(0.0, step.probability(1000), 0);
        assertEquals(1.0, step.probability(1000.5), 0);
        assertEquals(0.0, EcnMarking.OFF.probability(1e300), 0);
        assertTrue(!EcnMarking.OFF.enabled() && step.enabled());
        assertThrows(IllegalStateException.class, step::slopePerByte);
    }

    @Test
    void inverseRampAndSlope() {
        assertEquals(102_500, w.queueForProbability(0.005), 1e-9);
        assertEquals(0.01 / 195_000, w.slopePerByte(), 1e-20);
    }

    @Test
    void perPriorityProfiles() {
        PriorityWred plan = PriorityWred.roceDefault().with(5, new EcnMarking(1000, 2000, 1.0));
        assertEquals(0.005, plan.probability(3, 102_500), 1e-15);
        assertEquals(0.5, plan.probability(5, 1500), 1e-15);
        assertEquals(0.0, plan.probability(0, 1e9), 0);
        assertTrue(plan.profile(1).isEmpty());
        assertTrue(PriorityWred.none().profile(3).isEmpty());
    }

    @Test
    void badInputNamesTheParameter() {
        assertMessage("kMaxBytes", () -> new EcnMarking(200, 100, 0.1));
        assertMessage("pMax", () -> new EcnMarking(0, 100, 1.5));
        assertMessage("kMinBytes", () -> new EcnMarking(-1, 100, 0.5));
        assertMessage("queueBytes", () -> w.probability(-1));
        assertMessage("queueBytes", () -> w.probability(Double.NaN));
        assertMessage("priority", () -> PriorityWred.none().probability(8, 0));
        assertMessage("p", () -> w.queueForProbability(0.02));
    }

    static void assertMessage(String name, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().startsWith(name), () -> "message should name " + name + ": " + e.getMessage());
    }
}
