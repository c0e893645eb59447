package fabriclab.loadbalancing.analytics;

import fabriclab.Parameters;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.analysis.solvers.BrentSolver;
import org.apache.commons.math3.distribution.PoissonDistribution;
import org.apache.commons.math3.special.Gamma;
import org.apache.commons.math3.transform.DftNormalization;
import org.apache.commons.math3.transform.FastFourierTransformer;
import org.apache.commons.math3.transform.TransformType;

/**
 * n flows on m equal paths, each flow on a path chosen independently and uniformly: the "balls into
 * bins" model of ideal per-flow ECMP (seed 000 section 1.2.1, seed 002 challenge 1 and figure 1:
 * few elephant flows hash onto the same links while others idle).
 *
 * <p>Exact results (no approximation): the count on one path is Binomial(n, 1/m); the expected
 * number of idle paths is {@code m (1 - 1/m)^n}; the variance of path load; the probability that two
 * flows share a path. The distribution of the maximum is exact up to floating point and a stated
 * truncation (see {@link #maxLoad}).
 *
 * <p>Assumption: the hash behaves as an independent uniform choice per flow. Real hashes on
 * low-entropy tuples may be better (a linear hash can spread consecutive ports perfectly) or much
 * worse (polarization); {@link EcmpMonteCarlo} measures them.
 */
public final class BallsIntoBins {
    private BallsIntoBins() {
    }

    /**
     * The largest flow count {@link #maxLoad} takes: 100,000 flows on 100,000 paths take about 40 s on
     * one core; the cost grows faster than linearly in n.
     */
    public static final int MAX_LOAD_FLOWS = 100_000;

    /** The largest flow count whose whole pmf {@link #flowsPerPathPmf} returns (an array of n + 1). */
    public static final int MAX_PMF_FLOWS = 1 << 24;

    /** The largest path count {@link #maxLoad} takes, 2^24 (16 flows on it: under 1 s). */
    public static final int MAX_LOAD_PATHS = 1 << 24;

    private static void check(int n, int m) {
        Parameters.atLeast("n (flows)", n, 1);
        Parameters.atLeast("m (paths)", m, 1);
    }

    /** The number of flows on one given path: Binomial(n, 1/m). */
    public static BinomialDistribution flowsPerPath(int n, int m) {
        check(n, m);
        return new BinomialDistribution(null, n, 1.0 / m);
    }

    /** {@code P(a given path carries exactly j flows)} for j = 0..n. */
    public static double[] flowsPerPathPmf(int n, int m) {
        Parameters.inRange("n (flows)", n, 1, MAX_PMF_FLOWS);
        BinomialDistribution b = flowsPerPath(n, m);
        double[] p = new double[n + 1];
        for (int j = 0; j <= n; j++) {
            p[j] = b.probability(j);
        }
        return p;
    }

    /** Expected number of paths that carry no flow: {@code m (1 - 1/m)^n}. */
    public static double expectedIdlePaths(int n, int m) {
        check(n, m);
        return m * Math.exp(n * Math.log1p(-1.0 / m));
    }

    /** Expected fraction of paths carrying at least one flow: {@code 1 - (1 - 1/m)^n}. */
    public static double expectedUsedFraction(int n, int m) {
        return 1 - expectedIdlePaths(n, m) / m;
    }

    /**
     * Probability that at least two flows share a path (birthday problem):
     * {@code 1 - prod_{i<n} (1 - i/m)}; 1 when n > m. For n = m = 2 it is 1/2.
     */
    public static double collisionProbability(int n, int m) {
        check(n, m);
        if (n > m) {
            return 1;
        }
        double logNoCollision = 0;
        for (int i = 1; i < n; i++) {
            logNoCollision += Math.log1p(-(double) i / m);
        }
        return -Math.expm1(logNoCollision);
    }

    /**
     * Expected variance of path load, {@code E[(1/m) sum_i (L_i - F/m)^2]}, for flows of the given
     * sizes (any unit; the result is in that unit squared). Each L_i is a sum of independent
     * Bernoulli(1/m)-weighted sizes, so the result is {@code (1/m)(1 - 1/m) sum_j s_j^2}; for n equal
     * flows of size s it is {@code n s^2 (1/m)(1 - 1/m)}. This is the quantity of seed 002 section
     * 3.1.1 (VAR(L) = sum_i (L_i - L_avg)^2 / N) for per-flow placement.
     */
    public static double expectedLoadVariance(double[] sizes, int m) {
        double[] s = checkSizes(sizes);
        Parameters.atLeast("m (paths)", m, 1);
        double sum2 = 0;
        for (double x : s) {
            sum2 += x * x;
        }
        return sum2 * (1.0 / m) * (1 - 1.0 / m);
    }

