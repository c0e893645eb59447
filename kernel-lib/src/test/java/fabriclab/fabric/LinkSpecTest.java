package fabriclab.fabric;

import static fabriclab.TestArguments.refused;

import org.junit.jupiter.api.Test;

/** {@link LinkSpec}: the arguments it refuses. */
class LinkSpecTest {
    private static final long G100 = 100_000_000_000L;

    @Test
    void aPropagationDelayBeyondItsLimitIsRefused() {
        refused(() -> new LinkSpec(0, 1, G100, Long.MAX_VALUE / 2), "propagationPs");
    }
}
