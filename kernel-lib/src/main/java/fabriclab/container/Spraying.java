package fabriclab.container;

import fabriclab.Parameters;
import fabriclab.progress.ProgressSink;
import fabriclab.progress.Progress;
import java.util.SplittableRandom;

/**
 * Monte Carlo of spraying: cuts a packet stream into units of a given granularity, assigns each unit
 * a path with a {@link PathPolicy} and returns the per-path byte loads; used to check
 * {@link LoadVariance} and to measure the policies it has no closed form for (least-loaded).
 * Every method is deterministic for a given seed.
 */
public final class Spraying {
    private Spraying() {
    }

    /** One unit per packet (per-packet spraying). */
    public static long[] packetUnits(int[] packetBytes) {
        Parameters.notNull("packetBytes", packetBytes);
        long[] u = new long[packetBytes.length];
        for (int i = 0; i < u.length; i++) {
            u[i] = packetBytes[i];
        }
        return u;
    }

    /** Consecutive runs of {@code packetsPerFlow} packets form one flow unit (the last may be shorter). */
    /** Packet sizes in [1, 2^20] bytes (so that unit counts and sizes stay within int and long). */
    private static void checkPacketBytes(int[] packetBytes) {
        Parameters.notNull("packetBytes", packetBytes);
        for (int i = 0; i < packetBytes.length; i++) {
            Parameters.inRange("packetBytes[" + i + "]", packetBytes[i], 1, 1 << 20);
        }
    }

    public static long[] flowUnits(int[] packetBytes, int packetsPerFlow) {
        Parameters.notNull("packetBytes", packetBytes);
        Parameters.atLeast("packetsPerFlow", packetsPerFlow, 1);
        long[] u = new long[(int) ((packetBytes.length + (long) packetsPerFlow - 1) / packetsPerFlow)];
        for (int i = 0; i < packetBytes.length; i++) {
            u[i / packetsPerFlow] += packetBytes[i];
        }
        return u;
    }

    /** Each packet cut into ceil(P / payload) cells of payload + header wire bytes (last cell padded). */
    public static long[] cellUnits(int[] packetBytes, int cellPayloadBytes, int cellHeaderBytes) {
        checkPacketBytes(packetBytes);
        Parameters.inRange("cellPayloadBytes", cellPayloadBytes, 1, 1 << 20);
        Parameters.inRange("cellHeaderBytes", cellHeaderBytes, 0, 1 << 20);
        long cells = 0;
        for (int p : packetBytes) {
            cells += (p + cellPayloadBytes - 1) / cellPayloadBytes;
        }
        long[] u = new long[Math.toIntExact(cells)];
        java.util.Arrays.fill(u, cellPayloadBytes + cellHeaderBytes);
        return u;
    }

    /** Aggregated frames: overflow-rule packing into frames padded to payload, plus a shared header each. */
    public static long[] frameUnits(int[] packetBytes, int framePayloadBytes, int frameHeaderBytes) {
        checkPacketBytes(packetBytes);
        Parameters.inRange("framePayloadBytes", framePayloadBytes, 1, 1 << 24);
        Parameters.inRange("frameHeaderBytes", frameHeaderBytes, 0, 1 << 20);
        int[] ids = ContainerAssembly.assign(AssemblyRule.OVERFLOW_STARTS_NEXT, packetBytes, framePayloadBytes);
        long[] u = new long[ids.length == 0 ? 0 : ids[ids.length - 1] + 1];
        java.util.Arrays.fill(u, framePayloadBytes + frameHeaderBytes);
        return u;
    }

    /** Containers: the packet bytes of each container (logical, no padding, tags not counted). */
    public static long[] containerUnits(int[] packetBytes, AssemblyRule rule, int containerLength) {
        return ContainerAssembly.containerBytes(packetBytes, ContainerAssembly.assign(rule, packetBytes, containerLength));
    }

