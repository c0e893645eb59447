package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.congestion.FluidMetrics;
import fabriclab.container.Granularity;
import fabriclab.container.SprayUnits;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Records whose fields contradict each other (a mean above the largest value) are refused, naming the field. */
class ImpossibleRecordsTest {
    private static void refused(String start, org.junit.jupiter.api.function.Executable call) {
        String m = assertThrows(IllegalArgumentException.class, call).getMessage();
        assertTrue(m.startsWith(start), m);
    }

    @Test
    void aMeanAboveTheMaximumIsRefused() {
        refused("maxBytes must be >= meanBytes = 1000.0", () -> new SprayUnits(Granularity.FLOW, 10, 1000, 2e6, 500));
        new SprayUnits(Granularity.FLOW, 10, 1000, 2e6, 1000); // a mean equal to the maximum: all units alike
        refused("meanQueueBytes must be in [", () -> new FluidMetrics(5000, 0, 4000, 4000, 1, 1, 0.5, 1,
                OptionalDouble.empty(), 1e-6, 2e-6, 0, 0));
        refused("meanQueueBytes must be in [", () -> new FluidMetrics(100, 200, 4000, 4000, 1, 1, 0.5, 1,
                OptionalDouble.empty(), 1e-6, 2e-6, 0, 0));
        refused("maxProbeLatencyS must be >= meanProbeLatencyS", () -> new FluidMetrics(100, 0, 4000, 4000, 1, 1, 0.5,
                1, OptionalDouble.empty(), 3e-6, 2e-6, 0, 0));
        refused("mean must be in [", () -> new IncastDcqcnVsCtcc.QueuePairRates(4, 9e9, 1e9, 1e9, 2e9, 3e9, 4e9, 0.9, 0));
        new IncastDcqcnVsCtcc.QueuePairRates(4, 2.5e9, 1e9, 1e9, 2e9, 3e9, 4e9, 0.9, 0);
    }
}
