package fabriclab.simulation.transport.uec;

/**
 * What a receiver's ACK or NACK carries back to its sender (attached to the control packet).
 *
 * @param cumulative every sequence below this arrived
 * @param selectiveBase the first sequence of the selective-acknowledgement bitmap
 * @param selective bit i set: sequence {@code selectiveBase + i} arrived (a 64-packet bitmap)
 * @param receivedBytes wire bytes of the new (not trimmed, not duplicate) data packets the receiver had so far (the
 *        specification's Rcvd_Bytes, section 3.6.13.9, here exact rather than in units of 256 bytes)
 * @param sequence the packet that triggered this ACK (received) or NACK (trimmed)
 * @param entropy that packet's entropy value (-1: none)
 * @param marked whether that packet arrived ECN-marked
 * @param retransmission whether that packet was a retransmission (the specification's {@code pds.flags.retx} echo)
 */
record Acknowledgement(int cumulative, int selectiveBase, long selective, long receivedBytes, int sequence, int entropy, boolean marked,
        boolean retransmission) {
}
