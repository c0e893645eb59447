package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.Simulator;
import fabriclab.fabric.Time;
import fabriclab.simulation.SimulationResult;
import org.junit.jupiter.api.Test;

/** HPCC's evaluation on our leaf-spine: the window from the fabric by hand, and a short run's invariants. */
class HpccEvaluationTest {

    /**
     * HPCC's base RTT: twice the delays plus one 1000-byte payload per link of the way there. Between leaves 4 links:
     * 2 x 4 us + 2 x 80 ns (100 Gb/s) + 2 x 20 ns (400 Gb/s) = 8200 ns, one BDP at 100 Gb/s 102,500 bytes; under one
     * leaf 2 x 2 us + 2 x 80 ns = 4160 ns.
     */
    @Test
    void theWindowIsOneBandwidthDelayProductOfTheLongestPathByHpccsRule() {
        assertEquals(8_200_000L, HpccEvaluation.maxBaseRttPs());
        assertEquals(4_160_000L, HpccEvaluation.baseRttPs(17, 20));
        assertEquals(102_500L, HpccEvaluation.windowBytes());
        assertEquals(102_500L, HpccEvaluation.dcqcnWithWindow().window().maxBytes());
        assertTrue(HpccEvaluation.dcqcnWithWindow().window().scalesWithRate());
    }

    /**
     * Standalone FCT = base RTT + (bytes + 50 per packet) at 100 Gb/s: 327 B between leaves, 8200 ns + 377 B x 80 ps
     * = 8,230,160 ps; 2500 B (3 packets) under one leaf, 4160 ns + 2650 B x 80 ps = 4,372,000 ps.
     */
    @Test
    void theStandaloneFctIsHpccsFormula() {
        assertEquals(8_230_160L, HpccEvaluation.standaloneFctPs(3, 300, 327));
        assertEquals(4_372_000L, HpccEvaluation.standaloneFctPs(17, 20, 2500));
    }

    @Test
    void aShortRunCompletesEveryFlowWithoutLossAndIsDeterministic() {
        HpccEvaluation e = new HpccEvaluation("websearch", 0.3, 200 * Time.US, 1);
        HpccEvaluation.Result a = e.run();
        SimulationResult r = a.result();
        assertTrue(r.flows().size() > 50, "the test needs flows: " + r.flows().size());
        assertTrue(r.allCompleted());
        assertEquals(0, r.droppedPackets());
        assertEquals(0, r.timeouts());
        for (int i = 0; i < r.flows().size(); i++) {
            assertTrue(r.flows().get(i).completionTimePs() >= a.idealPs()[i],
                    "no flow beats its ideal: flow " + i + " " + r.flows().get(i).completionTimePs() + " < " + a.idealPs()[i]);
        }
        HpccEvaluation.Result b = e.run();
        for (int i = 0; i < r.flows().size(); i++) {
            assertEquals(r.flows().get(i).completionTimePs(), b.result().flows().get(i).completionTimePs());
        }
    }

    /**
     * HPCC (INT) on the same short run: every flow completes, nothing is lost or paused long, no flow beats its ideal
     * (computed with the basic headers: the INT header only adds), the telemetry and window updates ran, T is the
     * leaf-spine's longest base RTT, and a rerun gives the same completions.
     */
    @Test
    void aShortHpccIntRunCompletesEveryFlowWithoutLossAndIsDeterministic() {
        HpccEvaluation e = new HpccEvaluation("websearch", 0.3, 200 * Time.US, 1);
        assertEquals(HpccEvaluation.maxBaseRttPs(), e.hpccInt().baseRttPs());
        assertEquals(0.99, e.hpccInt().eta());
        assertEquals(0, e.hpccInt().maxStage());
        HpccEvaluation.Result a = e.run(HpccScheme.HPCC_INT);
        SimulationResult r = a.result();
        assertTrue(r.flows().size() > 50, "the test needs flows: " + r.flows().size());
        assertTrue(r.allCompleted());
        assertEquals(0, r.droppedPackets());
        assertEquals(0, r.timeouts());
        assertTrue(r.counter(fabriclab.simulation.transport.hpcc.HpccTransport.UPDATES) > 0);
        for (int i = 0; i < r.flows().size(); i++) {
            assertTrue(r.flows().get(i).completionTimePs() >= a.idealPs()[i], "flow " + i);
        }
        HpccEvaluation.Result b = e.run(HpccScheme.HPCC_INT);
        for (int i = 0; i < r.flows().size(); i++) {
            assertEquals(r.flows().get(i).completionTimePs(), b.result().flows().get(i).completionTimePs());
        }
    }

