/**
 * GSE at packet level (seed 000): the leaves' edge functions assemble packet containers per destination host (of
 * another leaf or their own), request and receive grants, spray containers over the uplinks, reorder at the
 * destination edge, and resend lost containers end to end; hosts send at line rate. The model is {@link
 * fabriclab.simulation.transport.gse.GseTransport}.
 */
package fabriclab.simulation.transport.gse;
