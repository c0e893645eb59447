package fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.scenarios.TransportChoice;
import fabriclab.simulation.transport.hpcc.HpccTransport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code bin/simulate --transport hpcc}: chosen by name, its settings and their sources in --help, and a run. */
class SimulateHpccTest {
    @Test
    void hpccIsAChoiceWithItsSettingsAndSourcesInTheHelp() {
        SimulateRun o = SimulateOptions.parse(List.of("--transport", "hpcc", "--workload", "incast", "--senders", "4",
                "--flow-bytes", "200KB"));
        assertEquals(TransportChoice.HPCC, o.settings().transport().choice());
        assertTrue(o.settings().scenario().transport() instanceof HpccTransport);
        String help = (String) SimulateCommandTest.run("--help")[1];
        for (String s : List.of("hpcc: HPCC (Li et al., SIGCOMM 2019)", "eta 0.95", "maxStage 5", "RATE_AI", "MIN_RATE",
                "FAST_REACT", "GLOBAL_T", "42 B INT header")) {
            assertTrue(help.replaceAll("\\s+", " ").contains(s), s);
        }
    }

    @Test
    void anHpccIncastRuns() {
        Object[] r = SimulateCommandTest.run("--transport", "hpcc", "--workload", "incast", "--senders", "4", "--flow-bytes",
                "200KB", "--quiet");
        assertEquals(0, r[0], (String) r[2]);
        assertTrue(((String) r[1]).contains("hpcc.updates"), (String) r[1]);
    }
}
