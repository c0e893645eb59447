/**
 * HPCC at packet level (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019): switches stamp in-band
 * telemetry on data packets at their egress, receivers echo it in the ACKs of a go-back-N reliable connection, and the
 * sender sets its window and pacing rate from the measured utilisation; the model is
 * {@link fabriclab.simulation.transport.hpcc.HpccTransport}.
 */
package fabriclab.simulation.transport.hpcc;
