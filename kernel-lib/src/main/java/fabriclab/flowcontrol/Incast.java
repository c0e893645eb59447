package fabriclab.flowcontrol;

import fabriclab.Parameters;

import java.util.ArrayList;
import java.util.List;

/**
 * Uncontrolled incast (002 section 3.1.2, figure 2): n senders, each sending one message of
 * {@code messageBytes} at {@code senderRateBps}, into one egress port of rate R with a drop-tail
 * buffer B. Sender i starts at i * staggerS (0 = synchronized start, the worst case of a collective
 * step).
 *
 * <p>Synchronized closed forms (n r > R): the queue grows as (n r - R) t / 8 until it reaches B at
 * t = 8B / (n r - R); without a buffer limit it peaks at M (n - R / r) when the senders stop at
 * 8M / r. The exact trajectory (any stagger) comes from {@link FluidQueue}.
 *
 * @param senders        n, at least 1
 * @param senderRateBps  r, each sender's rate [bit/s]
 * @param portRateBps    R, egress port rate [bit/s]
 * @param bufferBytes    B, buffer of the egress queue [bytes] (+infinity allowed)
 * @param messageBytes   M, bytes each sender sends
 * @param staggerS       start offset between consecutive senders [s], 0 for synchronized
 */
public record Incast(int senders, double senderRateBps, double portRateBps, double bufferBytes,
                     double messageBytes, double staggerS) {
    /** Validates every field. */
    public Incast {
        Parameters.atLeast("senders", senders, 1);
        Parameters.positive("senderRateBps", senderRateBps);
        Parameters.positive("portRateBps", portRateBps);
        if (!(bufferBytes > 0)) {
            throw new IllegalArgumentException("bufferBytes must be > 0 (or +infinity), got " + bufferBytes);
        }
        Parameters.positive("messageBytes", messageBytes);
        Parameters.nonNegative("staggerS", staggerS);
    }

    /** The senders' constant-rate arrivals at the egress port. */
    public List<RateInterval> arrivals() {
        List<RateInterval> a = new ArrayList<>(senders);
        for (int i = 0; i < senders; i++) {
            a.add(RateInterval.ofBytes(i * staggerS, messageBytes, senderRateBps));
        }
        return a;
    }

    /** Exact fluid trajectory of the egress queue (drop-tail at B). */
    public FluidQueue.Trajectory run() {
        return FluidQueue.run(arrivals(), portRateBps, bufferBytes);
    }

    /** Offered load n r / R (congestion when above 1, 002 section 3.1.2). */
    public double overload() {
        return senders * senderRateBps / portRateBps;
    }

    /**
     * Synchronized-start peak queue with an unbounded buffer: M (n - R/r) if n r > R, else 0 [bytes].
     * This is the buffer a switch needs to absorb the incast without loss or pause.
     */
    public double synchronizedPeakQueueBytes() {
        double ratio = portRateBps / senderRateBps;
        return senders > ratio ? messageBytes * (senders - ratio) : 0.0;
    }

    /**
     * Lower bound on the incast completion for a synchronized start: max(8 n M / R, 8 M / r) [s]
     * (all bytes must cross the port; each sender needs its own serialization time).
     */
    public double idealCompletionS() {
        return Math.max(8.0 * senders * messageBytes / portRateBps, 8.0 * messageBytes / senderRateBps);
    }
}
