package fabriclab.validation;

import fabriclab.Parameters;

/**
 * The spacing of RED's marks with count-based spacing (Floyd and Jacobson, "Random Early Detection Gateways for
 * Congestion Avoidance", IEEE/ACM ToN 1993, section 7; ns-3's {@code RedQueueDisc} with {@code Wait} off), at a fixed
 * ramp probability p_b: the k-th packet after a mark is marked with p_a = p_b / (1 - k p_b), so the gap G from one
 * mark to the next (that one included) is uniform, P(G = k) = p_b / (1 - p_b) for k = 1 .. M - 1, with the rest of
 * the probability at M = floor(1 / p_b). The long-run marking fraction is 1 / E[G], about 2 p_b for small p_b, where
 * independent draws at p_b (ours) give p_b.
 */
public final class RedSpacing {
    private RedSpacing() {
    }

    /**
     * The mean E[G] of the gap between marks, in packets, at ramp probability {@code pb} in (0, 1] (1 for pb = 1).
     */
    public static double meanGap(double pb) {
        return moments(pb)[0];
    }

    /** The variance Var[G] of the gap between marks, in packets squared, at ramp probability {@code pb} in (0, 1]. */
    public static double gapVariance(double pb) {
        return moments(pb)[1];
    }

    /** RED's long-run marking fraction 1 / E[G] at ramp probability {@code pb} in (0, 1]. */
    public static double markingFraction(double pb) {
        return 1 / meanGap(pb);
    }

    /**
     * The ramp probability p_b in (0, 1] at which RED's long-run marking fraction 1 / E[G] equals {@code fraction} in
     * (0, 1] (bisection to double precision; 1 / E[G] rises with p_b): the probability of the curve that a measured
     * RED marking fraction implies, comparable with a fraction of independent draws. From p_b = 1/2 on RED marks every
     * packet, so the fraction 1 gives the least such p_b, 1/2.
     */
    public static double impliedProbability(double fraction) {
        Parameters.inRange("fraction", fraction, Double.MIN_NORMAL, 1.0);
        double lo = 1e-9;
        double hi = 1;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (markingFraction(mid) < fraction) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    private static double[] moments(double pb) {
        Parameters.inRange("pb", pb, 1e-9, 1.0);
        if (pb >= 1) {
            return new double[] {1, 0};
        }
        double m = Math.floor(1 / pb);
        double each = pb / (1 - pb);
        // sums over k = 1 .. M - 1 of k and k^2, in closed form
        double mean = each * (m - 1) * m / 2;
        double square = each * (m - 1) * m * (2 * m - 1) / 6;
        double last = Math.max(0, 1 - (m - 1) * each);
        mean += m * last;
        square += (double) m * m * last;
        return new double[] {mean, Math.max(0, square - mean * mean)};
    }
}
