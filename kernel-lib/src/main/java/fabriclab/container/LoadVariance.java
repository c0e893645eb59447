package fabriclab.container;

import fabriclab.Parameters;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * Exact mean and variance of the per-path byte load when K i.i.d. units are sprayed over N paths,
 * made exact from the heuristic of seed 002 section 3.1.1.
 *
 * <p>002 writes L_i = sum of the packet sizes on path i and VAR(L) = sum_i (L_i - L_avg)^2 / N with
 * L_avg = F_total / N, and argues that per-packet spraying gives a large VAR(L) while equal-length
 * containers give L_i = C K_i with K_i about F/(N C), hence VAR(L) about 0. With unit moments
 * mu = E[U], s2 = E[U^2], sigma^2 = Var(U):
 * <ul>
 *   <li>RANDOM (multinomial choice): Var(L_i) = K (s2/N - mu^2/N^2), Cov(L_i, L_j) = -K mu^2/N^2,
 *       E[VAR(L)] = (1 - 1/N) K s2 / N.</li>
 *   <li>ROUND_ROBIN (K = qN + r, r paths carry q+1 units): Var(L_i) = K_i sigma^2, independent paths,
 *       E[VAR(L)] = (1 - 1/N) (K/N) sigma^2 + mu^2 r (N - r) / N^2. For packets with M = qN this is
 *       Var(L_i) = (M/N) Var(P).</li>
 *   <li>WEIGHTED (probabilities w_i): Var(L_i) = K (s2 w_i - mu^2 w_i^2);
 *       E[(1/N) sum_i (L_i - w_i S)^2] = K s2 (1 - sum_i w_i^2) / N.</li>
 *   <li>LEAST_LOADED: no closed form; every load stays within max U of every other, so
 *       VAR(L) &lt;= (max U)^2 / 4 and max - mean &lt;= (1 - 1/N) max U (bounds; simulate with
 *       {@link Spraying}).</li>
 * </ul>
 * The max/mean ratio uses the Gaussian limit: the deviations L_i - S/N are jointly normal with the
 * projection covariance (V - C)(I - J/N), so E[max_i L_i] - E[S]/N = sqrt(V - C) e_N with e_N the
 * expected maximum of N standard normals.
 */
public final class LoadVariance {
    private static final NormalDistribution STD = new NormalDistribution(null, 0, 1);

    private LoadVariance() {
    }

    /**
     * Load statistics for equal weights.
     *
     * @param units the spraying units (count and size moments)
     * @param paths N, at least 1
     * @param policy RANDOM, ROUND_ROBIN or LEAST_LOADED (WEIGHTED needs {@link #of(SprayUnits, double[])})
     */
    public static LoadStats of(SprayUnits units, int paths, PathPolicy policy) {
        Parameters.notNull("units", units);
        Parameters.atLeast("paths", paths, 1);
        Parameters.notNull("policy", policy);
        double k = units.count();
        double mu = units.meanBytes();
        double s2 = units.secondMomentBytes();
        double var = units.varianceBytes();
        double n = paths;
        double mean = k * mu / n;
        double eN = expectedMaxOfStandardNormals(paths);
        switch (policy) {
            case RANDOM: {
                double vi = k * (s2 / n - mu * mu / (n * n));
                double across = (1 - 1 / n) * k * s2 / n;
                double spread = Math.sqrt(k * s2 / n);
                return new LoadStats(policy, paths, mean, vi, across, Math.sqrt(across) / mean, 1 + spread * eN / mean, true);
            }
            case WEIGHTED: {
                double[] w = new double[paths];
                java.util.Arrays.fill(w, 1.0 / paths);
                return of(units, w);
            }
            case ROUND_ROBIN: {
                long kk = (long) Math.floor(k);
                long r = kk % paths;
                double vi = k / n * var;
                double across = (1 - 1 / n) * k / n * var + mu * mu * r * (n - r) / (n * n);
                double maxExcess = Math.sqrt(k / n * var) * eN + (r > 0 ? mu * (1 - r / n) : 0);
                return new LoadStats(policy, paths, mean, vi, across, Math.sqrt(across) / mean, 1 + maxExcess / mean, true);
            }
            case LEAST_LOADED: {
                double u = units.maxBytes();
                double bound = u * u / 4;
                return new LoadStats(policy, paths, mean, bound, bound, Math.sqrt(bound) / mean, 1 + (1 - 1 / n) * u / mean, false);
            }
            default:
                throw new IllegalArgumentException("unknown policy " + policy);
        }
    }

    /**
     * Load statistics for weighted random path choice (weights from grants or path quality).
     * {@code meanPerPath} and {@code variancePerPath} refer to a path of weight 1/N share of the
     * total (K mu / N); {@code acrossPathVariance} = E[(1/N) sum_i (L_i - w_i S)^2].
     *
     * @param weights non-negative path weights with a positive sum (normalised here); N = length
     */
    public static LoadStats of(SprayUnits units, double[] weights) {
        Parameters.notNull("units", units);
        double[] w = normalise(weights);
        int paths = w.length;
        double k = units.count();
        double mu = units.meanBytes();
        double s2 = units.secondMomentBytes();
        double n = paths;
        double sumW2 = 0;
        for (double x : w) {
            sumW2 += x * x;
        }
        double mean = k * mu / n;
        double vi = k * (s2 / n - mu * mu / (n * n));
        double across = k * s2 * (1 - sumW2) / n;
        double spread = Math.sqrt(k * s2 / n);
        return new LoadStats(PathPolicy.WEIGHTED, paths, mean, vi, across, Math.sqrt(across) / mean,
                1 + spread * expectedMaxOfStandardNormals(paths) / mean, true);
    }

