package fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.transport.uec.Rccc;
import fabriclab.simulation.transport.uec.UecTransport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code bin/simulate --transport uec --uec-rccc off|on|only}: receiver credits chosen by name, refused otherwise, and a run. */
class SimulateUecRcccTest {
    private static UecTransport uec(String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("--transport", "uec", "--workload", "incast", "--senders", "4",
                "--flow-bytes", "200KB"));
        args.addAll(List.of(extra));
        return (UecTransport) SimulateOptions.parse(args).settings().scenario().transport();
    }

    @Test
    void theOptionSelectsReceiverCredits() {
        assertEquals(Rccc.off(), uec().rccc(), "off by default, as uet-htsim");
        assertEquals(Rccc.defaults(), uec("--uec-rccc", "on").rccc());
        assertEquals(Rccc.defaults().withSenderWindow(false), uec("--uec-rccc", "only").rccc());
        Object[] bad = SimulateCommandTest.run("--transport", "uec", "--uec-rccc", "sometimes");
        assertTrue(bad[2].toString().contains("--uec-rccc"), bad[2].toString());
        Object[] notUec = SimulateCommandTest.run("--transport", "dcqcn", "--uec-rccc", "on");
        assertTrue(notUec[2].toString().contains("--uec-rccc"), notUec[2].toString());
        String help = ((String) SimulateCommandTest.run("--help")[1]).replaceAll("\\s+", " ");
        assertTrue(help.contains("--uec-rccc"), "in --help");
    }

    @Test
    void anIncastUnderReceiverCreditsRuns() {
        Object[] r = SimulateCommandTest.run("--transport", "uec", "--uec-rccc", "on", "--workload", "incast", "--senders",
                "4", "--flow-bytes", "200KB", "--quiet");
        assertEquals(0, r[0], (String) r[2]);
        assertTrue(((String) r[1]).contains("uec.credits"), (String) r[1]);
        Object[] off = SimulateCommandTest.run("--transport", "uec", "--workload", "incast", "--senders", "4", "--flow-bytes",
                "200KB", "--quiet");
        assertFalse(((String) off[1]).contains("uec.credits"), (String) off[1]);
    }
}
