package fabriclab.collectives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** 003's OpenFOAM ratio against its closed form: every time is linear in the host overhead o. */
class InNetworkComparisonTest {
    static final AllReduceLatency ETHERNET = AllReduceLatency.builder().hostOverheadS(1e-6).switchLatencyS(500e-9)
            .propagationS(50e-9).linkGbps(100).tiers(2).build();

    static InNetworkComparison of(int nodes) {
        return new InNetworkComparison(ETHERNET, 90e-9, nodes, List.of(16.0, 4096.0), List.of(0.8, 0.2));
    }

    /** The three mean times at o, written out: two tiers, so alpha = o + 3 switch + 4 propagation. */
    static double[] closedForm(int nodes, double o) {
        double sBeta = 0.8 * 16 * 8 / 100e9 + 0.2 * 4096 * 8 / 100e9;
        double b = 2 * (31 - Integer.numberOfLeadingZeros(nodes));
        double share = 2.0 * (nodes - 1) / nodes;
        double roce = b * (o + 3 * 500e-9 + 4 * 50e-9) + share * sBeta;
        double in = o + 3 * 500e-9 + 4 * 50e-9 + sBeta;
        double ib = b * (o + 3 * 90e-9 + 4 * 50e-9) + share * sBeta;
        return new double[] {roce, in, ib};
    }

    @Test
    void meanTimesAndTheRatioFollowTheClosedForm() {
        for (int n : new int[] {4, 8, 64}) {
            for (double o : new double[] {0, 250e-9, 1e-6}) {
                double[] want = closedForm(n, o);
                double[] got = of(n).meanSeconds(o);
                for (int k = 0; k < 3; k++) {
                    assertEquals(want[k], got[k], 1e-18);
                }
                assertEquals((want[1] - want[2]) / (want[0] - want[1]), of(n).gapOverReduction(o), 1e-12);
            }
        }
    }

    @Test
    void at64NodesNoHostOverheadGivesTheRatioOf003() {
        // R(0) = (T_in(0) - T_IB(0)) / (T_RoCE(0) - T_in(0)) = -0.213; R falls towards -1 with o: |R| >= 0.213 > 0.108
        double[] t0 = closedForm(64, 0);
        assertEquals(-0.2134, (t0[1] - t0[2]) / (t0[0] - t0[1]), 5e-4);
        assertTrue(of(64).hostOverheadsForGapMagnitude(1.3 / 12).isEmpty());
    }

    @Test
    void at4NodesTheOverheadSolvesTheLinearEquation() {
        // R(o) = -m  <=>  o = (A + m D) / ((b - 1)(1 - m)), A = T_in(0) - T_IB(0), D = T_RoCE(0) - T_in(0), b = 2 log2 N
        double m = 1.3 / 12;
        double[] t0 = closedForm(4, 0);
        double want = ((t0[1] - t0[2]) + m * (t0[0] - t0[1])) / ((4 - 1) * (1 - m));
        assertTrue(want > 100e-9 && want < 150e-9, "closed form " + want);
        List<Double> got = of(4).hostOverheadsForGapMagnitude(m);
        assertEquals(1, got.size());
        assertEquals(want, got.get(0), 1e-13);
        assertEquals(-m, of(4).gapOverReduction(got.get(0)), 1e-9);
    }

    @Test
    void badInputIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new InNetworkComparison(ETHERNET, 90e-9, 6, List.of(16.0), List.of(1.0)));
        assertTrue(e.getMessage().contains("nodes") && e.getMessage().contains("6"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new InNetworkComparison(ETHERNET, 90e-9, 8, List.of(16.0, 32.0), List.of(0.5, 0.6)));
        assertTrue(e.getMessage().contains("weights"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> of(8).hostOverheadsForGapMagnitude(Double.NaN));
        assertTrue(e.getMessage().contains("magnitude"), e.getMessage());
    }
}
