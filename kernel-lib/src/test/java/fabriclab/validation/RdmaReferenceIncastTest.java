package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.ComparisonRow;
import fabriclab.datasets.Datasets;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * Our simulator against the RDMA reference (HPCC's ns-3 model as aliyun/ns-3-alibabacloud carries it) on the DCQCN+PFC
 * N-to-1 incasts of {@link RdmaReferenceIncast}, N = 4, 8, 16, read from the committed dataset
 * {@code rdma-ns3-dcqcn-incast} (written by {@code tools/RdmaReferenceRuns.java}; the reference is not needed here).
 *
 * <p>What is asserted: every flow completes and every byte is delivered; no PAUSE goes toward the receiver and every
 * PAUSE is ended by a RESUME (XON) in both; at N = 8 and 16 a PAUSE reaches every sender in both. Every compared figure
 * (makespan, mean FCT, drops, PAUSE frames, the first PAUSE, the bottleneck's peak queue, ECN marks, rate cuts) is a row
 * of {@link RdmaReferenceComparison#incastRows}, which holds the tolerances and their reasons; the test asserts that
 * every row passes except the misses named below.
 *
 * <p>Where the two disagree (the numbers are in the comparison this test prints):
 * <ul>
 *   <li>At N = 4 ours pauses the senders (7 PAUSE frames, the first sent at 18.3 us) and the reference does not:
 *       ours peaks at 724 KB, the reference at 521 KB (its 130 KB per ingress counter stay below its threshold, about
 *       180 KB then). The 4 KiB + 2 KB threshold offset does not explain 203 KB. The mechanism is the marking point
 *       (ours at enqueue, the reference at dequeue): {@link #underTheReferencesMarkingPointTheFourToOneIncastDoesNotPause}
 *       reruns it marking at dequeue, and ours then pauses no sender and peaks within the tolerance.</li>
 *   <li>ECN marks: ours 2.2x the reference's at N = 4, 2.1x at 8, 1.1x at 16; rate cuts per sender 1.5x, 2.3x,
 *       2.1x.</li>
 *   <li>PAUSE frames: 27 against 14 at N = 8, 69 against 28 at N = 16, beyond the FCT spread (a miss); each PAUSE ended
 *       by one RESUME in both. Marking at enqueue delays the senders' cuts and the queue returns to the threshold more
 *       often; marking at dequeue ours sends fewer than the reference at N = 8 and as many at N = 16 (the rows of
 *       notebook 14).</li>
 *   <li>CNPs are not comparable counts: the reference's are its marked packets, ours at most one per 4 us per flow.</li>
 * </ul>
 * The one difference that decided the outcome, DCQCN's target rate after a run of cuts, is a setting
 * ({@link RoceTransport#clampTargetRate()}, false as in the reference): with every cut clamping the target (Zhu et
 * al.'s reaction point) the flows fall to the floor and climb back by R_AI, and the makespan is 3.4x the reference's
 * at N = 4 (1.79 ms against 0.52 ms), 1.8x at 8 and 1.5x at 16.
 */
class RdmaReferenceIncastTest {
    private static final String NAME = "rdma-ns3-dcqcn-incast";
    private static final int[] SENDERS = {4, 8, 16};

    /** The reference's rows of one run and quantity, as (node, port, time_ns, value). */
    private static List<long[]> rows(Table t, int senders, String quantity) {
        List<long[]> out = new ArrayList<>();
        for (Row r : t) {
            if (r.getInt("senders") == senders && r.getString("quantity").equals(quantity)) {
                out.add(new long[] {r.getInt("node"), r.getInt("port"), (long) r.getNumber("time_ns"), (long) r.getNumber("value")});
            }
        }
        return out;
    }

    private static long sum(List<long[]> rows) {
        return rows.stream().mapToLong(r -> r[3]).sum();
    }

    @Test
    void theDatasetIsConsistentWithItself() {
        Table t = Datasets.load(NAME).table();
        for (int n : SENDERS) {
            assertEquals(n, rows(t, n, "fct_ns").size(), "N=" + n + ": one FCT per sender");
            // one CNP-flagged ACK per marked packet (CcMode 1 flags the ACK of every marked packet)
            assertEquals(rows(t, n, "ecn_marked").get(0)[3], sum(rows(t, n, "cnp_acks")), "N=" + n);
            assertEquals(sum(rows(t, n, "pause_sent")), sum(rows(t, n, "pause_received")), "N=" + n);
            assertEquals(sum(rows(t, n, "pause_received")), sum(rows(t, n, "resume_received")), "N=" + n);
            // no run completes faster than the bottleneck can carry the N x 1,052,000 wire bytes
            long drainNs = n * 1_052_000L * 8 / 100;
            for (long[] f : rows(t, n, "fct_ns")) {
                assertTrue(f[3] > 0);
            }
            assertTrue(rows(t, n, "fct_ns").stream().mapToLong(f -> f[3]).max().orElseThrow() >= drainNs, "N=" + n);
        }
    }

    @Test
    void theScenarioFilesStateTheSettingsOfRdmaReferenceIncast() throws Exception {
        for (int n : SENDERS) {
            Path dir = Path.of("..", "tools", "rdma-reference", "scenarios", "incast" + n);
            String config = Files.readString(dir.resolve("config_incast" + n + ".txt"), StandardCharsets.UTF_8);
            for (String line : List.of("KMIN_MAP 1 100000000000 100", "KMAX_MAP 1 100000000000 400",
                    "PMAX_MAP 1 100000000000 0.2", "BUFFER_SIZE 2", "ns3::RdmaHw::Mtu 1000", "ns3::RdmaHw::RateAI 40Mb/s",
                    "ns3::RdmaHw::RateHAI 400Mb/s", "ns3::RdmaHw::MinRate 100Mb/s", "ns3::MellanoxDcqcn::EwmaGain 0.00390625",
                    "ns3::MellanoxDcqcn::ClampTargetRate false", "ns3::MellanoxDcqcn::AlphaResumInterval 55.0",
                    "ns3::MellanoxDcqcn::RateDecreaseInterval 4.0", "ns3::MellanoxDcqcn::RPTimer 55.0",
                    "ns3::MellanoxDcqcn::FastRecoveryTimes 5", "ns3::RdmaHw::L2AckInterval 1", "HAS_WIN 0")) {
                assertTrue(config.contains("\n" + line + "\n"), "incast" + n + " lacks \"" + line + "\"");
            }
            List<String> flows = Files.readAllLines(dir.resolve("flows_incast" + n + ".txt"), StandardCharsets.UTF_8);
            assertEquals(String.valueOf(n), flows.get(0));
            assertEquals("0 " + n + " 3 100 " + RdmaReferenceIncast.BYTES_PER_SENDER + " 2.000000", flows.get(1));
            String topo = Files.readString(dir.resolve("topo_incast" + n + ".txt"), StandardCharsets.UTF_8);
            assertTrue(topo.contains("0 " + (n + 1) + " 100Gbps 1us 0\n"), topo);
        }
        RdmaReferenceIncast s = new RdmaReferenceIncast(8);
        assertEquals(27_000, RdmaReferenceIncast.HEADROOM_BYTES);
        assertEquals(2_097_152 - 9 * (27_000 + 4_096), s.sharedBufferBytes());
    }

    @Test
    void oursAgreesWithTheReferenceWhereTheModelsAgree() {
        Table t = Datasets.load(NAME).table();
        StringBuilder report = new StringBuilder();
        for (int n : SENDERS) {
            SimulationResult r = new Simulator(new RdmaReferenceIncast(n).scenario()).run();
            assertTrue(r.allCompleted(), "N=" + n);
            assertEquals(n * RdmaReferenceIncast.BYTES_PER_SENDER, r.deliveredBytes(), "N=" + n);
            // PFC: no PAUSE toward the receiver in either; every PAUSE ended by an XON; at N >= 8 every sender paused
            int receiver = n;
            long oursPauses = 0;
            long oursXon = 0;
            int pausedSenders = 0;
            for (SimulationResult.PortPfc p : r.pfc()) {
                if (p.node() >= n + 1) { // the switch
                    if (p.peerNode() == receiver) {
                        assertEquals(0, p.pausesSent(), "N=" + n + ": no PAUSE toward the receiver");
                    }
                    oursPauses += p.pausesSent();
                    oursXon += p.xonSent();
                    pausedSenders += p.pausesSent() > 0 ? 1 : 0;
                }
            }
            assertEquals(oursPauses, oursXon, "N=" + n + ": every PAUSE ended by an XON");
            assertEquals(0, rows(t, n, "pause_sent").stream().filter(p -> p[1] == n + 1).mapToLong(p -> p[3]).sum());
            if (n >= 8) {
                assertEquals(n, rows(t, n, "pause_received").stream().filter(p -> p[3] > 0).count(), "reference N=" + n);
                assertEquals(n, pausedSenders, "N=" + n + ": a PAUSE reaches every sender");
            }
            // every compared figure within its tolerance (RdmaReferenceComparison), except the named misses
            List<String> misses = new ArrayList<>();
            for (ComparisonRow row : RdmaReferenceComparison.incastRows(n, r, t)) {
                report.append(String.format(Locale.ROOT, "%-100s %12.3f %12.3f %s%n", row.quantity(), row.target().published(),
                        row.model(), row.meetsTarget() ? "pass" : "miss"));
                if (!row.meetsTarget()) {
                    misses.add(row.quantity().substring(row.quantity().indexOf(": ") + 2));
                }
            }
            assertEquals(n == 4 ? List.of("PAUSE frames the switch sends", "peak queue at the receiver's port")
                    : List.of("PAUSE frames the switch sends"), misses, "N=" + n);
        }
        System.out.print(report);
    }

    /**
     * The trace of the N = 4 misses: with our switch marking at dequeue ({@link SwitchBuffer.MarkingPoint#DEQUEUE}), as
     * the reference's MMU does, ours pauses no sender, as the reference, and the receiver port's peak queue lies within
     * the tolerance of {@link RdmaReferenceComparison#incastRows}; nothing is lost.
     */
    @Test
    void underTheReferencesMarkingPointTheFourToOneIncastDoesNotPause() {
        Table t = Datasets.load(NAME).table();
        SimulationResult r = new Simulator(new RdmaReferenceIncast(4).scenario(SwitchBuffer.MarkingPoint.DEQUEUE)).run();
        assertTrue(r.allCompleted());
        assertEquals(0, r.pausesSent(), "no PAUSE, as in the reference");
        List<ComparisonRow> rows = RdmaReferenceComparison.incastRows(4, r, t, SwitchBuffer.MarkingPoint.DEQUEUE);
        for (String q : List.of("PAUSE frames the switch sends", "peak queue at the receiver's port", "drops")) {
            ComparisonRow row = rows.stream().filter(x -> x.quantity().endsWith(": " + q)).findFirst().orElseThrow();
            assertTrue(row.meetsTarget(), q + ": reference " + row.target().describe() + ", ours " + row.model());
        }
    }

    /**
     * Where a built copy of the reference is at hand ({@code -Dfabriclab.rdma.reference=DIR}, else
     * {@code /work/refs/ns3-alibaba}), the tool reruns it and writes the committed CSV byte for byte.
     */
    @Test
    void theToolReproducesTheCommittedCsvByteForByte(@TempDir Path tmp) throws Exception {
        String configured = System.getProperty("fabriclab.rdma.reference");
        Path tree = Path.of(configured == null || configured.isBlank() ? "/work/refs/ns3-alibaba" : configured);
        Assumptions.assumeTrue(Files.isExecutable(tree.resolve("simulation/build/scratch/ns3.36.1-NormalNetwork"))
                && Files.isExecutable(tree.resolve("analysis/trace_reader")), "no built reference at " + tree);
        Path root = Path.of("..").toAbsolutePath().normalize(); // tests run in kernel-lib/
        Path out = tmp.resolve(NAME + ".csv");
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(javaBin.toString(), root.resolve("tools/RdmaReferenceRuns.java").toString(), tree.toString(),
                out.toString()).directory(root.toFile()).redirectErrorStream(true).redirectOutput(tmp.resolve("log.txt").toFile()).start();
        assertTrue(p.waitFor(10, java.util.concurrent.TimeUnit.MINUTES), "the tool did not finish in 10 minutes");
        assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("log.txt")));
        org.junit.jupiter.api.Assertions.assertArrayEquals(
                Files.readAllBytes(root.resolve("datasets/published").resolve(NAME + ".csv")), Files.readAllBytes(out));
    }
}
