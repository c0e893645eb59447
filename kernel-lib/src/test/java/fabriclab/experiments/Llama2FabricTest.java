package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.Dataset;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.experiments.Llama2Fabric.Case;
import fabriclab.progress.Progress;
import fabriclab.fabric.Time;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Topology;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;
import static fabriclab.TestArguments.rejects;

class Llama2FabricTest {
    static final Llama2Fabric L = new Llama2Fabric(1.5);

    @Test
    void groupsCoverEveryGpuOnceAndTwoJobsStayOnTheirServers() {
        for (Case s : Case.values()) {
            Set<Integer> seen = new HashSet<>();
            for (int[] g : Llama2Fabric.groups(s)) {
                for (int h : g) {
                    assertTrue(seen.add(h), s + ": host " + h + " twice");
                }
                int servers = s == Case.MULTIPLE_JOBS ? 2 : 4;
                assertEquals(servers, g.length);
                if (s == Case.MULTIPLE_JOBS) { // servers A,B or C,D, same NIC index
                    assertEquals(g[0] / 8 / 2, g[1] / 8 / 2);
                    assertEquals(g[0] % 8, g[1] % 8);
                }
            }
            assertEquals(32, seen.size());
        }
    }

    @Test
    void failedLinksAreLeafSpineUplinksOfSpineZero() {
        Topology t = L.fabric().build();
        int spine0 = t.hosts() + L.fabric().leaves();
        for (Case s : List.of(Case.ONE_LINK_DOWN, Case.FOUR_LINKS_DOWN)) {
            Set<Integer> leaves = new HashSet<>();
            for (int link : L.failedUplinks(s)) {
                LinkSpec ls = t.links().get(link);
                assertEquals(spine0, ls.nodeB(), s + " link " + link);
                assertTrue(leaves.add(ls.nodeA() - t.hosts()));
            }
            assertEquals(s == Case.ONE_LINK_DOWN ? 1 : 4, leaves.size());
        }
        assertEquals(0, L.failedUplinks(Case.SINGLE_JOB).length);
    }

    @Test
    void twoJobsOfTwoRanksReachTheirBandwidthBoundOnGse() {
        // a 2-rank ring AllReduce of B bytes: each rank sends B/2 twice, so B x 8 / 100G on its NIC, plus per step
        // (2 steps) a fixed latency: 4 links of 1 us, request and grant (2 x 2 us), 1 us assembly, store and forward
        // of a 4 KB packet at 3 hops (0.98 us): 9.98 us; and at most two 16 KB containers (1.31 us each at 100G) that
        // wait behind others reaching the same port at the same instant, which the order of simultaneous events
        // decides (measured: 10.87 us per step in scheduling order, 12.01 us under the engines' rule)
        long b = 4L << 20;
        Llama2Fabric.Result c = L.communication(Case.MULTIPLE_JOBS, RoceOrGse.GSE, b, 1);
        double bound = b * 8 / 100e9 * 1e6;
        double fixed = 4 + 4 + 1 + 3 * 4096 * 8 / 100e9 * 1e6;
        double container = 16384 * 8 / 100e9 * 1e6;
        assertEquals(0, c.drops());
        int[][] groups = Llama2Fabric.groups(Case.MULTIPLE_JOBS);
        for (fabriclab.simulation.TieOrder order : fabriclab.simulation.TieOrder.values()) {
            JobMetrics m = JobSimulation.run(L.fabric(), JobSimulation.FabricSettings.firstReading(RoceOrGse.GSE), 1,
                    JobSimulation.collectives(groups, fabriclab.collectives.Collective.RING_ALL_REDUCE, b), groups.length,
                    new int[0], setup -> setup.tieOrder(order));
            double comm = m.maxJctUs();
            assertTrue(comm >= bound + 2 * (fixed - 1) && comm <= bound + 2 * (fixed + 2 * container),
                    order + ": comm " + comm + " us vs bound " + bound);
            if (order == fabriclab.simulation.TieOrder.CANONICAL) {
                assertEquals(c.commUs(), comm, 1e-9, "the default order is the rule");
            }
            assertEquals(0, m.drops(), order.toString());
        }
    }

    @Test
    void steadyStateFailuresLoseNothingAndOnlyDetectedFailuresBlackHole() {
        long b = 2L << 20;
        for (RoceOrGse f : RoceOrGse.values()) {
            Llama2Fabric.Result c = L.communication(Case.FOUR_LINKS_DOWN, f, b, 1);
            assertTrue(Double.isFinite(c.commUs()), f + " completes");
            assertEquals(0, c.blackholedPackets(), f + ": the routes avoided the links from the start");
            assertEquals(4, c.failedUplinks());
        }
        // RoCE: 0.2 ms of hashing onto the dead link at 100G black-holes traffic; go-back-N recovers it
        Llama2Fabric.Result roce = L.failureDuringCollective(RoceOrGse.ROCE, b, 1, 20 * Time.US, 200 * Time.US);
        assertTrue(roce.blackholedPackets() > 0 && roce.retransmittedPackets() > 0, roce.toString());
        assertTrue(Double.isFinite(roce.commUs()), "RoCE recovers: " + roce);
        // GSE: announced 5 us ahead, nothing is lost
        Llama2Fabric.Result gse = L.failureDuringCollective(RoceOrGse.GSE, b, 1, 20 * Time.US, -5 * Time.US);
        assertEquals(0, gse.drops());
        assertTrue(Double.isFinite(gse.commUs()));
    }

