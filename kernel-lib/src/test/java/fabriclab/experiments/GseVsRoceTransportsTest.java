package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.progress.Progress;
import fabriclab.scenarios.TransportChoice;
import fabriclab.sweep.LocalThreads;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/**
 * The what-if of 000 under each transport ({@link GseVsRoceTransports}): its DCQCN rows are the testbed's own RoCE runs
 * and its GSE the testbed's GSE run, run for run; every ratio is RoCE over GSE of its seed; the transports that keep PFC
 * lose nothing; every job takes at least its bandwidth bound; the table is the same on one thread or two.
 */
class GseVsRoceTransportsTest {
    private static final long SMALL = 1L << 20;

    @Test
    void ratiosPerTransportOverSeeds() throws InterruptedException {
        GseVsRoceTestbed tb = GseVsRoceTestbed.documentedDefaults();
        long[] seeds = {1, 2};
        Table t = GseVsRoceTransports.ratios(tb, GseVsRoceTransports.TRANSPORTS, Algorithm.ALL_TO_ALL_AT_ONCE, 1.5, SMALL, seeds,
                new LocalThreads(2), Progress.silent());
        Table s = GseVsRoceTransports.summary(t);
        assertEquals(GseVsRoceTransports.TRANSPORTS.size() * seeds.length, t.rowCount());
        assertEquals(GseVsRoceTransports.TRANSPORTS.size(), s.rowCount());
        for (int i = 0; i < t.rowCount(); i++) {
            long seed = t.longColumn("seed").get(i);
            String name = t.stringColumn("transport").get(i);
            GseVsRoceTestbed.Result gse = tb.run(Algorithm.ALL_TO_ALL_AT_ONCE, RoceOrGse.GSE, 1.5, SMALL, seed);
            assertEquals(gse.meanJctUs(), t.doubleColumn("gse_mean_jct_us").get(i), 0.0, "GSE is the testbed's own run");
            assertEquals(t.doubleColumn("roce_mean_jct_us").get(i) / gse.meanJctUs(), t.doubleColumn("roce_over_gse").get(i), 1e-12);
            if (name.equals("dcqcn")) {
                GseVsRoceTestbed.Result roce = tb.run(Algorithm.ALL_TO_ALL_AT_ONCE, RoceOrGse.ROCE, 1.5, SMALL, seed);
                assertEquals(roce.meanJctUs(), t.doubleColumn("roce_mean_jct_us").get(i), 0.0, "DCQCN is the testbed's own RoCE run");
                assertEquals(roce.rateCuts(), t.longColumn("decreases").get(i), "DCQCN's decreases are its rate cuts");
                assertEquals(roce.pfcPauses(), t.longColumn("pfc_pauses").get(i));
            }
            long placed = t.longColumn("drops_host").get(i) + t.longColumn("drops_leaf_up").get(i)
                    + t.longColumn("drops_spine_down").get(i) + t.longColumn("drops_leaf_down").get(i);
            assertEquals(t.longColumn("drops").get(i), placed, name + ": every dropped data packet has one place");
            assertTrue(t.longColumn("spurious_timeouts").get(i) <= t.longColumn("timeouts").get(i), name);
            if (TransportChoice.named(name).pfcByDefault()) {
                assertEquals(0, t.longColumn("drops").get(i), name + " with PFC loses nothing");
            }
            assertTrue(t.doubleColumn("roce_mean_jct_us").get(i) >= gse.boundUs() && gse.meanJctUs() >= gse.boundUs(),
                    name + ": no job beats its bandwidth bound " + gse.boundUs());
        }
        Table withAlgorithm = t.copy();
        tech.tablesaw.api.StringColumn alg = tech.tablesaw.api.StringColumn.create("algorithm");
        for (int i = 0; i < t.rowCount(); i++) {
            alg.append("all_to_all_at_once");
        }
        withAlgorithm.insertColumn(0, alg);
        Table spread = GseVsRoceTransports.spread(withAlgorithm);
        assertEquals(GseVsRoceTransports.TRANSPORTS.size(), spread.rowCount());
        for (int i = 0; i < spread.rowCount(); i++) {
            String name = spread.stringColumn("transport").get(i);
            Table mine = t.where(t.stringColumn("transport").isEqualTo(name));
            double a = mine.doubleColumn("roce_over_gse").get(0);
            double b = mine.doubleColumn("roce_over_gse").get(1);
            assertEquals((a + b) / 2, spread.doubleColumn("ratio_median").get(i), 1e-12, "the median of two seeds is their mean");
            assertEquals(Math.min(a, b), spread.doubleColumn("ratio_min").get(i), 0.0);
            assertEquals(Math.max(a, b), spread.doubleColumn("ratio_max").get(i), 0.0);
            assertEquals((mine.longColumn("decreases").get(0) + mine.longColumn("decreases").get(1)) / 2.0,
                    spread.doubleColumn("decreases").get(i), 1e-12);
        }
        Table again = GseVsRoceTransports.ratios(tb, GseVsRoceTransports.TRANSPORTS, Algorithm.ALL_TO_ALL_AT_ONCE, 1.5, SMALL, seeds,
                new LocalThreads(1), Progress.silent());
        assertEquals(t.print(), again.print(), "the same rows on any executor");
    }

    @Test
    void badInputIsRefusedByName() {
        GseVsRoceTestbed tb = GseVsRoceTestbed.documentedDefaults();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GseVsRoceTransports.Point(tb, TransportChoice.GSE, Algorithm.ALL_TO_ALL_AT_ONCE, 1.5, SMALL, 1));
        assertTrue(e.getMessage().contains("transport"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GseVsRoceTransports.points(tb, List.of(), Algorithm.ALL_TO_ALL_AT_ONCE,
                1.5, SMALL, new long[] {1}));
        assertTrue(e.getMessage().contains("transports"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GseVsRoceTransports.points(tb, GseVsRoceTransports.TRANSPORTS,
                Algorithm.ALL_TO_ALL_AT_ONCE, 1.5, 10, new long[] {1}));
        assertTrue(e.getMessage().contains("bufferBytes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GseVsRoceTransports.decreases(TransportChoice.GSE));
        assertTrue(e.getMessage().contains("transport"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GseVsRoceTransports.summary(null));
        assertTrue(e.getMessage().contains("ratios"), e.getMessage());
    }
}
