/**
 * Packet-level discrete-event simulator of AI-training fabrics: the public API. A run is described by an
 * immutable {@link fabriclab.simulation.Scenario} (a {@link fabriclab.fabric.Topology}, a
 * {@code SimulationConfig}, the flows and their dependencies, the {@code TransportModel}, PFC, link failures,
 * fabric jitter, pinned routes, the PFC watchdog, hook re-prioritisation), run by a
 * {@link fabriclab.simulation.Simulator} built from it, and reported as a
 * {@link fabriclab.simulation.SimulationResult} assembled from the elements' counters after the run.
 *
 * <p>The rooms below it, each depending only on those listed before it:
 * <ul>
 * <li>{@code simulation.event}: the deterministic pending-event set (the clock is a {@code long} in picoseconds);
 * <li>{@code simulation.config}: the records a scenario is made of (config, switch buffer, forwarding, flows, PFC
 * watchdog);
 * <li>{@code simulation.trace}: the trace sources a caller may attach (enqueue, dequeue, drop with its reason);
 * <li>{@code simulation.element}: the elements along a packet's path (host NIC, egress queue, link, the two halves
 * of PFC, switch, routing) and the per-flow transport interface the NIC calls;
 * <li>{@code simulation.transport}: what a transport is ({@code TransportModel}, its per-run part, go-back-N shared
 * by RoCE and CTCC), with one room per transport: {@code .roce} (DCQCN, iQCN), {@code .ctcc} (RTT probes, paced
 * senders), {@code .gse} (edges with containers, grants, spraying, reordering); each declares what of it the
 * parallel engine can run;
 * <li>{@code simulation.engine}: the engines that run the elements' events, sequential and parallel (conservative
 * windows of the smallest link delay, a canonical order of simultaneous events, the same result for every thread
 * count), with one progress reporter; the elements see only their partition.
 * </ul>
 * Paper experiments at packet level live in {@code fabriclab.experiments}; the command line ({@code bin/simulate}) in
 * {@code fabriclab.cli}.
 *
 * <p>Not yet modelled: the routing convergence delay after a link failure (the reroute time is an input).
 */
package fabriclab.simulation;
