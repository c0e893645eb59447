package fabriclab.congestion;

import fabriclab.Parameters;

/**
 * PFC (IEEE 802.1Qbb) pause thresholds of the bottleneck queue in the fluid models: when the queue
 * reaches XOFF the upstream senders are paused; they resume when it falls to XON (hysteresis).
 *
 * <p>Source: 003 (white paper), PFC section: per-priority XOFF/XON thresholds. The fluid model
 * applies the pause instantly (no pause-frame propagation delay and no headroom), so the queue is
 * held between XON and XOFF; the real queue overshoots XOFF by about one link RTT of traffic.
 *
 * @param xoffBytes pause threshold [bytes], {@code > 0}
 * @param xonBytes resume threshold [bytes], {@code 0 <= XON < XOFF}
 */
public record PfcThresholds(double xoffBytes, double xonBytes) {
    /** Validates {@code 0 <= XON < XOFF}. */
    public PfcThresholds {
        Parameters.positive("xoffBytes", xoffBytes);
        Parameters.nonNegative("xonBytes", xonBytes);
        if (!(xonBytes < xoffBytes)) {
            throw new IllegalArgumentException("xonBytes must be < xoffBytes (" + xoffBytes + "), got " + xonBytes);
        }
    }
}