    /**
     * Sprays units over paths.
     *
     * @param unitBytes wire bytes of each unit, in sending order
     * @param paths N, at least 1
     * @param policy path choice
     * @param weights path weights for {@link PathPolicy#WEIGHTED} (length N), ignored otherwise (may be null)
     * @param rng generator for the random policies
     * @return bytes per path; their sum equals the sum of {@code unitBytes}
     */
    public static long[] spray(long[] unitBytes, int paths, PathPolicy policy, double[] weights, SplittableRandom rng) {
        Parameters.notNull("unitBytes", unitBytes);
        Parameters.inRange("paths", paths, 1, 1 << 24);
        Parameters.notNull("policy", policy);
        Parameters.notNull("rng", rng);
        if (weights != null) {
            Parameters.finiteElements("weights", weights);
        }
        long[] load = new long[paths];
        switch (policy) {
            case RANDOM -> {
                for (long u : unitBytes) {
                    load[rng.nextInt(paths)] += u;
                }
            }
            case ROUND_ROBIN -> {
                for (int i = 0; i < unitBytes.length; i++) {
                    load[i % paths] += unitBytes[i];
                }
            }
            case LEAST_LOADED -> {
                for (long u : unitBytes) {
                    int best = 0;
                    for (int j = 1; j < paths; j++) {
                        if (load[j] < load[best]) {
                            best = j;
                        }
                    }
                    load[best] += u;
                }
            }
            case WEIGHTED -> {
                Parameters.notNull("weights", weights);
                if (weights.length != paths) {
                    throw new IllegalArgumentException("weights must have length paths=" + paths + ", got " + weights.length);
                }
                double[] w = LoadVariance.normalise(weights);
                double[] cdf = new double[paths];
                double c = 0;
                for (int j = 0; j < paths; j++) {
                    c += w[j];
                    cdf[j] = c;
                }
                cdf[paths - 1] = 1.0;
                for (long u : unitBytes) {
                    double x = rng.nextDouble();
                    int j = 0;
                    while (cdf[j] <= x && j < paths - 1) {
                        j++;
                    }
                    load[j] += u;
                }
            }
            default -> throw new IllegalArgumentException("unknown policy " + policy);
        }
        return load;
    }

    /** 002's VAR(L) = (1/N) sum (L_i - S/N)^2 of one realisation, bytes^2. */
    public static double acrossPathVariance(long[] load) {
        Parameters.notNull("load", load);
        Parameters.atLeast("load.length", load.length, 1);
        double s = 0;
        for (long l : load) {
            s += l;
        }
        double avg = s / load.length;
        double v = 0;
        for (long l : load) {
            v += (l - avg) * (l - avg);
        }
        return v / load.length;
    }

    /**
     * Weighted form of VAR(L): (1/N) sum_i (L_i - w_i S)^2 with the weights normalised to sum 1, the
     * quantity {@link LoadVariance#of(SprayUnits, double[])} gives the expectation of, bytes^2.
     */
    public static double acrossPathVariance(long[] load, double[] weights) {
        Parameters.notNull("load", load);
        double[] w = LoadVariance.normalise(weights);
        if (w.length != load.length) {
            throw new IllegalArgumentException("weights must have length load.length=" + load.length + ", got " + w.length);
        }
        double s = 0;
        for (long l : load) {
            s += l;
        }
        double v = 0;
        for (int i = 0; i < load.length; i++) {
            double d = load[i] - w[i] * s;
            v += d * d;
        }
        return v / load.length;
    }

    /** max_i L_i / (S/N) of one realisation (1 when nothing was sent). */
    public static double maxOverMean(long[] load) {
        Parameters.notNull("load", load);
        Parameters.atLeast("load.length", load.length, 1);
        long max = 0;
        double s = 0;
        for (long l : load) {
            max = Math.max(max, l);
            s += l;
        }
        return s == 0 ? 1.0 : max / (s / load.length);
    }

