package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.collectives.BandwidthBound;
import fabriclab.collectives.Collective;
import fabriclab.progress.Progress;
import java.util.List;
import org.junit.jupiter.api.Test;

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
        GseVsRoceJct.Run r = new GseVsRoceJct(2.0).run(Collective.ALL_TO_ALL, 16L << 20, GseVsRoceJct.Fabric.GSE, 1);
        double bound = new BandwidthBound(4, 100).seconds(Collective.ALL_TO_ALL, 16L << 20) * 1e6;
        assertEquals(bound, r.boundUs(), 1e-6);
        assertTrue(r.maxJctUs() >= bound, "no job beats the bound");
        assertTrue(r.maxJctUs() <= 1.03 * bound, "max JCT " + r.maxJctUs() + " vs bound " + bound);
        assertEquals(0, r.drops());
    }

    @Test
    void sweepsAreDeterministicWhateverTheThreads() throws InterruptedException {
        GseVsRoceJct e = new GseVsRoceJct(1.5);
        List<GseVsRoceJct.Run> one = e.sweep(List.of(Collective.RING_ALL_REDUCE), new long[] {1 << 20},
                List.of(GseVsRoceJct.Fabric.ROCE, GseVsRoceJct.Fabric.GSE), new long[] {1, 2}, 1, Progress.silent());
        List<GseVsRoceJct.Run> two = e.sweep(List.of(Collective.RING_ALL_REDUCE), new long[] {1 << 20},
                List.of(GseVsRoceJct.Fabric.ROCE, GseVsRoceJct.Fabric.GSE), new long[] {1, 2}, 2, Progress.silent());
        assertEquals(one, two);
    }

    @Test
    void rejectsOtherSpeedups() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new GseVsRoceJct(1.0));
        assertTrue(e.getMessage().contains("speedup"));
    }
}
