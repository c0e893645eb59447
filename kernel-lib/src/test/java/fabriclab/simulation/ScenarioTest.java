package fabriclab.simulation;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.Time;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.LeafSpine;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScenarioTest {
    @Test
    void permutationIsASeededDerangement() {
        LeafSpine ls = new LeafSpine(32, 2, 4, 4, 100_000_000_000L, 100_000_000_000L, 1, Time.US, Time.US);
        SimulationConfig c = SimulationConfig.defaults(SwitchBuffer.shared(1_000_000));
        Scenario a = Scenario.permutation(ls, 1000, 9, c);
        Set<Integer> dsts = new HashSet<>();
        for (FlowSpec f : a.flows()) {
            assertNotEquals(f.source(), f.destination());
            dsts.add(f.destination());
        }
        assertEquals(ls.hosts(), dsts.size());
        assertEquals(a.flows(), Scenario.permutation(ls, 1000, 9, c).flows());
        assertNotEquals(a.flows(), Scenario.permutation(ls, 1000, 10, c).flows());
    }

    @Test
    void incastDeliversEverythingWhenTheBufferIsLargeEnough() {
        // 4 x 100 KB into one 100G port: the queue peaks below 400 KB, so a 1 MB buffer never drops and
        // the last byte leaves after 400 KB at 100G (32 us) plus the first packet's serialisation and 2 props.
        Scenario s = Scenario.incast(4, 100_000, 100_000_000_000L, SimulationConfig.defaults(SwitchBuffer.shared(1_000_000)));
        SimulationResult r = new Simulator(s).run();
        assertTrue(r.allCompleted());
        assertEquals(0, r.droppedBytes());
        long last = r.flows().stream().mapToLong(SimulationResult.FlowRecord::completionTimePs).max().orElseThrow();
        assertEquals(400_000 * 80L + 1000 * 80L + 2 * Time.US, last);
    }
}
