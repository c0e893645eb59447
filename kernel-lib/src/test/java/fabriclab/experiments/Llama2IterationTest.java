package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class Llama2IterationTest {
    @Test
    void layoutAndBytesFollowTheRingFormula() {
        Llama2Iteration m = Llama2Iteration.llama2x13b32Gpus(64);
        assertEquals(32, m.gpus());
        // 13e9 parameters x 2 bytes / 8 tensor ranks = 3.25e9 bytes; ring over 4: 2 * 3/4 = 1.5 times that
        assertEquals(3.25e9, m.gradientBytesPerRank(), 1.0);
        assertEquals(4.875e9, m.ringAllReduceBytesSentPerRank(), 1.0);
    }

    @Test
    void calibrationReproducesItsRowAndZeroCommIsTheComputeBound() {
        Llama2Iteration m = Llama2Iteration.llama2x13b32Gpus(64);
        double compute = m.calibrateComputeSeconds(2.66, 5.0);
        assertEquals(64 / 2.66 - 5.0, compute, 1e-12);
        assertEquals(2.66, m.samplesPerSecond(compute, 5.0), 1e-12);
        assertEquals(64 / compute, m.samplesPerSecond(compute, 0.0), 1e-12);
        assertTrue(m.samplesPerSecond(compute, 6.0) < 2.66);
    }

    @Test
    void rejectsBadInputsNamingTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Llama2Iteration(13e9, 2, 8, 1, 1, 64))
                .getMessage().contains("dataParallel"));
        Llama2Iteration m = Llama2Iteration.llama2x13b32Gpus(64);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> m.calibrateComputeSeconds(2.66, 100.0))
                .getMessage().contains("commSeconds"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> m.samplesPerSecond(Double.NaN, 1.0))
                .getMessage().contains("computeSeconds"));
    }
}
