package fabriclab.congestion;

import static fabriclab.TestArguments.rejects;

import org.junit.jupiter.api.Test;

/** {@link FlowClass}: the line rates it refuses. */
class FlowClassTest {
    @Test
    void aNanOrNegativeLineRateIsRejected() {
        FlowClass four = FlowClass.of(4);
        rejects("lineRate", () -> four.wireRateCap(Double.NaN));
        rejects("lineRate", () -> four.wireRateCap(-1));
    }
}
