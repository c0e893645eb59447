package fabriclab.loadbalancing.analytics;

import fabriclab.Parameters;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.distribution.PoissonDistribution;
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
     * <p>Method (Poissonization, inverted exactly): with Y_1..Y_m i.i.d. Poisson(n/m),
     * {@code P(max <= k) = P(Y_1 + .. + Y_m = n, all Y_i <= k) / P(Y_1 + .. + Y_m = n)}, because the
     * multinomial is the Poisson vector conditioned on its sum. The numerator is coefficient n of the
     * m-th convolution power of the Poisson pmf truncated at k, obtained from one FFT of length
     * L >= min(mk, 2n + 64) + 1 (a power of two) raised pointwise to the m-th power; the single
     * coefficient n is then summed directly. Aliasing adds at most {@code P(Poisson(n) >= n + L)}
     * (below 1e-25 for every n). k runs from ceil(n/m) up; a k whose bound
     * {@code F(k)^m / P(sum = n)} is below {@link MaxLoadDistribution#NEGLIGIBLE} is set to 0, and the
     * sweep stops once {@code 1 - P(max <= k)} is below it. Cost: about one FFT of length L per k in
     * the support; n = 10,000 on m = 1,024 paths takes well under a second.
     *
     * @param n flows, at least 1
     * @param m paths, at least 1
     */
    public static MaxLoadDistribution maxLoad(int n, int m) {
        check(n, m);
        double[] cdf = new double[n];
        if (m == 1) {
            return new MaxLoadDistribution(n, m, cdf); // all flows on the single path: max = n
        }
        double lambda = (double) n / m;
        PoissonDistribution poisson = new PoissonDistribution(null, lambda, PoissonDistribution.DEFAULT_EPSILON,
                PoissonDistribution.DEFAULT_MAX_ITERATIONS);
        double logDenominator = new PoissonDistribution(null, n, PoissonDistribution.DEFAULT_EPSILON,
                PoissonDistribution.DEFAULT_MAX_ITERATIONS).logProbability(n);
        int kStart = (n + m - 1) / m;
        double previous = 0;
        for (int k = kStart; k < n; k++) {
            double logF = Math.log(poisson.cumulativeProbability(k));
            if (m * logF - logDenominator < Math.log(MaxLoadDistribution.NEGLIGIBLE)) {
                cdf[k] = 0;
                continue;
            }
            double v = truncatedPowerCoefficient(poisson, k, m, n) / Math.exp(logDenominator);
            // floating-point noise can push a value a hair outside [0, 1] or below the previous k
            v = Math.min(1, Math.max(previous, v));
            cdf[k] = v;
            previous = v;
            if (1 - v < MaxLoadDistribution.NEGLIGIBLE) {
                for (int j = k + 1; j < n; j++) {
                    cdf[j] = 1;
                }
                break;
            }
        }
        return new MaxLoadDistribution(n, m, cdf);
    }

    /** Coefficient n of (sum_{j<=k} pois(j) x^j)^m, by one FFT and a direct inverse at index n. */
    private static double truncatedPowerCoefficient(PoissonDistribution poisson, int k, int m, int n) {
        long span = Math.min((long) m * k, 2L * n + 64) + 1;
        int len = Integer.highestOneBit((int) Math.max(2, span - 1)) << 1;
        if (len < span) {
            len <<= 1;
        }
        double[][] data = new double[2][len];
        for (int j = 0; j <= k && j < len; j++) {
            data[0][j] = poisson.probability(j);
        }
        FastFourierTransformer.transformInPlace(data, DftNormalization.STANDARD, TransformType.FORWARD);
        // x_n = (1/L) sum_j X_j^m e^{+2 pi i j n / L}; the input is real so pair j with L - j.
        double sum = 0;
        long nModL = n % len;
        for (int j = 0; j <= len / 2; j++) {
            double re = data[0][j];
            double im = data[1][j];
            double mod2 = re * re + im * im;
            if (mod2 == 0) {
                continue;
            }
            double logMod = 0.5 * Math.log(mod2) * m;
            if (logMod < -745) {
                continue;
            }
            double angle = m * Math.atan2(im, re) + 2 * Math.PI * (double) ((j * nModL) % len) / len;
            double term = Math.exp(logMod) * Math.cos(angle);
            sum += (j == 0 || j == len / 2) ? term : 2 * term;
        }
        return sum / len;
    }

    /**
     * The same distribution by the exact recursion over paths (reference method, O(m n^2) per
     * distribution; for tests and small cases, n <= 1,000 so that (1/2)^n does not underflow): the first path takes Binomial(r, 1/j)
     * of the r remaining flows, the other j - 1 paths share the rest.
     */
    public static MaxLoadDistribution maxLoadByRecursion(int n, int m) {
        check(n, m);
        Parameters.inRange("n (flows)", n, 1, 1000);
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
     * @param k threshold, 0..n
     */
    public static double probabilityAnyPathAtLeast(int n, int m, int k) {
        check(n, m);
        Parameters.inRange("k", k, 0, n);
        if (k == 0) {
            return 1;
        }
        BinomialDistribution b = flowsPerPath(n, m);
        double upper = 0;
        for (int j = k; j <= n; j++) {
            double p = b.probability(j);
            upper += p;
            if (p < upper * 1e-17) {
                break;
            }
        }
        double s1 = Math.min(1, m * upper);
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
