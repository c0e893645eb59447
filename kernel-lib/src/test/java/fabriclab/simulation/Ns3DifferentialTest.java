package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import fabriclab.fabric.Incast;
import fabriclab.fabric.Time;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The packet simulator against ns-3 3.37 (Debian's {@code libns3-dev}): the same scenario run in both, figures
 * compared within stated tolerances (issue 37, first step). The ns-3 side is our own program
 * {@code src/test/ns3/fabriclab-incast.cc}, compiled by this test with g++ against the installed ns-3 (flags from
 * {@code pkg-config}) and cached under {@code target/ns3/} by a hash of its source and the ns-3 version. The test
 * fails, never skips, when ns-3, pkg-config or g++ is missing: install {@code libns3-dev pkg-config g++}.
 *
 * <h2>Scenario: a drop-tail incast on one switch</h2>
 * N senders each send B bytes from time 0 at line rate, no congestion control ({@code TransportModel.uncontrolled()},
 * so dropped packets are not resent), through one output-queued switch port to one receiver; every link has the same
 * rate and propagation delay; the switch buffer is a drop-tail byte limit. In ns-3: point-to-point links, no IP stack
 * (no traffic-control layer, so the device's {@code DropTailQueue} is the only queue), a switch node whose protocol
 * handler hands every packet received to the receiver-facing device at once (zero processing delay, as our
 * {@code Switch}), senders that hand all their packets to their own device at time 0 (back to back at line rate).
 *
 * <h2>Modelling differences and how they are neutralised</h2>
 * <ul>
 * <li><b>Headers.</b> ns-3's point-to-point device adds a 2-byte PPP header; the ns-3 program creates each packet 2
 * bytes short so that both sides put the same wire size W on the link (ours: MTU W, {@code headerBytes} 0).
 * B is a multiple of W, so every packet is W bytes.
 * <li><b>What the buffer holds.</b> Ours charges a packet until its last bit has left the port; ns-3's device queue
 * releases it when transmission starts. With equal packet sizes ours admits iff queued + in transmission + W &lt;=
 * buffer, ns-3 iff queued + W &lt;= MaxSize, so ns-3's queue gets MaxSize = buffer - W, and the ns-3 program counts
 * occupancy (and its peak, after each admission) our way: admitted minus fully transmitted.
 * <li><b>Simultaneous events.</b> With equal rates and delays, N packets reach the switch at the same picosecond,
 * and the same instant a transmission ends. Each simulator orders them its own way (ns-3 by scheduling order, ours by
 * its canonical order), which decides which sender's packet of a tied batch is dropped and whether a departure
 * frees its W bytes before or after the batch's arrivals. So per-flow figures are not compared packet by packet,
 * and the aggregate figures get tolerances of a few packets (below).
 * </ul>
 *
 * <h2>What is compared, tolerances</h2>
 * <ul>
 * <li><b>Drops</b>: within {@value #DROP_TOLERANCE_PACKETS} packets. The admission rules are the same; the order of
 * a departure against a batch of arrivals at the same instant shifts the admitted count by at most one packet at
 * the onset of the full buffer and one as it drains.
 * <li><b>Peak occupancy</b>: within one packet (W bytes): the same tie, seen at the peak.
 * <li><b>Time the last packet reaches the receiver</b>: within one packet time (ser = W 8 / rate) per packet of
 * difference in the delivered count, at most {@value #DROP_TOLERANCE_PACKETS}: the receiver's port, once its first
 * packet has arrived, never idles until the last, so in both simulators, exactly,
 * last = 2 (ser + delay) + (delivered packets - 1) ser; this identity is asserted on each side too.
 * <li><b>Delivered bytes</b>: within the drop tolerance times W.
 * <li><b>Per-flow delivered bytes, sorted</b> (a distribution, as which sender loses a tie differs): the sum
 * of absolute differences of the sorted vectors within 2 {@value #DROP_TOLERANCE_PACKETS} W.
 * </ul>
 */
class Ns3DifferentialTest {
    static final int DROP_TOLERANCE_PACKETS = 2;
    private static final int WIRE = 1000;
    private static final Path SOURCE = Path.of("src/test/ns3/fabriclab-incast.cc");
    private static final String INSTALL = "install Debian's ns-3 3.37 and its build tools: "
            + "sudo apt-get install libns3-dev pkg-config g++";

    @ParameterizedTest(name = "{0} senders x {1} B, {2} bit/s, {3} ps, buffer {4} B")
    @CsvSource({
        "8, 100000, 100000000000, 1000000, 200000",
        "32, 50000, 100000000000, 500000, 512000",
        "8, 64000, 25000000000, 2000000, 1000000",
    })
    void dropTailIncastAgreesWithNs3(int senders, long bytes, long rate, long delayPs, long buffer) throws Exception {
        Ns3Run ns3 = runNs3(senders, bytes, WIRE, rate, delayPs, buffer);

        SimulationConfig cfg = SimulationConfig.builder().mtuBytes(WIRE).headerBytes(0)
                .buffer(SwitchBuffer.shared(buffer)).build();
        Incast in = Incast.of(senders, bytes, rate);
        SimulationResult ours = Scenario.incast(in, delayPs, cfg).simulator().run();
        SimulationResult.QueueTrace port = ours.queues().stream().filter(q -> q.peerNode() == in.receiver())
                .findFirst().orElseThrow();
        long[] oursPerFlow = ours.flows().stream().mapToLong(SimulationResult.FlowRecord::deliveredBytes).sorted().toArray();
        long[] ns3PerFlow = Arrays.stream(ns3.flowBytes).sorted().toArray();
        long packetPs = WIRE * 8L * Time.S / rate;
        String both = "ours: drops " + ours.droppedPackets() + ", peak " + port.peakBytes() + " B, last "
                + ours.lastDeliveryPs() + " ps, delivered " + ours.deliveredBytes() + " B; ns-3: drops " + ns3.drops
                + ", peak " + ns3.peakBytes + " B, last " + ns3.lastPs + " ps, delivered " + ns3.deliveredBytes + " B";
        System.out.println("ns-3 differential, " + senders + " x " + bytes + " B: " + both + "; per flow, sorted: ours "
                + Arrays.toString(oursPerFlow) + ", ns-3 " + Arrays.toString(ns3PerFlow));

        assertEquals(in.totalBytes(), ours.deliveredBytes() + ours.droppedBytes(), both);
        assertEquals(in.totalBytes(), ns3.deliveredBytes + ns3.drops * WIRE, "ns-3 lost bytes other than drops: " + both);
        assertTrue(Math.abs(ours.droppedPackets() - ns3.drops) <= DROP_TOLERANCE_PACKETS, "drops: " + both);
        assertTrue(Math.abs(port.peakBytes() - ns3.peakBytes) <= WIRE, "peak: " + both);
        assertTrue(Math.abs(ours.lastDeliveryPs() - ns3.lastPs) <= DROP_TOLERANCE_PACKETS * packetPs, "last delivery: " + both);
        assertEquals(2 * (packetPs + delayPs) + (ours.deliveredBytes() / WIRE - 1) * packetPs, ours.lastDeliveryPs(),
                "ours: the receiver's port idled: " + both);
        assertEquals(2 * (packetPs + delayPs) + (ns3.deliveredBytes / WIRE - 1) * packetPs, ns3.lastPs,
                "ns-3: the receiver's port idled: " + both);
        assertTrue(Math.abs(ours.deliveredBytes() - ns3.deliveredBytes) <= DROP_TOLERANCE_PACKETS * WIRE, "delivered: " + both);
        long diff = 0;
        for (int i = 0; i < senders; i++) {
            diff += Math.abs(oursPerFlow[i] - ns3PerFlow[i]);
        }
        assertTrue(diff <= 2L * DROP_TOLERANCE_PACKETS * WIRE, "per-flow delivered bytes (sorted) differ by " + diff
                + " B: ours " + Arrays.toString(oursPerFlow) + ", ns-3 " + Arrays.toString(ns3PerFlow));
    }

    /** What the ns-3 program printed. */
    record Ns3Run(long drops, long peakBytes, long lastPs, long deliveredBytes, long[] flowLastPs, long[] flowBytes) {
    }

    static Ns3Run runNs3(int senders, long bytes, int wire, long rate, long delayPs, long buffer) throws Exception {
        Path exe = ns3Program();
        List<String> out = run(List.of(exe.toString(), "" + senders, "" + bytes, "" + wire, "" + rate, "" + delayPs,
                "" + buffer), 120);
        long[] summary = null;
        long[] flowLast = new long[senders];
        long[] flowBytes = new long[senders];
        for (String line : out) {
            String[] f = line.split(",");
            if (f[0].equals("summary")) {
                summary = Arrays.stream(f, 1, f.length).mapToLong(Long::parseLong).toArray();
            } else if (f[0].equals("flow")) {
                int i = Integer.parseInt(f[1]);
                flowLast[i] = Long.parseLong(f[2]);
                flowBytes[i] = Long.parseLong(f[3]);
            }
        }
        if (summary == null) {
            fail("the ns-3 program printed no summary: " + out);
        }
        return new Ns3Run(summary[0], summary[1], summary[2], summary[3], flowLast, flowBytes);
    }

    /** The compiled ns-3 program, built on first use and cached under target/ns3 by source hash and ns-3 version. */
    static synchronized Path ns3Program() throws Exception {
        String version;
        try {
            version = run(List.of("pkg-config", "--modversion", "ns3-core"), 30).get(0).trim();
        } catch (IOException | AssertionError e) {
            throw new AssertionError("ns-3 is not installed (pkg-config finds no ns3-core): " + INSTALL + " (" + e.getMessage() + ")");
        }
        if (!version.startsWith("3.37")) {
            fail("ns-3 " + version + " is installed, this test is written for 3.37: " + INSTALL);
        }
        List<String> flags = new ArrayList<>();
        for (String t : run(List.of("pkg-config", "--cflags", "--libs", "ns3-point-to-point", "ns3-network", "ns3-core"), 30)
                .get(0).trim().split("\\s+")) {
            // Debian's 3.37 .pc files carry a CMake list separator in an include path ("-I/usr\;") and absolute
            // paths of libraries whose -dev package is not a dependency (libgsl.so): the ns-3 libraries link those
            // themselves, so drop what is not a usable flag or an existing file.
            if (t.isEmpty() || t.contains(";") || (t.startsWith("/") && !Files.exists(Path.of(t)))) {
                continue;
            }
            flags.add(t);
        }
        byte[] src = Files.readAllBytes(SOURCE);
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(src);
        md.update(version.getBytes(StandardCharsets.UTF_8));
        md.update(String.join(" ", flags).getBytes(StandardCharsets.UTF_8));
        String hash = HexFormat.of().formatHex(md.digest()).substring(0, 16);
        Path dir = Path.of("target", "ns3");
        Path exe = dir.resolve("fabriclab-incast-" + hash);
        if (Files.isExecutable(exe)) {
            return exe.toAbsolutePath();
        }
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "fabriclab-incast-", ".tmp");
        List<String> cmd = new ArrayList<>(List.of("g++", "-O1", "-std=c++17", "-w", "-o", tmp.toString(), SOURCE.toString()));
        cmd.addAll(flags);
        try {
            run(cmd, 300);
        } catch (IOException e) {
            throw new AssertionError("cannot run g++ to build the ns-3 program: " + INSTALL + " (" + e.getMessage() + ")");
        }
        Files.move(tmp, exe, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return exe.toAbsolutePath();
    }

    /** Runs {@code cmd}, returns its stdout lines; fails with its output if it exits non-zero or overruns. */
    static List<String> run(List<String> cmd, long timeoutS) throws IOException, InterruptedException {
        // output to files, so that the timeout holds however the program behaves
        Path out = Files.createTempFile("fabriclab-ns3-", ".out");
        Path err = Files.createTempFile("fabriclab-ns3-", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail(String.join(" ", cmd) + " ran longer than " + timeoutS + " s");
            }
            String text = Files.readString(out);
            if (p.exitValue() != 0) {
                fail(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + text + Files.readString(err));
            }
            return text.lines().toList();
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
