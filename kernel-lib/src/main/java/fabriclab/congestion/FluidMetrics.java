package fabriclab.congestion;

import fabriclab.Parameters;

import java.util.OptionalDouble;

/**
 * Summary of a fluid-model run. Queue, throughput, fairness and latency statistics are taken over
 * the second half of the run (the first half is treated as warm-up), sampled at every solver step.
 *
 * @param meanQueueBytes mean bottleneck queue [bytes]
 * @param minQueueBytes minimum queue [bytes]
 * @param maxQueueBytes maximum queue [bytes]
 * @param peakQueueBytes maximum queue over the whole run, warm-up included [bytes]
 * @param senderThroughputBitsPerSecond mean total rate the senders put on the wire (paused time counts as 0)
 *                            [bit/s]
 * @param deliveredThroughputBitsPerSecond mean rate the bottleneck forwards [bit/s]
 * @param utilisation delivered throughput / line rate, in [0, 1]
 * @param jainFairness Jain's index (sum x)^2 / (n sum x^2) of the mean per-flow rates over all n
 *                     flows (each class counted with its multiplicity), in [1/n, 1]
 * @param convergenceTimeS first time after which every flow's rate stays within 10% of the fair
 *                         share C / n; empty if that never happens before the end
 * @param meanProbeLatencyS mean latency of a small probe: base RTT + queue / C [s]
 * @param maxProbeLatencyS maximum probe latency [s]
 * @param pausedFraction fraction of the second half during which PFC paused the senders
 * @param droppedBytes bytes dropped at the buffer over the whole run
 */
public record FluidMetrics(double meanQueueBytes, double minQueueBytes, double maxQueueBytes, double peakQueueBytes,
                           double senderThroughputBitsPerSecond, double deliveredThroughputBitsPerSecond, double utilisation,
                           double jainFairness, OptionalDouble convergenceTimeS, double meanProbeLatencyS,
                           double maxProbeLatencyS, double pausedFraction, double droppedBytes) {
    /** Validates: every number finite and &gt;= 0, the convergence time present or empty (never null). */
    public FluidMetrics {
        Parameters.nonNegative("meanQueueBytes", meanQueueBytes);
        Parameters.nonNegative("minQueueBytes", minQueueBytes);
        Parameters.nonNegative("maxQueueBytes", maxQueueBytes);
        Parameters.nonNegative("peakQueueBytes", peakQueueBytes);
        Parameters.nonNegative("senderThroughputBitsPerSecond", senderThroughputBitsPerSecond);
        Parameters.nonNegative("deliveredThroughputBitsPerSecond", deliveredThroughputBitsPerSecond);
        Parameters.nonNegative("utilisation", utilisation);
        Parameters.nonNegative("jainFairness", jainFairness);
        Parameters.notNull("convergenceTimeS", convergenceTimeS);
        if (convergenceTimeS.isPresent()) {
            Parameters.nonNegative("convergenceTimeS", convergenceTimeS.getAsDouble());
        }
        Parameters.nonNegative("meanProbeLatencyS", meanProbeLatencyS);
        Parameters.nonNegative("maxProbeLatencyS", maxProbeLatencyS);
        Parameters.nonNegative("pausedFraction", pausedFraction);
        Parameters.nonNegative("droppedBytes", droppedBytes);
        double slack = 1e-9 * Math.max(1, maxQueueBytes); // rounding of a mean summed in floating point
        Parameters.inRange("meanQueueBytes", meanQueueBytes, minQueueBytes - slack, maxQueueBytes + slack);
        if (maxProbeLatencyS < meanProbeLatencyS * (1 - 1e-9)) {
            throw new IllegalArgumentException("maxProbeLatencyS must be >= meanProbeLatencyS = " + meanProbeLatencyS
                    + " (no mean exceeds the largest value), got " + maxProbeLatencyS);
        }
    }
}
