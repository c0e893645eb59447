package fabriclab.simulation;

import java.util.List;

/**
 * What a run measured. Byte counts are payload bytes; at the end of a complete run
 * {@code injectedBytes == deliveredBytes + droppedBytes + inFlightBytes} holds exactly, and
 * {@code inFlightBytes == 0} unless the run is {@code partial}.
 *
 * @param endPs simulated time of the last handled event, ps
 * @param partial true if the run stopped at its time limit or on interrupt with events pending
 * @param events events handled
 * @param packetHops packets that finished crossing a link (one per link per packet)
 * @param injectedBytes payload bytes whose last bit left a sending NIC
 * @param deliveredBytes payload bytes delivered to receivers (first copies only)
 * @param droppedBytes payload bytes tail-dropped in switches
 * @param inFlightBytes payload bytes still queued or on a wire
 * @param droppedPackets packets tail-dropped
 * @param ecnMarks packets ECN-marked by WRED
 * @param flows one record per flow, in input order
 * @param queues the monitored egress queues
 */
public record SimulationResult(long endPs, boolean partial, long events, long packetHops, long injectedBytes,
        long deliveredBytes, long droppedBytes, long inFlightBytes, long droppedPackets, long ecnMarks,
        List<FlowRecord> flows, List<QueueTrace> queues) {

    /**
     * One flow's outcome.
     *
     * @param id flow index (input order)
     * @param spec the flow
     * @param completionTimePs flow completion time (last payload byte delivered minus start), ps; -1 if not completed
     * @param deliveredBytes payload bytes delivered
     * @param droppedPackets packets of the flow dropped
     * @param ecnMarkedPackets delivered packets carrying an ECN mark
     * @param reorderedPackets delivered packets with a lower sequence number than one delivered before
     * @param duplicatePackets packets delivered again (must be 0 without retransmission)
     */
    public record FlowRecord(int id, FlowSpec spec, long completionTimePs, long deliveredBytes, long droppedPackets,
            long ecnMarkedPackets, long reorderedPackets, long duplicatePackets) {
        /** Whether every byte arrived. */
        public boolean completed() {
            return completionTimePs >= 0;
        }
    }

    /**
     * One egress queue: occupancy samples (all priorities, including the packet being transmitted,
     * in wire bytes) taken every sampling period, and whole-run counters.
     *
     * @param name "switch S port P -> node N"
     * @param switchIndex switch index
     * @param port port index on that switch
     * @param peerNode node at the other end of the link
     * @param samplePeriodPs sampling period, ps (sample k is at time k * period)
     * @param occupancyBytes the samples (at most maxSamples)
     * @param peakBytes highest occupancy seen at any enqueue
     * @param drops packets dropped at this queue
     * @param ecnMarks packets marked at this queue
     * @param txPackets packets transmitted
     * @param flowHeads first packets (sequence 0) of flows transmitted, i.e. flows routed here
     * @param utilisation busy time over run time
     */
    public record QueueTrace(String name, int switchIndex, int port, int peerNode, long samplePeriodPs,
            long[] occupancyBytes, long peakBytes, long drops, long ecnMarks, long txPackets, long flowHeads,
            double utilisation) {
    }

    /** Completion times of the completed flows in microseconds, input order. */
    public double[] completionTimesMicros() {
        return flows.stream().filter(FlowRecord::completed).mapToDouble(f -> Time.toMicros(f.completionTimePs())).toArray();
    }

    /** Whether every flow completed. */
    public boolean allCompleted() {
        return flows.stream().allMatch(FlowRecord::completed);
    }
}