    /**
     * Round robin when the number of units is not known in advance (it varies from run to run): the
     * remainder r = K mod N is taken uniform on 0..N-1, so the partial last round adds
     * mu^2 E[r (N - r)] / N^2 = mu^2 (N^2 - 1) / (6 N^2) to E[VAR(L)]. This is the term that keeps
     * container spraying from reaching 002's VAR(L) = 0: up to one container of imbalance remains.
     */
    public static LoadStats roundRobinUnknownCount(SprayUnits units, int paths) {
        Parameters.notNull("units", units);
        Parameters.atLeast("paths", paths, 1);
        double k = units.count();
        double mu = units.meanBytes();
        double n = paths;
        double mean = k * mu / n;
        double vi = k / n * units.varianceBytes();
        double across = (1 - 1 / n) * vi + mu * mu * (n * n - 1) / (6 * n * n);
        double maxExcess = Math.sqrt(vi) * expectedMaxOfStandardNormals(paths) + mu * (n - 1) / (2 * n);
        return new LoadStats(PathPolicy.ROUND_ROBIN, paths, mean, vi, across, Math.sqrt(across) / mean, 1 + maxExcess / mean, true);
    }

    /**
     * Round robin over containers built with 002's rule (container id = cumulative bytes / C), unit
     * count not known in advance. Container k carries C + o_{k+1} - o_k bytes (o_k: offset of the first
     * packet start in window k), so neighbouring containers share an offset with opposite signs and
     * their loads are negatively correlated; the across-path sum of the deviations telescopes to about
     * 0. With the offsets taken as independent (as in {@link ContainerAssembly#fillDistribution} for this
     * rule): E[VAR(L)] = (K/N) Var(B) + C^2 (N^2 - 1) / (6 N^2), i.e. without the factor (1 - 1/N) of
     * independent units. Approximate (offsets are weakly dependent); {@code exact} is false.
     *
     * @param sizes packet-size law, max at most C
     * @param packets number of packets M; K = M E[P] / C containers
     * @param containerLength C, bytes
     * @param paths N
     */
    public static LoadStats roundRobinCumulativeRule(PacketSizes sizes, long packets, int containerLength, int paths) {
        Parameters.notNull("sizes", sizes);
        Parameters.atLeast("packets", packets, 1L);
        Parameters.atLeast("paths", paths, 1);
        ContainerFill fill = ContainerAssembly.fillDistribution(AssemblyRule.CUMULATIVE_BYTES, sizes, containerLength);
        double n = paths;
        double c = containerLength;
        double k = packets * sizes.mean() / c;
        double mean = k * c / n;
        double vi = k / n * fill.variance();
        double across = (paths == 1 ? 0 : vi) + c * c * (n * n - 1) / (6 * n * n);
        double maxExcess = Math.sqrt(vi) * expectedMaxOfStandardNormals(paths) + c * (n - 1) / (2 * n);
        return new LoadStats(PathPolicy.ROUND_ROBIN, paths, mean, vi, across, Math.sqrt(across) / mean, 1 + maxExcess / mean, false);
    }

    /** Checks and normalises path weights to sum 1. */
    static double[] normalise(double[] weights) {
        Parameters.notNull("weights", weights);
        Parameters.atLeast("weights.length (number of paths N)", weights.length, 1);
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += Parameters.nonNegative("weights[" + i + "]", weights[i]);
        }
        Parameters.positive("sum of weights", sum);
        double[] w = new double[weights.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = weights[i] / sum;
        }
        return w;
    }

    /**
     * 002's per-packet claim made exact for the paper's setting: E[VAR(L)] for M packets sprayed at
     * random over N paths, (1 - 1/N) M E[P^2] / N, bytes^2.
     */
    public static double perPacketRandomVariance(PacketSizes sizes, long packets, int paths) {
        return of(SprayUnits.packets(sizes, packets), paths, PathPolicy.RANDOM).acrossPathVariance();
    }

    /**
     * E[max of n i.i.d. standard normals] = integral of x n phi(x) Phi(x)^(n-1) dx (0 for n = 1,
     * 1/sqrt(pi) for n = 2), by the trapezoid rule on [-12, 12] with 24,000 steps (error below 1e-9).
     */
    public static double expectedMaxOfStandardNormals(int n) {
        Parameters.atLeast("n", n, 1);
        if (n == 1) {
            return 0;
        }
        int steps = 24_000;
        double a = -12;
        double h = 24.0 / steps;
        double s = 0;
        for (int i = 0; i <= steps; i++) {
            double x = a + i * h;
            double f = x * n * STD.density(x) * Math.pow(STD.cumulativeProbability(x), n - 1);
            s += (i == 0 || i == steps) ? f / 2 : f;
        }
        return s * h;
    }
}
