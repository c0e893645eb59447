package fabriclab.simulation.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.hpcc.HpccTransport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HPCC on the parallel engine: the telemetry travels in the packets (each record written in the partition of the switch
 * the packet leaves), so a run is byte-identical with 1 to 4 threads; where no simultaneous events decide the outcome
 * (one flow across the spines) it equals the sequential engine's.
 */
class HpccParallelEngineTest {
    private static final long G100 = 100_000_000_000L;

    /** An incast across the spines (every host of the other leaves to host 0) and a permutation, with PFC. */
    static Scenario scenario() {
        LeafSpine fabric = new LeafSpine(32, 1, 4, 4, G100, G100, 2, Time.US, Time.US);
        SimulationConfig c = new SimulationConfig(1000, 64, 1, SwitchBuffer.shared(4_000_000),
                Forwarding.ecmp(HashFunction.CRC32, 3), 11, 0, 0);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 8; i < 32; i++) {
            flows.add(new FlowSpec(i, 0, 150_000, 0, 0, 49152 + i));
            flows.add(new FlowSpec(i, (i + 9) % 32 == 0 ? 1 : (i + 9) % 32, 200_000, 0, 0, 40000 + i));
        }
        return Scenario.builder(fabric.build(), c).flows(flows).transport(HpccTransport.defaults())
                .pfc(new Pfc(30 * 1064, 20_000, 0, Pfc.MAX_QUANTA)).build();
    }

    @Test
    void hpccIsTheSameWithOneTwoThreeAndFourThreads() {
        Scenario s = scenario();
        SimulationResult r1 = new Simulator(s).runParallel(1);
        assertTrue(r1.allCompleted());
        assertTrue(r1.counter(HpccTransport.UPDATES) > 0 && r1.counter(HpccTransport.INT_RECORDS) > 0 && r1.pausesSent() > 0);
        String f1 = ParallelEngineTest.fingerprint(r1);
        for (int threads = 2; threads <= 4; threads++) {
            assertEquals(f1, ParallelEngineTest.fingerprint(new Simulator(s).runParallel(threads)), "threads = " + threads);
        }
    }

    @Test
    void oneHpccFlowIsTheSameOnBothEngines() {
        Scenario s = Scenario.builder(scenario().topology(), scenario().config())
                .flows(List.of(new FlowSpec(0, 31, 1_000_000, 0, 0, 50_000))).transport(HpccTransport.defaults()).build();
        SimulationResult seq = new Simulator(s).run();
        assertTrue(seq.allCompleted() && seq.counter(HpccTransport.UPDATES) > 0);
        assertEquals(ParallelEngineTest.fingerprint(seq), ParallelEngineTest.fingerprint(new Simulator(s).runParallel(3)));
    }
}
