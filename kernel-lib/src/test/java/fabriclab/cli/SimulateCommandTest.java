package fabriclab.cli;

import fabriclab.simulation.trace.Counters;
import fabriclab.simulation.Simulator;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import fabriclab.scenarios.TransportChoice;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulation command: its options, their errors, and runs whose figures are known in closed form. */
class SimulateCommandTest {

    /** Runs the command in this JVM; returns {exit status, stdout, stderr}. Shared by the command's other tests. */
    static Object[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SimulateCommand.run(Arrays.asList(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Object[] {status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void defaultsAreTheRocePfcScenarioOfTheHtsimComparison() {
        SimulateRun o = SimulateOptions.defaults();
        // the htsim comparison's scenario: N/16 leaves x 16 hosts, 8 spines, 2 links per pair, 100G, 1 us,
        // 1000 B + 64 B, 2 MB flows seed 5, an ACK per packet, XOFF 15 x 1064 B, XON 12,000 B, ECMP,
        // 16 MB shared buffer
        assertEquals("permutation", o.settings().workload());
        assertEquals(128, o.settings().fabric().hosts());
        assertEquals(16, o.settings().fabric().hostsPerLeaf());
        assertEquals(8, o.settings().fabric().spines());
        assertEquals(2, o.settings().fabric().parallelLinks());
        assertEquals(100_000_000_000L, o.settings().fabric().rateBitsPerSecond());
        assertEquals(1_000_000L, o.settings().fabric().delayPs());
        assertEquals(1000, o.settings().transport().mtuBytes());
        assertEquals(64, o.settings().transport().headerBytes());
        assertEquals(2_000_000L, o.settings().traffic().flowBytes());
        assertEquals(5L, o.settings().seed());
        assertEquals(TransportChoice.ROCE, o.settings().transport().choice());
        assertEquals(1, o.settings().transport().connection().ackEvery());
        assertEquals(15 * 1064L, o.settings().transport().pfc().xoffBytes());
        assertEquals(12_000L, o.settings().transport().pfc().xonBytes());
        assertEquals("ecmp", o.settings().transport().forwarding());
        assertEquals(16_000_000L, o.settings().fabric().bufferBytes());
        assertEquals(0, o.threads());
        assertNull(o.flowsFile());
        Scenario s = o.settings().scenario();
        assertEquals(128, s.flows().size());
        assertEquals(128 + 8 + 8, s.topology().nodes());
    }

    private static long bytes(String text) {
        return Quantity.BYTES.parse("x", text, 0, Long.MAX_VALUE);
    }

    private static long rate(String text) {
        return Quantity.RATE.parse("x", text, 0, Long.MAX_VALUE);
    }

    private static long time(String text) {
        return Quantity.TIME.parse("x", text, 0, Long.MAX_VALUE);
    }

    @Test
    void unitsOfSizesRatesAndTimes() {
        assertEquals(2_000_000L, bytes("2MB"));
        assertEquals(4L << 20, bytes("4MiB"));
        assertEquals(1500L, bytes("1500"));
        assertEquals(1500L, bytes("1.5KB"));
        assertEquals(100_000_000_000L, rate("100G"));
        assertEquals(25_000_000_000L, rate("25Gbps"));
        assertEquals(1_000_000L, time("1us"));
        assertEquals(500_000L, time("500ns"));
        assertEquals(10_000_000_000L, time("10ms"));
        assertEquals(2_000_000_000_000L, time("2s"));
        assertThrows(IllegalArgumentException.class, () -> bytes("0.5B"));
        assertThrows(IllegalArgumentException.class, () -> bytes("-1MB"));
        assertThrows(IllegalArgumentException.class, () -> bytes("NaN"));
        assertThrows(IllegalArgumentException.class, () -> bytes("1e30"));
    }

    @Test
    void badCommandLinesExitWithTwoNamingTheOptionAndValue() {
        String[][] cases = {
            {"--hosts", "100"}, {"--hosts", "-3"}, {"--rate", "100"}, {"--rate", "fast"}, {"--delay", "0"},
            {"--flow-bytes", "2XB"}, {"--transport", "tcp"}, {"--forwarding", "magic"}, {"--threads", "1000"},
            {"--pfc", "100,200"}, {"--pfc", "12"}, {"--mtu", "10"}, {"--buffer", "100"}, {"--jit", "c3"},
            {"--bogus", "1"}, {"--hosts"}, {"--hosts", "32", "--hosts", "64"}, {"--senders", "0", "--workload", "incast"},
            {"--flows", " "}, {"--time-limit", "0us"}, {"--hosts", "99999999999"},
            {"--workload", "ring-allreduce", "--ranks", "12"}, {"--workload", "hd-allreduce", "--hosts", "96", "--ranks", "12"},
            {"--ranks", "1"}, {"--workload", "ring-allreduce", "--flow-bytes", "8"},
        };
        String[] mustName = {
            "--hosts", "--hosts", "--rate", "--rate", "--delay", "--flow-bytes", "--transport", "--forwarding", "--threads",
            "--pfc", "--pfc", "--mtu", "--buffer", "--jit", "--bogus", "--hosts", "--hosts", "--senders", "--flows",
            "--time-limit", "--hosts", "--ranks", "--ranks", "--ranks", "--flow-bytes",
        };
        for (int i = 0; i < cases.length; i++) {
            Object[] r = run(cases[i]);
            String err = (String) r[2];
            assertEquals(2, r[0], Arrays.toString(cases[i]) + ": " + err);
            assertTrue(err.startsWith("simulate: ") && err.contains(mustName[i]), Arrays.toString(cases[i]) + ": " + err);
            assertTrue(((String) r[1]).isEmpty(), "no figures after a bad command line");
        }
        assertTrue(((String) run("--rate", "100")[2]).contains("got 100"));
        assertTrue(((String) run("--transport", "tcp")[2]).contains("\"tcp\""));
        List<String> withNull = new ArrayList<>(List.of("--hosts"));
        withNull.add(null);
        assertEquals(2, SimulateCommand.run(withNull, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())));
        assertThrows(IllegalArgumentException.class, () -> SimulateCommand.run(List.of(), null, System.err));
    }

    /** A fabric too large for the heap is refused before anything is built, naming the option and the heap to ask for. */
    @Test
    void aFabricTooLargeForTheHeapIsRefusedUpFront() {
        Object[] r = run("--hosts", "1048576", "--tie-order", "scheduling");
        assertEquals(2, r[0]);
        String err = (String) r[2];
        // 106.4 GB for 2^20 hosts (100 KB each) and flows (1.5 KB each), 3.1 GB for 2^16 leaves x 8 spines x 2 links
        // (3 KB each), 26.5 GB for 176.7 M packets held (150 B each): PFC's 3 x 2^20 ports x 43,088 B and 2 x 2^21 links
        // x 12,500 B on the wire, in packets of 1064 B
        assertTrue(err.contains("--hosts 1048576 needs about 136.1 GB of heap"), err);
        assertTrue(err.contains("-Xmx"), err);
        SimulateRun incast = SimulateOptions.parse(List.of("--workload", "incast", "--senders", "9999", "--tie-order",
                "scheduling"));
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> HeapCheck.checkHeap(incast.settings(), 1_052_498_499L));
        assertTrue(x.getMessage().startsWith("--senders 9999 needs about 1.1 GB"), x.getMessage());
        // 10,000 hosts x 100 KB, 9,999 flows x 1.5 KB, and 250,000 packets x 150 B: the switch's 16 MB buffer (below
        // PFC's 10,000 ports x (XOFF 15,960 + 2 x 12,500 B in flight + 2 x 1064)) and 2 x 10,000 links x 12,500 B
        // (100 Gb/s x 1 us) of 1064-byte packets fit exactly
        HeapCheck.checkHeap(incast.settings(), 1_052_498_500L);
        // a ring of 2048 ranks on 2048 hosts: 2 x 2047 steps per host, 8.4 M flows x 1.5 KB, 12.6 GB of the 12.8 GB
        SimulateRun ring = SimulateOptions.parse(List.of("--workload", "ring-allreduce", "--hosts", "2048", "--ranks", "2048"));
        x = assertThrows(IllegalArgumentException.class, () -> HeapCheck.checkHeap(ring.settings(), 8L << 30));
        assertTrue(x.getMessage().startsWith("--hosts 2048 with --ranks 2048 (8384512 flows) needs about 12.8 GB"),
                x.getMessage());
    }

    /**
     * The heap estimate counts the links between leaves and spines and the packets the buffers and links may hold, not
     * the hosts alone; a ring all-reduce group beyond the schedule's transfers is refused by --ranks.
     */
    @Test
    void theHeapEstimateCountsLinksAndHeldPackets() {
        // 1024 leaves of one host under 4096 spines: 4,194,304 links x 3 KB = 12.6 GB beside 102 MB of hosts
        Object[] r = run("--hosts", "1024", "--hosts-per-leaf", "1", "--spines", "4096", "--parallel-links", "1",
                "--tie-order", "scheduling");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--hosts 1024 with --hosts-per-leaf 1, --spines 4096 and --parallel-links 1"
                + " (4,194,304 leaf-spine links) needs about 13."), (String) r[2]);
        // an incast without PFC into a 1 TB buffer, 64 senders of 1 TB: the buffer's 1e12 B and 2 x 65 links x 12,500 B
        // on the wire, in 1064-byte packets: 939,851,151 packets
        r = run("--workload", "incast", "--buffer", "1TB", "--pfc", "off", "--transport", "line-rate", "--flow-bytes", "1TB");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--buffer 1000000000000 and --pfc off"), (String) r[2]);
        assertTrue(((String) r[2]).contains("939,851,151 packets held"), (String) r[2]);
        // with PFC the same buffer holds at most 65 ports x (15,960 + 25,000 + 2,128) B: the default incast fits
        HeapCheck.checkHeap(SimulateOptions.parse(List.of("--workload", "incast", "--buffer", "1TB")).settings(), 1L << 30);
        // the 1 s links of 128 hosts and their 128 x 2 MB flows: at most the 256 MB sent, 256,128 packets
        assertEquals(256_128, HeapCheck.heldPackets(SimulateOptions.parse(List.of("--delay", "1s")).settings(), 128), 1e-6);
        r = run("--workload", "ring-allreduce", "--hosts", "4096", "--ranks", "4096");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--ranks must give a group at most 16,777,216 transfers (ring-allreduce: 8190"
                + " per rank), but gives 33,546,240, got 4096"), (String) r[2]);
    }

    /** A buffer below PFC's XOFF threshold is refused naming --buffer and --pfc, not the library's fields. */
    @Test
    void aBufferBelowThePfcThresholdNamesTheOptions() {
        Object[] r = run("--buffer", "10KB");
        assertEquals(2, r[0]);
        // --pfc default: XOFF 15 packets of 1000 + 64 B
        assertTrue(((String) r[2]).startsWith("simulate: --buffer must be at least the PFC XOFF threshold of --pfc default"
                + " (its default: XOFF 15 packets of --mtu + --header) = 15960 B"), (String) r[2]);
        assertTrue(((String) r[2]).contains("got 10KB"), (String) r[2]);
        r = run("--buffer", "10KB", "--pfc", "20000,10000");
        assertTrue(((String) r[2]).contains("--pfc 20000,10000 = 20000 B"), (String) r[2]);
        assertTrue(!((String) r[2]).contains("pfc.xoffBytes"), (String) r[2]);
        SimulateOptions.parse(List.of("--buffer", "10KB", "--pfc", "off"));
        SimulateOptions.parse(List.of("--buffer", "15960", "--pfc", "default"));
    }

    /** The heap estimate counts queue pairs: each is a flow of the run. */
    @Test
    void theHeapEstimateCountsQueuePairs() {
        // 1025 hosts x 100 KB + 1024 x 1000 queue pairs x 1.5 KB = 1,638,500,000 B, and the packets held (below)
        SimulateRun incast = SimulateOptions.parse(List.of("--workload", "incast", "--senders", "1024", "--qps", "1000"));
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> HeapCheck.checkHeap(incast.settings(), 1_644_368_186L));
        assertTrue(x.getMessage().startsWith("--senders 1024 with --qps 1000 (1024000 queue pairs) needs about 1.6 GB"),
                x.getMessage());
        // and (16 MB buffer + 2 x 1025 links x 12,500 B) / 1064 B = 39,121.2 packets x 150 B held: 5,868,186.1 B
        HeapCheck.checkHeap(incast.settings(), 1_644_368_187L);
    }

    /** A run with --qps reports its flows (not its queue pairs) and delivers every byte. */
    @Test
    void aRunWithQueuePairsCompletesItsFlows() {
        Object[] r = run("--workload", "incast", "--senders", "2", "--flow-bytes", "100KB", "--qps", "7", "--quiet");
        assertEquals(0, r[0], (String) r[2]);
        String out = (String) r[1];
        assertTrue(out.contains("flows completed: 2 of 2"), out);
        assertTrue(out.contains("7 queue pairs per flow"), out);
    }

    /**
     * 001's incast from the command line: 7 senders x 1000 queue pairs with DCQCN and PFC; the fabric is lossless at
     * this size (7 x XOFF far below the buffer), so nothing is dropped, no timeout fires, every byte is delivered
     * once, and the run ends with its flows, not a timeout later.
     */
    @Test
    void theSevenByThousandQueuePairIncastRunsLosslessWithoutTimeouts() {
        Object[] r = run("--workload", "incast", "--senders", "7", "--qps", "1000", "--flow-bytes", "2MB", "--transport",
                "dcqcn", "--quiet");
        assertEquals(0, r[0], (String) r[2]);
        String out = (String) r[1];
        assertTrue(out.contains("flows completed: 7 of 7"), out);
        assertTrue(out.contains("timeouts: 0, of which spurious 0; failed QPs: 0"), out);
        assertTrue(out.contains("switch drops: 0 data packets"), out);
        assertTrue(out.contains("goodput: ") && out.contains("(14,000,000 distinct payload bytes"), out);
        double makespan = Double.parseDouble(line(out, "makespan: ").substring("makespan: ".length()).replace(" us", ""));
        double end = Double.parseDouble(line(out, "simulated time: ").substring("simulated time: ".length()).replace(" us", ""));
        assertTrue(end - makespan < 1000, "the run ends within 1 ms of its last completion: " + makespan + " / " + end);
    }

    /** The reliable connection's settings: their ranges, and where they apply. */
    @Test
    void reliableConnectionOptionsAreCheckedAndReachTheTransport() {
        SimulateRun o = SimulateOptions.parse(List.of("--transport", "dcqcn", "--ack-timeout-exponent", "8",
                "--retry-count", "0", "--message-bytes", "64KiB", "--ack-delay", "2us"));
        assertEquals(new fabriclab.simulation.transport.ReliableConnection(65_536, 1, 2_000_000, 8, 0),
                o.settings().transport().connection());
        assertEquals(4_096_000L << 20, SimulateOptions.defaults().settings().transport().connection().localAckTimeoutPs());
        for (String[] bad : new String[][] {{"--ack-timeout-exponent", "32"}, {"--ack-timeout-exponent", "0"},
                {"--retry-count", "8"}, {"--message-bytes", "0"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SimulateOptions.parse(List.of(bad[0], bad[1])));
            assertTrue(e.getMessage().contains(bad[0]) && e.getMessage().contains(bad[1]), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SimulateOptions.parse(List.of("--transport", "gse", "--retry-count", "3")));
        assertTrue(e.getMessage().contains("--retry-count"), e.getMessage());
    }

    /** The all-reduce's --ranks does not constrain the other workloads: a permutation of 8 hosts keeps its default. */
    @Test
    void ranksMatterOnlyToAllReduces() {
        assertEquals(16, SimulateOptions.parse(List.of("--hosts", "8", "--hosts-per-leaf", "4")).settings().traffic().ranks());
    }

    @Test
    void helpListsEveryOption() {
        Object[] r = run("--help");
        assertEquals(0, r[0]);
        for (Option<?> option : SimulateOptions.ALL) {
            assertTrue(((String) r[1]).contains(option.name), option.name);
        }
    }

    /**
     * The 64 x 4 MB incast of the htsim comparison completes at the analytic ideal: the receiver's port
     * serialises 256,000 packets of 1064 B (85.12 ns each at 100G) back to back, after the first packet's
     * serialisation at its sender and two links of 1 us: 2 us + 256,001 x 85.12 ns = 21,792.805120 us.
     */
    @Test
    void incastCompletesAtTheAnalyticIdeal(@TempDir Path dir) throws Exception {
        Path flows = dir.resolve("flows.csv");
        Object[] r = run("--workload", "incast", "--jit", "short", "--quiet", "--flows", flows.toString());
        String out = (String) r[1];
        assertEquals(0, r[0], (String) r[2]);
        assertTrue(out.contains("makespan: 21792.805120 us"), out);
        assertTrue(out.contains("flows completed: 64 of 64"), out);
        assertTrue(out.contains("switch drops: 0 data packets (0 payload bytes), 0 control packets"), out);
        assertTrue(out.contains("jvm: short"), out);
        List<String> lines = Files.readAllLines(flows);
        assertEquals(65, lines.size());
        long last = lines.stream().skip(1).mapToLong(l -> Long.parseLong(l.split(",")[6])).max().orElseThrow();
        assertEquals(21_792_805_120L, last);
        assertTrue(((String) r[2]).isEmpty(), "--quiet: no progress lines");
    }

    /**
     * A --flows file that cannot be created is a bad command line found before the run (status 2, no figures); one
     * whose writing fails is a failed run (status 1) that does not claim the flows were written.
     */
    @Test
    void aFlowsFileThatCannotBeWrittenFailsClearly(@TempDir Path dir) throws Exception {
        String[] small = {"--workload", "incast", "--senders", "2", "--flow-bytes", "10KB", "--quiet", "--jit", "short"};
        String missingDir = dir.resolve("no-such-dir").resolve("flows.csv").toString();
        for (String file : new String[] {missingDir, dir.toString(), ""}) {
            Object[] r = run(concat(small, "--flows", file));
            assertEquals(2, r[0], file + ": " + r[2]);
            assertTrue(((String) r[2]).startsWith("simulate: --flows must "), (String) r[2]);
            assertTrue(((String) r[1]).isEmpty(), "no run: " + r[1]);
        }
        assertTrue(((String) run(concat(small, "--flows", missingDir))[2]).contains("no-such-dir is not one"));
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(Path.of("/dev/full")), "no /dev/full here");
        Object[] r = run(concat(small, "--flows", "/dev/full"));
        assertEquals(1, r[0], (String) r[2]);
        assertTrue(((String) r[2]).contains("could not write --flows /dev/full: "), (String) r[2]);
        assertTrue(!((String) r[1]).contains("flows written"), (String) r[1]);
    }

    /** Figures that cannot be written to standard output (a full disk, a closed pipe) fail the command. */
    @Test
    void figuresThatCannotBeWrittenFailTheCommand() {
        PrintStream broken = new PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) throws java.io.IOException {
                throw new java.io.IOException("no space left");
            }
        });
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SimulateCommand.run(List.of("--workload", "incast", "--senders", "2", "--flow-bytes", "10KB", "--quiet",
                "--jit", "short"), broken, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("could not write the figures"), err.toString());
    }

    /** The estimate that picks the JVM profile equals the packet-hops the simulator counts when nothing is dropped. */
    @Test
    void estimatedPacketHopsEqualTheSimulatorsCount() {
        for (String[] args : new String[][] {
            {"--hosts", "32", "--flow-bytes", "100KB"},
            {"--hosts", "48", "--flow-bytes", "64500", "--ack-every", "4"},
            {"--hosts", "32", "--flow-bytes", "50KB", "--transport", "line-rate", "--forwarding", "spray"},
            {"--workload", "incast", "--senders", "8", "--flow-bytes", "20KB"},
            {"--hosts", "32", "--flow-bytes", "100KB", "--transport", "gse"},
        }) {
            SimulateRun o = SimulateOptions.parse(List.of(args));
            Scenario s = o.settings().scenario();
            SimulationResult r = new Simulator(s).run();
            assertEquals(0, r.droppedPackets(), Arrays.toString(args));
            assertEquals(r.packetHops(), JvmProfile.estimatedPacketHops(o.settings(), s), Arrays.toString(args));
        }
        // the default run is far below the threshold of the long profile, 1024 hosts far above
        SimulateRun d = SimulateOptions.defaults();
        assertEquals(2 * 968_000L, JvmProfile.estimatedPacketHops(d.settings(), d.settings().scenario()));
        SimulateRun big = SimulateOptions.parse(List.of("--hosts", "1024"));
        assertTrue(JvmProfile.estimatedPacketHops(big.settings(), big.settings().scenario()) > JvmProfile.LONG_RUN_PACKET_HOPS);
    }

    /** A long run re-starts the command in a JVM of the long profile; its figures come back through this one. */
    @Test
    void longProfileRunsInAFreshJvmWithTheSameResult() {
        String[] args = {"--workload", "incast", "--senders", "4", "--flow-bytes", "200KB", "--quiet"};
        Object[] inProcess = run(concat(args, "--jit", "short"));
        Object[] restarted = run(concat(args, "--jit", "long"));
        assertEquals(0, restarted[0], (String) restarted[2]);
        String a = (String) inProcess[1];
        String b = (String) restarted[1];
        assertTrue(b.contains("jvm: long (tiered compilation with C2)"), b);
        assertEquals(figures(a), figures(b));
        // 4 x 200 packets of 1064 B behind one port: 2 us + 801 x 85.12 ns
        assertTrue(b.contains("makespan: 70.181120 us"), b);
    }

    /**
     * The parallel engine's output does not depend on its thread count: the per-flow CSV of a RoCE+PFC permutation
     * (with PAUSE frames) is the same byte for byte on 1, 2 and 3 threads, and so are the printed figures.
     */
    @Test
    void parallelRunsWriteTheSameFlowsFileOnAnyThreadCount(@TempDir Path dir) throws Exception {
        sameFlowsFileOnAnyThreadCount(dir, new String[] {"--hosts", "64", "--flow-bytes", "300KB", "--quiet", "--jit", "short"},
                "PFC", l -> l.startsWith("PAUSE frames sent:") && !l.startsWith("PAUSE frames sent: 0;"));
    }

    /**
     * GSE in the parallel engine: requests and grants cross between the partitions, and the flows file and figures
     * are the same on 1, 2 and 3 threads; without thresholds there is no PFC in the fabric, with them there is.
     */
    @Test
    void gseRunsTheSameOnAnyThreadCountWithoutFabricPfc(@TempDir Path dir) throws Exception {
        assertNull(SimulateOptions.parse(List.of("--transport", "gse")).settings().transport().pfc());
        assertNotNull(SimulateOptions.parse(List.of("--transport", "gse", "--pfc", "default")).settings().transport().pfc());
        sameFlowsFileOnAnyThreadCount(dir, new String[] {"--hosts", "64", "--flow-bytes", "300KB", "--transport", "gse",
            "--quiet", "--jit", "short"}, "reordering of containers",
                l -> l.startsWith("transport counters:") && l.contains(" gse.grants ") && !l.contains(" gse.containersReordered 0;"));
    }

    /** CTCC: no PFC and an ACK per 16 packets unless given; the parallel engine gives one result on any thread count. */
    @Test
    void ctccRunsTheSameOnAnyThreadCount(@TempDir Path dir) throws Exception {
        SimulateRun o = SimulateOptions.parse(List.of("--transport", "ctcc"));
        assertNull(o.settings().transport().pfc());
        assertEquals(16, o.settings().transport().connection().ackEvery());
        assertEquals(4, SimulateOptions.parse(List.of("--transport", "ctcc", "--ack-every", "4")).settings().transport().connection().ackEvery());
        String[] args = {"--hosts", "64", "--flow-bytes", "300KB", "--transport", "ctcc", "--quiet", "--jit", "short"};
        SimulateRun p = SimulateOptions.parse(List.of(args));
        long dataAndAcks = JvmProfile.estimatedPacketHops(p.settings(), p.settings().scenario()); // the data and ACK hops (estimatedPacketHopsEqual...)
        sameFlowsFileOnAnyThreadCount(dir, args, "probes (more hops than data and ACKs)", l -> l.startsWith("packet-hops:")
                && Long.parseLong(l.substring("packet-hops: ".length()).replace(",", "")) > dataAndAcks);
    }

    /**
     * A ring all-reduce of 16 ranks on one leaf, line-rate senders: every step moves S / 16 = 100,000 B (100 packets
     * of 1064 B on the wire) from each rank to the next through the leaf, each receiver fed by one sender, and starts
     * when the previous step's data has arrived, so each of the 2 x 15 steps takes (100 + 1) x 85.12 ns + 2 x 1 us
     * (store and forward through one switch) and the whole 30 x 10.59712 us = 317.913600 us, in both engines.
     */
    @Test
    void aRingAllReduceOnOneLeafTakesItsStepsOneAfterAnother() {
        String[] args = {"--workload", "ring-allreduce", "--hosts", "16", "--ranks", "16", "--flow-bytes", "1600000",
            "--transport", "line-rate", "--pfc", "off", "--quiet", "--jit", "short"};
        for (String threads : new String[] {"0", "2"}) {
            Object[] r = run(concat(args, "--threads", threads));
            assertEquals(0, r[0], (String) r[2]);
            assertTrue(((String) r[1]).contains("flows completed: 480 of 480"), (String) r[1]); // 16 ranks x 30 steps
            assertTrue(((String) r[1]).contains("makespan: 317.913600 us"), (String) r[1]);
        }
    }

    /** Concurrent ring all-reduces under GSE, spread over the leaves: the same on 1, 2 and 3 threads. */
    @Test
    void allReducesRunTheSameOnAnyThreadCount(@TempDir Path dir) throws Exception {
        sameFlowsFileOnAnyThreadCount(dir, new String[] {"--workload", "ring-allreduce", "--hosts", "64", "--ranks", "16",
            "--flow-bytes", "1MB", "--transport", "gse", "--quiet", "--jit", "short"}, "grants",
                l -> l.startsWith("transport counters:") && l.contains(" gse.grants "));
    }

    /**
     * Runs {@code args} on 1, 2 and 3 threads: each run completes every flow with no drop, the first has a figure
     * line that shows it exercised {@code what}, and the flows files and figures are equal.
     */
    private static void sameFlowsFileOnAnyThreadCount(Path dir, String[] args, String what,
            java.util.function.Predicate<String> exercised) throws Exception {
        byte[] first = null;
        List<String> firstFigures = null;
        for (int threads = 1; threads <= 3; threads++) {
            Path f = dir.resolve("flows-" + threads + ".csv");
            Object[] r = run(concat(args, "--threads", Integer.toString(threads), "--flows", f.toString()));
            assertEquals(0, r[0], (String) r[2]);
            String out = (String) r[1];
            assertTrue(out.lines().anyMatch(l -> l.matches("flows completed: (\\d+) of \\1")), out); // every flow
            assertTrue(out.contains("switch drops: 0 data packets (0 payload bytes), 0 control packets"), out);
            List<String> figures = figures(out).stream().filter(l -> !l.startsWith("engine:") && !l.startsWith("flows written")
                    && !l.startsWith("parallel windows:")).toList(); // (its event parallelism depends on the thread count)
            assertTrue(out.contains("parallel windows: "), out);
            byte[] bytes = Files.readAllBytes(f);
            if (first == null) {
                first = bytes;
                firstFigures = figures;
                assertTrue(figures.stream().anyMatch(exercised), "the run should exercise " + what + ": " + out);
            } else {
                assertTrue(Arrays.equals(first, bytes), "flows file with " + threads + " threads differs from 1 thread's");
                assertEquals(firstFigures, figures, threads + " threads");
            }
        }
        // the sequential engine under the same order of simultaneous events, its default: the same flows file and figures (but
        // the count of events: it carries a link's packets with one event per busy wire)
        Path f = dir.resolve("flows-sequential.csv");
        Object[] r = run(concat(args, "--flows", f.toString()));
        assertEquals(0, r[0], (String) r[2]);
        assertTrue(((String) r[1]).contains("engine: sequential, canonical order"), (String) r[1]);
        assertTrue(Arrays.equals(first, Files.readAllBytes(f)), "flows file of the sequential engine, canonical order");
        java.util.function.Predicate<String> engineFree = l -> !l.startsWith("engine:") && !l.startsWith("flows written")
                && !l.startsWith("parallel ") && !l.startsWith("events:");
        assertEquals(firstFigures.stream().filter(engineFree).toList(),
                figures((String) r[1]).stream().filter(engineFree).toList(), "the sequential engine, canonical order");
    }

    /** The parallel engine always applies the canonical order: asking it for another is refused, naming the options. */
    @Test
    void theTieOrderAppliesToTheSequentialEngineOnly() {
        Object[] r = run("--hosts", "32", "--threads", "2", "--tie-order", "scheduling", "--quiet");
        assertEquals(2, r[0], (String) r[2]);
        assertTrue(((String) r[2]).contains("--tie-order") && ((String) r[2]).contains("--threads"), (String) r[2]);
        r = run("--hosts", "32", "--tie-order", "fifo", "--quiet");
        assertEquals(2, r[0], (String) r[2]);
        assertTrue(((String) r[2]).contains("--tie-order") && ((String) r[2]).contains("fifo"), (String) r[2]);
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** The line of {@code out} that starts with {@code prefix}. */
    private static String line(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(() -> new AssertionError(prefix + " in " + out));
    }

    /**
     * A complete PFC incast: the goodput line gives every sender's bytes as the distinct payload delivered, and the
     * rate they make over the time from the first start to the last completion of the --flows file; nothing resent,
     * discarded or dropped; the --flows file has the counters' columns at its end.
     */
    @Test
    void theFiguresSeparateGoodputFromBytesSentAndDiscardsFromDrops(@TempDir Path dir) throws Exception {
        Path flows = dir.resolve("flows.csv");
        Object[] r = run("--workload", "incast", "--senders", "4", "--flow-bytes", "400KB", "--jit", "short", "--quiet",
                "--flows", flows.toString());
        assertEquals(0, r[0], (String) r[2]);
        String out = (String) r[1];
        List<String> lines = Files.readAllLines(flows);
        assertEquals("flow,source,destination,bytes,start_ps,completion_time_ps,completed_at_ps,delivered_bytes,"
                + "dropped_packets,retransmitted_packets,ecn_marked_packets,retransmitted_bytes,timeouts,spurious_timeouts,"
                + "failed,duplicate_packets,out_of_order_discards", lines.get(0));
        long first = lines.stream().skip(1).mapToLong(l -> Long.parseLong(l.split(",")[4])).min().orElseThrow();
        long last = lines.stream().skip(1).mapToLong(l -> Long.parseLong(l.split(",")[6])).max().orElseThrow();
        assertTrue(lines.stream().skip(1).allMatch(l -> l.split(",").length == 17 && l.endsWith(",0,0,0,0,0,0")), lines.toString());
        String goodput = String.format(java.util.Locale.ROOT, "goodput: %.3f Gb/s (1,600,000 distinct payload bytes delivered",
                8 * 1_600_000 / ((last - first) / 1e12) / 1e9);
        assertTrue(line(out, "goodput: ").startsWith(goodput), goodput + " in " + out);
        assertTrue(out.contains("bytes sent: 1,600,000 payload bytes injected, of which 0 retransmitted (0.0%);"), out);
        assertTrue(out.contains("timeouts: 0, of which spurious 0; failed QPs: 0; NAKs: 0"), out);
        assertTrue(out.contains("receiver discards: 0 duplicates, 0 out of order (0 payload bytes; not drops)"), out);
        assertTrue(out.contains("switch drops: 0 data packets (0 payload bytes), 0 control packets"), out);
        assertTrue(!out.contains("switch drops by reason"), out);
    }

    /**
     * A lossy incast (no PFC, a switch buffer of 20 packets): every drop is a tail drop at the receiver's port; the
     * reason and place lines give the total of the drops line, which is the sum of the --flows file's dropped packets.
     */
    @Test
    void lossyIncastNamesTheReasonAndThePlaceOfItsDrops(@TempDir Path dir) throws Exception {
        Path flows = dir.resolve("flows.csv");
        Object[] r = run("--workload", "incast", "--senders", "8", "--flow-bytes", "100KB", "--pfc", "off", "--buffer", "20KB",
                "--time-limit", "2ms", "--jit", "short", "--quiet", "--flows", flows.toString());
        assertEquals(0, r[0], (String) r[2]);
        String out = (String) r[1];
        long dropped = Files.readAllLines(flows).stream().skip(1).mapToLong(l -> Long.parseLong(l.split(",")[8])).sum();
        assertTrue(dropped > 0, "the test needs loss");
        String n = String.format(java.util.Locale.ROOT, "%,d data (%,d payload bytes) + 0 control packets", dropped, 1000 * dropped);
        assertTrue(line(out, "switch drops: ").startsWith(String.format(java.util.Locale.ROOT,
                "switch drops: %,d data packets (%,d payload bytes), 0 control packets", dropped, 1000 * dropped)), out);
        assertEquals("switch drops by reason: TAIL_DROP " + n, line(out, "switch drops by reason:"));
        assertEquals("switch drops at switch 0 port 8 -> node 8: TAIL_DROP " + n, line(out, "switch drops at "));
    }

    /** Drops at more places than are listed: the five that lost the most, then the rest summed. */
    @Test
    void dropsAtManyPlacesListTheFiveLargestAndSumTheRest() {
        List<SimulationResult.DropSite> sites = new ArrayList<>();
        for (int port = 0; port < 8; port++) { // port k loses k + 1 data packets; port 0 also a control packet
            sites.add(new SimulationResult.DropSite("switch 0 port " + port + " -> node " + port, 8, port,
                    fabriclab.simulation.trace.DropReason.TAIL_DROP, port + 1, 1000L * (port + 1), port == 0 ? 1 : 0));
        }
        SimulationResult r = new SimulationResult(new SimulationResult.RunSummary("roce", 1000, false, 0),
                new SimulationResult.Totals(0, 0, 36_000, 0, 36_000, 0, 0),
                new SimulationResult.FabricEvents(36, 1, sites, 0, List.of()), List.of(), List.of(), List.of(), Counters.NONE);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        SimulateCommand.printFigures(r, new PrintStream(b, true, StandardCharsets.UTF_8));
        String out = b.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("switch drops: 36 data packets (36,000 payload bytes), 1 control packets\n"), out);
        assertTrue(out.contains("switch drops by reason: TAIL_DROP 36 data (36,000 payload bytes) + 1 control packets\n"), out);
        List<String> places = out.lines().filter(l -> l.startsWith("switch drops at ")).toList();
        assertEquals(List.of("switch drops at switch 0 port 7 -> node 7: TAIL_DROP 8 data (8,000 payload bytes) + 0 control packets",
                "switch drops at switch 0 port 6 -> node 6: TAIL_DROP 7 data (7,000 payload bytes) + 0 control packets",
                "switch drops at switch 0 port 5 -> node 5: TAIL_DROP 6 data (6,000 payload bytes) + 0 control packets",
                "switch drops at switch 0 port 4 -> node 4: TAIL_DROP 5 data (5,000 payload bytes) + 0 control packets",
                "switch drops at switch 0 port 3 -> node 3: TAIL_DROP 4 data (4,000 payload bytes) + 0 control packets"), places);
        // ports 0, 1, 2: 1 + 2 + 3 data packets and port 0's control packet
        assertTrue(out.contains("switch drops and 3 more places: 6 data + 1 control packets\n"), out);
    }

    /** The output lines that depend on the simulation only (not the JVM or the machine). */
    private static List<String> figures(String out) {
        return out.lines().filter(l -> !l.startsWith("jvm:") && !l.startsWith("simulation wall time:")
                && !l.startsWith("parallel threads:")).toList();
    }
}
