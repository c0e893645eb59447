package fabriclab.container;

import fabriclab.Parameters;
/**
 * Per-path byte load of units sprayed over N paths.
 *
 * @param policy path-choice policy
 * @param paths N
 * @param meanPerPath E[L_i] for an equal-share path, bytes (K E[U] / N)
 * @param variancePerPath Var(L_i), bytes^2 (for weighted: of a path with weight 1/N; an upper bound
 *     when {@code exact} is false)
 * @param acrossPathVariance E[VAR(L)] with 002's VAR(L) = (1/N) sum_i (L_i - L_avg)^2 and
 *     L_avg = realised total / N (weighted: L_i measured against w_i times the total), bytes^2
 * @param coefficientOfVariation sqrt(E[VAR(L)]) / meanPerPath
 * @param maxOverMean E[max_i L_i] / mean, Gaussian (central-limit) approximation; an upper bound
 *     when {@code exact} is false
 * @param exact false for {@link PathPolicy#LEAST_LOADED}, whose values are worst-case bounds
 */
public record LoadStats(PathPolicy policy, int paths, double meanPerPath, double variancePerPath,
                        double acrossPathVariance, double coefficientOfVariation, double maxOverMean, boolean exact) {
    /** Validates: policy not null, paths &gt;= 1, every statistic finite and &gt;= 0. */
    public LoadStats {
        Parameters.notNull("policy", policy);
        Parameters.atLeast("paths", paths, 1);
        Parameters.nonNegative("meanPerPath", meanPerPath);
        Parameters.nonNegative("variancePerPath", variancePerPath);
        Parameters.nonNegative("acrossPathVariance", acrossPathVariance);
        Parameters.nonNegative("coefficientOfVariation", coefficientOfVariation);
        Parameters.nonNegative("maxOverMean", maxOverMean);
    }
}
