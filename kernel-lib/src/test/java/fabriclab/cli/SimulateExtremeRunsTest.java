package fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Extreme but valid command lines of {@code bin/simulate}: tiny buffers, the slowest rate, 1 s delays, huge
 * sizes. Each ends, in this JVM, in a result (status 0), a refusal naming an option (status 2) or the progress
 * watchdog's stop (status 1, its message), and the one this test expects.
 */
class SimulateExtremeRunsTest {
    private static Object[] run(List<String> args) {
        List<String> a = new ArrayList<>(List.of("--jit", "short", "--quiet"));
        a.addAll(args);
        return SimulateCommandTest.run(a.toArray(String[]::new));
    }

    /** A run that completes every flow. */
    private static void completes(String... args) {
        Object[] r = run(List.of(args));
        assertEquals(0, r[0], String.join(" ", args) + ": " + r[2]);
        String out = (String) r[1];
        assertTrue(out.contains("stopped early: false"), out);
        String flows = out.lines().filter(l -> l.startsWith("flows completed: ")).findFirst().orElseThrow();
        String[] n = flows.substring("flows completed: ".length()).split(" of ");
        assertEquals(n[1], n[0], String.join(" ", args) + ": " + flows);
    }

    /** A command line refused before the run, naming {@code option}. */
    private static void refused(String option, String... args) {
        Object[] r = run(List.of(args));
        assertEquals(2, r[0], String.join(" ", args) + ": " + r[1]);
        assertTrue(((String) r[2]).startsWith("simulate: " + option), (String) r[2]);
    }

    @Test
    void slowAndLongLinksComplete() {
        // 16 hosts on one leaf: 10 KB at 1 Mb/s is 85 ms a flow with its headers; across 1 s links, 2 s of propagation
        completes("--rate", "1M", "--hosts", "16", "--flow-bytes", "10KB");
        completes("--delay", "1s", "--hosts", "16", "--flow-bytes", "10KB");
        completes("--delay", "1s", "--hosts", "32", "--hosts-per-leaf", "8", "--transport", "line-rate", "--flow-bytes", "10KB");
    }

    /**
     * One packet of buffer, PFC's XOFF at that packet: no headroom, so the packets in flight when a pause is sent are
     * dropped, and go-back-N's timeouts resend them; the run ends with every flow either complete or its queue pair
     * failed after its retries, and says which.
     */
    @Test
    void aOnePacketBufferEndsEveryFlowCompletedOrFailed() {
        Object[] r = run(List.of("--buffer", "1064", "--pfc", "1064,1064", "--hosts", "16", "--flow-bytes", "20KB"));
        assertEquals(0, r[0], (String) r[2]);
        String out = (String) r[1];
        assertTrue(out.contains("stopped early: false"), out);
        String flows = out.lines().filter(l -> l.startsWith("flows completed: ")).findFirst().orElseThrow();
        int completed = Integer.parseInt(flows.substring("flows completed: ".length()).split(" of ")[0]);
        String qps = out.lines().filter(l -> l.startsWith("timeouts: ")).findFirst().orElseThrow();
        int failed = Integer.parseInt(qps.replaceAll(".*failed QPs: ([0-9,]+);.*", "$1").replace(",", ""));
        assertEquals(16, completed + failed, out);
        assertTrue(out.contains("switch drops: ") && !out.contains("switch drops: 0 data"), out);
    }

    @Test
    void hugeSizesAreRefusedNamingTheirOptions() {
        // fabrics whose switches have more ports than the canonical order's lanes run in scheduling order
        refused("--tie-order must be scheduling when a switch has more than 4094 ports", "--hosts", "1048576");
        refused("--hosts 1048576 needs about", "--hosts", "1048576", "--tie-order", "scheduling");
        refused("--hosts 1024 with --hosts-per-leaf 1, --spines 4096 and --parallel-links 1", "--hosts", "1024",
                "--hosts-per-leaf", "1", "--spines", "4096", "--parallel-links", "1", "--tie-order", "scheduling");
        refused("--buffer 1000000000000 and --pfc off", "--workload", "incast", "--buffer", "1TB", "--pfc", "off",
                "--transport", "line-rate", "--flow-bytes", "1TB");
        refused("--buffer 16000000 with --delay 1000000000000 ps", "--delay", "1s", "--flow-bytes", "1TB");
        refused("--ranks", "--workload", "ring-allreduce", "--hosts", "4096", "--ranks", "4096");
        refused("--buffer must be at least the PFC XOFF threshold", "--buffer", "10KB");
    }

