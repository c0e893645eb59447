package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.collectives.BandwidthBound;
import fabriclab.collectives.Collective;
import fabriclab.collectives.CollectiveSchedule;
import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.experiments.testbed.Duan2024Testbed.Uplinks;
import org.junit.jupiter.api.Test;

/** The max-min fair ECMP fluid model and the 2x bound of single 400G uplinks. */
class EcmpFluidJctTest {
    static final long MB64 = 64L << 20;

    @Test
    void idealFabricMeetsTheBandwidthBound() {
        EcmpFluidJct m = EcmpFluidJct.duan2024(GseVsRoceTestbed.documentedDefaults().fabric(1.5), 1, true);
        for (Algorithm a : Algorithm.values()) {
            EcmpFluidJct.Result r = m.run(p -> a.schedule(p, MB64), 1);
            double bound = new BandwidthBound(4, 100).seconds(a.collective, MB64);
            assertEquals(bound, r.meanIdealJctS(), bound * 1e-6, a.name());
        }
    }

    /** Every flow of a leaf on one 400G link: 24 flows at 400/24 G instead of 100/3 G, exactly twice as slow. */
    @Test
    void worstCaseHashOnSingle400GIsExactlyTwo() {
        for (double speedup : new double[] {1.5, 2.0}) {
            EcmpFluidJct m = EcmpFluidJct.duan2024(GseVsRoceTestbed.documentedDefaults().fabric(speedup), 1, true);
            assertEquals(2.0, m.worstCaseRouting(p -> CollectiveSchedule.of(Collective.ALL_TO_ALL, p, MB64)).ratio(), 1e-9);
        }
    }

    /** The bound holds for every hash draw, algorithm, QP count and speedup on single 400G uplinks. */
    @Test
    void perFlowEcmpNeverExceedsTwoOnSingle400G() {
        for (double speedup : new double[] {1.5, 2.0}) {
            for (int qps : new int[] {1, 2, 4}) {
                EcmpFluidJct m = EcmpFluidJct.duan2024(GseVsRoceTestbed.documentedDefaults().fabric(speedup), qps, true);
                for (Algorithm a : Algorithm.values()) {
                    assertTrue(m.worstCaseRouting(p -> a.schedule(p, MB64)).ratio() <= 2 + 1e-9, a.name());
                    for (long seed = 1; seed <= 10; seed++) {
                        double ratio = m.run(p -> a.schedule(p, MB64), seed).ratio();
                        assertTrue(ratio >= 1 - 1e-9 && ratio <= 2 + 1e-9, a + " seed " + seed + ": " + ratio);
                    }
                }
            }
        }
    }

    /** With 4 x 100G members one member can be asked for a whole leaf's 800G: the worst case is 8x, the bound needs 400G links. */
    @Test
    void breakoutMembersLoseTheBound() {
        EcmpFluidJct m = EcmpFluidJct.duan2024(GseVsRoceTestbed.documentedDefaults().withUplinks(Uplinks.BREAKOUT_4X100G).fabric(1.5),
                1, true);
        assertEquals(8.0, m.worstCaseRouting(p -> CollectiveSchedule.of(Collective.ALL_TO_ALL, p, MB64)).ratio(), 1e-9);
    }

    @Test
    void badInput() {
        assertThrows(IllegalArgumentException.class,
                () -> EcmpFluidJct.duan2024(GseVsRoceTestbed.documentedDefaults().fabric(1.5), 0, true));
        assertThrows(IllegalArgumentException.class,
                () -> new EcmpFluidJct(GseVsRoceTestbed.documentedDefaults().fabric(1.5), new int[][] {{0, 99}}, 1, true));
    }
}
