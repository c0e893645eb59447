package fabriclab.simulation;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.Time;
import fabriclab.fabric.EcnMarking;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class BadInputTest {
    static void fails(String name, Executable e) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        assertTrue(x.getMessage().contains(name), "message should name " + name + ": " + x.getMessage());
    }

    @Test
    void everyBadParameterIsNamed() {
        fails("rateBitsPerSecond", () -> new LinkSpec(0, 1, 0, 0));
        fails("propagationPs", () -> new LinkSpec(0, 1, 1, -5));
        fails("nodeB", () -> new LinkSpec(1, 1, 1, 0));
        fails("kMaxBytes", () -> new EcnMarking(100, 50, 0.1));
        fails("pMax", () -> new EcnMarking(100, 200, 1.5));
        fails("buffer.sharedBytes", () -> new SimulationConfig(1000, 48, 1, SwitchBuffer.shared(1000),
                Forwarding.sprayRandom(), 1, 0, 0));
        fails("priorities", () -> new SimulationConfig(1000, 0, 9, SwitchBuffer.shared(10_000), Forwarding.sprayRandom(), 1, 0, 0));
        fails("leaves", () -> new LeafSpine(5, 1, 2, 1, 1, 1, 1, 0, 0));
        fails("speedup", () -> LeafSpine.withSpeedup(4, 1, 2, 1, 1, 0, 1, 0, 0));
        fails("destination", () -> FlowSpec.of(3, 3, 10, 0));
        fails("bytes", () -> FlowSpec.of(0, 1, 0, 0));
        fails("startPs", () -> FlowSpec.of(0, 1, 10, -1));
        fails("bytes", () -> Time.serializationPs(-1, 1));
    }

    @Test
    void flowsAreCheckedAgainstTheTopologyBeforeTheRun() {
        SimulationConfig c = SimulationConfig.defaults(SwitchBuffer.shared(100_000));
        Topology t = Topology.singleSwitch(4, 1_000_000_000L, 0);
        // host and priority checks need no routing: the scenario rejects them when it is built
        fails("flows[1]", () -> Scenario.builder(t, c).flows(List.of(FlowSpec.of(0, 1, 10, 0), FlowSpec.of(0, 4, 10, 0)))
                .build());
        fails("flows[0].priority", () -> Scenario.builder(t, c).flow(new FlowSpec(0, 1, 10, 0, 1, 0)).build());
        // two islands: hosts 0,1 on switch 0, hosts 2,3 on switch 1, no link between switches
        Topology split = new Topology("split", 4, 2, List.of(new LinkSpec(0, 4, 1, 0), new LinkSpec(1, 4, 1, 0),
                new LinkSpec(2, 5, 1, 0), new LinkSpec(3, 5, 1, 0)), List.of(0, 0));
        // a missing path needs the routes: the scenario builds, the simulator rejects it at construction
        Scenario noPath = Scenario.builder(split, c.withForwarding(Forwarding.ecmp(HashFunction.CRC32, 0)))
                .flow(FlowSpec.of(0, 3, 10, 0)).build();
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> new Simulator(noPath));
        assertTrue(x.getMessage().contains("flows[0]") && x.getMessage().contains("no path"), x.getMessage());
        fails("links", () -> new Topology("bad", 2, 1, List.of(new LinkSpec(0, 2, 1, 0)), List.of(0)));
        fails("timeLimitPs", () -> new Simulator(Scenario.builder(t, c).build()).run(0, fabriclab.progress.Progress.silent()));
    }
}