    @Test
    void aGseRunWhoseContainersCanNeverFitIsRefusedBeforeItStarts() {
        // GSE with a 2 KB buffer and no PFC: a 16 KB container never fits, so the run could never deliver
        Object[] r = run(List.of("--transport", "gse", "--buffer", "2KB", "--pfc", "off", "--hosts", "32", "--hosts-per-leaf",
                "8", "--flow-bytes", "100KB"));
        assertEquals(2, r[0], (String) r[1]);
        assertTrue(((String) r[2]).startsWith("simulate: --buffer must hold a GSE container with --transport gse"),
                (String) r[2]);
    }

    @Test
    void aStandardWorkloadWhoseWindowDrawsNoFlowIsAnErrorNotAnEmptyRun() {
        Object[] r = run(List.of("--workload", "websearch", "--flow-count", "10", "--duration", "1ns", "--hosts", "32"));
        assertEquals(2, r[0], (String) r[1]);
        assertTrue(((String) r[2]).startsWith("simulate: --duration 1ns with --flow-count 10 draws no flow"), (String) r[2]);
    }

    @Test
    void twoOutputOptionsNamingOneFileAreRefused(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        String f = dir.resolve("out.csv").toString();
        Object[] r = run(List.of("--workload", "websearch", "--hosts", "32", "--flows", f, "--fct",
                dir.resolve(".").resolve("out.csv").toString()));
        assertEquals(2, r[0], (String) r[1]);
        assertTrue(((String) r[2]).contains("must name another file than --flows " + f), (String) r[2]);
    }

    @Test
    void aFabricBeyondTheParallelEnginesLanesIsRefusedNamingTheOptionsNotTheLane() {
        Object[] r = run(List.of("--spines", "4096", "--hosts", "32", "--threads", "2"));
        assertEquals(2, r[0], (String) r[1]);
        assertTrue(((String) r[2]).startsWith("simulate: --threads must be 0 (the sequential engine) when a switch has more"
                + " than 4094 ports, the parallel engine's most: --hosts-per-leaf 16 + --spines 4096 x --parallel-links 2"
                + " give a leaf 8208 ports"), (String) r[2]);
    }

    @Test
    void aRunEstimatedAtMoreThanTenMinutesIsAnnouncedWithItsEstimateBeforeItStarts() {
        // 10^9 packet-hops: 2.2 x 10^9 events, 2,200 s at 1 M events/s, 733 s at 3 M
        assertEquals("a long run: about 1,000,000,000 packet-hops, 2,200,000,000 events, about 12 to 37 minutes at 1 to 3"
                + " M events/s (more with drops and retransmissions); --time-limit bounds it",
                SimulateCommand.workWarning(1_000_000_000L, Long.MAX_VALUE));
        assertEquals(null, SimulateCommand.workWarning(1_000_000_000L, 10 * fabriclab.fabric.Time.US)); // bounded
        assertEquals(null, SimulateCommand.workWarning(19_360_000L, Long.MAX_VALUE)); // --qps 20000: under a minute
        // --qps 20000 at the defaults is linear in its queue pairs: 10 x the packet-hops of --qps 2000
        long q2k = JvmProfile.estimatedPacketHops(SimulateOptions.parse(List.of("--qps", "2000")).settings(),
                SimulateOptions.parse(List.of("--qps", "2000")).settings().scenario());
        long q20k = JvmProfile.estimatedPacketHops(SimulateOptions.parse(List.of("--qps", "20000")).settings(),
                SimulateOptions.parse(List.of("--qps", "20000")).settings().scenario());
        assertEquals(10 * q2k, q20k);
    }
}
