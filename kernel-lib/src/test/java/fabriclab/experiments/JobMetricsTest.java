package fabriclab.experiments;

import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.simulation.transport.roce.RoceTransport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.collectives.Collective;
import fabriclab.experiments.GseVsRoceJct.Fabric;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobMetricsTest {
    static final JobMetrics.PfcCounters NO_PFC = new JobMetrics.PfcCounters(0, 0, 0, 0);

    @Test
    void meanAndSlowestGroup() {
        JobMetrics m = new JobMetrics(new double[] {1, 2, 3, 6}, 0, 1, 0, 0, 0, NO_PFC, Map.of("gse.containersReordered", 5L));
        assertEquals(3.0, m.meanJctUs(), 0);
        assertEquals(6.0, m.maxJctUs(), 0);
        assertEquals(4, m.groups());
        assertTrue(m.allFinished());
        assertEquals(5L, m.counter(GseTransport.CONTAINERS_REORDERED));
        assertEquals(0L, m.counter(RoceTransport.RATE_CUTS));
        JobMetrics unfinished = new JobMetrics(new double[] {1, 0}, 1, 1, 0, 0, 0, NO_PFC, Map.of());
        assertFalse(unfinished.allFinished());
        assertThrows(IllegalStateException.class, unfinished::meanJctUs);
        assertThrows(IllegalStateException.class, unfinished::maxJctUs);
    }

    @Test
    void theJctsAreCopiedInAndOut() {
        double[] jct = {4, 5};
        JobMetrics m = new JobMetrics(jct, 0, 1, 0, 0, 0, NO_PFC, Map.of());
        jct[0] = 100;
        m.jctUs()[1] = 100;
        assertEquals(4.5, m.meanJctUs(), 0);
        assertEquals(m, new JobMetrics(new double[] {4, 5}, 0, 1, 0, 0, 0, NO_PFC, Map.of()));
    }

    @Test
    void rejectsImpossibleValuesNamingTheParameter() {
        assertThrows(IllegalArgumentException.class, () -> new JobMetrics(new double[0], 0, 1, 0, 0, 0, NO_PFC, Map.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JobMetrics(new double[] {1, -1}, 0, 1, 0, 0, 0, NO_PFC, Map.of()));
        assertTrue(e.getMessage().contains("jctUs[1]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new JobMetrics(new double[] {1}, 0, Double.POSITIVE_INFINITY, 0, 0, 0,
                NO_PFC, Map.of()));
        e = assertThrows(IllegalArgumentException.class, () -> new JobMetrics(new double[] {1}, 2, 1, 0, 0, 0, NO_PFC, Map.of()));
        assertTrue(e.getMessage().contains("unfinishedGroups"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new JobMetrics(new double[] {1}, 0, 1, -1, 0, 0, NO_PFC, Map.of()));
        e = assertThrows(IllegalArgumentException.class, () -> new JobMetrics.PfcCounters(1, 1, 1, 1.5));
        assertTrue(e.getMessage().contains("pausedPortShare"), e.getMessage());
    }

    /**
     * Every job's ranks sit on four different leaves, so every byte of an all-to-all crosses a leaf uplink. Each
     * transfer is 128 KB, 8 GSE containers of 16 KB, sprayed round-robin over the spines from the first: 3, 3, 2 on
     * 3 spines (max over mean 3 / (8/3) = 9/8), 2, 2, 2, 2 on 4 spines (1). No drops, no PFC (GSE runs without it).
     */
    @Test
    void gseSpraysEachPairsContainersRoundRobinOverTheUplinks() {
        long buffer = 4L * 128 * 1024;
        int[][] groups = Paper000Testbed.jobGroups();
        for (double speedup : new double[] {1.5, 2.0}) {
            JobMetrics m = JobSimulation.run(Paper000Testbed.of(speedup).leafSpine(), JobSimulation.FabricSettings.firstReading(Fabric.GSE),
                    1, JobSimulation.collectives(groups, Collective.ALL_TO_ALL, buffer), groups.length, new int[0], s -> { });
            assertEquals(8, m.groups());
            assertTrue(m.allFinished());
            assertEquals(0, m.drops());
            assertEquals(0, m.pfc().pauses());
            assertEquals(speedup == 1.5 ? 9.0 / 8 : 1.0, m.uplinkMaxOverMean(), 1e-12, "speedup " + speedup);
            // no job beats its NICs: 3 x 128 KB out of each rank at 100G
            double nicBoundUs = 3 * (buffer / 4) * 8 / 100e9 * 1e6;
            assertTrue(m.maxJctUs() >= nicBoundUs, m.maxJctUs() + " < " + nicBoundUs);
            assertTrue(m.meanJctUs() <= m.maxJctUs());
        }
    }
}
