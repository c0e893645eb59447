package fabriclab.experiments;

import fabriclab.simulation.trace.Counters;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.simulation.transport.roce.RoceTransport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.collectives.Collective;
import fabriclab.experiments.testbed.Duan2024Testbed;
import fabriclab.experiments.testbed.RoceOrGse;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobMetricsTest {
    static final JobMetrics.PfcCounters NO_PFC = new JobMetrics.PfcCounters(0, 0, 0, 0);

    @Test
    void meanAndSlowestGroup() {
        JobMetrics m = new JobMetrics(new double[] {1, 2, 3, 6}, 0, 1, 0, 0, 0, NO_PFC, Counters.builder().put(GseTransport.CONTAINERS_REORDERED, 5).build(), 0, 0);
        assertEquals(3.0, m.meanJctUs(), 0);
        assertEquals(6.0, m.maxJctUs(), 0);
        assertEquals(4, m.groups());
        assertTrue(m.allFinished());
        assertEquals(5L, m.counter(GseTransport.CONTAINERS_REORDERED));
        assertEquals(0L, m.counter(RoceTransport.RATE_CUTS));
        JobMetrics unfinished = new JobMetrics(new double[] {1, 0}, 1, 1, 0, 0, 0, NO_PFC, Counters.NONE, 0, 0);
        assertFalse(unfinished.allFinished());
        assertThrows(IllegalStateException.class, unfinished::meanJctUs);
        assertThrows(IllegalStateException.class, unfinished::maxJctUs);
    }

    @Test
    void theJctsAreCopiedInAndOut() {
        double[] jct = {4, 5};
        JobMetrics m = new JobMetrics(jct, 0, 1, 0, 0, 0, NO_PFC, Counters.NONE, 0, 0);
        jct[0] = 100;
        m.jctUs()[1] = 100;
        assertEquals(4.5, m.meanJctUs(), 0);
        assertEquals(m, new JobMetrics(new double[] {4, 5}, 0, 1, 0, 0, 0, NO_PFC, Counters.NONE, 0, 0));
    }

    @Test
    void rejectsImpossibleValuesNamingTheParameter() {
        assertThrows(IllegalArgumentException.class, () -> new JobMetrics(new double[0], 0, 1, 0, 0, 0, NO_PFC, Counters.NONE, 0, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JobMetrics(new double[] {1, -1}, 0, 1, 0, 0, 0, NO_PFC, Counters.NONE, 0, 0));
        assertTrue(e.getMessage().contains("jctUs[1]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new JobMetrics(new double[] {1}, 0, Double.POSITIVE_INFINITY, 0, 0, 0,
                NO_PFC, Counters.NONE, 0, 0));
        e = assertThrows(IllegalArgumentException.class, () -> new JobMetrics(new double[] {1}, 2, 1, 0, 0, 0, NO_PFC, Counters.NONE, 0, 0));
        assertTrue(e.getMessage().contains("unfinishedGroups"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new JobMetrics(new double[] {1}, 0, 1, -1, 0, 0, NO_PFC, Counters.NONE, 0, 0));
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
        int[][] groups = Duan2024Testbed.jobGroups();
        for (double speedup : new double[] {1.5, 2.0}) {
            JobMetrics m = JobSimulation.run(Duan2024Testbed.of(speedup).leafSpine(), JobSimulation.FabricSettings.firstReading(RoceOrGse.GSE),
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

    @Test
    void goodputIsTheDeliveredBitsOverTheLastCompletion() {
        // 1000 bytes by 4 us: 8000 bits / 4e-6 s = 2e9 bit/s
        JobMetrics m = new JobMetrics(new double[] {1, 2, 4}, 0, 1, 0, 0, 3, NO_PFC,
                Counters.builder().put(TransportModel.TIMEOUTS, 3).put(TransportModel.SPURIOUS_TIMEOUTS, 1)
                        .put(TransportModel.FAILED_QPS, 2).build(), 1000, 1500);
        assertEquals(2.0, m.goodputGbps(), 1e-12);
        assertEquals(3, m.timeouts());
        assertEquals(1, m.spuriousTimeouts());
        assertEquals(2, m.failedQueuePairs());
        assertEquals(new JobMetrics.DeliveryCounters(1000, 1500, 2.0, 3, 1, 2), m.delivery());
        assertEquals(500, m.delivery().retransmittedBytes());
        // the byte counts take part in equality
        assertFalse(m.equals(new JobMetrics(new double[] {1, 2, 4}, 0, 1, 0, 0, 3, NO_PFC,
                Counters.builder().put(TransportModel.TIMEOUTS, 3).put(TransportModel.SPURIOUS_TIMEOUTS, 1)
                        .put(TransportModel.FAILED_QPS, 2).build(), 1000, 1501)));
        assertTrue(m.toString().contains("sentBytes=1500"), m.toString());
        JobMetrics unfinished = new JobMetrics(new double[] {1, 0}, 1, 1, 0, 0, 0, NO_PFC, Counters.NONE, 10, 10);
        assertThrows(IllegalStateException.class, unfinished::goodputGbps);
        assertThrows(IllegalStateException.class, unfinished::delivery);
    }

    @Test
    void rejectsMoreDeliveredThanSentAndMoreSpuriousTimeoutsThanTimeouts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JobMetrics(new double[] {1}, 0, 1, 0, 0, 0, NO_PFC, Counters.NONE, 2, 1));
        assertTrue(e.getMessage().contains("sentBytes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new JobMetrics(new double[] {1}, 0, 1, 0, 0, 0, NO_PFC, Counters.builder().put(TransportModel.SPURIOUS_TIMEOUTS, 1).build(), 0, 0));
        assertTrue(e.getMessage().contains("spurious"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new JobMetrics.DeliveryCounters(0, 0, 0, 1, 2, 0));
        assertTrue(e.getMessage().contains("spuriousTimeouts"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new JobMetrics.DeliveryCounters(0, 0, Double.NaN, 0, 0, 0));
        assertTrue(e.getMessage().contains("goodputGbps"), e.getMessage());
    }

    /**
     * 8 jobs, each an all-to-all of 4 ranks with 512 KiB per rank: every rank sends 3 transfers of 128 KiB, so the jobs
     * deliver 8 x 4 x 3 x 128 KiB = 12 MiB. Neither fabric loses a packet here (GSE: grants; RoCE: PFC), so every byte is
     * sent once and no timeout fires; the goodput cannot exceed the 32 NICs' 100 Gb/s each.
     */
    @Test
    void aLosslessRunDeliversEveryFlowsBytesOnceWithoutTimeouts() {
        long buffer = 4L * 128 * 1024;
        long total = 8L * 4 * 3 * 128 * 1024;
        int[][] groups = Duan2024Testbed.jobGroups();
        for (RoceOrGse fabric : RoceOrGse.values()) {
            JobMetrics m = JobSimulation.run(Duan2024Testbed.of(1.5).leafSpine(), JobSimulation.FabricSettings.firstReading(fabric),
                    1, JobSimulation.collectives(groups, Collective.ALL_TO_ALL, buffer), groups.length, new int[0], s -> { });
            assertTrue(m.allFinished(), fabric.toString());
            assertEquals(0, m.drops(), fabric.toString());
            assertEquals(total, m.deliveredBytes(), fabric.toString());
            assertEquals(total, m.sentBytes(), fabric.toString());
            assertEquals(0, m.timeouts(), fabric.toString());
            assertTrue(m.spuriousTimeouts() <= m.timeouts());
            assertEquals(0, m.failedQueuePairs(), fabric.toString());
            assertEquals(8.0 * total / (m.maxJctUs() * 1e3), m.goodputGbps(), 1e-9);
            assertTrue(m.goodputGbps() > 0 && m.goodputGbps() <= 32 * 100.0, fabric + ": " + m.goodputGbps());
        }
    }
}
