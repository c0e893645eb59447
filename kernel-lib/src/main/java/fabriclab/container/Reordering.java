package fabriclab.container;

import fabriclab.Parameters;

/**
 * Exact reorder probabilities for a stream sent with a constant gap g between consecutive packets,
 * sprayed per packet or in containers of m packets, each unit seeing an independent path delay
 * (seed 002 section 3.1.1; the paper's model: no FIFO coupling between units).
 *
 * <p>Which event each formula measures:
 * <ul>
 *   <li>{@link #pairProbability}: a given consecutive pair (k, k+1) on different units arrives out of
 *       order: P(D_1 - D_2 > g) = Phi(-g / (sigma sqrt 2)) for normal delays; 0.5 as g -> 0.
 *       002 writes Z = (D_1 - D_2)/sqrt(2 sigma^2) ~ N(1, 0); it is N(0, 1).</li>
 *   <li>{@link #boundaryProbability}: containers: a given container boundary (last packet of
 *       container k, first of k+1) is inverted; same value as the pair formula. Pairs inside a
 *       container never invert (same path, FIFO).</li>
 *   <li>{@link #perPairRate}: fraction of all consecutive pairs that are inverted = boundary
 *       probability / m (one boundary every m pairs); 0.5/m as g -> 0.</li>
 *   <li>{@link #paperContainerFormula}: 002's 0.5/(2m), which is half of the per-pair rate at g -> 0.
 *       It can be read as "per packet of two consecutive containers" (one boundary per 2m packets),
 *       which double-counts containers: each container has a boundary with both neighbours.</li>
 *   <li>{@link #expectedLatePacketsPerBoundary}: number of packets of container k+1 that arrive before
 *       the last packet of container k (each of them is an RFC 4737 reordered packet);
 *       sum_{j=1..m} P(D_1 - D_2 > j g), which tends to m/2 as g -> 0: the packets are reordered in
 *       blocks, so containers cut reorder events by m but not the share of late packets.</li>
 *   <li>{@link #rfc4737ReorderedFraction}: long-run share of packets that arrive after a packet with
 *       a higher sequence number (RFC 4737 "reordered"), counting all units, not only the
 *       neighbour; {@link #earlyPacketFraction} is its mirror (packets that overtake).</li>
 * </ul>
 */
public final class Reordering {
    private Reordering() {
    }

    /** P(a consecutive pair on independent paths is inverted) = P(D_1 - D_2 > g). */
    public static double pairProbability(DelayModel delay, double gap) {
        Parameters.notNull("delay", delay);
        Parameters.nonNegative("gap", gap);
        return delay.probabilityDifferenceExceeds(gap);
    }

    /**
     * Per-packet spraying with FIFO paths chosen uniformly at random among N: a pair on the same path
     * (probability 1/N) cannot invert, so P = (1 - 1/N) P(D_1 - D_2 > g). Approximation: it neglects
     * that FIFO can hold either packet of the pair behind an earlier packet on its path (holding the
     * first raises, holding the second lowers the probability); good when same-path packets are
     * spaced far apart against sigma.
     */
    public static double pairProbabilityRandomFifoPaths(DelayModel delay, double gap, int paths) {
        Parameters.atLeast("paths", paths, 1);
        return (1 - 1.0 / paths) * pairProbability(delay, gap);
    }

    /** P(a container boundary is inverted): the pair formula for the boundary pair (gap g). */
    public static double boundaryProbability(DelayModel delay, double gap) {
        return pairProbability(delay, gap);
    }

    /** Fraction of consecutive packet pairs inverted with m packets per container: boundary / m. */
    public static double perPairRate(DelayModel delay, double gap, int packetsPerContainer) {
        Parameters.atLeast("packetsPerContainer (m)", packetsPerContainer, 1);
        return pairProbability(delay, gap) / packetsPerContainer;
    }

