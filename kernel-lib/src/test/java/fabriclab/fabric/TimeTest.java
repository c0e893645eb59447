package fabriclab.fabric;

import static fabriclab.TestArguments.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link Time}: conversions to picoseconds and the values they refuse. */
class TimeTest {
    @Test
    void microsBeyondALongOfPicosecondsIsRefused() {
        refused(() -> Time.micros(1e13), "us", "1.0E13");
        // the largest accepted value still converts: 9.2e6 us is 106 days
        assertTrue(Time.micros(Time.MAX_MICROS) > 0);
        assertEquals(1_500_000L, Time.micros(1.5));
    }
}
