package fabriclab.training;

import static fabriclab.TestArguments.refused;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link Accelerator}: compute time and the arguments it refuses. */
class AcceleratorTest {
    @Test
    void computeTimeBeyondADoubleIsRefused() {
        refused(() -> Accelerator.H800.seconds(1e308, 1e-300), "flops", "1.0E308", "1.0E-300");
        assertTrue(Double.isFinite(Accelerator.H800.seconds(1e308, 1)));
    }
}
