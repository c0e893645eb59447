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
import static fabriclab.TestArguments.refused;
import fabriclab.fabric.Pfc;

class ScenarioTest {
    private static final long G100 = 100_000_000_000L;

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

    @Test
    void pfcWhoseXoffPlusHeadroomOverflowsIsRefused() {
        Pfc pfc = new Pfc(1000, 500, Long.MAX_VALUE, 65535);
        LeafSpine f = new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        refused(() -> Scenario.builder(f.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000)))
                .flow(FlowSpec.of(0, 2, 1000, 0)).pfc(pfc).build(), "pfc.headroomBytes", "9999000", "" + Long.MAX_VALUE);
    }

    /** Start times and jitter that would wrap past a long of picoseconds in the event queue are refused up front. */
    @Test
    void timesBeyondALongOfPicosecondsAreRefusedNamingTheParameter() {
        LeafSpine f = new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        SimulationConfig config = SimulationConfig.defaults(SwitchBuffer.shared(16_000_000));
        refused(() -> Scenario.builder(f.build(), config).flow(FlowSpec.of(0, 2, 100_000, Long.MAX_VALUE - 1_000_000)).build(),
                "flows[0].startPs", "2^62", "" + (Long.MAX_VALUE - 1_000_000));
        refused(() -> Scenario.builder(f.build(), config).flow(FlowSpec.of(0, 2, 100_000, 0))
                .fabricJitter(new fabriclab.container.DelayModel.Normal(1e300, 0)).build(), "fabricJitter", "1000 s", "1.0E300");
        // the largest accepted start and delays leave the run its room: RoCE with PFC delivers the flow
        LeafSpine far = new LeafSpine(4, 1, 2, 2, G100, G100, 1, fabriclab.fabric.LinkSpec.MAX_PROPAGATION_PS,
                fabriclab.fabric.LinkSpec.MAX_PROPAGATION_PS);
        SimulationResult r = new Simulator(Scenario.builder(far.build(), config)
                .flow(FlowSpec.of(0, 2, 100_000, Scenario.MAX_START_PS))
                .transport(fabriclab.simulation.transport.roce.RoceTransport.noCongestionControl())
                .pfc(new Pfc(20_000, 10_000, 0, Pfc.MAX_QUANTA)).build()).run();
        assertTrue(r.flows().get(0).completed());
        // four 1000 s links from host 0 to host 2 (host, leaf-spine, spine-leaf, host) after the start: at least 4000 s
        assertTrue(r.completedAtPs(0) >= Scenario.MAX_START_PS + 4 * fabriclab.fabric.LinkSpec.MAX_PROPAGATION_PS);
    }
}
