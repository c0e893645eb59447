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
        assertTrue(Files.isExecutable(SCRIPT), "no executable " + SCRIPT);
        List<String> cmd = new ArrayList<>(List.of(SCRIPT.toString()));
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile("simulate", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
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

    @Test
    void badOptionExitsWithTwoAndNamesIt() throws Exception {
        Object[] r = simulate("--rate", "fast");
        assertEquals(2, r[0]);
        assertTrue(((String) r[2]).contains("--rate must be a rate such as 100G"), (String) r[2]);
        assertEquals("", r[1]);
    }
}
