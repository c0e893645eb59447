package fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The training run of {@code bin/simulate}'s class-data sharing archive ({@link SimulateTraining}) and the options that
 * pass the archive on to a re-started JVM ({@link JvmProfile#archiveOptions}).
 */
class SimulateTrainingTest {
    /** Every training run is a valid, short (no re-start) command line, and the whole training ends with status 0. */
    @Test
    void trainingRunsAreShortValidCommandLinesAndAllSucceed() throws Exception {
        for (List<String> args : SimulateTraining.RUNS) {
            SimulateRun o = SimulateOptions.parse(args);
            assertTrue(JvmProfile.estimatedPacketHops(o.settings(), o.settings().scenario()) <= JvmProfile.LONG_RUN_PACKET_HOPS,
                    "a training run that would re-start the JVM: " + args);
            assertTrue(args.contains("--quiet"), "progress lines in a training run: " + args);
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = SimulateTraining.train(new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    /** No archive: no options; an archive: mapped, its messages on standard error, and named again for a further re-start. */
    @Test
    void archiveOptionsMapTheArchiveOrNothing() {
        assertEquals(List.of(), JvmProfile.archiveOptions(null));
        assertEquals(List.of(), JvmProfile.archiveOptions(""));
        assertEquals(List.of("-Xlog:cds*=off", "-Xlog:cds*=warning:stderr", "-XX:SharedArchiveFile=/a b/x.jsa",
                "-Dfabriclab.simulate.cds=/a b/x.jsa"), JvmProfile.archiveOptions("/a b/x.jsa"));
    }
}
