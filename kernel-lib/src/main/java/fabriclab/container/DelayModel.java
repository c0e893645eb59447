package fabriclab.container;

import fabriclab.Parameters;
import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * The one-way delay a unit sees on its path, drawn independently per unit (seed 002 section
 * 3.1.1: D_i ~ N(D, sigma^2), independent across paths). Only differences of delays matter for
 * reordering.
 */
public sealed interface DelayModel permits DelayModel.Normal, DelayModel.ShiftedExponential {
    /** The CDF and density are defined at +-infinity (0 or 1, and 0) but not at NaN. */
    private static void checkNotNaN(double x) {
        if (Double.isNaN(x)) {
            throw new IllegalArgumentException("x must be a number (+-infinity allowed), got NaN");
        }
    }


    /** One delay, seconds. */
    double sample(SplittableRandom rng);

    /** P(D &lt;= x). */
    double cdf(double x);

    /** Density of D at x, 1/s. */
    double density(double x);

    /** An interval holding all but about 1e-15 of the mass, seconds: {lo, hi}. */
    double[] support();

    /**
     * P(D_1 - D_2 > g) for two independent delays: the probability that a unit sent g seconds
     * before another (on an independent path) arrives after it.
     */
    double probabilityDifferenceExceeds(double g);

    /** Standard deviation of D, seconds. */
    double standardDeviation();

    /**
     * Normal path delay N(mean, sigma^2) (002's model). D_1 - D_2 ~ N(0, 2 sigma^2), so
     * P(D_1 - D_2 > g) = Phi(-g / (sigma sqrt 2)); 0.5 at g = 0 when sigma > 0.
     *
     * @param mean D, seconds
     * @param sigma jitter standard deviation, seconds, >= 0
     */
    record Normal(double mean, double sigma) implements DelayModel {
        private static final NormalDistribution STD = new NormalDistribution(null, 0, 1);

        /** Validates. */
        public Normal {
            Parameters.finite("mean", mean);
            Parameters.nonNegative("sigma", sigma);
        }

        @Override
        public double sample(SplittableRandom rng) {
            return mean + sigma * Parameters.notNull("rng", rng).nextGaussian();
        }

        @Override
        public double cdf(double x) {
            checkNotNaN(x);
            return sigma == 0 ? (x >= mean ? 1 : 0) : STD.cumulativeProbability((x - mean) / sigma);
        }

        @Override
        public double density(double x) {
            checkNotNaN(x);
            return sigma == 0 ? 0 : STD.density((x - mean) / sigma) / sigma;
        }

        @Override
        public double[] support() {
            return new double[] {mean - 8.5 * sigma, mean + 8.5 * sigma};
        }

        @Override
        public double probabilityDifferenceExceeds(double g) {
            Parameters.finite("g", g);
            if (sigma == 0) {
                return g < 0 ? 1 : 0;
            }
            return STD.cumulativeProbability(-g / (sigma * Math.sqrt(2)));
        }

        @Override
        public double standardDeviation() {
            return sigma;
        }
    }

    /**
     * Queueing-driven delay: a fixed part plus an exponential queueing delay, e.g. the sojourn time of
     * an M/M/1 queue (see {@link #mm1}). The difference of two independent exponentials of mean q is
     * Laplace, so P(D_1 - D_2 > g) = exp(-g/q) / 2 for g >= 0.
     *
     * @param base fixed delay, seconds
     * @param meanQueueing mean of the exponential part q, seconds, > 0
     */
    record ShiftedExponential(double base, double meanQueueing) implements DelayModel {
        /** Validates. */
        public ShiftedExponential {
            Parameters.finite("base", base);
            Parameters.positive("meanQueueing", meanQueueing);
        }

        /**
         * M/M/1 sojourn time: exponential with mean 1 / (mu (1 - rho)), plus {@code base}.
         *
         * @param base propagation and fixed forwarding delay, seconds
         * @param serviceRate mu, packets per second
         * @param load rho in [0, 1)
         */
        public static ShiftedExponential mm1(double base, double serviceRate, double load) {
            Parameters.positive("serviceRate", serviceRate);
            Parameters.inRange("load", load, 0, Math.nextDown(1.0));
            return new ShiftedExponential(base, 1 / (serviceRate * (1 - load)));
        }

        @Override
        public double sample(SplittableRandom rng) {
            return base + meanQueueing * Parameters.notNull("rng", rng).nextExponential();
        }

        @Override
        public double cdf(double x) {
            checkNotNaN(x);
            return x <= base ? 0 : -Math.expm1(-(x - base) / meanQueueing);
        }

        @Override
        public double density(double x) {
            checkNotNaN(x);
            return x < base ? 0 : Math.exp(-(x - base) / meanQueueing) / meanQueueing;
        }

        @Override
        public double[] support() {
            return new double[] {base, base + 36 * meanQueueing};
        }

        @Override
        public double probabilityDifferenceExceeds(double g) {
            Parameters.finite("g", g);
            return g >= 0 ? 0.5 * Math.exp(-g / meanQueueing) : 1 - 0.5 * Math.exp(g / meanQueueing);
        }

        @Override
        public double standardDeviation() {
            return meanQueueing;
        }
    }
}
