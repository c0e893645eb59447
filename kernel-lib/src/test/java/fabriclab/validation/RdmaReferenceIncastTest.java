package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.Datasets;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
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
 * <p>What is asserted, and the tolerance's reason:
 * <ul>
 *   <li>Every flow completes, every byte is delivered, nothing is dropped: exactly, in both.</li>
 *   <li>Makespan (the last flow's completion) and mean FCT: within the reference's own spread of FCT over its flows,
 *       (max - min) / max (6.7% at N = 4, 33% at 8, 22% at 16). The flows are identical; what separates them in the
 *       reference is which of them the marking draws and the PAUSE order hit, so a second simulator that models the same
 *       mechanisms may land anywhere in that band. FCT is taken as both take it: from the start to the sender's receipt
 *       of the ACK of the last byte.</li>
 *   <li>PFC: a PAUSE reaches every sender at N = 8 and 16, none goes toward the receiver, and every PAUSE is ended by
 *       a RESUME (XON) in both. The first PAUSE leaves the switch within the time the two thresholds' known offset takes
 *       to fill (ours pauses 4 KiB + N x 512 B earlier per ingress counter, see {@link RdmaReferenceIncast}): that
 *       offset plus one packet, over an ingress counter's fill rate 100 Gb/s x (1 - 1/N). The reference's PAUSE is
 *       logged where it is received, one link delay and a 64 B frame after it left.</li>
 *   <li>Peak of the bottleneck's queue: within the bytes the threshold offset leaves to N ingress counters plus one
 *       headroom, N (4 KiB + N x 512 B) + 27,000 B, plus the reference's 1-us sampling (12.5 KB at 100 Gb/s), at N = 8
 *       and 16 where PFC holds the queue. Not at N = 4 (below).</li>
 *   <li>ECN marks at the bottleneck and DCQCN rate cuts per sender: within a factor of 3. The models differ here by
 *       construction: the reference marks at dequeue from the queue left behind, ours at enqueue from the queue found;
 *       the reference flags every marked packet's ACK as a CNP and cuts at most every 4 us, its first CNP without a cut;
 *       ours sends at most one CNP per flow per 4 us and cuts on each; the reference's cuts are counted from its 1-us
 *       rate samples. The factor says "the same regime" (tens of cuts per flow, not one or a thousand), not agreement.</li>
 * </ul>
 *
 * <p>Where the two disagree (the numbers are in the comparison this test prints):
 * <ul>
 *   <li>At N = 4 ours pauses the senders (7 PAUSE frames, the first sent at 18.3 us) and the reference does not:
 *       ours peaks at 724 KB, the reference at 521 KB (its 130 KB per ingress counter stay below its threshold, about
 *       180 KB then). The 4 KiB + 2 KB threshold offset does not explain 203 KB; the cause is not traced yet. Candidates,
 *       each a modelling difference: marking at enqueue against dequeue, the first CNP cutting at once against the
 *       reference's 4-us check, CNP pacing at the receiver against the sender's decrease timer. Not asserted.</li>
 *   <li>ECN marks: ours 2.2x the reference's at N = 4, 2.1x at 8, 1.1x at 16; rate cuts per sender 1.5x, 2.3x,
 *       2.1x.</li>
 *   <li>PAUSE frames: 27 against 14 at N = 8, 69 against 28 at N = 16; each PAUSE ended by one RESUME in both.</li>
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
        StringBuilder report = new StringBuilder(
                "N  quantity                       reference        ours     tolerance\n");
        for (int n : SENDERS) {
            SimulationResult r = new Simulator(new RdmaReferenceIncast(n).scenario()).run();
            // completion, bytes, drops
            assertTrue(r.allCompleted(), "N=" + n);
            assertEquals(n * RdmaReferenceIncast.BYTES_PER_SENDER, r.deliveredBytes(), "N=" + n);
            assertEquals(0, r.droppedPackets(), "N=" + n);
            assertEquals(0, rows(t, n, "drops").get(0)[3], "N=" + n);
            // FCT
            long[] ref = rows(t, n, "fct_ns").stream().mapToLong(f -> f[3]).toArray();
            long refMax = java.util.Arrays.stream(ref).max().orElseThrow();
            long refMin = java.util.Arrays.stream(ref).min().orElseThrow();
            double refMean = java.util.Arrays.stream(ref).average().orElseThrow();
            double spread = (double) (refMax - refMin) / refMax;
            long oursMax = 0;
            double oursMean = 0;
            for (SimulationResult.FlowRecord f : r.flows()) {
                long fct = (f.acknowledgedPs() - f.startedPs()) / Time.NS;
                oursMax = Math.max(oursMax, fct);
                oursMean += fct / (double) n;
            }
            line(report, n, "makespan [ns]", refMax, oursMax, spread);
            line(report, n, "mean FCT [ns]", refMean, oursMean, spread);
            assertTrue(Math.abs(oursMax - refMax) <= spread * refMax, "N=" + n + ": makespan " + oursMax + " vs " + refMax);
            assertTrue(Math.abs(oursMean - refMean) <= spread * refMean, "N=" + n + ": mean FCT " + oursMean + " vs " + refMean);
            // PFC
            int receiver = n;
            long oursPauses = 0;
            long oursXon = 0;
            long oursFirstPs = Long.MAX_VALUE;
            int pausedSenders = 0;
            for (SimulationResult.PortPfc p : r.pfc()) {
                if (p.node() >= n + 1) { // the switch
                    if (p.peerNode() == receiver) {
                        assertEquals(0, p.pausesSent(), "N=" + n + ": no PAUSE toward the receiver");
                    }
                    oursPauses += p.pausesSent();
                    oursXon += p.xonSent();
                    if (p.pausesSent() > 0) {
                        pausedSenders++;
                        oursFirstPs = Math.min(oursFirstPs, p.firstPauseSentPs());
                    }
                }
            }
            long refPauses = sum(rows(t, n, "pause_sent"));
            assertEquals(oursPauses, oursXon, "N=" + n + ": every PAUSE ended by an XON");
            line(report, n, "PAUSE frames sent", refPauses, oursPauses, Double.NaN);
            assertEquals(0, rows(t, n, "pause_sent").stream().filter(p -> p[1] == n + 1).mapToLong(p -> p[3]).sum());
            if (n >= 8) {
                assertEquals(n, rows(t, n, "pause_received").stream().filter(p -> p[3] > 0).count(), "reference N=" + n);
                assertEquals(n, pausedSenders, "N=" + n + ": a PAUSE reaches every sender");
                long refFirstNs = rows(t, n, "first_pause_ns").stream().filter(p -> p[3] >= 0).mapToLong(p -> p[3]).min()
                        .orElseThrow() - RdmaReferenceIncast.DELAY_PS / Time.NS
                        - Time.serializationPs(Pfc.PAUSE_FRAME_BYTES, RdmaReferenceIncast.RATE_BPS) / Time.NS;
                double offsetBytes = RdmaReferenceIncast.RESERVE_BYTES + n * 512.0 + 1052;
                double toleranceNs = offsetBytes / (RdmaReferenceIncast.RATE_BPS / 8e9 * (1 - 1.0 / n));
                line(report, n, "first PAUSE sent [ns]", refFirstNs, oursFirstPs / (double) Time.NS, toleranceNs);
                assertTrue(Math.abs(oursFirstPs / (double) Time.NS - refFirstNs) <= toleranceNs,
                        "N=" + n + ": first PAUSE at " + oursFirstPs / Time.NS + " ns vs " + refFirstNs);
            } else {
                line(report, n, "first PAUSE sent [ns]", -1, oursPauses > 0 ? oursFirstPs / (double) Time.NS : -1, Double.NaN);
            }
            // the bottleneck queue
            SimulationResult.QueueTrace q = r.queues().stream().filter(x -> x.peerNode() == receiver).findFirst().orElseThrow();
            long refPeak = rows(t, n, "peak_queue_bytes").get(0)[3];
            if (n >= 8) {
                double peakTolerance = n * (RdmaReferenceIncast.RESERVE_BYTES + n * 512.0) + RdmaReferenceIncast.HEADROOM_BYTES
                        + 12_500;
                line(report, n, "peak queue [B]", refPeak, q.peakBytes(), peakTolerance);
                assertTrue(Math.abs(q.peakBytes() - refPeak) <= peakTolerance, "N=" + n + ": peak " + q.peakBytes() + " vs " + refPeak);
            } else {
                line(report, n, "peak queue [B] (not asserted)", refPeak, q.peakBytes(), Double.NaN);
            }
            // marking and DCQCN
            long refMarks = rows(t, n, "ecn_marked").get(0)[3];
            line(report, n, "ECN-marked packets", refMarks, q.ecnMarks(), 3);
            assertTrue(q.ecnMarks() <= 3 * refMarks && refMarks <= 3 * q.ecnMarks(), "N=" + n + ": marks");
            double refCuts = sum(rows(t, n, "rate_cuts")) / (double) n;
            double oursCuts = r.counter(RoceTransport.RATE_CUTS) / (double) n;
            line(report, n, "rate cuts per sender", refCuts, oursCuts, 3);
            assertTrue(oursCuts <= 3 * refCuts && refCuts <= 3 * oursCuts, "N=" + n + ": rate cuts");
            line(report, n, "CNPs (ref: flagged ACKs)", sum(rows(t, n, "cnp_acks")), r.counter(RoceTransport.CNPS), Double.NaN);
        }
        System.out.print(report);
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

    private static void line(StringBuilder sb, int n, String quantity, double reference, double ours, double tolerance) {
        sb.append(String.format(Locale.ROOT, "%-2d %-28s %12.0f %12.0f   %s%n", n, quantity, reference, ours,
                Double.isNaN(tolerance) ? "-" : tolerance < 10 ? (tolerance <= 1 ? String.format(Locale.ROOT, "%.1f%%", 100 * tolerance)
                        : "factor " + (int) tolerance) : String.format(Locale.ROOT, "%.0f", tolerance)));
    }
}
