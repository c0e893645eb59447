/**
 * DCTCP, TIMELY and Swift at packet level: go-back-N reliable connections whose senders keep a rate or a window set by
 * ECN marks (DCTCP) or by the RTT each ACK measures (TIMELY, Swift); the models are
 * {@link fabriclab.simulation.transport.window.DctcpTransport}, {@link fabriclab.simulation.transport.window.TimelyTransport}
 * and {@link fabriclab.simulation.transport.window.SwiftTransport}.
 */
package fabriclab.simulation.transport.window;
