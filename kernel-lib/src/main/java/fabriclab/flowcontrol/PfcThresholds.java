package fabriclab.flowcontrol;

import fabriclab.Parameters;

/**
 * Per-priority ingress PFC configuration (003 section 4.1, 802.1Qbb): pause (XOFF) when the
 * ingress queue reaches {@code xoffBytes}, resume (XON) when it falls to {@code xonBytes}, and a
 * reserved {@code headroomBytes} above XOFF for the bytes in flight. The queue must fit:
 * XOFF + headroom <= buffer.
 *
 * @param xoffBytes     pause threshold [bytes]
 * @param xonBytes      resume threshold [bytes], at most XOFF
 * @param headroomBytes reserved headroom [bytes]
 * @param bufferBytes   buffer of this ingress queue [bytes]
 */
public record PfcThresholds(double xoffBytes, double xonBytes, double headroomBytes, double bufferBytes) {
    /** Validates XON <= XOFF and XOFF + headroom <= buffer. */
    public PfcThresholds {
        Parameters.positive("xoffBytes", xoffBytes);
        Parameters.nonNegative("xonBytes", xonBytes);
        Parameters.nonNegative("headroomBytes", headroomBytes);
        Parameters.positive("bufferBytes", bufferBytes);
        if (xonBytes > xoffBytes) {
            throw new IllegalArgumentException("xonBytes must be <= xoffBytes (" + xoffBytes + "), got " + xonBytes);
        }
        if (xoffBytes + headroomBytes > bufferBytes) {
            throw new IllegalArgumentException("headroomBytes " + headroomBytes + " + xoffBytes " + xoffBytes
                    + " must not exceed bufferBytes " + bufferBytes);
        }
    }
}
