package fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.Simulator;
import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command line of {@code bin/simulate} as parsed: the grammar of numbers, what applies where, the round trip. */
class SimulateOptionsTest {

    private static SimulateRun parse(String... args) {
        return SimulateOptions.parse(List.of(args));
    }

    /** The message of the error that parsing {@code args} gives. */
    private static String error(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> parse(args), String.join(" ", args)).getMessage();
    }

    /**
     * Java's floating-point literal syntax is not a number here: a d or f suffix, hexadecimal, NaN and Infinity are
     * refused naming the option and the text, and saying what is accepted (never read as 1 ps, 100 B, 16384).
     */
    @Test
    void javaFloatLiteralsAreRefused() {
        String[][] cases = {
            {"--delay", "1d"}, {"--flow-bytes", "100f"}, {"--flow-bytes", "0x1p14"}, {"--delay", "NaN"},
            {"--time-limit", "Infinity"}, {"--rate", "1e11d"}, {"--buffer", "16MBf"}, {"--flow-bytes", "1.5e3D"},
            {"--flow-bytes", "-1MB"}, {"--flow-bytes", "+1MB"}, {"--flow-bytes", ".5MB"}, {"--flow-bytes", "1.MB"},
            {"--flow-bytes", "1,000"}, {"--flow-bytes", "1__000"}, {"--flow-bytes", "1_"}, {"--flow-bytes", ""},
            {"--rate", "100g"}, {"--delay", "1 s s"}, {"--flow-bytes", "1e12345"},
            {"--hosts", "1e3"}, {"--hosts", "0x40"}, {"--hosts", "64.0"}, {"--hosts", "64L"},
        };
        for (String[] c : cases) {
            String m = error(c);
            assertTrue(m.startsWith(c[0] + " must be "), m);
            assertTrue(m.contains("\"" + c[1] + "\""), m);
            assertTrue(m.contains("decimal digits"), "says the grammar: " + m);
        }
    }

    /** The grammar: digits grouped by underscores, a decimal part, an exponent, a unit after blanks; exact arithmetic. */
    @Test
    void numbersAreDecimalsWithAnExponentAndAUnitComputedExactly() {
        assertEquals(1_000L, parse("--flow-bytes", "1_000").settings().traffic().flowBytes());
        assertEquals(1_500L, parse("--flow-bytes", "1.5e3").settings().traffic().flowBytes());
        assertEquals(1_000_000L, parse("--flow-bytes", "1e3KB").settings().traffic().flowBytes());
        assertEquals(2_000_000L, parse("--flow-bytes", "2 MB").settings().traffic().flowBytes());
        assertEquals(1_100L, parse("--flow-bytes", "1.1KB").settings().traffic().flowBytes()); // 1.1 * 1000 is not 1100 in binary floating point
        assertEquals(3L << 19, parse("--flow-bytes", "1.5MiB").settings().traffic().flowBytes());
        assertEquals(2_500_000_000L, parse("--delay", "2.5E-3s").settings().fabric().delayPs());
        assertEquals(25_000_000_000L, parse("--rate", "25Gbps").settings().fabric().rateBitsPerSecond());
        assertEquals(25_000_000_000L, parse("--rate", "25Gb/s").settings().fabric().rateBitsPerSecond());
        assertEquals(9_007_199_254_740_993L, parse("--time-limit", "9007199254740993").timeLimitPs()); // 2^53 + 1, exact
        assertEquals(Long.MAX_VALUE - 1, parse("--time-limit", "9223372036854775806ps").timeLimitPs());
        assertEquals(-1L, parse("--seed", "-1").settings().seed());
        assertEquals(Long.MAX_VALUE, parse("--seed", "9223372036854775807").settings().seed());
        assertEquals(1024, parse("--hosts", "1_024").settings().fabric().hosts());
        assertEquals(64, parse("--hosts", "+64").settings().fabric().hosts());
    }

    /** In the grammar but not a whole number of the base unit, or out of range however large: the range is named. */
    @Test
    void fractionsAndHugeValuesAreRefusedWithTheRange() {
        assertTrue(error("--flow-bytes", "1.5B").contains("--flow-bytes must be a whole number of bytes, got 1.5B"));
        assertTrue(error("--delay", "1.5ps").contains("whole number of ps"), error("--delay", "1.5ps"));
        assertTrue(error("--header", "1e-9999").contains("whole number of bytes"));
        assertEquals("--rate must be in [1Mb/s, 10Tb/s], got 9223372036854775807", error("--rate", "9223372036854775807"));
        assertEquals("--time-limit must be in [1ps, 9223372036854775807ps], got 9223372036854775808ps",
                error("--time-limit", "9223372036854775808ps"));
        assertEquals("--hosts must be in [2, 1048576], got 99999999999", error("--hosts", "99999999999"));
        assertTrue(error("--flow-bytes", "1e9999TB").startsWith("--flow-bytes must be in [1B, 1TB], got 1e9999TB"));
        assertTrue(error("--seed", "9223372036854775808").startsWith("--seed must be in ["));
    }

    /** The command line written back for a re-started JVM reads to the same options, whatever units were given. */
    @Test
    void toArgsReadsBackToTheSameOptions() {
        String[][] cases = {
            {},
            {"--workload", "incast", "--senders", "8", "--flow-bytes", "1.5MiB", "--rate", "25Gbps", "--delay", "0.5us"},
            {"--hosts", "64", "--hosts-per-leaf", "8", "--spines", "4", "--parallel-links", "1", "--mtu", "4KiB",
                "--header", "48", "--pfc", "20KB,10000", "--buffer", "1GiB", "--threads", "2", "--time-limit", "2.5ms",
                "--flows", "flows.csv", "--jit", "long", "--quiet", "--seed", "-3"},
            {"--transport", "ctcc"},
            {"--transport", "gse", "--pfc", "default"},
            {"--transport", "dcqcn", "--forwarding", "spray-random", "--ack-every", "4"},
            {"--workload", "hd-allreduce", "--hosts", "64", "--ranks", "8", "--flow-bytes", "1e6"},
        };
        for (String[] c : cases) {
            SimulateRun o = parse(c);
            SimulateRun back = SimulateOptions.parse(o.args());
            assertEquals(o.args(), back.args(), String.join(" ", c));
            assertEquals(o.settings().scenario().name(), back.settings().scenario().name());
            assertEquals(o.timeLimitPs(), back.timeLimitPs());
            assertEquals(o.quiet(), back.quiet());
        }
    }

    /**
     * An option given where it does not apply to the workload or transport is an error naming both (never silently
     * ignored); where it applies it is accepted, and an option not given never errs for not applying.
     */
    @Test
    void optionsThatDoNotApplyAreRefusedNamingWhatTheyDoNotApplyTo() {
        String[][] cases = {
            {"--senders", "8"}, {"--workload", "incast", "--hosts", "7"}, {"--workload", "incast", "--spines", "4"},
            {"--workload", "incast", "--hosts-per-leaf", "4"}, {"--workload", "incast", "--parallel-links", "1"},
            {"--workload", "incast", "--forwarding", "spray"}, {"--ranks", "8"}, {"--transport", "gse", "--ack-every", "4"},
            {"--transport", "line-rate", "--ack-every", "1"}, {"--transport", "gse", "--forwarding", "spray"},
            {"--transport", "gse", "--ecmp-seed", "3"}, {"--forwarding", "spray", "--ecmp-seed", "3"},
            {"--workload", "incast", "--ecmp-seed", "3"}, {"--workload", "ring-allreduce", "--senders", "4"},
        };
        String[] notFor = {
            "--workload permutation", "--workload incast", "--workload incast", "--workload incast", "--workload incast",
            "--workload incast", "--workload permutation", "--transport gse", "--transport line-rate", "--transport gse",
            "--transport gse", "--forwarding spray", "--workload incast", "--workload ring-allreduce",
        };
        for (int i = 0; i < cases.length; i++) {
            String[] c = cases[i];
            String given = c[c.length - 2];
            String m = error(c);
            assertTrue(m.startsWith(given + " does not apply to " + notFor[i] + ": it applies only with "), m);
        }
        // where they apply
        assertEquals(8, parse("--workload", "incast", "--senders", "8").settings().traffic().senders());
        assertEquals(8, parse("--workload", "ring-allreduce", "--ranks", "8").settings().traffic().ranks());
        assertEquals(4, parse("--transport", "dcqcn", "--ack-every", "4").settings().transport().connection().ackEvery());
        assertEquals(3, parse("--forwarding", "ecmp", "--ecmp-seed", "3").settings().transport().ecmpSeed());
        assertEquals("spray", parse("--transport", "line-rate", "--forwarding", "spray").settings().transport().forwarding());
        // the incast's default flow size and GSE's defaults come without complaint
        assertEquals(4_000_000L, parse("--workload", "incast").settings().traffic().flowBytes());
        SimulateRun gse = parse("--transport", "gse");
        assertEquals(List.of(), gse.args().stream().filter(a -> a.equals("--ack-every") || a.equals("--forwarding")).toList());
    }

    /** The usage text says where each restricted option applies, from the same declarations the parser checks. */
    @Test
    void usageSaysWhereEachOptionApplies() {
        String usage = SimulateOptions.usage();
        for (Option<?> o : SimulateOptions.ALL) {
            assertTrue(usage.contains("  " + o.name + " ") || usage.contains("  " + o.name + "\n"), o.name);
        }
        assertTrue(usage.contains("only with --workload incast"), usage);
        assertTrue(usage.contains("only with --transport roce|dcqcn|ctcc"), usage);
        assertTrue(usage.contains("only with --forwarding ecmp"), usage);
        assertTrue(usage.contains("no hexadecimal"), usage);
    }

    /**
     * GSE runs the incast: its one switch is the edge of the senders and of the receiver, so every container is
     * requested from and granted by the receiver port's scheduler on that switch, traffic within a leaf included.
     * 4 senders x 200 KB at 100G into one 100G port with a 100 KB buffer and
     * no PFC: unscheduled line-rate senders overflow it (300G more than the port drains fills 100 KB in under 3 us);
     * with GSE the grants pace the containers to the port's rate, so the port holds at most a container and the packet
     * in service: nothing dropped, every flow complete, every byte delivered once, and every container granted once.
     */
    @Test
    void gseSchedulesTheIncastOnItsOneSwitch() {
        String[] incast = {"--workload", "incast", "--senders", "4", "--flow-bytes", "200KB", "--buffer", "100KB", "--pfc",
            "off"};
        List<String> lineRate = new java.util.ArrayList<>(List.of(incast));
        lineRate.addAll(List.of("--transport", "line-rate"));
        SimulationResult plain = new Simulator(SimulateOptions.parse(lineRate).settings().scenario()).run();
        assertTrue(plain.droppedPackets() > 0, "line-rate senders dropped nothing");
        List<String> gseArgs = new java.util.ArrayList<>(List.of(incast));
        gseArgs.addAll(List.of("--transport", "gse"));
        SimulationResult gse = new Simulator(SimulateOptions.parse(gseArgs).settings().scenario()).run();
        assertTrue(gse.allCompleted());
        assertEquals(0, gse.droppedPackets());
        assertEquals(4 * 200_000L, gse.deliveredBytes());
        assertEquals(gse.injectedBytes(), gse.deliveredBytes());
        assertTrue(gse.counter(GseTransport.CONTAINERS) > 0);
        assertEquals(gse.counter(GseTransport.CONTAINERS), gse.counter(GseTransport.GRANTS));
        assertEquals(0L, gse.counter(GseTransport.CONTAINERS_RESENT));
    }

    /** --qps N splits every flow of the workload over N queue pairs; 1 by default. */
    @Test
    void qpsSplitsEveryFlow() {
        assertEquals(1, parse().settings().traffic().queuePairs());
        assertTrue(parse().settings().scenario().flows().stream().allMatch(f -> f.queuePairs() == 1));
        SimulateRun o = parse("--hosts", "32", "--qps", "8");
        assertEquals(8, o.settings().traffic().queuePairs());
        Scenario s = o.settings().scenario();
        assertEquals(32, s.flows().size());
        assertTrue(s.flows().stream().allMatch(f -> f.queuePairs() == 8));
        assertEquals(32 * 8, s.queuePairCount());
        assertTrue(o.args().containsAll(List.of("--qps", "8")), o.args().toString());
        assertEquals(o.args(), SimulateOptions.parse(o.args()).args());
        Scenario incast = parse("--workload", "incast", "--senders", "3", "--qps", "1000").settings().scenario();
        assertTrue(incast.flows().stream().allMatch(f -> f.queuePairs() == 1000));
        Scenario ring = parse("--workload", "ring-allreduce", "--hosts", "32", "--ranks", "4", "--flow-bytes", "400",
                "--qps", "100").settings().scenario(); // chunks of 400 / 4 = 100 B: a byte per queue pair
        assertTrue(ring.flows().stream().allMatch(f -> f.queuePairs() == 100 && f.bytes() == 100));
    }

    /** A bad --qps names the option, its value and the range; more queue pairs than a flow's bytes are refused. */
    @Test
    void badQpsAreRefusedNamingTheOptionValueAndRange() {
        for (String bad : new String[] {"0", "65537", "-1", "2.5", "many"}) {
            String m = error("--qps", bad);
            assertTrue(m.startsWith("--qps ") && m.contains(bad), m);
        }
        assertTrue(error("--qps", "0").contains("[1, 65536]"), error("--qps", "0"));
        assertTrue(error("--qps", "65537").contains("[1, 65536]"));
        String m = error("--flow-bytes", "50", "--qps", "51");
        assertTrue(m.startsWith("--qps must be at most the payload of the smallest flow, --flow-bytes = 50 B")
                && m.endsWith("got 51"), m);
        m = error("--workload", "ring-allreduce", "--hosts", "32", "--ranks", "16", "--flow-bytes", "64", "--qps", "5");
        assertTrue(m.contains("--qps") && m.contains("--flow-bytes / --ranks = 64 / 16 = 4 B") && m.endsWith("got 5"), m);
        assertEquals(50, parse("--flow-bytes", "50", "--qps", "50").settings().traffic().queuePairs());
    }

    /**
     * The packet-hops estimate counts every queue pair's packets: 2500 B flows are 3 packets on one QP and 2 x 2 on two
     * QPs of 1250 B, so both data and ACKs (one per packet) grow by 4/3 on the same paths.
     */
    @Test
    void packetHopsCountQueuePairs() {
        SimulateRun one = parse("--hosts", "32", "--flow-bytes", "2500");
        SimulateRun two = parse("--hosts", "32", "--flow-bytes", "2500", "--qps", "2");
        long h1 = JvmProfile.estimatedPacketHops(one.settings(), one.settings().scenario());
        long h2 = JvmProfile.estimatedPacketHops(two.settings(), two.settings().scenario());
        assertEquals(0, h1 % 3);
        assertEquals(h1 / 3 * 4, h2);
    }

    /**
     * Adaptive routing: --forwarding adaptive and adaptive-flowlet reach the switches with their gap, and their receivers
     * place out of order unless --placement in-order; bad values and options where they do not apply are refused
     * naming the option.
     */
    @Test
    void adaptiveRoutingOptionsReachTheScenarioAndBadOnesAreRefused() {
        var ar = parse("--forwarding", "adaptive").settings();
        assertEquals("adaptive", ar.transport().forwarding());
        assertEquals(fabriclab.simulation.transport.OutOfOrderPlacement.defaults(), ar.transport().connection().outOfOrder());
        assertEquals(fabriclab.simulation.config.Forwarding.Mode.ADAPTIVE_PACKET,
                ar.scenario().config().forwarding().mode());
        var flowlet = parse("--forwarding", "adaptive-flowlet", "--flowlet-gap", "10us", "--placement", "in-order",
                "--hosts", "32").settings();
        assertEquals(10_000_000L, flowlet.scenario().config().forwarding().flowletGapPs());
        assertEquals(null, flowlet.transport().connection().outOfOrder());
        var ooo = parse("--placement", "out-of-order", "--reorder-window", "64", "--reorder-timeout", "20us").settings();
        assertEquals(new fabriclab.simulation.transport.OutOfOrderPlacement(64, 20_000_000L),
                ooo.transport().connection().outOfOrder());
        assertEquals(null, parse().settings().transport().connection().outOfOrder()); // ECMP: in order by default
        assertTrue(error("--forwarding", "adaptive-packet").startsWith("--forwarding"), error("--forwarding", "adaptive-packet"));
        assertTrue(error("--forwarding", "adaptive-flowlet", "--flowlet-gap", "0").startsWith("--flowlet-gap"));
        assertTrue(error("--flowlet-gap", "10us").startsWith("--flowlet-gap"), error("--flowlet-gap", "10us"));
        assertTrue(error("--forwarding", "adaptive", "--reorder-window", "0").startsWith("--reorder-window"));
        assertTrue(error("--forwarding", "adaptive", "--reorder-timeout", "2s").startsWith("--reorder-timeout"));
        assertTrue(error("--reorder-timeout", "20us").startsWith("--reorder-timeout"), error("--reorder-timeout", "20us"));
        assertTrue(error("--transport", "line-rate", "--placement", "out-of-order").startsWith("--placement"));
        assertTrue(error("--placement", "sideways").startsWith("--placement"));
    }
}
