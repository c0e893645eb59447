/**
 * Packet-level discrete-event simulator of AI-training fabrics (issue 7): picosecond clock,
 * deterministic event queue ({@link fabriclab.simulation.event.EventQueue}), links with rate and
 * propagation delay, output-queued switches with per-priority queues, a byte-accounted shared
 * buffer with tail drop and WRED ECN marking, line-rate hosts, single-switch and leaf-spine
 * topologies ({@link fabriclab.simulation.topology}), ECMP with the hashing issue's functions and
 * per-packet spraying, and priority flow control (IEEE 802.1Qbb, {@link fabriclab.simulation.Pfc}). Entry point: {@link fabriclab.simulation.Simulator}.
 *
 * <p>Not yet modelled: congestion-controlled transports (DCQCN, CTCC), retransmission, GSE
 * containers and grants, routing convergence delay after a link failure.
 */
package fabriclab.simulation;
