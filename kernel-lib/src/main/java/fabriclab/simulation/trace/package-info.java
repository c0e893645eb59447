/**
 * Trace sources of the simulator's queues, in the manner of ns-3's (Enqueue, Dequeue, Drop): a {@link
 * fabriclab.simulation.trace.QueueingObserver} sees each packet leave a switch egress queue, a {@link
 * fabriclab.simulation.trace.Trace} also each enqueue and each drop with its {@link
 * fabriclab.simulation.trace.DropReason}.
 */
package fabriclab.simulation.trace;
