/**
 * What a caller can observe of a run: trace sources of the simulator's queues, in the manner of ns-3's (Enqueue,
 * Dequeue, Drop): a {@link fabriclab.simulation.trace.QueueingObserver} sees each packet leave a switch egress
 * queue, a {@link fabriclab.simulation.trace.Trace} also each enqueue and each drop with its {@link
 * fabriclab.simulation.trace.DropReason}; and the typed {@link fabriclab.simulation.trace.Counter}s (name and unit)
 * that transports and elements report in a result, each declared once by the model that reports it.
 */
package fabriclab.simulation.trace;
