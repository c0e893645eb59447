package fabriclab.experiments;

import fabriclab.experiments.testbed.RoceOrGse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.collectives.Collective;
import fabriclab.collectives.CollectiveSchedule;
import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.experiments.testbed.Duan2024Testbed.Dcqcn;
import fabriclab.experiments.GseVsRoceTestbed.Grid;
import fabriclab.experiments.testbed.Duan2024Testbed.Uplinks;
import java.util.List;
import org.junit.jupiter.api.Test;

class GseVsRoceTestbedTest {
    static final long MB4 = 4L << 20;

    /** The first reading through the axis engine is the run of GseVsRoceJct (same draws, same flows). */
    @Test
    void firstReadingReproducesTheOriginalModel() {
        for (Collective c : new Collective[] {Collective.ALL_TO_ALL, Collective.RING_ALL_REDUCE}) {
            GseVsRoceJct.Result old = new GseVsRoceJct(1.5).run(c, MB4, RoceOrGse.ROCE, 2);
            Algorithm a = c == Collective.ALL_TO_ALL ? Algorithm.ALL_TO_ALL_AT_ONCE : Algorithm.RING_ALL_REDUCE;
            GseVsRoceTestbed.Result now = GseVsRoceTestbed.firstReading().run(a, RoceOrGse.ROCE, 1.5, MB4, 2);
            assertEquals(old.meanJctUs(), now.meanJctUs(), 0.0);
            assertEquals(old.maxJctUs(), now.maxJctUs(), 0.0);
            assertEquals(old.ecnMarks(), now.ecnMarks());
        }
    }

    /** HCCL_MULTI_QP_THRESHOLD: a 1 MB chunk (256 KB per transfer) is below 512 KB, so 4 QPs fall back to 1. */
    @Test
    void smallMessagesUseOneQueuePair() {
        GseVsRoceTestbed one = GseVsRoceTestbed.documentedDefaults();
        GseVsRoceTestbed four = one.withQueuePairs(4);
        long mb1 = 1L << 20;
        assertEquals(one.run(Algorithm.RING_ALL_REDUCE, RoceOrGse.ROCE, 2.0, mb1, 3).meanJctUs(),
                four.run(Algorithm.RING_ALL_REDUCE, RoceOrGse.ROCE, 2.0, mb1, 3).meanJctUs(), 0.0);
    }

    @Test
    void pairwiseAllToAllMovesTheSameBytesOnePeerPerStep() {
        CollectiveSchedule s = CollectiveSchedule.pairwiseAllToAll(4, 4096);
        CollectiveSchedule at = CollectiveSchedule.of(Collective.ALL_TO_ALL, 4, 4096);
        assertEquals(12, s.transfers().size());
        for (int r = 0; r < 4; r++) {
            assertEquals(at.bytesSentBy(r), s.bytesSentBy(r));
        }
        for (int step = 0; step < 3; step++) { // in each step every rank sends to one peer and receives from one
            final int st = step;
            long[] in = new long[4];
            s.transfers().stream().filter(t -> t.step() == st).forEach(t -> in[t.to()]++);
            for (long c : in) {
                assertEquals(1, c);
            }
        }
        assertEquals(0, s.transfers().get(0).after().length);
        assertEquals(2, s.transfers().get(4).after().length);
    }

    @Test
    void gseFinishesNearTheBoundOnSingle400G() {
        GseVsRoceTestbed.Result g = GseVsRoceTestbed.documentedDefaults()
                .run(Algorithm.HALVING_DOUBLING_ALL_REDUCE, RoceOrGse.GSE, 1.5, 16L << 20, 1);
        assertTrue(g.meanJctUs() < 1.1 * g.boundUs() && g.meanJctUs() >= g.boundUs(), g.toString());
        assertEquals(0, g.pfcPauses());
        assertEquals(0, g.drops());
    }

    @Test
    void gseFinishesNearTheBoundOn100GMembersToo() {
        // containers sprayed over the 4 members by the leaves and rotated over them by the spines: no member
        // collects a flow, nothing is dropped or resent, and the JCT stays within 10% of the bound
        for (Algorithm a : List.of(Algorithm.ALL_TO_ALL_AT_ONCE, Algorithm.RING_ALL_REDUCE)) {
            GseVsRoceTestbed.Result g = GseVsRoceTestbed.documentedDefaults().withUplinks(Uplinks.BREAKOUT_4X100G)
                    .run(a, RoceOrGse.GSE, 1.5, 16L << 20, 1);
            assertTrue(g.meanJctUs() < 1.1 * g.boundUs() && g.meanJctUs() >= g.boundUs(), g.toString());
            assertEquals(0, g.drops());
            assertEquals(0, g.retransmits());
            assertTrue(g.uplinkMaxOverMean() < 1.05, g.toString());
        }
    }

