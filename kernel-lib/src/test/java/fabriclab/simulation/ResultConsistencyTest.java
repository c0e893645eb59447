package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.roce.RoceTransport;
import org.junit.jupiter.api.Test;

/** A result does not contradict itself: completed or failed, never both; counters count what they are named for. */
class ResultConsistencyTest {
    static final long G100 = 100_000_000_000L;

    @Test
    void aFlowRecordCompletedAndFailedIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SimulationResult.FlowRecord(0,
                FlowSpec.of(0, 1, 1000, 0), 5, 1000, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, true, 0, -1));
        assertEquals("failed must be false for a completed flow (completionTimePs = 5): a flow is completed or failed,"
                + " never both", e.getMessage());
    }

    @Test
    void failedQueuePairsCountQueuePairsAndFailedFlowsCountFlows() {
        // the host link of host 2 fails at 10 us: each of the flow's 4 queue pairs exhausts its retries and fails
        LeafSpine fabric = new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        RoceTransport roce = RoceTransport.noCongestionControl().withReliableConnection(
                fabriclab.simulation.transport.ReliableConnection.defaults().withLocalAckTimeoutExponent(8));
        Scenario s = Scenario.builder(fabric.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000)))
                .flow(FlowSpec.of(0, 2, 2_000_000, 0).withQueuePairs(4)).flow(FlowSpec.of(1, 3, 20_000, 0))
                .transport(roce).failLink(2, 10 * Time.US).build();
        SimulationResult r = new Simulator(s).run();
        assertEquals(4, r.counter(TransportModel.FAILED_QPS));
        assertEquals(4, r.failedQueuePairs()); // queue pairs, as the transport counts them
        assertEquals(1, r.failedFlows()); // the one flow they carried
        for (SimulationResult.FlowRecord f : r.flows()) {
            assertTrue(!(f.completed() && f.failed()), f.toString());
        }
        assertTrue(r.flows().get(1).completed() && !r.flows().get(1).failed());
    }
}
