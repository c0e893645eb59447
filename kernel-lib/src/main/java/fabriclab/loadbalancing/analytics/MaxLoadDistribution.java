package fabriclab.loadbalancing.analytics;

import fabriclab.Parameters;

/**
 * The distribution of the maximum number of flows on any one of m equal paths when n flows each
 * pick a path independently and uniformly (ideal per-flow ECMP). Built by
 * {@link BallsIntoBins#maxLoad(int, int)}.
 *
 * <p>Stored as the CDF {@code P(max <= k)} for k = 0..n. Values below {@link #NEGLIGIBLE} at the
 * low end are stored as 0 and values within {@link #NEGLIGIBLE} of 1 at the high end as 1 (stated
 * truncation: absolute error at most 1e-18 per k); for deep upper-tail probabilities use
 * {@link BallsIntoBins#probabilityAnyPathAtLeast}.
 */
public final class MaxLoadDistribution {
    /** Probability below which the CDF computation stops (see class comment). */
    public static final double NEGLIGIBLE = 1e-18;

    private final int flows;
    private final int paths;
    private final double[] cdf;

    MaxLoadDistribution(int flows, int paths, double[] cdf) {
        this.flows = flows;
        this.paths = paths;
        this.cdf = cdf;
    }

    /** Number of flows n. */
    public int flows() {
        return flows;
    }

    /** Number of paths m. */
    public int paths() {
        return paths;
    }

    /** {@code P(max <= k)}; 0 for k < 0, 1 for k >= n. */
    public double cdf(int k) {
        if (k < 0) {
            return 0;
        }
        return k >= flows ? 1 : cdf[k];
    }

    /** {@code P(max == k)}. */
    public double pmf(int k) {
        return Math.max(0, cdf(k) - cdf(k - 1));
    }

    /** {@code P(max >= k)}: the probability that some path carries at least k flows. */
    public double probabilityAtLeast(int k) {
        if (k <= 0) {
            return 1; // the maximum is never negative (and k - 1 must not overflow)
        }
        return 1 - cdf(k - 1);
    }

    /** Smallest k with {@code P(max <= k) >= p}, for p in (0, 1]. */
    public int quantile(double p) {
        Parameters.inHalfOpenRange("p", p, 0, 1);
        for (int k = 0; k <= flows; k++) {
            if (cdf(k) >= p) {
                return k;
            }
        }
        return flows;
    }

    /** {@code E[max]} in flows, as {@code sum_k P(max > k)}. */
    public double mean() {
        double s = 0;
        for (int k = 0; k < flows; k++) {
            double tail = 1 - cdf[k];
            if (tail == 0 && k >= flows / paths) {
                break;
            }
            s += tail;
        }
        return s;
    }

    /** {@code E[g(max)]} for a function of the maximum. */
    public double expectation(java.util.function.IntToDoubleFunction g) {
        Parameters.notNull("g", g);
        double s = 0;
        for (int k = 0; k <= flows; k++) {
            double p = pmf(k);
            if (p > 0) {
                s += p * g.applyAsDouble(k);
            }
        }
        return s;
    }

    /** {@code E[max] / (n/m)}: how much more the busiest path carries than the average. */
    public double meanMaxOverMean() {
        return mean() / ((double) flows / paths);
    }
}