    private static final JobMetrics.DeliveryCounters NONE = new JobMetrics.DeliveryCounters(0, 0, 0, 0, 0, 0);

    @Test
    void ratiosDivideByGseOnTheSameUplinks() {
        GseVsRoceTestbed single = GseVsRoceTestbed.documentedDefaults();
        GseVsRoceTestbed members = single.withUplinks(Uplinks.BREAKOUT_4X100G);
        Algorithm a = Algorithm.RING_ALL_REDUCE;
        var roce1 = new GseVsRoceTestbed.Result(single, a, RoceOrGse.ROCE, 1.5, MB4, 1, 300, 310, 100, 1, 0, 0, 0, 0, 0, 0, 0, 0, NONE);
        var roce4 = new GseVsRoceTestbed.Result(members, a, RoceOrGse.ROCE, 1.5, MB4, 1, 600, 610, 100, 1, 0, 0, 0, 0, 0, 0, 0, 0, NONE);
        var gse1 = new GseVsRoceTestbed.Result(single, a, RoceOrGse.GSE, 1.5, MB4, 1, 100, 100, 100, 1, 0, 0, 0, 0, 0, 0, 0, 0, NONE);
        var gse4 = new GseVsRoceTestbed.Result(members, a, RoceOrGse.GSE, 1.5, MB4, 1, 120, 122, 100, 1, 0, 0, 0, 0, 0, 0, 0, 0, NONE);
        var t = GseVsRoceTestbed.ratios(List.of(roce1, roce4, gse1, gse4));
        assertEquals(2, t.rowCount());
        assertEquals(300 / 100.0, t.doubleColumn("ratio_mean").get(0), 1e-12);
        assertEquals(600 / 120.0, t.doubleColumn("ratio_mean").get(1), 1e-12);
        assertEquals(610 / 122.0, t.doubleColumn("ratio_slowest").get(1), 1e-12);
    }

    @Test
    void theSpreadPairsEachSeedWithItsOwnGseRunAndTakesTheMedian() {
        GseVsRoceTestbed tb = GseVsRoceTestbed.documentedDefaults();
        Algorithm a = Algorithm.ALL_TO_ALL_AT_ONCE;
        List<GseVsRoceTestbed.Result> runs = new java.util.ArrayList<>();
        double[] roce = {310, 330, 360, 600}; // with GSE at 100 each: ratios 3.1, 3.3, 3.6, 6.0
        for (int s = 0; s < roce.length; s++) {
            runs.add(new GseVsRoceTestbed.Result(tb, a, RoceOrGse.ROCE, 1.5, MB4, s + 1, roce[s], roce[s], 100, 1, 0, 0, 0, 0,
                    0, 0, 0, 0, NONE));
            runs.add(new GseVsRoceTestbed.Result(tb, a, RoceOrGse.GSE, 1.5, MB4, s + 1, 100, 100, 100, 1, 0, 0, 0, 0, 0, 0,
                    0, 0, NONE));
        }
        var t = GseVsRoceTestbed.ratioSpread(runs);
        assertEquals(1, t.rowCount());
        assertEquals(4, t.longColumn("seeds").get(0));
        assertEquals((3.3 + 3.6) / 2, t.doubleColumn("ratio_median").get(0), 1e-12); // even count: the two middle values
        assertEquals(3.1, t.doubleColumn("ratio_min").get(0), 1e-12);
        assertEquals(6.0, t.doubleColumn("ratio_max").get(0), 1e-12);
        assertEquals(2, t.longColumn("seeds_in_band").get(0)); // 000's AlltoAll band is about 3 to 3.5: 3.1 and 3.3
        // 2 seeds: 6 configurations (4 on 400G, 2 on members) x RoCE and GSE
        assertEquals(2 * 6 * 2, GseVsRoceTestbed.canonicalPoints(MB4, new long[] {1, 2}).size());
    }

