package fabriclab.experiments;

import fabriclab.experiments.testbed.RoceOrGse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.collectives.BandwidthBound;
import fabriclab.collectives.Collective;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Datasets;
import fabriclab.progress.Progress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;
import static fabriclab.TestArguments.rejects;

class GseVsRoceJctTest {
    @Test
    void theFabricFollowsTheSpeedup() {
        assertEquals(3, new GseVsRoceJct(1.5).spines());
        assertEquals(4, new GseVsRoceJct(2.0).spines());
        // speedup = spines x 400G / (8 x 100G)
        assertEquals(1.5, new GseVsRoceJct(1.5).fabric().speedup(), 1e-12);
    }

    @Test
    void onANonBlockingFabricGseApproachesTheBandwidthBound() {
        // 8 jobs of AlltoAll, 16 MiB per rank, speedup 2: every rank's NIC is the bottleneck, so each job
        // needs (3/4) 16 MiB x 8 / 100G; containers and grants add a few microseconds.
        GseVsRoceJct.Result r = new GseVsRoceJct(2.0).run(Collective.ALL_TO_ALL, 16L << 20, RoceOrGse.GSE, 1);
        double bound = new BandwidthBound(4, 100).seconds(Collective.ALL_TO_ALL, 16L << 20) * 1e6;
        assertEquals(bound, r.boundUs(), 1e-6);
        assertTrue(r.maxJctUs() >= bound, "no job beats the bound");
        assertTrue(r.maxJctUs() <= 1.03 * bound, "max JCT " + r.maxJctUs() + " vs bound " + bound);
        assertEquals(0, r.drops());
    }

    @Test
    void sweepsAreDeterministicWhateverTheThreads() throws InterruptedException {
        GseVsRoceJct e = new GseVsRoceJct(1.5);
        List<GseVsRoceJct.Result> one = e.sweep(List.of(Collective.RING_ALL_REDUCE), new long[] {1 << 20},
                List.of(RoceOrGse.ROCE, RoceOrGse.GSE), new long[] {1, 2}, 1, Progress.silent());
        List<GseVsRoceJct.Result> two = e.sweep(List.of(Collective.RING_ALL_REDUCE), new long[] {1 << 20},
                List.of(RoceOrGse.ROCE, RoceOrGse.GSE), new long[] {1, 2}, 2, Progress.silent());
        assertEquals(one, two);
    }

    @Test
    void sweepResultsFollowTheNestedOrderOfItsArguments() throws InterruptedException {
        GseVsRoceJct e = new GseVsRoceJct(2.0);
        List<GseVsRoceJct.Result> runs = e.sweep(List.of(Collective.RING_ALL_REDUCE, Collective.ALL_TO_ALL), new long[] {1 << 20},
                List.of(RoceOrGse.GSE), new long[] {7}, 2, Progress.silent());
        assertEquals(List.of(e.run(Collective.RING_ALL_REDUCE, 1 << 20, RoceOrGse.GSE, 7),
                e.run(Collective.ALL_TO_ALL, 1 << 20, RoceOrGse.GSE, 7)), runs);
    }

    @Test
    void theFullSweepDatasetHasOneRowPerRunAndAUnitPerColumn(@TempDir Path dir) {
        GseVsRoceJct.Result a = new GseVsRoceJct.Result(Collective.ALL_TO_ALL, 3L << 20, RoceOrGse.ROCE, 1.5, 2, 100.5,
                120.25, 90, 1.75, 4, 5, 6, 0, new JobMetrics.DeliveryCounters(1000, 1500, 2.5, 3, 1, 0));
        GseVsRoceJct.Result b = new GseVsRoceJct.Result(Collective.RING_ALL_REDUCE, 1L << 19, RoceOrGse.GSE, 2.0, 3, 80,
                81, 79, 1, 0, 0, 0, 12, new JobMetrics.DeliveryCounters(2000, 2000, 4, 0, 0, 0));
        Dataset d = GseVsRoceJct.fullSweepDataset(List.of(a, b));
        assertEquals(GseVsRoceJct.FULL_SWEEP, d.name());
        assertEquals(List.of("collective", "size_mb", "fabric", "speedup", "seed", "mean_jct_us", "max_jct_us", "bound_us",
                "uplink_max_over_mean", "pfc_pauses", "ecn_marks", "drops", "containers_reordered", "goodput_gbps", "delivered_bytes",
                "sent_bytes", "retransmitted_bytes", "timeouts", "spurious_timeouts", "failed_qps"), d.table().columnNames());
        assertEquals(java.util.Set.copyOf(d.table().columnNames()), d.provenance().columns().keySet());
        assertTrue(d.provenance().notes().contains("2 runs"), d.provenance().notes());
        // saved where the caller says, and read back
        Datasets.write(dir, d);
        Table back = Datasets.load(dir, GseVsRoceJct.FULL_SWEEP).table();
        assertEquals(2, back.rowCount());
        assertEquals("ring_all_reduce", back.stringColumn("collective").get(1));
        assertEquals(3.0, back.numberColumn("size_mb").getDouble(0));
        assertEquals(0.5, back.numberColumn("size_mb").getDouble(1));
        assertEquals("gse", back.stringColumn("fabric").get(1));
        assertEquals(120.25, back.numberColumn("max_jct_us").getDouble(0));
        assertEquals(12, back.numberColumn("containers_reordered").getDouble(1));
        assertEquals(2.5, back.numberColumn("goodput_gbps").getDouble(0));
        assertEquals(500, back.numberColumn("retransmitted_bytes").getDouble(0)); // 1500 sent - 1000 delivered
        assertEquals(0, back.numberColumn("retransmitted_bytes").getDouble(1));
        assertEquals(3, back.numberColumn("timeouts").getDouble(0));
        assertEquals(1, back.numberColumn("spurious_timeouts").getDouble(0));
        assertEquals(0, back.numberColumn("timeouts").getDouble(1)); // GSE rows carry the columns too
    }

    @Test
    void sweepArgumentsAreChecked() {
        GseVsRoceJct e = new GseVsRoceJct(1.5);
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> e.sweep(List.of(Collective.ALL_TO_ALL),
                new long[] {1 << 20, 100}, List.of(RoceOrGse.GSE), new long[] {1}, 1, Progress.silent()));
        assertEquals("sizes[1] must be in [4096, 1073741824], got 100", x.getMessage());
        x = assertThrows(IllegalArgumentException.class, () -> e.sweep(List.of(Collective.ALL_TO_ALL), new long[] {1 << 20},
                List.of(RoceOrGse.GSE), new long[] {1}, 0, Progress.silent()));
        assertEquals("threads must be in [1, 1024], got 0", x.getMessage());
        x = assertThrows(IllegalArgumentException.class, () -> GseVsRoceJct.fullSweep(0, Progress.silent()));
        assertEquals("threads must be in [1, 1024], got 0", x.getMessage());
        x = assertThrows(IllegalArgumentException.class, () -> GseVsRoceJct.fullSweepDataset(null));
        assertEquals("runs must not be null", x.getMessage());
    }

    @Test
    void rejectsOtherSpeedups() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new GseVsRoceJct(1.0));
        assertTrue(e.getMessage().contains("speedup"));
    }

    @Test
    void aBufferBeyondItsLimitIsRejected() {
        rejects("bufferBytes", () -> new GseVsRoceJct(2.0).run(fabriclab.collectives.Collective.ALL_TO_ALL, Long.MAX_VALUE,
                RoceOrGse.ROCE, 1));
    }
}
