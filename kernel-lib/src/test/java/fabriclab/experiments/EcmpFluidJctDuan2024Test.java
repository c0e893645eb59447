package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.experiments.testbed.Duan2024Testbed.Uplinks;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/** The fluid experiment of 000 ({@link EcmpFluidJct#duan2024Readings}) against the class's 2x bound and its worst cases. */
class EcmpFluidJctDuan2024Test {
    static final List<EcmpFluidJct.Duan2024Reading> READINGS = EcmpFluidJct.duan2024Readings(4L << 20, 3);

    /** One reading per speedup x algorithm x uplinks; on 400G links the ratio lies in [1, 2], the bound of the class. */
    @Test
    void everyReadingRespectsTheBoundOnSingle400GLinks() {
        assertEquals(2 * Algorithm.values().length * Uplinks.values().length, READINGS.size());
        for (EcmpFluidJct.Duan2024Reading r : READINGS) {
            assertTrue(r.meanRatio() >= 1 - 1e-9, r.toString());
            assertTrue(r.worstRatio() >= r.meanRatio() - 1e-9 || r.uplinks() == Uplinks.BREAKOUT_4X100G, r.toString());
            if (r.uplinks() == Uplinks.SINGLE_400G) {
                assertTrue(r.meanRatio() <= 2 + 1e-9 && r.worstRatio() <= 2 + 1e-9, r.toString());
            }
        }
    }

    /**
     * AlltoAll with every peer at once under the adversarial hash: 24 flows of a leaf share one link. On 400G each gets
     * 400/24 G instead of 100/3 G (exactly 2x); on one 100G member, 100/24 G (exactly 8x).
     */
    @Test
    void theAdversarialHashGivesTheClosedForms() {
        for (EcmpFluidJct.Duan2024Reading r : READINGS) {
            if (r.algorithm() == Algorithm.ALL_TO_ALL_AT_ONCE) {
                assertEquals(r.uplinks() == Uplinks.SINGLE_400G ? 2.0 : 8.0, r.worstRatio(), 1e-9, r.toString());
            }
        }
    }

    @Test
    void theTableHasOneRowPerAlgorithmAndSpeedup() {
        Table t = EcmpFluidJct.duan2024Table("fluid", READINGS);
        assertEquals(List.of("algorithm", "speedup", "1x400G", "1x400G worst hash", "4x100G", "4x100G worst hash"), t.columnNames());
        assertEquals(2 * Algorithm.values().length, t.rowCount());
        assertEquals("all_to_all_at_once", t.stringColumn("algorithm").get(0));
        assertEquals(2.0, t.doubleColumn("1x400G worst hash").get(0), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> EcmpFluidJct.duan2024Table("fluid", READINGS.subList(0, 3)));
        assertThrows(IllegalArgumentException.class, () -> EcmpFluidJct.duan2024Readings(1L << 20, 0));
    }
}
