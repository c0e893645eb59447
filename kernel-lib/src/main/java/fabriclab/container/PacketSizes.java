package fabriclab.container;

import fabriclab.Parameters;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A discrete distribution of packet sizes in whole bytes: the input of container assembly, of the
 * load-variance formulas and of the overhead comparison.
 *
 * <p>Three shapes are provided: {@link #uniform} (002 section 3.1.1 assumes sizes uniform in
 * [64 B, 1500 B]; taken here as the discrete uniform law on the integers of that range),
 * {@link #fixed} (000 section 3: NIC packets of about 4 KB) and {@link #empirical} (any histogram).
 * Immutable and thread-safe; sampling takes the caller's generator so results are reproducible.
 */
public final class PacketSizes {
    private final String label;
    private final int[] sizes;     // ascending support
    private final double[] pmf;    // probabilities, sum 1
    private final double[] cdf;    // cumulative
    private final boolean uniform; // contiguous support with equal mass: sampled directly

    private PacketSizes(String label, int[] sizes, double[] pmf, boolean uniform) {
        this.label = label;
        this.sizes = sizes;
        this.pmf = pmf;
        this.uniform = uniform;
        this.cdf = new double[pmf.length];
        double c = 0;
        for (int i = 0; i < pmf.length; i++) {
            c += pmf[i];
            cdf[i] = c;
        }
        cdf[cdf.length - 1] = 1.0;
    }

    /**
     * Sizes uniform on the integers {@code minBytes..maxBytes} (002 section 3.1.1 uses 64..1500).
     *
     * @param minBytes smallest packet, bytes, at least 1
     * @param maxBytes largest packet, bytes, at least {@code minBytes}
     */
    public static PacketSizes uniform(int minBytes, int maxBytes) {
        Parameters.inRange("minBytes", minBytes, 1, 1 << 20);
        Parameters.inRange("maxBytes", maxBytes, minBytes, 1 << 20); // packets up to 1 MiB
        int n = maxBytes - minBytes + 1;
        int[] s = new int[n];
        double[] p = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = minBytes + i;
            p[i] = 1.0 / n;
        }
        return new PacketSizes("uniform[" + minBytes + "," + maxBytes + "] B", s, p, true);
    }

    /** Every packet has {@code bytes} bytes (000 section 3: about 4096 B). */
    public static PacketSizes fixed(int bytes) {
        Parameters.atLeast("bytes", bytes, 1);
        return new PacketSizes("fixed " + bytes + " B", new int[] {bytes}, new double[] {1.0}, true);
    }

    /**
     * An empirical distribution: {@code sizes[i]} bytes with relative weight {@code weights[i]}.
     * Weights need not sum to 1 (they are normalised); repeated sizes are merged.
     *
     * @param sizes packet sizes, bytes, each at least 1, not empty
     * @param weights non-negative weights of the same length with a positive sum
     */
    public static PacketSizes empirical(int[] sizes, double[] weights) {
        Parameters.notNull("sizes", sizes);
        Parameters.notNull("weights", weights);
        if (sizes.length == 0) {
            throw new IllegalArgumentException("sizes must not be empty (an empty packet-size distribution)");
        }
        if (weights.length != sizes.length) {
            throw new IllegalArgumentException("weights must have the same length as sizes (" + sizes.length + "), got " + weights.length);
        }
        double total = 0;
        for (int i = 0; i < sizes.length; i++) {
            Parameters.atLeast("sizes[" + i + "]", sizes[i], 1);
            Parameters.nonNegative("weights[" + i + "]", weights[i]);
            total += weights[i];
        }
        Parameters.positive("sum of weights", total);
        int max = Arrays.stream(sizes).max().getAsInt();
        double[] mass = new double[max + 1];
        for (int i = 0; i < sizes.length; i++) {
            mass[sizes[i]] += weights[i] / total;
        }
        int count = 0;
        for (double m : mass) {
            if (m > 0) {
                count++;
            }
        }
        int[] s = new int[count];
        double[] p = new double[count];
        int k = 0;
        for (int b = 0; b <= max; b++) {
            if (mass[b] > 0) {
                s[k] = b;
                p[k++] = mass[b];
            }
        }
        return new PacketSizes("empirical (" + count + " sizes)", s, p, false);
    }

    /** A short description, e.g. {@code "uniform[64,1500] B"}. */
    public String label() {
        return label;
    }

    /** Smallest size with positive probability, bytes. */
    public int min() {
        return sizes[0];
    }

    /** Largest size with positive probability, bytes. */
    public int max() {
        return sizes[sizes.length - 1];
    }

    /** The support, ascending (a copy), bytes. */
    public int[] support() {
        return sizes.clone();
    }

    /** Probabilities of {@link #support()} (a copy). */
    public double[] probabilities() {
        return pmf.clone();
    }

    /** Probability mass at {@code bytes}. */
    public double pmf(int bytes) {
        int i = Arrays.binarySearch(sizes, bytes);
        return i >= 0 ? pmf[i] : 0.0;
    }

    /** P(size > bytes). */
    public double tail(int bytes) {
        double t = 0;
        for (int i = sizes.length - 1; i >= 0 && sizes[i] > bytes; i--) {
            t += pmf[i];
        }
        return t;
    }

    /** Mean size E[P], bytes. */
    public double mean() {
        return moment(1);
    }

    /** Second moment E[P^2], bytes^2. */
    public double secondMoment() {
        return moment(2);
    }

    /** Variance Var(P), bytes^2. */
    public double variance() {
        double m = mean();
        return Math.max(0.0, secondMoment() - m * m);
    }

    /** E[f(P)] for a function of the size. */
    public double expect(java.util.function.IntToDoubleFunction f) {
        Parameters.notNull("f", f);
        double s = 0;
        for (int i = 0; i < sizes.length; i++) {
            s += pmf[i] * f.applyAsDouble(sizes[i]);
        }
        return s;
    }

    private double moment(int k) {
        double s = 0;
        for (int i = 0; i < sizes.length; i++) {
            s += pmf[i] * Math.pow(sizes[i], k);
        }
        return s;
    }

    /** One size drawn with the caller's generator, bytes. */
    public int sample(SplittableRandom rng) {
        Parameters.notNull("rng", rng);
        if (uniform) {
            return sizes.length == 1 ? sizes[0] : sizes[0] + rng.nextInt(sizes.length);
        }
        double u = rng.nextDouble();
        int i = Arrays.binarySearch(cdf, u);
        i = i >= 0 ? i : -i - 1;
        return sizes[Math.min(i, sizes.length - 1)];
    }

    /** {@code n} sizes drawn with the caller's generator, bytes. */
    public int[] sample(SplittableRandom rng, int n) {
        Parameters.notNull("rng", rng);
        Parameters.inRange("n", n, 0, 50_000_000);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = sample(rng);
        }
        return out;
    }

    @Override
    public String toString() {
        return label;
    }
}