    /**
     * Without DCQCN the switches mark nothing and no sender cuts its rate, whatever the collisions; every job's bytes
     * arrive (no drop under PFC), and a run is never faster than the bandwidth bound of one job at 100G.
     */
    @Test
    void withoutDcqcnNothingIsMarkedOrCut() {
        GseVsRoceTestbed off = GseVsRoceTestbed.documentedDefaults().withUplinks(Uplinks.BREAKOUT_4X100G).withDcqcn(Dcqcn.OFF);
        assertEquals(null, Dcqcn.OFF.parameters());
        assertTrue(off.label().contains("no DCQCN"));
        GseVsRoceTestbed.Result r = off.run(Algorithm.ALL_TO_ALL_AT_ONCE, RoceOrGse.ROCE, 1.5, MB4, 1);
        assertEquals(0, r.ecnMarks());
        assertEquals(0, r.rateCuts());
        assertEquals(0, r.drops());
        assertEquals(0, r.retransmits());
        // AlltoAll: each of the 32 ranks sends (p - 1)/p of its buffer, p = 4; all of it arrives, once
        assertEquals(32 * MB4 * 3 / 4, r.delivery().deliveredBytes());
        assertEquals(r.delivery().deliveredBytes(), r.delivery().sentBytes());
        assertTrue(r.meanJctUs() >= r.boundUs(), r.meanJctUs() + " us below the bound " + r.boundUs());
    }

    /** The DCQCN axis: 2 uplinks x 2 settings (Zhu, none) x 2 algorithms at 1.5:1, RoCE only, each with a canonical GSE run. */
    @Test
    void theDcqcnAxisPairsWithTheCanonicalGseRuns() {
        var axis = GseVsRoceTestbed.dcqcnAxisPoints(MB4, new long[] {1, 2});
        assertEquals(2 * 2 * 2 * 2, axis.size());
        var canonical = GseVsRoceTestbed.canonicalPoints(MB4, new long[] {1, 2});
        for (GseVsRoceTestbed.Point p : axis) {
            assertEquals(RoceOrGse.ROCE, p.fabric());
            assertTrue(p.testbed().dcqcn() != Dcqcn.NVIDIA_CONNECTX);
            assertEquals(1, canonical.stream().filter(g -> g.fabric() == RoceOrGse.GSE && g.seed() == p.seed()
                    && g.speedup() == p.speedup() && g.algorithm() == p.algorithm()
                    && g.testbed().uplinks() == p.testbed().uplinks()).count(), p.toString());
        }
        assertThrows(IllegalArgumentException.class, () -> GseVsRoceTestbed.dcqcnAxisPoints(MB4, new long[0]));
        assertThrows(IllegalArgumentException.class, () -> GseVsRoceTestbed.dcqcnAxisPoints(100, new long[] {1}));
    }

    @Test
    void subsetGrid() {
        var pts = GseVsRoceTestbed.points(Grid.SUBSET, MB4, new long[] {1});
        // GSE: 4 algorithms x 2 speedups on 400G, and at 1.5:1 (the only speedup with 4x100G RoCE runs) on 4x100G
        assertEquals(36 + 8 + 4, pts.size());
        assertEquals(4, pts.stream().filter(p -> p.fabric() == RoceOrGse.GSE
                && p.testbed().uplinks() == Uplinks.BREAKOUT_4X100G && p.speedup() == 1.5).count());
        // 2 uplinks x 4 QP settings x 2 DCQCN x 5 PFC = 80 testbeds, x 4 algorithms x 2 speedups, + GSE 4 x 2 x 2 uplinks
        assertEquals(80 * 4 * 2 + 16, GseVsRoceTestbed.points(Grid.FULL, MB4, new long[] {1}).size());
    }

    @Test
    void badInput() {
        assertThrows(IllegalArgumentException.class, () -> new GseVsRoceTestbed(Uplinks.SINGLE_400G, 2, true, Dcqcn.ZHU_2015, 1_000_000, 0));
        assertThrows(IllegalArgumentException.class, () -> new GseVsRoceTestbed(Uplinks.SINGLE_400G, 9, false, Dcqcn.ZHU_2015, 1_000_000, 0));
        assertThrows(IllegalArgumentException.class, () -> new GseVsRoceTestbed(Uplinks.SINGLE_400G, 1, false, Dcqcn.ZHU_2015, 5_000, 0));
        assertThrows(IllegalArgumentException.class, () -> new GseVsRoceTestbed(Uplinks.SINGLE_400G, 1, false, Dcqcn.ZHU_2015, 1_000_000, 100));
        assertThrows(IllegalArgumentException.class, () -> GseVsRoceTestbed.documentedDefaults()
                .run(Algorithm.RING_ALL_REDUCE, RoceOrGse.ROCE, 3.0, MB4, 1));
        assertThrows(IllegalArgumentException.class, () -> GseVsRoceTestbed.points(Grid.SUBSET, MB4, new long[0]));
    }
}
