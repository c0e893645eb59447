/**
 * CTCC at packet level (seed 001): RTT probes per host pair drive paced senders with go-back-N reliability; the
 * model is {@link fabriclab.simulation.transport.ctcc.CtccTransport}.
 */
package fabriclab.simulation.transport.ctcc;
