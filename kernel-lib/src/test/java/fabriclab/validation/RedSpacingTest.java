package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** RED's gap between marks in closed form against the gap distribution summed from RED's per-packet rule. */
class RedSpacingTest {
    @ParameterizedTest
    @ValueSource(doubles = {0.003, 0.05, 0.1, 0.15, 0.3, 0.37, 0.5, 0.9, 1.0})
    void closedFormMatchesThePerPacketRule(double pb) {
        // RED with count-based spacing: the k-th packet after a mark is marked with p_a = pb / (1 - k pb), 1 once k pb >= 1
        double survive = 1;
        double mean = 0;
        double square = 0;
        for (int k = 1; survive > 1e-15; k++) {
            double pa = k * pb >= 1 ? 1 : Math.min(1, pb / (1 - k * pb));
            double p = survive * pa;
            mean += k * p;
            square += (double) k * k * p;
            survive *= 1 - pa;
        }
        assertEquals(mean, RedSpacing.meanGap(pb), 1e-9 * mean);
        assertEquals(square - mean * mean, RedSpacing.gapVariance(pb), 1e-9 * Math.max(1, square));
        assertEquals(1 / mean, RedSpacing.markingFraction(pb), 1e-9);
        if (pb < 0.5) { // from p_b = 1/2 on every packet is marked: the fraction 1 implies the least such p_b, 1/2
            assertEquals(pb, RedSpacing.impliedProbability(1 / mean), 1e-9);
        } else {
            assertEquals(0.5, RedSpacing.impliedProbability(1 / mean), 1e-9);
        }
    }
}
