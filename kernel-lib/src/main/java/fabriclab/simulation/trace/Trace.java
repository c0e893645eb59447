package fabriclab.simulation.trace;

/**
 * Trace sources of the simulator's queues, in the manner of ns-3's queue trace sources (Enqueue,
 * Dequeue, Drop): attach one with {@code new Simulator(scenario, trace)}. Every method
 * has a no-op default; override what you want to record. Nodes are numbered as in the topology
 * (hosts first); ports as in the node's link order; a packet's {@code flow} is the queue-pair index of its flow
 * (queue pair q of flow i is {@code scenario.firstQueuePair(i) + q}; equal to the flow index when every flow has one
 * queue pair). Tracing enqueues costs a check per packet
 * only when a trace is attached.
 */
public interface Trace extends QueueingObserver {
    /** A packet of flow {@code flow} joined the egress queue of ({@code node}, {@code port}), now holding {@code queueBytes}. */
    default void enqueued(int node, int port, int flow, boolean data, int wireBytes, long queueBytes, long timePs) {
    }

    /** As {@link QueueingObserver#dequeued}: a packet starts its transmission from a switch egress queue. */
    @Override
    default void dequeued(int switchIndex, int port, int flow, boolean data, int wireBytes, long queueingDelayPs,
            long timePs) {
    }

    /**
     * A packet of flow {@code flow} was lost at ({@code node}, {@code port}) ({@code port} is -1 when the
     * switch had no route for it).
     */
    default void dropped(int node, int port, int flow, boolean data, int wireBytes, DropReason reason, long timePs) {
    }
}
