package fabriclab.simulation;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Incast;
import fabriclab.fabric.Time;
import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.rejects;

/** The packet simulator reads the same {@link Incast} the bounds and fluid models take. */
class ScenarioIncastTest {
    private static final SimulationConfig CONFIG = SimulationConfig.defaults(SwitchBuffer.shared(10_000_000));

    @Test
    void queuePairsSplitEachSendersBytesAndStartWithTheStagger() {
        Incast in = new Incast(3, 4, 1_003, 100_000_000_000L, 25_000_000_000L, 2 * Time.US);
        Scenario s = Scenario.incast(in, 500 * Time.NS, CONFIG);
        assertEquals(12, s.flows().size());
        for (int i = 0; i < 3; i++) {
            final int sender = i;
            long bytes = s.flows().stream().filter(f -> f.source() == sender).mapToLong(FlowSpec::bytes).sum();
            assertEquals(1_003, bytes); // 251 + 251 + 251 + 250
            assertTrue(s.flows().stream().filter(f -> f.source() == sender).allMatch(f -> f.startPs() == sender * 2 * Time.US));
        }
        assertTrue(s.flows().stream().allMatch(f -> f.destination() == in.receiver()));
        assertEquals(12, s.flows().stream().mapToInt(FlowSpec::sourcePort).distinct().count());
        assertEquals(25_000_000_000L, s.topology().links().get(in.receiver()).rateBitsPerSecond());
    }

    @Test
    void everyByteArrivesAndTheLastOneNoEarlierThanTheReceiverCanTakeThem() {
        Incast in = Incast.of(4, 50_000, 100_000_000_000L);
        SimulationResult r = new Simulator(Scenario.incast(in, Time.US, CONFIG)).run();
        assertTrue(r.allCompleted());
        assertEquals(in.totalBytes(), r.deliveredBytes());
        // the receiver's port drains at R: all bytes take at least 8 S / R
        long drain = 8 * in.totalBytes() * Time.S / in.receiverRateBitsPerSecond();
        assertTrue(r.endPs() >= drain, r.endPs() + " < " + drain);
    }

    @Test
    void theShortFormIsTheSameScenario() {
        assertEquals(Scenario.incast(Incast.of(5, 7_000, 100_000_000_000L), Time.US, CONFIG),
                Scenario.incast(5, 7_000, 100_000_000_000L, CONFIG));
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> Scenario.incast(new Incast(2, 8, 3, 1, 1, 0), Time.US, CONFIG));
        assertTrue(x.getMessage().contains("incast.bytesPerSender"), x.getMessage());
    }

    @Test
    void anIncastOfHugeFlowsIsRejectedUpFront() {
        SimulationConfig config = SimulationConfig.defaults(SwitchBuffer.shared(10_000_000));
        rejects("bytesPerSender", () -> new Simulator(Scenario.incast(4, Long.MAX_VALUE, 100_000_000_000L, config)).run());
    }
}
