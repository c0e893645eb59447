/**
 * Packet-level discrete-event simulator of AI-training fabrics, built along the packet's path.
 *
 * <p>A run is described by an immutable {@link fabriclab.simulation.Scenario} (a
 * {@link fabriclab.fabric.Topology}, a {@link fabriclab.simulation.SimulationConfig}, the flows and
 * their dependencies, the {@link fabriclab.simulation.TransportModel}, {@link fabriclab.fabric.Pfc},
 * link failures, fabric jitter, pinned routes, the PFC watchdog, hook re-prioritisation) and run by a
 * {@link fabriclab.simulation.Simulator} built from it. Inside, a packet meets, in order: the source
 * host's NIC (HostNic: round robin over flows, pacing, PFC), the egress queue of a port
 * (EgressQueue: per-priority FIFOs with strict priority; it owns its bytes both ways), the link
 * (Link: serialisation, propagation, jitter, failure), at a switch the ingress accounting of PFC
 * (PfcIngress, with the upstream half PauseState at the sending port) and forwarding (Switch: the
 * tables of Routing, ECMP with {@link fabriclab.loadbalancing.hash.EcmpHasher} or spraying, shared
 * buffer admission, ECN marking with {@link fabriclab.fabric.EcnMarking}), and finally the
 * destination NIC, which hands it to the flow's transport. Each element owns its counters; the
 * flows live in Workload, the transport's per-run part in TransportRun (RoCE with DCQCN and iQCN,
 * CTCC, GSE edges with containers and grants), and the result
 * ({@link fabriclab.simulation.SimulationResult}) is assembled from the counters after the run.
 * The clock is a {@code long} in picoseconds and the event queue
 * ({@link fabriclab.simulation.event.EventQueue}) is deterministic: the same scenario gives the same
 * result. Elements reach the clock, the event queue and the packet pool through the Partition of
 * their node: one for the whole fabric in the sequential engine
 * ({@link fabriclab.simulation.Simulator#run()}); one per thread in the parallel engine
 * ({@link fabriclab.simulation.Simulator#runParallel(int)}, ParallelEngine: leaves with their hosts
 * and spines spread over threads, conservative windows of the smallest link delay, a canonical order
 * of simultaneous events so that the result is the same for every thread count).
 *
 * <p>Experiments at packet level: {@link fabriclab.simulation.Incast001Experiment} (001's incast,
 * DCQCN with PFC vs CTCC) and {@link fabriclab.simulation.Deadlock003Experiment} (003's PFC deadlock,
 * the watchdog, and hook re-prioritisation).
 *
 * <p>Not yet modelled: the routing convergence delay after a link failure (the reroute time is an
 * input). GSE recovers containers lost on a failing link or in a full queue by resending them end to end
 * (see {@link fabriclab.simulation.GseTransport}).
 */
package fabriclab.simulation;