    static double[] checkSizes(double[] sizes) {
        Parameters.notNull("sizes", sizes);
        if (sizes.length == 0) {
            throw new IllegalArgumentException("sizes must contain at least 1 flow, got an empty array");
        }
        for (int i = 0; i < sizes.length; i++) {
            Parameters.nonNegative("sizes[" + i + "]", sizes[i]);
        }
        return sizes;
    }

    /**
     * The exact distribution of the maximum number of flows on any path.
     *
     * <p>Method (Poissonization with exponential tilting, inverted exactly). The multinomial counts
     * are i.i.d. Poisson variables conditioned on their sum, which gives
     * {@code P(max <= k) = n! / m^n * [x^n] (sum_{j<=k} x^j / j!)^m}. For each k the coefficient is
     * rewritten with a tilt theta: {@code [x^n](...)^m = theta^-n Z^m P(S = n)}, where
     * {@code Z = sum_{j<=k} theta^j / j!} and S is the sum of m i.i.d. copies of the Poisson(theta)
     * law truncated at k, theta chosen (Brent root) so that the truncated mean is exactly n/m. S is
     * then centred on n with variance V, and {@code P(S = n)} is read from an m-th power in Fourier
     * space on a circle of length L (a power of two, starting near 24 sqrt(V) + 128, at most
     * m k + 1). S is log-concave (truncated Poisson laws are, and convolution keeps it), so its pmf
     * decreases away from n; L is doubled until the pmf at the antipode n + L/2 is below 1e-12 of
     * P(S = n) (the level of floating-point noise allows no finer check), which bounds the aliasing
     * error; with L near 24 standard deviations the true aliasing is Gaussian-small (about e^-70).
     * Truncated-Poisson weights below 1e-22 of the largest are dropped. Everything is combined in
     * logarithms; the result agrees with the exact recursion and with enumeration to 1e-10.
     *
     * <p>Two paths are done in closed form: {@code P(max <= k) = P(n - k <= X <= k)}, X ~ Binomial(n, 1/2).
     *
     * <p>Stated truncation: k runs from ceil(n/m) up; a k whose bound
     * {@code F(k)^m / P(Poisson(n) = n)} (F the Poisson(n/m) CDF) is below
     * {@link MaxLoadDistribution#NEGLIGIBLE} is set to 0, and the sweep stops (the rest set to 1)
     * once the union bound {@code m P(Binomial(n, 1/m) > k)} on {@code P(max > k)} is below it. Cost: two FFTs of length L per k in the support.
     *
     * @param n flows, 1..{@link #MAX_LOAD_FLOWS}
     * @param m paths, 1..{@link #MAX_LOAD_PATHS}
     */
    public static MaxLoadDistribution maxLoad(int n, int m) {
        Parameters.inRange("n (flows)", n, 1, MAX_LOAD_FLOWS);
        Parameters.inRange("m (paths)", m, 1, MAX_LOAD_PATHS);
        double[] cdf = new double[n];
        if (m == 1) {
            return new MaxLoadDistribution(n, m, cdf); // all flows on the single path: max = n
        }
        if (m == 2) {
            // max(X, n - X) <= k  <=>  n - k <= X <= k, with X ~ Binomial(n, 1/2)
            BinomialDistribution half = new BinomialDistribution(null, n, 0.5);
            for (int k = (n + 1) / 2; k < n; k++) {
                double tail = 2 * upperTail(half, k + 1);
                if (tail < MaxLoadDistribution.NEGLIGIBLE) {
                    java.util.Arrays.fill(cdf, k, n, 1.0);
                    break;
                }
                cdf[k] = Math.min(1, Math.max(0, 1 - tail));
            }
            return new MaxLoadDistribution(n, m, cdf);
        }
        double mu = (double) n / m;
        PoissonDistribution poisson = poisson(mu);
        double logDenominator = poisson(n).logProbability(n);
        double logNFactorial = Gamma.logGamma(n + 1.0);
        BinomialDistribution perPath = new BinomialDistribution(null, n, 1.0 / m);
        int kStart = (n + m - 1) / m;
        double previous = 0;
        for (int k = kStart; k < n; k++) {
            double logF = Math.log(poisson.cumulativeProbability(k));
            if (m * logF - logDenominator < Math.log(MaxLoadDistribution.NEGLIGIBLE)) {
                continue;
            }
            double logCdf;
            if (k * (long) m == n) {
                // every path exactly at n/m: the multinomial probability n! / ((n/m)!^m m^n)
                logCdf = logNFactorial - m * Gamma.logGamma(k + 1.0) - n * Math.log(m);
            } else {
                logCdf = logNFactorial - n * Math.log(m) + logTiltedCoefficient(k, m, n, mu);
            }
            // floating-point noise can push a value a hair above 1 or below the previous k
            double v = Math.min(1, Math.max(previous, Math.exp(logCdf)));
            cdf[k] = v;
            previous = v;
            // union bound: P(max > k) <= m P(Bin(n, 1/m) > k); once negligible the rest is 1
            if (m * upperTail(perPath, k + 1) < MaxLoadDistribution.NEGLIGIBLE) {
                for (int j = k + 1; j < n; j++) {
                    cdf[j] = 1;
                }
                break;
            }
        }
        return new MaxLoadDistribution(n, m, cdf);
    }

