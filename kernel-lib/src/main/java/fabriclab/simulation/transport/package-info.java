/**
 * What a transport is to the simulator: the {@link fabriclab.simulation.transport.TransportModel} a scenario
 * chooses (immutable parameters; {@code TransportModel.uncontrolled()} sends at line rate with no control loop),
 * its per-run part {@link fabriclab.simulation.transport.TransportRun} (creates each flow's endpoints, attaches
 * switch functions, reports counters), and go-back-N reliability shared by RoCE and CTCC ({@link
 * fabriclab.simulation.transport.ReliableTransport}). The transports themselves: {@code transport.roce},
 * {@code transport.ctcc}, {@code transport.gse}.
 */
package fabriclab.simulation.transport;
