/**
 * Packet-level discrete-event simulator of AI-training fabrics (issue 7): picosecond clock,
 * deterministic event queue ({@link fabriclab.simulation.event.EventQueue}), links with rate and
 * propagation delay, output-queued switches with per-priority queues, a byte-accounted shared
 * buffer with tail drop and WRED ECN marking, line-rate hosts, single-switch and leaf-spine
 * topologies ({@link fabriclab.simulation.topology}), ECMP with the hashing issue's functions and
 * per-packet spraying, and priority flow control (IEEE 802.1Qbb, {@link fabriclab.fabric.Pfc}). Entry point: {@link fabriclab.simulation.Simulator}.
 *
 * <p>Transports ({@link fabriclab.simulation.Simulator#withTransport}): uncontrolled line rate (the
 * default), go-back-N RoCE with packet-level DCQCN ({@link fabriclab.simulation.RoceTransport}), and
 * CTCC-style RTT-based control ({@link fabriclab.simulation.CtccTransport}), and GSE edges
 * (containers, grants, container spraying, egress reordering, local PFC:
 * {@link fabriclab.simulation.GseTransport}); flows can wait for other
 * flows ({@link fabriclab.simulation.Simulator#startAfter}), fabric links can add random delay
 * ({@link fabriclab.simulation.Simulator#withFabricJitter}), and every packet's queueing delay can be
 * observed ({@link fabriclab.simulation.Simulator#observeQueueing}). The 001 incast is
 * {@link fabriclab.simulation.Incast001Experiment}.
 *
 * <p>Not yet modelled: iQCN at packet level, the routing convergence delay after a link failure, and
 * recovery of GSE containers lost on a failing link.
 */
package fabriclab.simulation;