    /** {@code P(X >= k)} summed term by term (accurate far below 1e-16). */
    private static double upperTail(BinomialDistribution b, int k) {
        double upper = 0;
        for (int j = k; j <= b.getNumberOfTrials(); j++) {
            double p = b.probability(j);
            upper += p;
            if (p <= upper * 1e-17) {
                break;
            }
        }
        return upper;
    }

    private static PoissonDistribution poisson(double mean) {
        return new PoissonDistribution(null, mean, PoissonDistribution.DEFAULT_EPSILON, PoissonDistribution.DEFAULT_MAX_ITERATIONS);
    }

    /**
     * The Poisson(theta) weights theta^j / j! truncated to {0..k}, kept where they exceed 1e-22 of
     * the largest (the law is unimodal, so the window is an interval around the mode).
     */
    private record TruncatedPoisson(int from, double[] weights, double logScale, double mean, double variance) {
        /** log Z, Z = sum_{j<=k} theta^j / j! (up to the dropped weights, below 1e-22 each). */
        double logZ() {
            double s = 0;
            for (double w : weights) {
                s += w;
            }
            return logScale + Math.log(s);
        }

        static TruncatedPoisson of(double theta, int k) {
            int c = (int) Math.min(k, Math.floor(theta));
            int lo = c;
            double r = 1;
            while (lo > 0) {
                r *= lo / theta; // w_{j-1} / w_j = j / theta
                if (r < 1e-22) {
                    break;
                }
                lo--;
            }
            int hi = c;
            r = 1;
            while (hi < k) {
                r *= theta / (hi + 1); // w_{j+1} / w_j = theta / (j + 1)
                if (r < 1e-22) {
                    break;
                }
                hi++;
            }
            double[] w = new double[hi - lo + 1];
            w[c - lo] = 1;
            for (int j = c - 1; j >= lo; j--) {
                w[j - lo] = w[j + 1 - lo] * (j + 1) / theta;
            }
            for (int j = c + 1; j <= hi; j++) {
                w[j - lo] = w[j - 1 - lo] * theta / j;
            }
            double s = 0;
            double s1 = 0;
            double s2 = 0;
            for (int i = 0; i < w.length; i++) {
                double j = lo + i;
                s += w[i];
                s1 += j * w[i];
                s2 += j * j * w[i];
            }
            double mean = s1 / s;
            return new TruncatedPoisson(lo, w, c * Math.log(theta) - Gamma.logGamma(c + 1.0), mean, Math.max(0, s2 / s - mean * mean));
        }
    }

