package fabriclab.fabric;

import static fabriclab.TestArguments.refused;
import static fabriclab.TestArguments.rejects;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link LeafSpine}: the arguments it refuses and the values at their limits. */
class LeafSpineTest {
    private static final long G100 = 100_000_000_000L;

    @Test
    void aSpeedupBeyondAPetabitUplinkIsRefused() {
        refused(() -> LeafSpine.withSpeedup(4, 1, 2, 2, G100, 1e300, 1, Time.US, Time.US), "speedup", "1.0E300");
        // 2 NICs per leaf at 100G over 2 spines: speedup 1 is a 100G uplink, and 10,000 is 1 Pbit/s, the limit
        assertEquals(G100, LeafSpine.withSpeedup(4, 1, 2, 2, G100, 1, 1, Time.US, Time.US).uplinkRateBitsPerSecond());
        assertEquals(1_000_000_000_000_000L,
                LeafSpine.withSpeedup(4, 1, 2, 2, G100, 10_000, 1, Time.US, Time.US).uplinkRateBitsPerSecond());
        refused(() -> LeafSpine.withSpeedup(4, 1, 2, 2, G100, 10_001, 1, Time.US, Time.US), "speedup", "10001");
    }

    @Test
    void leafOfAHostOutsideTheFabricIsRefused() {
        LeafSpine f = new LeafSpine(16, 1, 4, 2, G100, G100, 1, Time.US, Time.US);
        refused(() -> f.leafOf(-1), "host", "-1", "15");
        refused(() -> f.leafOf(16), "host", "16", "15");
        assertEquals(3, f.leafOf(15));
    }

    @Test
    void propagationDelaysBeyondTheirLimitAreRefusedNamingTheParameter() {
        refused(() -> new LeafSpine(4, 1, 2, 2, G100, G100, 1, Long.MAX_VALUE / 2, Time.US), "hostPropagationPs",
                "1000000000000000", "" + Long.MAX_VALUE / 2);
        refused(() -> new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Long.MAX_VALUE / 2), "fabricPropagationPs");
    }

    @Test
    void aHugeSpineCountIsRejectedBeforeTheFabricIsBuilt() {
        rejects("spines", () -> new LeafSpine(16, 8, 2, Integer.MAX_VALUE, 100_000_000_000L, 100_000_000_000L, 1, 1000, 1000).build());
    }
}
