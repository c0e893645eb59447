package fabriclab.simulation.element;

import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadTest {
    static final Topology STAR = Topology.singleSwitch(4, Rig.G100, Time.US);

    /**
     * A flow of S bytes alone on idle 100G links through one switch (1 us each, 1000 B packets) takes
     * S x 80 ps to leave its host, then its last packet needs 1 us + 80 ns + 1 us more.
     */
    static long fct(long bytes) {
        return bytes * 80 + 80 * Time.NS + 2 * Time.US;
    }

    static final List<FlowSpec> FLOWS = List.of(
            FlowSpec.of(0, 1, 100_000, 0), // 0
            FlowSpec.of(2, 3, 50_000, 0), // 1
            FlowSpec.of(1, 2, 20_000, 0), // 2: after 0 and 1
            FlowSpec.of(3, 0, 10_000, 100 * Time.US), // 3: after 2, but not before its own start
            FlowSpec.of(0, 3, 10_000, 0)); // 4: after 2

    @Test
    void aFlowStartsWhenItsLastPredecessorIsReceivedAndNotBeforeItsOwnStart() {
        Rig r = new Rig(STAR, Rig.config(1, SwitchBuffer.shared(10_000_000), 1), FLOWS);
        Workload w = r.net.workload;
        w.addDependency(2, new int[] {0, 1});
        w.addDependency(3, new int[] {2});
        w.addDependency(4, new int[] {2});
        w.checkAcyclic();
        w.scheduleStarts();
        r.runAll();
        // 0 and 1 share no link; 2 uses links that 0 and 1 have left, and so on: every flow runs alone
        long done0 = fct(100_000);
        long done1 = fct(50_000);
        assertEquals(10_080_000, done0);
        assertEquals(0, r.flow(0).startedPs);
        assertEquals(0, r.flow(1).startedPs);
        assertEquals(done0, r.flow(0).completionPs);
        assertEquals(done1, r.flow(1).completionPs);
        long start2 = Math.max(done0, done1);
        assertEquals(start2, r.flow(2).startedPs);
        long done2 = start2 + fct(20_000);
        assertEquals(done2, r.flow(2).completionPs);
        assertTrue(done2 < 100 * Time.US);
        assertEquals(100 * Time.US, r.flow(3).startedPs);
        assertEquals(100 * Time.US + fct(10_000), r.flow(3).completionPs);
        assertEquals(done2, r.flow(4).startedPs);
        assertEquals(done2 + fct(10_000), r.flow(4).completionPs);
    }

    @Test
    void theScenarioDependenciesReachTheWorkload() {
        Scenario s = Scenario.builder(STAR, SimulationConfig.defaults(SwitchBuffer.shared(10_000_000))).flows(FLOWS)
                .startAfter(2, 0, 1).startAfter(3, 2).startAfter(4, 2).build();
        SimulationResult res = new Simulator(s).run();
        long start2 = fct(100_000);
        assertEquals(start2, res.flows().get(2).startedPs());
        assertEquals(100 * Time.US, res.flows().get(3).startedPs());
        assertEquals(start2 + fct(20_000), res.flows().get(4).startedPs());
        assertEquals(fct(10_000), res.flows().get(4).completionTimePs()); // measured from its actual start
    }

    @Test
    void aCycleIsRejectedNamingHowManyFlowsCouldNeverStart() {
        Rig r = new Rig(STAR, Rig.config(1, SwitchBuffer.shared(10_000_000), 1), FLOWS);
        Workload w = r.net.workload;
        w.addDependency(0, new int[] {2});
        w.addDependency(2, new int[] {1});
        w.addDependency(1, new int[] {0});
        w.addDependency(3, new int[] {4}); // not in the cycle, can start
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, w::checkAcyclic);
        assertTrue(e.getMessage().contains("cycle") && e.getMessage().contains("3 flows could never start"), e.getMessage());
        // flows that wait behind a cycle cannot start either
        Rig r2 = new Rig(STAR, Rig.config(1, SwitchBuffer.shared(10_000_000), 1), FLOWS);
        r2.net.workload.addDependency(0, new int[] {1});
        r2.net.workload.addDependency(1, new int[] {0});
        r2.net.workload.addDependency(4, new int[] {1});
        e = assertThrows(IllegalArgumentException.class, r2.net.workload::checkAcyclic);
        assertTrue(e.getMessage().contains("3 flows could never start"), e.getMessage());
        // a diamond is not a cycle
        Rig r3 = new Rig(STAR, Rig.config(1, SwitchBuffer.shared(10_000_000), 1), FLOWS);
        r3.net.workload.addDependency(1, new int[] {0});
        r3.net.workload.addDependency(2, new int[] {0});
        r3.net.workload.addDependency(3, new int[] {1, 2});
        assertDoesNotThrow(r3.net.workload::checkAcyclic);
    }

    @Test
    void aScenarioWithACycleBuildsButNoSimulatorCanBeMadeOfIt() {
        Scenario.Builder b = Scenario.builder(STAR, SimulationConfig.defaults(SwitchBuffer.shared(10_000_000))).flows(FLOWS);
        Scenario cyclic = b.startAfter(0, 2).startAfter(2, 0).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Simulator(cyclic));
        assertTrue(e.getMessage().contains("cycle"), e.getMessage());
    }

    @Test
    void badDependenciesNameTheirParameter() {
        Scenario.Builder b = Scenario.builder(STAR, SimulationConfig.defaults(SwitchBuffer.shared(10_000_000))).flows(FLOWS);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.startAfter(1, 1));
        assertTrue(e.getMessage().contains("predecessors"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Scenario.builder(STAR, SimulationConfig.defaults(SwitchBuffer.shared(10_000_000))).flows(FLOWS)
                        .startAfter(5, 0).build());
        assertTrue(e.getMessage().contains("dependencies[].flow"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Scenario.builder(STAR, SimulationConfig.defaults(SwitchBuffer.shared(10_000_000))).flows(FLOWS)
                        .startAfter(0, 5).build());
        assertTrue(e.getMessage().contains("dependencies[].predecessors[]"), e.getMessage());
    }

    @Test
    void deliveryCountsReorderingDuplicatesAndMarksAndCompletesOnce() {
        Rig r = new Rig(STAR, Rig.config(1, SwitchBuffer.shared(10_000_000), 1), List.of(FlowSpec.of(0, 1, 2_500, 0)));
        Workload w = r.net.workload;
        FlowState f = r.flow(0);
        assertEquals(3, f.packets); // 1000 + 1000 + 500
        Packet p0 = new Packet(f, 0, 1000, 1000, 0);
        Packet p1 = new Packet(f, 1, 1000, 1000, 0);
        Packet p2 = new Packet(f, 2, 500, 500, 0);
        p2.ecn = true;
        assertTrue(w.deliver(p0, 10));
        assertTrue(w.deliver(p2, 20));
        assertEquals(-1, f.completionPs);
        assertTrue(w.deliver(p1, 30)); // lower than the highest delivered: reordered
        assertEquals(30, f.completionPs);
        assertEquals(2_500, f.receivedBytes);
        assertEquals(1, f.reordered);
        assertEquals(1, f.ecnMarked);
        assertFalse(w.deliver(p1, 40));
        assertEquals(1, f.duplicates);
        assertEquals(1_000, f.discardedBytes);
        assertEquals(30, f.completionPs);
        assertEquals(2_500, f.receivedBytes);
    }
}
