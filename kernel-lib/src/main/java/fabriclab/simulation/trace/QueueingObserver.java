package fabriclab.simulation.trace;

/** Receives the queueing delay of every packet that leaves a switch egress queue. */
@FunctionalInterface
public interface QueueingObserver {
    /**
     * A packet starts its transmission from a switch egress queue.
     *
     * @param switchIndex the switch
     * @param port its egress port index
     * @param flow the queue-pair index of the packet's flow: queue pair q of flow i is
     *        {@code scenario.firstQueuePair(i) + q} ({@code Scenario.queuePairIndex}); equal to the
     *        flow index when every flow has one queue pair
     * @param data true for a data packet, false for a control packet
     * @param wireBytes the packet's size on the wire
     * @param queueingDelayPs time from joining the queue to starting transmission, ps
     * @param timePs the current time, ps
     */
    void dequeued(int switchIndex, int port, int flow, boolean data, int wireBytes, long queueingDelayPs, long timePs);
}
