package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import fabriclab.simulation.SimulationResult;
import org.junit.jupiter.api.Test;

/** HPCC's evaluation on our leaf-spine: the window from the fabric by hand, and a short run's invariants. */
class HpccEvaluationTest {

    /**
     * The longest path crosses 4 links (host, leaf, spine, leaf, host): 4 x 1 us each way; a 1050-byte data packet is
     * serialized twice at 100 Gb/s (84 ns) and twice at 400 Gb/s (21 ns), its 64-byte ACK twice at each rate (5.12 and
     * 1.28 ns): 8000 + 168 + 42 + 10.24 + 2.56 = 8222.8 ns, and one BDP at 100 Gb/s is 102,785 bytes.
     */
    @Test
    void theWindowIsOneBandwidthDelayProductOfTheLongestPath() {
        assertEquals(8_222_800L, HpccEvaluation.maxBaseRttPs());
        assertEquals(102_785L, HpccEvaluation.windowBytes());
        assertEquals(102_785L, HpccEvaluation.dcqcnWithWindow().window().maxBytes());
        assertTrue(HpccEvaluation.dcqcnWithWindow().window().scalesWithRate());
    }

    @Test
    void aShortRunCompletesEveryFlowWithoutLossAndIsDeterministic() {
        HpccEvaluation e = new HpccEvaluation("websearch", 0.3, 200 * Time.US, 1);
        HpccEvaluation.Run a = e.run();
        SimulationResult r = a.result();
        assertTrue(r.flows().size() > 50, "the test needs flows: " + r.flows().size());
        assertTrue(r.allCompleted());
        assertEquals(0, r.droppedPackets());
        assertEquals(0, r.timeouts());
        for (int i = 0; i < r.flows().size(); i++) {
            assertTrue(a.slowdown(i) >= 1 && r.flows().get(i).completionTimePs() >= a.idealPs()[i],
                    "no flow beats its ideal: flow " + i + " " + r.flows().get(i).completionTimePs() + " < " + a.idealPs()[i]);
        }
        HpccEvaluation.Run b = e.run();
        for (int i = 0; i < r.flows().size(); i++) {
            assertEquals(r.flows().get(i).completionTimePs(), b.result().flows().get(i).completionTimePs());
        }
    }

    /**
     * A flow alone takes its ideal: its packets pipelined at 100 Gb/s behind the first one's store-and-forward (the
     * window of one BDP does not hold it back), and its last ACK back over the same links. Both ideals are computed
     * apart from the simulator ({@link fabriclab.workload.IdealFct} and {@link HpccEvaluation#ackReturnPs}).
     */
    @Test
    void aFlowAloneTakesItsIdealToTheLastAck() {
        fabriclab.simulation.Scenario base = new HpccEvaluation("websearch", 0.3, 200 * Time.US, 1).scenario();
        for (int[] pair : new int[][] {{3, 300}, {17, 20}}) {
            fabriclab.simulation.config.FlowSpec f = fabriclab.simulation.config.FlowSpec.of(pair[0], pair[1], 2_000_000, 0);
            SimulationResult r = fabriclab.simulation.Scenario.builder(base.topology(), base.config()).flow(f)
                    .transport(HpccEvaluation.dcqcnWithWindow()).pfc(base.pfc()).pfcDynamicThreshold(base.pfcDynamicThreshold())
                    .build().simulator().run();
            long ideal = fabriclab.workload.IdealFct.of(base.topology(), base.config(), f);
            assertEquals(ideal, r.flows().get(0).completionTimePs(), "to the last delivery, " + pair[0] + " -> " + pair[1]);
            assertEquals(ideal + HpccEvaluation.ackReturnPs(pair[0], pair[1]), r.flows().get(0).acknowledgedPs(),
                    "to the last ACK, " + pair[0] + " -> " + pair[1]);
        }
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
