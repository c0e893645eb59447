package fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.workload.HpccFctFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/simulate --workload websearch|fb-hadoop|cdf}: its options, the slowdown table and the fct.txt file. */
class StandardWorkloadCommandTest {
    private static Object[] run(String... args) {
        return SimulateCommandTest.run(args);
    }

    static final String[] SMALL = {"--hosts", "16", "--hosts-per-leaf", "4", "--spines", "2", "--quiet", "--jit", "short"};

    static String[] concat(String[] a, String... b) {
        String[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /**
     * The settings the library builds for the FCT validation's workload are those bin/simulate reads from the command
     * line {@code FctWorkload.args} writes: every transport compared, two seeds, the notebook's and another fabric.
     */
    @Test
    void theFctWorkloadsSettingsAreThoseOfItsCommandLine() {
        for (fabriclab.validation.FctWorkload w : List.of(fabriclab.validation.FctWorkload.small("websearch", 0.3),
                new fabriclab.validation.FctWorkload("fb-hadoop", 0.5, 16, 4, 2, 2_000_000_000L))) {
            for (String transport : fabriclab.validation.FctWorkload.TRANSPORTS) {
                for (long seed : new long[] {1, 7}) {
                    fabriclab.scenarios.ScenarioSettings library = w.settings(transport, seed);
                    fabriclab.scenarios.ScenarioSettings command = SimulateOptions.parse(w.args(transport, seed)).settings();
                    assertEquals(command.toString(), library.toString(), w + " " + transport + " " + seed);
                    fabriclab.simulation.Scenario a = library.scenario();
                    fabriclab.simulation.Scenario b = command.scenario();
                    assertEquals(b.name(), a.name());
                    assertEquals(b.flows(), a.flows());
                }
            }
        }
    }

    /** bin/simulate with no options runs the library's default settings. */
    @Test
    void theCommandsDefaultsAreTheLibrarys() {
        assertEquals(fabriclab.scenarios.ScenarioSettings.defaults(), SimulateOptions.defaults().settings());
    }

    @Test
    void optionsAreReadAndChecked() {
        SimulateRun o = SimulateOptions.parse(List.of("--workload", "websearch", "--load", "0.5", "--duration", "2ms",
                "--incast-senders", "8"));
        assertEquals(0.5, o.settings().traffic().load());
        assertEquals(2_000_000_000L, o.settings().traffic().durationPs());
        assertEquals(8, o.settings().traffic().incast().senders());
        assertEquals(o.args(), SimulateOptions.parse(o.args()).args(), "written back and read again");
        assertEquals(1_000_000_000L, SimulateOptions.parse(List.of("--workload", "fb-hadoop")).settings().traffic().durationPs(), "1 ms by default");
        assertEquals(0, SimulateOptions.parse(List.of("--workload", "fb-hadoop")).settings().traffic().flowCount());
        String[][] bad = {
            {"--workload", "websearch", "--load", "0"}, {"--workload", "websearch", "--load", "1.01"},
            {"--workload", "websearch", "--load", "3e-1"}, {"--workload", "websearch", "--duration", "100s"},
            {"--workload", "websearch", "--incast-senders", "128"}, {"--workload", "cdf"},
            {"--workload", "cdf", "--cdf", "/no/such/file"}, {"--load", "0.3"}, {"--workload", "websearch", "--flow-bytes", "1MB"},
            {"--workload", "websearch", "--qps", "2"},
        };
        String[] named = {"--load", "--load", "--load", "--duration", "--incast-senders", "--cdf", "--cdf", "--load",
            "--flow-bytes", "--qps"};
        for (int i = 0; i < bad.length; i++) {
            String[] args = bad[i];
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SimulateOptions.parse(List.of(args)),
                    String.join(" ", args));
            assertTrue(e.getMessage().startsWith(named[i]), String.join(" ", args) + ": " + e.getMessage());
        }
    }

    @Test
    void aRunPrintsTheSlowdownTableAndWritesFctTxt(@TempDir Path dir) throws Exception {
        Path fct = dir.resolve("fct.txt");
        Object[] r = run(concat(SMALL, "--workload", "websearch", "--load", "0.3", "--duration", "300us", "--transport",
                "dcqcn", "--incast-senders", "4", "--incast-period", "100us", "--fct", fct.toString()));
        assertEquals(0, r[0], (String) r[2]);
        String out = (String) r[1];
        assertTrue(out.contains("FCT slowdown") && out.contains("all sizes"), out);
        assertTrue(out.contains("FCT slowdown of the incast flows: 8 flows"), out); // bursts at 100 and 200 us
        List<HpccFctFile.Line> lines = HpccFctFile.read(fct);
        assertTrue(lines.size() > 0);
        assertEquals(8, lines.stream().filter(l -> l.destinationPort() == HpccFctFile.INCAST_PORT).count());
        for (HpccFctFile.Line l : lines) {
            assertTrue(l.sourceHost() < 16 && l.destinationHost() < 16 && l.sourceHost() != l.destinationHost());
            assertTrue(l.fctNs() + 1 >= l.standaloneFctNs(), l.text()); // (each rounded to the ns)
        }
    }

    @Test
    void aDistributionFileInHpccsLayout(@TempDir Path dir) throws Exception {
        Path cdf = dir.resolve("tiny.txt");
        Files.writeString(cdf, "1000 0\n2000 50\n4000 100\n");
        Object[] r = run(concat(SMALL, "--workload", "cdf", "--cdf", cdf.toString(), "--flow-count", "50", "--load", "0.1"));
        assertEquals(0, r[0], (String) r[2]);
        assertTrue(((String) r[1]).contains("flows completed: 50 of 50"), (String) r[1]);
    }
}
