package fabriclab.container;

import fabriclab.Parameters;

/**
 * The distribution of the bytes carried by one container, in steady state.
 *
 * @param rule the assembly rule it belongs to
 * @param containerLength configured container length C, bytes
 * @param bytes support (ascending), bytes
 * @param probability probability of each support value (sums to 1)
 * @param exact whether the law is exact (true) or the stated approximation (false, see
 *     {@link ContainerAssembly#fillDistribution})
 */
public record ContainerFill(AssemblyRule rule, int containerLength, int[] bytes, double[] probability, boolean exact) {
    /** Validates and copies the arrays. */
    public ContainerFill {
        Parameters.notNull("rule", rule);
        Parameters.atLeast("containerLength", containerLength, 1);
        Parameters.notNull("bytes", bytes);
        Parameters.notNull("probability", probability);
        if (bytes.length == 0 || bytes.length != probability.length) {
            throw new IllegalArgumentException("bytes and probability must be non-empty and of equal length");
        }
        bytes = bytes.clone();
        probability = probability.clone();
    }

    /** The support, ascending (a copy), bytes. */
    @Override
    public int[] bytes() {
        return bytes.clone();
    }

    /** Probabilities of {@link #bytes()} (a copy). */
    @Override
    public double[] probability() {
        return probability.clone();
    }

    /** Mean bytes per container E[B]. */
    public double mean() {
        double s = 0;
        for (int i = 0; i < bytes.length; i++) {
            s += probability[i] * bytes[i];
        }
        return s;
    }

    /** Second moment E[B^2], bytes^2. */
    public double secondMoment() {
        double s = 0;
        for (int i = 0; i < bytes.length; i++) {
            s += probability[i] * (double) bytes[i] * bytes[i];
        }
        return s;
    }

    /** Variance Var(B), bytes^2. */
    public double variance() {
        double m = mean();
        return Math.max(0, secondMoment() - m * m);
    }

    /** Mean fill fraction E[B]/C (may exceed 1 only for {@link AssemblyRule#CUMULATIVE_BYTES}). */
    public double meanFillFraction() {
        return mean() / containerLength;
    }

    /** Largest possible container load, bytes. */
    public int maxBytes() {
        int m = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (probability[i] > 0) {
                m = Math.max(m, bytes[i]);
            }
        }
        return m;
    }
}
