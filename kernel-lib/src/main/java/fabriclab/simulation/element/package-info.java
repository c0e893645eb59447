/**
 * The simulator's elements, along a packet's path: the source host's NIC ({@link
 * fabriclab.simulation.element.HostNic}: round robin over flows, pacing, PFC), the egress queue of a port ({@link
 * fabriclab.simulation.element.EgressQueue}: per-priority FIFOs served by strict priority; it owns its bytes both
 * ways), the link ({@link fabriclab.simulation.element.Link}: serialisation, propagation, jitter, failure), at a
 * switch the ingress accounting of PFC ({@link fabriclab.simulation.element.PfcIngress}, with the upstream half
 * {@link fabriclab.simulation.element.PauseState} at the sending port) and forwarding ({@link
 * fabriclab.simulation.element.Switch}: the tables of {@link fabriclab.simulation.element.Routing}, ECMP or
 * spraying, shared-buffer admission, ECN marking), and the destination NIC, which hands the packet to the flow's
 * {@link fabriclab.simulation.element.Transport}. The flows and their dependencies live in {@link
 * fabriclab.simulation.element.Workload}. Each element owns its counters.
 *
 * <p>Elements reach the clock, the event queue and the packet pool only through the {@link
 * fabriclab.simulation.element.Partition} of their node, which an engine creates: the elements do not know which
 * engine runs them; what an engine's keys mean (the parallel engine's canonical order) is the engine's, which the
 * partition asks for. The types here are public because the transports and engines in the neighbouring packages
 * use them; they are the simulator's internals, not an API for scenarios (SimulationBoundaryTest checks that nothing
 * outside the simulator names them). Their mutable state is package-private: the other packages read it through
 * accessors and change it through methods named for what they record (SimulationBoundaryTest checks that no field
 * is open but the few protected ones of {@link fabriclab.simulation.element.Transport}, the transports' base).
 */
package fabriclab.simulation.element;
