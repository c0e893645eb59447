/**
 * RoCEv2 at packet level: go-back-N reliable connections with DCQCN rate control (reaction point at the sender,
 * notification point at the receiver, CNPs) and optionally iQCN's switch-side congestion points; the model is
 * {@link fabriclab.simulation.transport.roce.RoceTransport}.
 */
package fabriclab.simulation.transport.roce;
