package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.experiments.DesignComparison.Design;
import fabriclab.experiments.DesignComparison.Point;
import fabriclab.experiments.DesignComparison.Result;
import fabriclab.experiments.DesignComparison.Workload;
import fabriclab.progress.Progress;
import fabriclab.sweep.LocalThreads;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/** Invariants of every design's runs: bytes conserved, the line-rate bound, GSE lossless, determinism by seed. */
class DesignComparisonTest {
    /** 256 KiB per rank: every design and setting on every workload, healthy and with the link down, in seconds. */
    private static final long BYTES = 256L << 10;
    private static List<Result> runs;

    @BeforeAll
    static void sweep() throws InterruptedException {
        runs = DesignComparison.sweep(DesignComparison.points(List.of(Workload.values()), new long[] {BYTES, BYTES, BYTES},
                new long[] {1}, true), new LocalThreads(2), Progress.silent());
    }

    @Test
    void everyRunDeliversExactlyItsFlowsBytesAndSendsNoLess() {
        assertEquals(3 * 2 * 8, runs.size());
        for (Result r : runs) {
            assertTrue(r.finished(), r.point() + " finished");
            // the flows of a workload: 8 groups of 4 ranks, each rank sending the collective's bytes per rank
            long perRank = (long) Math.ceil(new fabriclab.collectives.BandwidthBound(4, 100)
                    .bytesSentPerRank(r.point().workload().collective(), BYTES));
            assertEquals(32 * perRank, r.flowBytes(), 32 * 4.0, r.point() + " flow bytes");
            assertEquals(r.flowBytes(), r.deliveredBytes(), r.point() + " delivered");
            assertTrue(r.sentBytes() >= r.deliveredBytes(), r.point() + " sent at least delivered");
        }
    }

    @Test
    void noRunBeatsTheLineRateBound() {
        for (Result r : runs) {
            // a rank sends bytesSentPerRank through one NIC: at least that over the line rate, whatever the fabric
            double bound = new fabriclab.collectives.BandwidthBound(4, r.point().workload().nicGbps())
                    .bytesSentPerRank(r.point().workload().collective(), BYTES) * 8 / (r.point().workload().nicGbps() * 1e3);
            assertEquals(bound, r.boundUs(), 1e-9 * bound);
            assertTrue(r.meanJctUs() >= bound, r.point() + ": " + r.meanJctUs() + " us >= " + bound);
            assertTrue(r.maxJctUs() >= r.meanJctUs());
        }
    }

    @Test
    void gseIsLosslessAndTheLosslessDesignsDropNothing() {
        for (Result r : runs) {
            Design d = r.point().design();
            if (d == Design.GSE || d == Design.ROCE_ECMP || d == Design.ROCE_ADAPTIVE || d == Design.HPCC) {
                // PFC (or GSE's grants) under every queue; the failed link is down before the first packet and routed around
                assertEquals(0, r.dropsToHost() + r.dropsInFabric() + r.dropsFailedLink(), r.point() + " drops");
                assertEquals(0, r.timeouts(), r.point() + " timeouts");
            }
            if (d != Design.UEC) {
                assertEquals(0, r.trims(), "only UEC's switches trim");
            }
            if (d == Design.GSE) {
                assertEquals(0, r.retransmits(), r.point() + " resends");
            }
        }
    }

    @Test
    void sameSeedSameResultOnAnyExecutor() throws InterruptedException {
        List<Point> some = List.of(new Point(Workload.ALL_TO_ALL_000, true, Design.UEC, "reps", BYTES, 1),
                new Point(Workload.TRAINING_002, false, Design.ROCE_ADAPTIVE, "per_packet", BYTES, 1));
        List<Result> again = DesignComparison.sweep(some, new LocalThreads(1), Progress.silent());
        for (Result r : again) {
            assertEquals(runs.stream().filter(x -> x.point().equals(r.point())).findFirst().orElseThrow(), r);
        }
    }

    @Test
    void rankingHoldsEveryDesignOncePerWorkloadWithGseAtOne() {
        Table t = DesignComparison.ranking(runs);
        assertEquals(3 * 2 * Design.values().length, t.rowCount());
        for (int i = 0; i < t.rowCount(); i++) {
            assertTrue(t.doubleColumn("over_gse_min").get(i) <= t.doubleColumn("over_gse_median").get(i));
            assertTrue(t.doubleColumn("over_gse_median").get(i) <= t.doubleColumn("over_gse_max").get(i));
            if (t.stringColumn("design").get(i).equals("gse")) {
                assertEquals(1.0, t.doubleColumn("over_gse_median").get(i), 0);
            }
            assertTrue(t.doubleColumn("over_bound_median").get(i) >= 1);
        }
        Table tab = DesignComparison.table(runs);
        assertEquals(runs.size(), tab.rowCount());
    }

    @Test
    void badInputNamesTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Point(Workload.ALL_TO_ALL_000, false, Design.UEC, "per_packet", BYTES, 1));
        assertTrue(e.getMessage().contains("setting") && e.getMessage().contains("per_packet"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DesignComparison.points(List.of(Workload.ALL_TO_ALL_000),
                new long[] {BYTES, BYTES}, new long[] {1}, false));
        assertTrue(e.getMessage().contains("bytesPerRank"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DesignComparison.overGse(List.of(runs.get(1))));
        assertTrue(e.getMessage().contains("runs"), e.getMessage());
    }
}
