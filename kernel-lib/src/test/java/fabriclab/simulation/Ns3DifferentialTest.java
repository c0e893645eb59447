package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
 * picosecond a transmission there ends. Ours in the sequential engine's scheduling order (the default) runs the
 * transmission's end first, then the arrivals; under the engines' one rule ({@link TieOrder#CANONICAL},
 * {@link fabriclab.simulation.element.CanonicalOrder}) it runs the arrivals first, its ports in an order drawn per
 * instant. ns-3 runs simultaneous events in the order they were scheduled, which puts the arrivals first (a
 * reception is scheduled when the transmission starts), the senders in the same order at every instant. The ns-3
 * program takes the order as an argument: {@code tieOrder} 0 is ns-3's own; 1 hands arrivals on through
 * {@code Simulator::ScheduleNow}, after the events already due, so the transmission's end comes first as in our
 * scheduling order; 2 applies our rule through a scheduler of the program that ranks each event as
 * {@code CanonicalOrder} does (own events after arrivals, arrivals by the same draw of seed, time, node and lane).
 * </ul>
 *
 * <h2>What is compared, tolerances</h2>
 * Each of our two orders against ns-3 under the same order, exactly, with no tolerance: the drops, the peak occupancy
 * of the port, the bytes delivered and the time the last packet reached the receiver; under the rule also per flow
 * (not sorted) the bytes delivered and the last delivery. The admission rule, the buffer accounting, the timing and
 * the order are the same, and both runs are deterministic, so any difference, even one packet, is a modelling
 * difference. Also checked, exactly, on both sides: the receiver's port never idles once its first packet has
 * arrived, last = 2 (ser + delay) + (delivered packets - 1) ser, with ser = 8 W / rate.
 * <ul>
 * <li><b>Scheduling order, per flow</b>: sorted delivered bytes within 2 W in sum, sorted last deliveries each within
 * one packet time (which sender of a batch keeps its packet differs).
 * <li><b>ns-3's own order</b> ({@code tieOrder} 0): under the rule, the same totals exactly (arrivals first in both;
 * which sender keeps a freed slot does not change them); per flow ns-3 keeps giving the freed slot to the same
 * senders (printed, not compared). Against our scheduling order, within one packet, the peak within W, the last
 * delivery within ser: the order of a departure against a batch of arrivals matters once, when the buffer first fills
 * (from then on it is full at every such instant and each packet time admits one packet either way). So the scenario
 * is one where the order decides the drops.
 * </ul>
 * Measured (ns-3 3.37-2 of Debian 12): with the same order every compared figure is equal (scheduling order:
 * 8 x 100 kB into 200 kB: 501 drops; 32 x 50 kB into 512 kB: 1039 drops; 8 x 64 kB into 1 MB: no drop, peak 449 kB;
 * the rule: 502, 1040, and a peak of 450 kB, per flow equal too); ns-3's own order gives the rule's totals.
 * The program takes about 6 s to build once (cached in target/ns3), the nine runs under a second.
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
        long seed = 1; // the run seed of SimulationConfig's default: the draws of the rule
        Ns3Run ns3 = runNs3(senders, bytes, WIRE, rate, delayPs, buffer, 1, seed);
        Ns3Run ns3Own = runNs3(senders, bytes, WIRE, rate, delayPs, buffer, 0, seed);
        Ns3Run ns3Rule = runNs3(senders, bytes, WIRE, rate, delayPs, buffer, 2, seed);

        SimulationConfig cfg = SimulationConfig.builder().mtuBytes(WIRE).headerBytes(0)
                .buffer(SwitchBuffer.shared(buffer)).seed(seed).build();
        Incast in = Incast.of(senders, bytes, rate);
        SimulationResult ours = new Simulator(Scenario.incast(in, delayPs, cfg).withTieOrder(TieOrder.SCHEDULING)).run();
        SimulationResult rule = new Simulator(Scenario.incast(in, delayPs, cfg)).run();
        long packetPs = WIRE * 8L * Time.S / rate;
        String both = "ours: " + figures(ours, in) + "; ns-3, a departure first: " + ns3 + "; ours under the rule: "
                + figures(rule, in) + "; ns-3 under the rule: " + ns3Rule + "; ns-3 in its own order: " + ns3Own;
        long[] oursPerFlow = perFlow(ours, senders, SimulationResult.FlowRecord::deliveredBytes);
        long[] oursLast = perFlow(ours, senders, SimulationResult.FlowRecord::lastDeliveryPs);
        long[] rulePerFlow = perFlow(rule, senders, SimulationResult.FlowRecord::deliveredBytes);
        long[] ruleLast = perFlow(rule, senders, SimulationResult.FlowRecord::lastDeliveryPs);
        System.out.println("ns-3 differential, " + senders + " x " + bytes + " B: " + both + "; per flow: ours "
                + Arrays.toString(oursPerFlow) + ", ns-3 " + Arrays.toString(ns3.flowBytes) + "; under the rule: ours "
                + Arrays.toString(rulePerFlow) + ", ns-3 " + Arrays.toString(ns3Rule.flowBytes) + "; ns-3 in its own order "
                + Arrays.toString(ns3Own.flowBytes));

        // bookkeeping on each side: every byte delivered or dropped; the port never idles
        for (SimulationResult r : List.of(ours, rule)) {
            assertEquals(in.totalBytes(), r.deliveredBytes() + r.droppedBytes(), both);
            assertEquals(2 * (packetPs + delayPs) + (r.deliveredBytes() / WIRE - 1) * packetPs, r.lastDeliveryPs(),
                    "ours: the receiver's port idled: " + both);
        }
        for (Ns3Run r : List.of(ns3, ns3Own, ns3Rule)) {
            assertEquals(in.totalBytes(), r.deliveredBytes + r.drops * WIRE, "ns-3 lost bytes other than drops: " + both);
            assertEquals(2 * (packetPs + delayPs) + (r.deliveredBytes / WIRE - 1) * packetPs, r.lastPs,
                    "ns-3: the receiver's port idled: " + both);
        }

        // the same order of simultaneous events: equal (under the rule per flow too; ns-3's own order, the rule's totals)
        assertSameTotals(ns3, ours, in, "scheduling order against ns-3 with a departure first: " + both);
        assertSameTotals(ns3Rule, rule, in, "the rule in both: " + both);
        assertSameTotals(ns3Own, rule, in, "the rule against ns-3's own order: " + both);
        assertArrayEquals(ns3Rule.flowBytes, rulePerFlow, "per-flow delivered bytes under the rule: " + both);
        assertArrayEquals(ns3Rule.flowLastPs, ruleLast, "per-flow last deliveries under the rule: " + both);
        long[] ns3Sorted = Arrays.stream(ns3.flowBytes).sorted().toArray();
        long[] ns3LastSorted = Arrays.stream(ns3.flowLastPs).sorted().toArray();
        long[] oursSorted = Arrays.stream(oursPerFlow).sorted().toArray();
        long[] oursLastSorted = Arrays.stream(oursLast).sorted().toArray();
        long diff = 0;
        for (int i = 0; i < senders; i++) {
            diff += Math.abs(oursSorted[i] - ns3Sorted[i]);
            assertTrue(Math.abs(oursLastSorted[i] - ns3LastSorted[i]) <= packetPs, "per-flow last deliveries (sorted): "
                    + both);
        }
        assertTrue(diff <= 2L * WIRE, "per-flow delivered bytes (sorted) differ by " + diff + " B: " + both);

        // ns-3's own order against our scheduling order: at most one packet apart
        SimulationResult.QueueTrace port = receiverPort(ours, in);
        assertTrue(Math.abs(ours.droppedPackets() - ns3Own.drops) <= 1, "drops, ns-3's order: " + both);
        assertTrue(Math.abs(ours.deliveredBytes() - ns3Own.deliveredBytes) <= WIRE, "delivered, ns-3's order: " + both);
        assertTrue(Math.abs(port.peakBytes() - ns3Own.peakBytes) <= WIRE, "peak, ns-3's order: " + both);
        assertTrue(Math.abs(ours.lastDeliveryPs() - ns3Own.lastPs) <= packetPs, "last delivery, ns-3's order: " + both);
    }

    private static SimulationResult.QueueTrace receiverPort(SimulationResult r, Incast in) {
        return r.queues().stream().filter(q -> q.peerNode() == in.receiver()).findFirst().orElseThrow();
    }

    private static String figures(SimulationResult r, Incast in) {
        return "drops " + r.droppedPackets() + ", peak " + receiverPort(r, in).peakBytes() + " B, last "
                + r.lastDeliveryPs() + " ps, delivered " + r.deliveredBytes() + " B";
    }

    private static long[] perFlow(SimulationResult r, int senders, java.util.function.ToLongFunction<SimulationResult.FlowRecord> f) {
        long[] v = new long[senders];
        for (SimulationResult.FlowRecord x : r.flows()) {
            v[x.spec().source()] = f.applyAsLong(x);
        }
        return v;
    }

    private static void assertSameTotals(Ns3Run ns3, SimulationResult ours, Incast in, String what) {
        assertEquals(ns3.drops, ours.droppedPackets(), "drops, " + what);
        assertEquals(ns3.peakBytes, receiverPort(ours, in).peakBytes(), "peak occupancy, " + what);
        assertEquals(ns3.deliveredBytes, ours.deliveredBytes(), "delivered, " + what);
        assertEquals(ns3.lastPs, ours.lastDeliveryPs(), "last delivery, " + what);
    }

    /** What the ns-3 program printed. */
    record Ns3Run(long drops, long peakBytes, long lastPs, long deliveredBytes, long[] flowLastPs, long[] flowBytes) {
        @Override
        public String toString() {
            return "drops " + drops + ", peak " + peakBytes + " B, last " + lastPs + " ps, delivered " + deliveredBytes + " B";
        }
    }

    /**
     * Runs the ns-3 program; {@code tieOrder} 0: ns-3's order of simultaneous events; 1: a transmission's end before
     * arrivals at the same instant; 2: our rule with the draws of run seed {@code seed}.
     */
    static Ns3Run runNs3(int senders, long bytes, int wire, long rate, long delayPs, long buffer, int tieOrder, long seed)
            throws Exception {
        Path exe = ns3Program();
        List<String> out = run(List.of(exe.toString(), "" + senders, "" + bytes, "" + wire, "" + rate, "" + delayPs,
                "" + buffer, "" + tieOrder, "" + seed), 120);
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