    /**
     * Announced at the failure instant (detectionPs = 0), 1 us ahead, or detected 20 us late
     * like RoCE's, GSE loses the containers on (or sprayed onto) the failing link; its edges resend
     * them, so the AllReduce finishes with every lost packet resent, later than when the failure is
     * announced early enough to lose nothing.
     */
    @Test
    void gseResendsWhatALateAnnouncementLoses() {
        long b = 1L << 20;
        long failPs = 20 * Time.US;
        Llama2Fabric.Result early = L.failureDuringCollective(RoceOrGse.GSE, b, 1, failPs, -5 * Time.US);
        assertEquals(0, early.drops());
        assertEquals(0, early.retransmittedPackets());
        boolean someLoss = false;
        for (long detectionPs : new long[] {0, -Time.US, 20 * Time.US}) {
            Llama2Fabric.Result late = L.failureDuringCollective(RoceOrGse.GSE, b, 1, failPs, detectionPs);
            assertTrue(Double.isFinite(late.commUs()), late.toString());
            // every lost packet is resent (whole containers, so possibly more)
            assertTrue(late.retransmittedPackets() >= late.drops(), late.toString());
            if (late.drops() > 0) {
                someLoss = true;
                // a lost container waits at least the resend timeout (100 us) before it is requested again; the two
                // runs also differ in when the routes change, so only half of it is asserted (measured at 16 MiB:
                // 97 us more with 5 packets lost at -2 us than nothing lost at -5 us)
                assertTrue(late.commUs() >= early.commUs() + Time.toMicros(GseTransport.DEFAULT_RESEND_TIMEOUT_PS) * 0.5,
                        late + " vs " + early);
            }
        }
        assertTrue(someLoss, "a failure detected 20 us late black-holes containers");
    }

    @Test
    void theFailureSweepGivesTheSingleRunsInTheOrderOfTheDetectionTimes() throws InterruptedException {
        long b = 1L << 20;
        long[] detections = {100 * Time.US, 0};
        List<Llama2Fabric.Result> swept = L.failureSweep(RoceOrGse.ROCE, b, 1, 20 * Time.US, detections, 2, Progress.silent());
        assertEquals(List.of(L.failureDuringCollective(RoceOrGse.ROCE, b, 1, 20 * Time.US, detections[0]),
                L.failureDuringCollective(RoceOrGse.ROCE, b, 1, 20 * Time.US, detections[1])), swept);
    }

    @Test
    void theCommDatasetHasOneRowPerRunAndAUnitPerColumn() {
        Llama2Fabric.Result c = new Llama2Fabric.Result(Case.FOUR_LINKS_DOWN, RoceOrGse.GSE, 3L << 20, 2, 1234.5, 4, 1.25, 0, 1, 2,
                3, 5, new JobMetrics.DeliveryCounters(4096, 8192, 1.5, 2, 0, 1));
        Dataset d = Llama2Fabric.commRunsDataset(List.of(c, c));
        assertEquals(Llama2Fabric.COMM_RUNS, d.name());
        Table t = d.table();
        assertEquals(2, t.rowCount());
        assertEquals(java.util.Set.copyOf(t.columnNames()), d.provenance().columns().keySet());
        assertEquals("four links down", t.stringColumn("scenario").get(0));
        assertEquals("gse", t.stringColumn("fabric").get(1));
        assertEquals(3.0, t.doubleColumn("size_mb").get(0));
        assertEquals(4, t.intColumn("failed_uplinks").get(0));
        assertEquals(5L, t.longColumn("ecn_marks").get(1));
        assertEquals(List.of("goodput_gbps", "delivered_bytes", "sent_bytes", "retransmitted_bytes", "timeouts",
                "spurious_timeouts", "failed_qps"), t.columnNames().subList(t.columnCount() - 7, t.columnCount()));
        assertEquals(1.5, t.doubleColumn("goodput_gbps").get(0));
        assertEquals(4096L, t.longColumn("retransmitted_bytes").get(1));
        assertEquals(1L, t.longColumn("failed_qps").get(0));
        assertTrue(d.provenance().notes().contains("2 runs"), d.provenance().notes());
    }

    @Test
    void badInputIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> L.failureDuringCollective(RoceOrGse.GSE, 1 << 20, 1, Time.US, -2 * Time.US));
        assertEquals("detectionPs must be in [-1000000, 10000000000000], got -2000000", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> L.communication(Case.SINGLE_JOB, RoceOrGse.ROCE, 100, 1));
        assertTrue(e.getMessage().contains("bytesPerRank"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> L.failureSweep(RoceOrGse.ROCE, 1 << 20, 1, -1, new long[] {0}, 1,
                Progress.silent()));
        assertEquals("failPs must be in [0, 10000000000000], got -1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> L.sweep(List.of(Case.SINGLE_JOB), java.util.Arrays.asList(
                RoceOrGse.ROCE, null), 1 << 20, new long[] {1}, 1, Progress.silent()));
        assertEquals("fabrics[1] must not be null", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Llama2Fabric.commRuns(0, Progress.silent()));
        assertEquals("threads must be in [1, 1024], got 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Llama2Fabric(3));
        assertTrue(e.getMessage().contains("speedup"), e.getMessage());
    }

    @Test
    void aMessageBeyondItsLimitIsRejected() {
        rejects("bytesPerRank", () -> new Llama2Fabric(2.0).communication(Llama2Fabric.Case.values()[0], RoceOrGse.GSE,
                Long.MAX_VALUE, 1));
    }
}