    /** log of [x^n] (sum_{j<=k} x^j/j!)^m, for n/m < k < n. */
    private static double logTiltedCoefficient(int k, int m, int n, double mu) {
        // tilt theta with truncated mean mu; the truncated mean increases from 0 to k with theta
        double hi = 2 * mu + 1;
        while (TruncatedPoisson.of(hi, k).mean() < mu) {
            hi *= 2;
        }
        // at theta = mu the truncation may not lower the mean measurably: then theta = mu
        double theta = TruncatedPoisson.of(mu, k).mean() >= mu ? mu
                : new BrentSolver(1e-14 * hi, 1e-15).solve(500, t -> TruncatedPoisson.of(t, k).mean() - mu, mu, hi);
        TruncatedPoisson tp = TruncatedPoisson.of(theta, k);
        double variance = Math.max(1e-3, m * tp.variance());
        long cap = Long.highestOneBit((long) m * k + 1) << 1;
        int len = (int) Math.min(cap, Math.max(64, Long.highestOneBit((long) (24 * Math.sqrt(variance) + 128)) << 1));
        double[] w = tp.weights();
        double sum = 0;
        for (double x : w) {
            sum += x;
        }
        while (true) {
            double[][] data = new double[2][len];
            for (int i = 0; i < w.length; i++) {
                data[0][(tp.from() + i) % len] += w[i] / sum;
            }
            FastFourierTransformer.transformInPlace(data, DftNormalization.STANDARD, TransformType.FORWARD);
            for (int j = 0; j < len; j++) {
                double re = data[0][j];
                double im = data[1][j];
                double mod2 = re * re + im * im;
                double logMod = 0.5 * Math.log(mod2) * m;
                if (mod2 == 0 || logMod < -745) {
                    data[0][j] = 0;
                    data[1][j] = 0;
                    continue;
                }
                double r = Math.exp(logMod);
                double a = m * Math.atan2(im, re);
                data[0][j] = r * Math.cos(a);
                data[1][j] = r * Math.sin(a);
            }
            FastFourierTransformer.transformInPlace(data, DftNormalization.STANDARD, TransformType.INVERSE);
            double atN = data[0][n % len];
            double antipode = Math.abs(data[0][(int) ((n + len / 2L) % len)]);
            if (antipode <= 1e-12 * atN || len >= cap) {
                return -n * Math.log(theta) + m * tp.logZ() + Math.log(Math.max(atN, Double.MIN_VALUE));
            }
            len <<= 1;
        }
    }

    /**
     * The same distribution by the exact recursion over paths (reference method, O(m n^2) per
     * distribution; for tests and small cases, n <= 1,000 so that (1/2)^n does not underflow): the first path takes Binomial(r, 1/j)
     * of the r remaining flows, the other j - 1 paths share the rest.
     */
    public static MaxLoadDistribution maxLoadByRecursion(int n, int m) {
        check(n, m);
        Parameters.inRange("n (flows)", n, 1, 1000);
        Parameters.inRange("m (paths)", m, 1, 100_000); // O(m n^2): 1e11 steps at most
        double[] cdf = new double[n];
        // cdf is 0 below ceil(n/m); once it is within 1e-16 of 1 the rest is set to 1
        for (int k = (n + m - 1) / m; k < n; k++) {
            // q[r] = P(max <= k | r flows on the j paths processed so far)
            double[] q = new double[n + 1];
            for (int r = 0; r <= n; r++) {
                q[r] = r <= k ? 1 : 0;
            }
            for (int j = 2; j <= m; j++) {
                double[] next = new double[n + 1];
                double p = 1.0 / j;
                for (int r = 0; r <= n; r++) {
                    // binomial pmf b(x; r, p) by the ratio recursion, starting from (1-p)^r
                    double b = Math.pow(1 - p, r);
                    double s = 0;
                    for (int x = 0; x <= Math.min(k, r); x++) {
                        s += b * q[r - x];
                        b *= (double) (r - x) / (x + 1) * p / (1 - p);
                    }
                    next[r] = s;
                }
                q = next;
            }
            cdf[k] = q[n];
            if (1 - cdf[k] < 1e-16) {
                java.util.Arrays.fill(cdf, k, n, 1.0);
                break;
            }
        }
        return new MaxLoadDistribution(n, m, cdf);
    }

    /**
     * {@code P(some path carries at least k flows)}, accurate also deep in the tail. Uses the exact
     * distribution where that probability exceeds 1e-6; below, the union bound
     * {@code S1 = m P(Bin(n, 1/m) >= k)}, whose relative error is below S1 / 2 there (multinomial
     * counts are negatively associated, so the pair term is at most S1^2 / 2).
     *
     * @param k threshold, {@code >= 0}; above n no path can carry k flows and the probability is 0
     */
    public static double probabilityAnyPathAtLeast(int n, int m, int k) {
        check(n, m);
        Parameters.atLeast("k", k, 0);
        if (k == 0) {
            return 1;
        }
        if (k > n) {
            return 0; // n flows cannot put more than n on one path
        }
        double s1 = Math.min(1, m * upperTail(flowsPerPath(n, m), k));
        if (s1 < 1e-6) {
            return s1;
        }
        return maxLoad(n, m).probabilityAtLeast(k);
    }

    /**
     * The expected maximum over the expected mean load, {@code E[max_i L_i] / (F/m)}, for ideal
     * spreading of n equal flows (see {@link #maxLoad}).
     */
    public static double expectedMaxOverMean(int n, int m) {
        return maxLoad(n, m).meanMaxOverMean();
    }
}
