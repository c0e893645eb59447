package fabriclab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.Simulator;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Topology;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdealFctTest {
    static final long G100 = 100_000_000_000L;
    static final LeafSpine FABRIC = new LeafSpine(8, 1, 2, 2, G100, G100, 1, 1_000_000, 1_000_000);
    static final SimulationConfig CONFIG = new SimulationConfig(1000, 64, 1, SwitchBuffer.shared(16_000_000),
            Forwarding.ecmp(fabriclab.loadbalancing.hash.HashFunction.CRC32, 7), 5, 0, 0);

    @Test
    void closedFormOnEqualRates() {
        // 2,500 B: packets of 1064, 1064, 564 wire bytes at 100G (80 ps per byte); 4 links of 1 us
        // the host sends all 2,692 wire bytes (215,360 ps); each of 3 further hops adds a full packet (85,120 ps), since the
        // last packet waits behind the full one before it; plus 4 us
        long expected = 2692 * 80L + 3 * 1064 * 80L + 4_000_000L;
        assertEquals(expected, IdealFct.onPath(2500, 1000, 64, new long[] {G100, G100, G100, G100},
                new long[] {1_000_000, 1_000_000, 1_000_000, 1_000_000}));
        // one packet: its serialisation on every link plus the delays
        assertEquals(4 * 564 * 80L + 4_000_000L, IdealFct.onPath(500, 1000, 64, new long[] {G100, G100, G100, G100},
                new long[] {1_000_000, 1_000_000, 1_000_000, 1_000_000}));
        // a slower second link: the flow drains at the bottleneck, 3 packets at 25G after the first at 100G
        long slow = 1064 * 80L + (1064 + 1064 + 564) * 320L + 0;
        assertEquals(slow, IdealFct.onPath(2500, 1000, 64, new long[] {G100, 25_000_000_000L}, new long[] {0, 0}));
    }

    @Test
    void pathsInALeafSpine() {
        Topology t = FABRIC.build();
        assertEquals(2, IdealFct.path(t, 0, 3).size());
        assertEquals(4, IdealFct.path(t, 0, 5).size());
    }

    @Test
    void equalsAOneFlowSimulation() {
        Topology t = FABRIC.build();
        for (long bytes : new long[] {1, 999, 1000, 1001, 2500, 123_457, 2_000_000}) {
            for (int dst : new int[] {2, 6}) {
                for (TransportModel tm : List.of(TransportModel.uncontrolled(), RoceTransport.noCongestionControl())) {
                    FlowSpec f = new FlowSpec(1, dst, bytes, 3_000_000, 0, 50_000);
                    SimulationResult r = new Simulator(Scenario.builder(t, CONFIG).flow(f).transport(tm).build()).run();
                    long fct = r.flows().get(0).completionTimePs();
                    assertEquals(IdealFct.of(t, CONFIG, f), fct, bytes + " B to host " + dst + ", " + tm);
                }
            }
        }
    }

    @Test
    void manyFlowsGiveTheSameAsOneByOne() {
        Topology t = FABRIC.build();
        List<FlowSpec> flows = List.of(FlowSpec.of(0, 7, 5000, 0), FlowSpec.of(3, 2, 77, 0), FlowSpec.of(0, 1, 1, 0));
        long[] all = IdealFct.of(t, CONFIG, flows);
        for (int i = 0; i < flows.size(); i++) {
            assertEquals(IdealFct.of(t, CONFIG, flows.get(i)), all[i]);
            assertTrue(all[i] > 0);
        }
    }
}