    /**
     * Monte Carlo estimate over independent trials.
     *
     * @param meanVariance mean of VAR(L) over trials, bytes^2
     * @param stdErrVariance standard error of that mean, bytes^2
     * @param meanMaxOverMean mean of max/mean over trials
     * @param stdErrMaxOverMean its standard error
     * @param meanUnits mean number of units per trial
     * @param trials trials run
     */
    public record Estimate(double meanVariance, double stdErrVariance, double meanMaxOverMean, double stdErrMaxOverMean,
                           double meanUnits, int trials) {
        /** Validates: every statistic finite and &gt;= 0, trials &gt;= 1. */
        public Estimate {
            Parameters.nonNegative("meanVariance", meanVariance);
            Parameters.nonNegative("stdErrVariance", stdErrVariance);
            Parameters.nonNegative("meanMaxOverMean", meanMaxOverMean);
            Parameters.nonNegative("stdErrMaxOverMean", stdErrMaxOverMean);
            Parameters.nonNegative("meanUnits", meanUnits);
            Parameters.atLeast("trials", trials, 1);
        }

        /** sqrt(mean VAR(L)) / (mean per-path load). */
        public double coefficientOfVariation(double meanPerPath) {
            Parameters.positive("meanPerPath", meanPerPath);
            return Math.sqrt(meanVariance) / meanPerPath;
        }
    }

    /** Most trials {@link #monteCarlo} runs (each trial draws and sprays all its packets). */
    public static final int MAX_TRIALS = 1_000_000;

    /**
     * Repeats: draw {@code packets} i.i.d. packets, cut them into units with {@code cutter}, spray,
     * measure VAR(L) (for WEIGHTED its weighted form {@link #acrossPathVariance(long[], double[])})
     * and max/mean.
     *
     * @param sizes packet-size law
     * @param packets packets per trial, in [1, 50 000 000]
     * @param cutter turns a packet array into unit wire bytes (e.g. {@code p -> Spraying.containerUnits(p, rule, C)})
     * @param paths N
     * @param policy path choice
     * @param weights for WEIGHTED (else null)
     * @param trials number of trials, in [2, {@link #MAX_TRIALS}]
     * @param seed base seed
     * @param progress where to report progress ({@link Progress#silent()} in tests)
     */
    public static Estimate monteCarlo(PacketSizes sizes, int packets, java.util.function.Function<int[], long[]> cutter, int paths,
                                      PathPolicy policy, double[] weights, int trials, long seed, ProgressSink progress) {
        Parameters.notNull("sizes", sizes);
        Parameters.inRange("packets", packets, 1, 50_000_000);
        Parameters.notNull("cutter", cutter);
        Parameters.inRange("trials", trials, 2, MAX_TRIALS);
        Parameters.notNull("progress", progress);
        SplittableRandom rng = new SplittableRandom(seed);
        double sv = 0, sv2 = 0, sm = 0, sm2 = 0, su = 0;
        try (Progress p = Progress.start("spraying Monte Carlo (" + policy + ")", trials, progress)) {
            for (int t = 0; t < trials; t++) {
                int[] pk = sizes.sample(rng, packets);
                long[] units = cutter.apply(pk);
                long[] load = spray(units, paths, policy, weights, rng);
                double v = policy == PathPolicy.WEIGHTED ? acrossPathVariance(load, weights) : acrossPathVariance(load);
                double m = maxOverMean(load);
                sv += v;
                sv2 += v * v;
                sm += m;
                sm2 += m * m;
                su += units.length;
                p.step();
            }
        }
        double mv = sv / trials;
        double mm = sm / trials;
        double varV = Math.max(0, (sv2 - trials * mv * mv) / (trials - 1));
        double varM = Math.max(0, (sm2 - trials * mm * mm) / (trials - 1));
        return new Estimate(mv, Math.sqrt(varV / trials), mm, Math.sqrt(varM / trials), su / trials, trials);
    }
}
