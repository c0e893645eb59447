package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import fabriclab.workload.FctSlowdown;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class FctWorkloadTest {
    /**
     * At a load so low that no two flows share a link, every flow runs alone on the empty fabric: its completion time
     * is the closed form of IdealFct (serialisation on the slowest link plus every hop's store-and-forward and delay),
     * so every percentile of every non-empty bin is 1.
     */
    @Test
    void aFlowAloneHasSlowdownOne() {
        FctWorkload w = new FctWorkload("websearch", 0.002, 32, 8, 4, 20 * Time.MS);
        FctSlowdown f = w.run("dcqcn", 3);
        assertEquals(0, f.notCompleted());
        assertTrue(f.all().flows() > 0, "no flow drawn");
        for (FctSlowdown.Bin b : f.bins()) {
            if (b.flows() > 0) {
                assertEquals(1.0, b.p50().getAsDouble(), 1e-9, "bin " + b);
                assertEquals(1.0, b.p99().getAsDouble(), 1e-9, "bin " + b);
            }
        }
    }

    @Test
    void aSeedGivesTheSameTableEveryTimeAndTheSpreadSpansTheSeeds() {
        FctWorkload w = new FctWorkload("websearch", 0.3, 16, 8, 2, Time.MS);
        Table a = w.runs(List.of("dcqcn"), List.of(1L, 2L));
        Table b = w.runs(List.of("dcqcn"), List.of(1L, 2L));
        assertEquals(a.printAll(), b.printAll());
        Table s = FctWorkload.spread(a, "p99");
        assertEquals(a.rowCount() / 2, s.rowCount());
        for (int i = 0; i < s.rowCount(); i++) {
            assertEquals(2, s.intColumn("seeds").get(i));
            assertTrue(s.doubleColumn("min").get(i) <= s.doubleColumn("median").get(i)
                    && s.doubleColumn("median").get(i) <= s.doubleColumn("max").get(i));
        }
    }

    /**
     * bin/simulate --workload websearch --load 0.3 --hosts 32 --hosts-per-leaf 8 --spines 4 --duration 5ms --transport
     * gse --seed S: flows between random host pairs, about one in four (7 of the 31 other hosts) under the sender's
     * leaf. GSE schedules those through the leaf's own grants like the rest, so every flow completes and nothing is
     * dropped.
     */
    @Test
    void gseCompletesTheWebsearchWorkloadWithNoDropIncludingTheTrafficWithinALeaf() {
        FctWorkload w = FctWorkload.small("websearch", 0.3);
        for (long seed = 1; seed <= 3; seed++) {
            long withinLeaf = w.settings("gse", seed).scenario().flows()
                    .stream().filter(f -> f.source() / w.hostsPerLeaf() == f.destination() / w.hostsPerLeaf()).count();
            assertTrue(withinLeaf > 0, "seed " + seed + ": no flow within a leaf");
            FctWorkload.Result run = w.runFigures("gse", seed);
            assertEquals(0, run.slowdown().notCompleted(), "seed " + seed);
            assertEquals(0, run.notCompletedWithinLeaf(), "seed " + seed);
            assertEquals(0, run.drops(), "seed " + seed);
            assertTrue(run.slowdown().all().flows() > 300, "seed " + seed);
        }
    }

    @Test
    void refusesWhatBinSimulateWouldNotRun() {
        assertThrows(IllegalArgumentException.class, () -> new FctWorkload("incast", 0.3, 32, 8, 4, Time.MS));
        assertThrows(IllegalArgumentException.class, () -> new FctWorkload("websearch", 0, 32, 8, 4, Time.MS));
        assertThrows(IllegalArgumentException.class, () -> new FctWorkload("websearch", 0.3, 30, 8, 4, Time.MS));
        assertThrows(IllegalArgumentException.class, () -> FctWorkload.small("websearch", 0.3).args("roce", 1));
    }
}