    /**
     * A flow alone takes its ideal: its packets pipelined at 100 Gb/s behind the first one's store-and-forward (the
     * window of one BDP does not hold it back), and its last ACK back over the same links. Both are computed apart
     * from the simulator ({@link fabriclab.workload.IdealFct} and {@link HpccEvaluation#ackReturnPs}). A packet-sized
     * flow alone is faster than HPCC's standalone FCT (which counts a whole payload per link), so its slowdown is
     * below 1, which HPCC's analysis counts as 1.
     */
    @Test
    void aFlowAloneTakesItsIdealToTheLastAck() {
        fabriclab.simulation.Scenario base = new HpccEvaluation("websearch", 0.3, 200 * Time.US, 1).scenario();
        for (int[] pair : new int[][] {{3, 300, 2_000_000}, {17, 20, 2_000_000}, {3, 300, 327}}) {
            fabriclab.simulation.config.FlowSpec f = fabriclab.simulation.config.FlowSpec.of(pair[0], pair[1], pair[2], 0);
            SimulationResult r = new Simulator(fabriclab.simulation.Scenario.builder(base.topology(), base.config()).flow(f)
                    .transport(HpccEvaluation.dcqcnWithWindow()).pfc(base.pfc()).pfcDynamicThreshold(base.pfcDynamicThreshold())
                    .build()).run();
            long ideal = fabriclab.workload.IdealFct.of(base.topology(), base.config(), f);
            assertEquals(ideal, r.flows().get(0).completionTimePs(), "to the last delivery, " + pair[0] + " -> " + pair[1]);
            assertEquals(ideal + HpccEvaluation.ackReturnPs(pair[0], pair[1]), r.flows().get(0).acknowledgedPs(),
                    "to the last ACK, " + pair[0] + " -> " + pair[1]);
            double slowdown = (double) r.flows().get(0).acknowledgedPs() / HpccEvaluation.standaloneFctPs(pair[0], pair[1], pair[2]);
            assertTrue(pair[2] < 1000 ? slowdown < 1 : Math.abs(slowdown - 1) < 0.01, "slowdown alone " + slowdown);
        }
    }

    /**
     * HPCC's fat tree by its rule: between pods 6 links, 2 x 6 us + 2 x 80 ns + 4 x 20 ns = 12,240 ns; within a pod 4
     * links, 8200 ns; under one ToR 4160 ns; its window 12,240 ns x 100 Gb/s = 153,000 bytes. A short run on it loses
     * nothing and every flow completes.
     */
    @Test
    void hpccsFatTreeHasItsBaseRttsAndRunsWithoutLoss() {
        fabriclab.fabric.Topology t = HpccEvaluation.fatTree();
        assertEquals(320 + 20 + 20 + 16, t.hosts() + t.switches());
        assertEquals(320 + 160, t.links().size());
        assertEquals(12_240_000L, HpccEvaluation.baseRttPs(t, 0, 319));
        assertEquals(8_200_000L, HpccEvaluation.baseRttPs(t, 0, 16));
        assertEquals(4_160_000L, HpccEvaluation.baseRttPs(t, 0, 15));
        HpccEvaluation e = new HpccEvaluation("websearch", 0.3, 200 * Time.US, 1, HpccEvaluation.FabricTopology.FAT_TREE);
        assertEquals(153_000L, e.fabricWindowBytes());
        SimulationResult r = e.run().result();
        assertTrue(r.flows().size() > 50 && r.allCompleted());
        assertEquals(0, r.droppedPackets());
    }

    @Test
    void refusesSettingsOutsideItsRange() {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> new HpccEvaluation("storage", 0.3, Time.MS, 1));
        assertTrue(x.getMessage().contains("workload") && x.getMessage().contains("storage"), x.getMessage());
        x = assertThrows(IllegalArgumentException.class, () -> new HpccEvaluation("websearch", 0, Time.MS, 1));
        assertTrue(x.getMessage().contains("load"), x.getMessage());
        x = assertThrows(IllegalArgumentException.class, () -> new HpccEvaluation("websearch", 0.3, 2 * Time.S, 1));
        assertTrue(x.getMessage().contains("durationPs"), x.getMessage());
    }
}
