package fabriclab.loadbalancing.analytics;

import static fabriclab.TestArguments.rejects;

import org.junit.jupiter.api.Test;

/** {@link EcmpMonteCarlo}: the sizes it refuses before allocating. */
class EcmpMonteCarloTest {
    @Test
    void flowAndTrialCountsThatWouldExhaustMemoryAreRejected() {
        rejects("m", () -> EcmpMonteCarlo.maxCounts(16, Integer.MAX_VALUE, 10, 1));
        rejects("trials", () -> EcmpMonteCarlo.maxCounts(16, 4, Integer.MAX_VALUE, 1));
    }
}
