package fabriclab.congestion;

import static fabriclab.TestArguments.rejects;

import fabriclab.progress.Progress;
import org.junit.jupiter.api.Test;

/** {@link DcqcnSweeps}: the arguments its sweeps refuse. */
class DcqcnSweepsTest {
    @Test
    void aVanishingDurationIsRejectedNamingDurationS() {
        rejects("durationS", () -> DcqcnSweeps.oscillation(DcqcnParameters.zhu2015(), Bottleneck.of(40e9), new int[] {2},
                new double[] {1e-6}, 1e-300, Progress.silent()));
    }
}
