package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scenario's order of simultaneous events: its default, where each order runs, and what each refuses. */
class TieOrderTest {
    private static final long G100 = 100_000_000_000L;

    private static Scenario.Builder twoSenders(int hosts) {
        return Scenario.builder(Topology.singleSwitch(hosts, G100, Time.US), SimulationConfig.builder().buffer(fabriclab.simulation.config.SwitchBuffer.shared(16_000_000)).build())
                .flows(List.of(FlowSpec.of(0, 2, 100_000, 0), FlowSpec.of(1, 2, 100_000, 0)));
    }

    @Test
    void theRuleIsEveryScenariosDefaultAndKeptByItsCopies() {
        Scenario s = twoSenders(3).build();
        assertEquals(TieOrder.CANONICAL, s.tieOrder());
        assertEquals(TieOrder.CANONICAL, s.withSeed(7).tieOrder());
        Scenario sched = s.withTieOrder(TieOrder.SCHEDULING);
        assertEquals(TieOrder.SCHEDULING, sched.tieOrder());
        assertEquals(TieOrder.SCHEDULING, sched.toBuilder().build().tieOrder());
        assertEquals(TieOrder.SCHEDULING, sched.withSeed(7).tieOrder());
        assertThrows(IllegalArgumentException.class, () -> s.withTieOrder(null));
    }

    @Test
    void theParallelEngineRefusesSchedulingOrderNamingIt() {
        Scenario sched = twoSenders(3).tieOrder(TieOrder.SCHEDULING).build();
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> new Simulator(sched).runParallel(2));
        assertTrue(x.getMessage().contains("tieOrder") && x.getMessage().contains("SCHEDULING"), x.getMessage());
        assertTrue(new Simulator(sched).run().allCompleted());
    }

    @Test
    void aSwitchBeyondTheRulesLanesNeedsSchedulingOrder() {
        int hosts = Simulator.PARALLEL_MAX_PORTS_PER_NODE + 1; // one switch with a port per host
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> new Simulator(twoSenders(hosts).build()));
        assertTrue(x.getMessage().contains("tieOrder(TieOrder.SCHEDULING)") && x.getMessage().contains(hosts + " ports"),
                x.getMessage());
        assertTrue(new Simulator(twoSenders(hosts).tieOrder(TieOrder.SCHEDULING).build()).run().allCompleted());
        assertTrue(new Simulator(twoSenders(hosts - 1).build()).run().allCompleted());
    }
}