    /** 002's heuristic 0.5 / (2m). */
    public static double paperContainerFormula(int packetsPerContainer) {
        Parameters.atLeast("packetsPerContainer (m)", packetsPerContainer, 1);
        return 0.5 / (2.0 * packetsPerContainer);
    }

    /** sum_{j=1..m} P(D_1 - D_2 > j g): packets of the next container overtaking the last of this one. */
    public static double expectedLatePacketsPerBoundary(DelayModel delay, double gap, int packetsPerContainer) {
        Parameters.notNull("delay", delay);
        Parameters.inRange("gap", gap, 0, 1e3);
        Parameters.inRange("packetsPerContainer (m)", packetsPerContainer, 1, 1 << 16);
        double s = 0;
        for (int j = 1; j <= packetsPerContainer; j++) {
            s += delay.probabilityDifferenceExceeds(j * gap);
        }
        return s;
    }

    /**
     * Long-run RFC 4737 reordered-packet share for an infinite stream, containers of m packets (m = 1
     * is per-packet spraying), independent unit delays. RFC 4737 calls a packet reordered when a
     * packet with a higher sequence number arrived before it ("late" packets). Packet j (1..m) of a
     * container with delay x is in order iff no later container overtakes it; the first packet of the
     * i-th later container (i >= 0) is sent (i m + m - j + 1) g after it, so
     * P(in order) = E_x[ prod_{i>=0} (1 - F(x - (i m + m - j + 1) g)) ].
     * Integrated by the trapezoid rule over the delay support (2,001 points), products truncated when
     * the factor is within 1e-16 of 1.
     *
     * @param gap send gap g, seconds, > 0 (as g -> 0 every packet of an infinite stream is reordered)
     */
    public static double rfc4737ReorderedFraction(DelayModel delay, double gap, int packetsPerContainer) {
        return share(delay, gap, packetsPerContainer, true);
    }

    /**
     * Long-run share of "early" packets: packets that arrive before some earlier-sent packet (the
     * mirror image of RFC 4737's late packets, what {@link ReorderSimulator#run} counts in one pass).
     * Packet j of a container with delay x is not early iff every earlier container's last packet,
     * sent (i m + j) g before it (i >= 0), has arrived: P = E_x[ prod_{i>=0} F(x + (i m + j) g) ].
     * For a delay law symmetric about its mean (normal) it equals {@link #rfc4737ReorderedFraction}.
     */
    public static double earlyPacketFraction(DelayModel delay, double gap, int packetsPerContainer) {
        return share(delay, gap, packetsPerContainer, false);
    }

    private static double share(DelayModel delay, double gap, int packetsPerContainer, boolean late) {
        Parameters.notNull("delay", delay);
        Parameters.inHalfOpenRange("gap", gap, 0, 1e3);
        int m = Parameters.inRange("packetsPerContainer (m)", packetsPerContainer, 1, 1 << 16);
        double[] sup = delay.support();
        double span = sup[1] - sup[0];
        if (span == 0) {
            return 0;
        }
        if (span / gap > 5e6) {
            throw new IllegalArgumentException("gap must be > 2e-7 of the delay spread for this integral, got gap=" + gap);
        }
        int points = 2000;
        double h = span / points;
        double inOrder = 0;
        for (int j = 1; j <= m; j++) {
            double s = 0;
            for (int k = 0; k <= points; k++) {
                double x = sup[0] + k * h;
                double f = delay.density(x);
                if (f == 0) {
                    continue;
                }
                double prod = 1;
                for (int i = 0; ; i++) {
                    double fi = late ? 1 - delay.cdf(x - (i * (double) m + m - j + 1) * gap) : delay.cdf(x + (i * (double) m + j) * gap);
                    prod *= fi;
                    if (fi >= 1 - 1e-16 || prod == 0) {
                        break;
                    }
                }
                s += (k == 0 || k == points ? 0.5 : 1) * f * prod;
            }
            inOrder += s * h;
        }
        return Math.min(1, Math.max(0, 1 - inOrder / m));
    }
}
