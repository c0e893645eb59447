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
 * compared exactly or within stated tolerances. The ns-3 side is our own program
 * {@code src/test/ns3/fabriclab-incast.cc}, compiled by this test with g++ against the installed ns-3 (flags from
 * {@code pkg-config}) and cached under {@code target/ns3/} by a hash of its source and the ns-3 version. The test
 * fails, never skips, when ns-3, pkg-config or g++ is missing: install {@code libns3-dev pkg-config g++}. ECN
 * marking against ns-3's RED is in {@link Ns3EcnDifferentialTest}.
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
 * <li><b>Simultaneous events.</b> With equal rates and delays, a batch of N packets reaches the switch at the
 * picosecond a transmission there ends. Ours runs the transmission's end first (its bytes leave the buffer, the next
 * packet starts), then the arrivals; ns-3 runs simultaneous events in the order they were scheduled, which puts the
 * arrivals first. The ns-3 program takes the order as an argument: with {@code tieOrder} 1 its switch hands arriving
 * packets on through {@code Simulator::ScheduleNow}, after the events already due, so the transmission's end comes
 * first as in ours (still zero processing delay). Among the N arrivals of a batch the two orders differ too (which
 * sender's packet is dropped), so per-flow figures are compared as sorted distributions.
 * </ul>
 *
 * <h2>What is compared, tolerances</h2>
 * Against ns-3 with the same order of simultaneous events ({@code tieOrder} 1), exactly, with no tolerance: the
 * drops, the peak occupancy of the port, the bytes delivered and the time the last packet reached the receiver. The
 * admission rule, the buffer accounting and the timing are the same, and both runs are deterministic, so any
 * difference, even one packet, is a modelling difference. Also checked, exactly, on both sides: the receiver's port
 * never idles once its first packet has arrived, last = 2 (ser + delay) + (delivered packets - 1) ser, with ser = 8 W /
 * rate.
 * <ul>
 * <li><b>Per-flow delivered bytes, sorted</b>: the sums of absolute differences of the sorted vectors within 2 W
 * (which sender of a tied batch keeps its packet differs, moving a packet from one flow to another).
 * <li><b>Per-flow time of the last delivery, sorted</b>: each within one packet time ser, for the same reason.
 * <li><b>ns-3 with its own order</b> ({@code tieOrder} 0): drops and delivered packets within one packet of ours, the
 * peak within W, the last delivery within ser: the order of a departure against a batch of arrivals at the same
 * instant matters once, when the buffer first fills (from then on it is full at every such instant and each packet
 * time admits one packet either way). This bounds what the order of simultaneous events alone can change.
 * </ul>
 * Measured (ns-3 3.37-2 of Debian 12): with the same order every compared figure is equal (8 x 100 kB into 200 kB:
 * 501 drops; 32 x 50 kB into 512 kB: 1039 drops; 8 x 64 kB into 1 MB: no drop, peak 449 kB), the sorted per-flow
 * delivered bytes are equal too, the sorted per-flow last deliveries one packet time apart at one flow at most; with
 * ns-3's own order it drops one packet more where drops happen, and its peak without drops is one packet higher.
 * The program takes about 6 s to build once (cached in target/ns3), the six runs under a second.
 */
class Ns3DifferentialTest {
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
        Ns3Run ns3 = runNs3(senders, bytes, WIRE, rate, delayPs, buffer, 1);
        Ns3Run ns3Own = runNs3(senders, bytes, WIRE, rate, delayPs, buffer, 0);

        SimulationConfig cfg = SimulationConfig.builder().mtuBytes(WIRE).headerBytes(0)
                .buffer(SwitchBuffer.shared(buffer)).build();
        Incast in = Incast.of(senders, bytes, rate);
        SimulationResult ours = new Simulator(Scenario.incast(in, delayPs, cfg)).run();
        SimulationResult.QueueTrace port = ours.queues().stream().filter(q -> q.peerNode() == in.receiver())
                .findFirst().orElseThrow();
        long[] oursPerFlow = ours.flows().stream().mapToLong(SimulationResult.FlowRecord::deliveredBytes).sorted().toArray();
        long[] ns3PerFlow = Arrays.stream(ns3.flowBytes).sorted().toArray();
        long[] oursLast = ours.flows().stream().mapToLong(SimulationResult.FlowRecord::lastDeliveryPs).sorted().toArray();
        long[] ns3Last = Arrays.stream(ns3.flowLastPs).sorted().toArray();
        long packetPs = WIRE * 8L * Time.S / rate;
        String both = "ours: drops " + ours.droppedPackets() + ", peak " + port.peakBytes() + " B, last "
                + ours.lastDeliveryPs() + " ps, delivered " + ours.deliveredBytes() + " B; ns-3: " + ns3
                + "; ns-3 in its own order: " + ns3Own;
        System.out.println("ns-3 differential, " + senders + " x " + bytes + " B: " + both + "; per flow, sorted: ours "
                + Arrays.toString(oursPerFlow) + ", ns-3 " + Arrays.toString(ns3PerFlow) + "; last deliveries, sorted: ours "
                + Arrays.toString(oursLast) + ", ns-3 " + Arrays.toString(ns3Last));

        // bookkeeping on each side: every byte delivered or dropped; the port never idles
        assertEquals(in.totalBytes(), ours.deliveredBytes() + ours.droppedBytes(), both);
        for (Ns3Run r : List.of(ns3, ns3Own)) {
            assertEquals(in.totalBytes(), r.deliveredBytes + r.drops * WIRE, "ns-3 lost bytes other than drops: " + both);
            assertEquals(2 * (packetPs + delayPs) + (r.deliveredBytes / WIRE - 1) * packetPs, r.lastPs,
                    "ns-3: the receiver's port idled: " + both);
        }
        assertEquals(2 * (packetPs + delayPs) + (ours.deliveredBytes() / WIRE - 1) * packetPs, ours.lastDeliveryPs(),
                "ours: the receiver's port idled: " + both);

        // the same order of simultaneous events: equal
        assertEquals(ns3.drops, ours.droppedPackets(), "drops: " + both);
        assertEquals(ns3.peakBytes, port.peakBytes(), "peak occupancy: " + both);
        assertEquals(ns3.deliveredBytes, ours.deliveredBytes(), "delivered: " + both);
        assertEquals(ns3.lastPs, ours.lastDeliveryPs(), "last delivery: " + both);
        long diff = 0;
        for (int i = 0; i < senders; i++) {
            diff += Math.abs(oursPerFlow[i] - ns3PerFlow[i]);
            assertTrue(Math.abs(oursLast[i] - ns3Last[i]) <= packetPs, "per-flow last deliveries (sorted): ours "
                    + Arrays.toString(oursLast) + ", ns-3 " + Arrays.toString(ns3Last));
        }
        assertTrue(diff <= 2L * WIRE, "per-flow delivered bytes (sorted) differ by " + diff
                + " B: ours " + Arrays.toString(oursPerFlow) + ", ns-3 " + Arrays.toString(ns3PerFlow));

        // ns-3's own order: at most one packet apart
        assertTrue(Math.abs(ours.droppedPackets() - ns3Own.drops) <= 1, "drops, ns-3's order: " + both);
        assertTrue(Math.abs(ours.deliveredBytes() - ns3Own.deliveredBytes) <= WIRE, "delivered, ns-3's order: " + both);
        assertTrue(Math.abs(port.peakBytes() - ns3Own.peakBytes) <= WIRE, "peak, ns-3's order: " + both);
        assertTrue(Math.abs(ours.lastDeliveryPs() - ns3Own.lastPs) <= packetPs, "last delivery, ns-3's order: " + both);
    }

    /** What the ns-3 program printed. */
    record Ns3Run(long drops, long peakBytes, long lastPs, long deliveredBytes, long[] flowLastPs, long[] flowBytes) {
        @Override
        public String toString() {
            return "drops " + drops + ", peak " + peakBytes + " B, last " + lastPs + " ps, delivered " + deliveredBytes + " B";
        }
    }

    /** Runs the ns-3 program; {@code tieOrder} 1 runs a transmission's end before arrivals at the same instant. */
    static Ns3Run runNs3(int senders, long bytes, int wire, long rate, long delayPs, long buffer, int tieOrder)
            throws Exception {
        Path exe = ns3Program();
        List<String> out = run(List.of(exe.toString(), "" + senders, "" + bytes, "" + wire, "" + rate, "" + delayPs,
                "" + buffer, "" + tieOrder), 120);
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

    /** The compiled incast program, built on first use and cached under target/ns3 by source hash and ns-3 version. */
    static Path ns3Program() throws Exception {
        return ns3Program(SOURCE, List.of("ns3-point-to-point", "ns3-network", "ns3-core"));
    }

    /**
     * The ns-3 program compiled from {@code source} against the ns-3 libraries {@code modules} (pkg-config names),
     * built on first use and cached under target/ns3 as {@code <source name>-<hash>}, the hash over the source, the
     * ns-3 version and the compiler flags.
     */
    static synchronized Path ns3Program(Path source, List<String> modules) throws Exception {
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
        List<String> pkgConfig = new ArrayList<>(List.of("pkg-config", "--cflags", "--libs"));
        pkgConfig.addAll(modules);
        for (String t : run(pkgConfig, 30).get(0).trim().split("\\s+")) {
            // Debian's 3.37 .pc files carry a CMake list separator in an include path ("-I/usr\;") and absolute
            // paths of libraries whose -dev package is not a dependency (libgsl.so): the ns-3 libraries link those
            // themselves, so drop what is not a usable flag or an existing file.
            if (t.isEmpty() || t.contains(";") || (t.startsWith("/") && !Files.exists(Path.of(t)))) {
                continue;
            }
            flags.add(t);
        }
        byte[] src = Files.readAllBytes(source);
        String name = source.getFileName().toString().replaceFirst("\\.cc$", "");
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(src);
        md.update(version.getBytes(StandardCharsets.UTF_8));
        md.update(String.join(" ", flags).getBytes(StandardCharsets.UTF_8));
        String hash = HexFormat.of().formatHex(md.digest()).substring(0, 16);
        Path dir = Path.of("target", "ns3");
        Path exe = dir.resolve(name + "-" + hash);
        if (Files.isExecutable(exe)) {
            return exe.toAbsolutePath();
        }
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, name + "-", ".tmp");
        List<String> cmd = new ArrayList<>(List.of("g++", "-O1", "-std=c++17", "-w", "-o", tmp.toString(), source.toString()));
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
