package fabriclab.workload;

import fabriclab.Parameters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * FCT slowdown by size rank, the way HPCC's analysis script ({@code analysis/fct_analysis.py} of
 * alibaba-edu/High-Precision-Congestion-Control, commit 9f4be2a9) draws its FCT figures: the completed flows are sorted
 * by size, cut into consecutive groups of {@code stepPercent} percent of them (group i holds the flows of rank
 * {@code floor(i s n / 100)} to {@code floor((i + 1) s n / 100) - 1}, n flows, s the step), and each group gives the
 * 50th, 95th and 99th percentile of its slowdowns, the element of index {@code floor(m p)} of its m sorted slowdowns,
 * each slowdown at least 1 (a flow faster than its ideal counts as 1). The figure's x axis is the group's rank and its
 * tick labels the largest size in the group. Flows of equal size are ordered by slowdown, so the cut does not depend on
 * the order the flows were generated in.
 *
 * @param steps one entry per group, in size order
 */
public record FctSteps(List<Step> steps) {
    /**
     * One group of flows.
     *
     * @param fromPercent the group's first rank as a percentage of the flows, in [0, 100)
     * @param toPercent its end, in (fromPercent, 100]
     * @param largestBytes the largest flow size in the group, bytes
     * @param flows flows in the group, at least 1
     * @param p50 median slowdown
     * @param p95 95th-percentile slowdown
     * @param p99 99th-percentile slowdown
     */
    public record Step(double fromPercent, double toPercent, long largestBytes, int flows, double p50, double p95,
            double p99) implements java.io.Serializable {
        /** Validates. */
        public Step {
            Parameters.inRange("fromPercent", fromPercent, 0.0, 100.0);
            Parameters.inRange("toPercent", toPercent, fromPercent, 100.0);
            Parameters.atLeast("largestBytes", largestBytes, 1L);
            Parameters.atLeast("flows", flows, 1);
            Parameters.inRange("p50", p50, 1.0, Double.MAX_VALUE);
            Parameters.inRange("p95", p95, p50, Double.MAX_VALUE);
            Parameters.inRange("p99", p99, p95, Double.MAX_VALUE);
        }

        /** The percentile {@code "p50"}, {@code "p95"} or {@code "p99"} of this group. */
        public double percentile(String which) {
            return switch (Parameters.notNull("which", which)) {
                case "p50" -> p50;
                case "p95" -> p95;
                case "p99" -> p99;
                default -> throw new IllegalArgumentException("which must be p50, p95 or p99, got \"" + which + "\"");
            };
        }
    }

    /** Validates: not null, no null step. */
    public FctSteps {
        Parameters.noNullElements("steps", steps);
        steps = List.copyOf(steps);
    }

    /**
     * The groups of the completed flows.
     *
     * @param sizesBytes each flow's size, bytes, at least 1
     * @param slowdowns each flow's slowdown (completion over ideal), finite and positive; NaN for a flow not completed,
     *     which is left out
     * @param stepPercent the group size in percent of the flows, a divisor of 100 in [1, 50]
     * @throws IllegalArgumentException when a group would be empty (fewer completed flows than groups)
     */
    public static FctSteps of(long[] sizesBytes, double[] slowdowns, int stepPercent) {
        Parameters.notNull("sizesBytes", sizesBytes);
        Parameters.notNull("slowdowns", slowdowns);
        if (sizesBytes.length != slowdowns.length) {
            throw new IllegalArgumentException("slowdowns must have one entry per flow (" + sizesBytes.length + "), got "
                    + slowdowns.length);
        }
        Parameters.inRange("stepPercent", stepPercent, 1, 50);
        if (100 % stepPercent != 0) {
            throw new IllegalArgumentException("stepPercent must divide 100, got " + stepPercent);
        }
        List<double[]> done = new ArrayList<>(); // {size, slowdown}
        for (int i = 0; i < sizesBytes.length; i++) {
            Parameters.atLeast("sizesBytes[" + i + "]", sizesBytes[i], 1L);
            if (Double.isNaN(slowdowns[i])) {
                continue;
            }
            Parameters.finite("slowdowns[" + i + "]", slowdowns[i]);
            Parameters.positive("slowdowns[" + i + "]", slowdowns[i]);
            done.add(new double[] {sizesBytes[i], Math.max(1, slowdowns[i])});
        }
        int groups = 100 / stepPercent;
        int n = done.size();
        if (n < groups) {
            throw new IllegalArgumentException("need at least " + groups + " completed flows for steps of " + stepPercent
                    + "%, got " + n);
        }
        done.sort(Comparator.<double[]>comparingDouble(x -> x[0]).thenComparingDouble(x -> x[1]));
        List<Step> steps = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            int from = (int) ((long) g * stepPercent * n / 100);
            int to = (int) ((long) (g + 1) * stepPercent * n / 100);
            double[] s = new double[to - from];
            long largest = 0;
            for (int k = from; k < to; k++) {
                s[k - from] = done.get(k)[1];
                largest = Math.max(largest, (long) done.get(k)[0]);
            }
            Arrays.sort(s);
            steps.add(new Step(g * stepPercent, (g + 1) * stepPercent, largest, s.length, FctSlowdown.percentile(s, 0.5),
                    FctSlowdown.percentile(s, 0.95), FctSlowdown.percentile(s, 0.99)));
        }
        return new FctSteps(steps);
    }

    /**
     * The median, over the groups whose ranks fall in {@code [fromPercent, toPercent)}, of their {@code which}
     * percentile (the value of a run of groups, e.g. a tenth of the flows, as a figure's curve shows it there); for an
     * even count the mean of the two middle values.
     *
     * @param fromPercent the range's start, in [0, 100)
     * @param toPercent its end, in (fromPercent, 100]
     * @param which {@code p50}, {@code p95} or {@code p99}
     * @throws IllegalArgumentException when no group falls in the range
     */
    public double medianOver(double fromPercent, double toPercent, String which) {
        if (!(fromPercent >= 0 && fromPercent < 100)) {
            throw new IllegalArgumentException("fromPercent must be in [0, 100), got " + fromPercent);
        }
        Parameters.inRange("toPercent", toPercent, Math.nextUp(fromPercent), 100.0);
        List<Double> v = new ArrayList<>();
        for (Step s : steps) {
            if (s.fromPercent() >= fromPercent && s.fromPercent() < toPercent) {
                v.add(s.percentile(which));
            }
        }
        if (v.isEmpty()) {
            throw new IllegalArgumentException("no step starts in [" + fromPercent + ", " + toPercent + ")");
        }
        return median(v);
    }

    /** The median of {@code values} (mean of the two middle ones for an even count); not empty. */
    static double median(List<Double> values) {
        double[] s = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }
}
