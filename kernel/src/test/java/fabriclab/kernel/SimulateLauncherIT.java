package fabriclab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/simulate}, the packet simulator's command, as a user runs it: the launcher script with the
 * jars of the packaged kernelspec (the integration-test phase runs after {@code package}).
 */
class SimulateLauncherIT {
    private static final Path SCRIPT = Path.of(System.getProperty("fabriclab.root", ".."), "bin", "simulate").toAbsolutePath().normalize();

    /** Runs the script; returns {exit status, stdout, stderr}. */
    private static Object[] simulate(String... args) throws Exception {
        return simulate(java.util.Map.of(), args);
    }

    /** Runs the script with {@code env} added to its environment; returns {exit status, stdout, stderr}. */
    private static Object[] simulate(java.util.Map<String, String> env, String... args) throws Exception {
        assertTrue(Files.isExecutable(SCRIPT), "no executable " + SCRIPT);
        List<String> cmd = new ArrayList<>(List.of(SCRIPT.toString()));
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile("simulate", ".err");
        try {
            ProcessBuilder b = new ProcessBuilder(cmd).redirectError(err.toFile());
            b.environment().putAll(env);
            Process p = b.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = p.waitFor();
            return new Object[] {status, out, Files.readString(err)};
        } finally {
            Files.deleteIfExists(err);
        }
    }

    /** 4 x 200 KB into one port: 800 packets of 1064 B at 100G behind the first one's, 2 us + 801 x 85.12 ns. */
    @Test
    void smallIncastRunsInTheShortProfileAndCompletesAtTheIdeal() throws Exception {
        Object[] r = simulate("--workload", "incast", "--senders", "4", "--flow-bytes", "200KB");
        String out = (String) r[1];
        assertEquals(0, r[0], (String) r[2]);
        assertTrue(out.contains("jvm: short (C1 only)"), out);
        assertTrue(out.contains("makespan: 70.181120 us"), out);
        assertTrue(((String) r[2]).contains("packet simulation (MB delivered)"), (String) r[2]);
    }

    /**
     * The class-data sharing archive (made on first use under kernel/target/simulate-cds) changes no output: the
     * figures and the per-flow file are the same byte for byte without it ({@code FABRICLAB_SIMULATE_CDS=off}), but for
     * the wall-time and file-name lines.
     */
    @Test
    void classDataArchiveChangesNoOutput() throws Exception {
        Path dir = Files.createTempDirectory("simulate-cds");
        try {
            Object[] with = simulate("--workload", "incast", "--senders", "8", "--flow-bytes", "300KB", "--quiet",
                    "--flows", dir.resolve("with.csv").toString());
            Object[] without = simulate(java.util.Map.of("FABRICLAB_SIMULATE_CDS", "off"), "--workload", "incast", "--senders",
                    "8", "--flow-bytes", "300KB", "--quiet", "--flows", dir.resolve("without.csv").toString());
            assertEquals(0, with[0], (String) with[2]);
            assertEquals(0, without[0], (String) without[2]);
            Path archives = SCRIPT.getParent().getParent().resolve("kernel/target/simulate-cds");
            try (var s = Files.list(archives)) {
                assertEquals(1, s.filter(f -> f.toString().endsWith(".jsa")).count(), "one archive in " + archives);
            }
            assertEquals(figures((String) without[1]), figures((String) with[1]));
            assertEquals(-1L, Files.mismatch(dir.resolve("with.csv"), dir.resolve("without.csv")));
        } finally {
            try (var s = Files.list(dir)) {
                for (Path f : s.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    /** The output without the lines that differ from run to run (wall time) or name the file. */
    private static List<String> figures(String out) {
        return out.lines().filter(l -> !l.startsWith("simulation wall time:") && !l.startsWith("flows written to:")).toList();
    }

    @Test
    void badOptionExitsWithTwoAndNamesIt() throws Exception {
        Object[] r = simulate("--rate", "fast");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--rate must be a rate such as 100G"), (String) r[2]);
        assertEquals("", r[1]);
    }
}
