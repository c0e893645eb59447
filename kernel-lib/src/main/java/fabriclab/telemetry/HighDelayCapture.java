package fabriclab.telemetry;

import fabriclab.simulation.trace.QueueingObserver;
import fabriclab.Parameters;
import fabriclab.simulation.Simulator;
import java.util.Arrays;

/**
 * High-delay capture (HDC, seed 004): a switch exports a record for every packet whose queueing delay
 * exceeds a threshold (004: 5 us for RDMA, 10 us, 50 us for TCP), so an operator sees the packets
 * that make the latency tail. Each export carries {@code recordBytes} (004: the first 150 bytes of
 * the packet) plus {@code metadataBytes} of metadata (004 lists ingress and egress port, queue id,
 * queue depth in bytes, latency in us and a ns timestamp but no sizes; with 2 + 2 + 1 + 4 + 4 + 8
 * bytes that is 21 bytes, this project's reading).
 *
 * <p>Given the per-packet queueing delays of a run ({@link Recorder}, attached with
 * {@link Simulator#Simulator(fabriclab.simulation.Scenario, QueueingObserver)}), {@link #evaluate} computes: packets captured, export rate
 * (captured / run time), export bandwidth (captured x (record + metadata) x 8 / run time), the share
 * of the tail packets (delay at or above the given tail quantile) that were captured, and the share
 * of all queueing delay carried by captured packets.
 *
 * @param thresholdPs capture threshold [ps], positive
 * @param recordBytes bytes exported per packet, 1..9216
 * @param metadataBytes metadata bytes per export, not negative
 */
public record HighDelayCapture(long thresholdPs, int recordBytes, int metadataBytes) {
    /** Validates. */
    public HighDelayCapture {
        Parameters.atLeast("thresholdPs", thresholdPs, 1L);
        Parameters.inRange("recordBytes", recordBytes, 1, 9216);
        Parameters.atLeast("metadataBytes", metadataBytes, 0);
    }

    /** 004's record of 150 bytes plus 21 bytes of metadata at {@code thresholdPs}. */
    public static HighDelayCapture of(long thresholdPs) {
        return new HighDelayCapture(thresholdPs, 150, 21);
    }

    /**
     * What one threshold exports.
     *
     * @param thresholdPs the threshold [ps]
     * @param packets packets observed
     * @param captured packets captured
     * @param exportRatePps captured packets per second of run time
     * @param exportBitsPerSecond export bandwidth [bit/s]
     * @param tailQuantile the quantile that defines the tail (e.g. 0.99)
     * @param tailCoverage share of tail packets captured (1 when the threshold is below the tail's delay)
     * @param delayShare share of the total queueing delay carried by captured packets
     */
    public record Result(long thresholdPs, long packets, long captured, double exportRatePps, double exportBitsPerSecond,
            double tailQuantile, double tailCoverage, double delayShare) {
        /** Validates: counts &gt;= 0 and captured &lt;= packets, rates finite and &gt;= 0, shares in [0, 1]. */
        public Result {
            Parameters.atLeast("thresholdPs", thresholdPs, 0);
            Parameters.atLeast("packets", packets, 0);
            Parameters.inRange("captured", captured, 0, packets);
            Parameters.nonNegative("exportRatePps", exportRatePps);
            Parameters.nonNegative("exportBitsPerSecond", exportBitsPerSecond);
            Parameters.inRange("tailQuantile", tailQuantile, 0, 1);
            Parameters.inRange("tailCoverage", tailCoverage, 0, 1);
            Parameters.inRange("delayShare", delayShare, 0, 1);
        }
    }

    /**
     * Evaluates this threshold on {@code delaysPs} observed over {@code durationPs}.
     *
     * @param delaysPs per-packet queueing delays [ps], at least one, none negative
     * @param durationPs run time [ps], positive
     * @param tailQuantile in (0, 1): the tail is every packet whose delay is at least the delay at this quantile
     */
    public Result evaluate(long[] delaysPs, long durationPs, double tailQuantile) {
        Parameters.notNull("delaysPs", delaysPs);
        Parameters.atLeast("delaysPs.length", delaysPs.length, 1);
        Parameters.atLeast("durationPs", durationPs, 1L);
        Parameters.inRange("tailQuantile", tailQuantile, 0.0, 1.0);
        if (tailQuantile <= 0 || tailQuantile >= 1) {
            throw new IllegalArgumentException("tailQuantile must be in (0, 1), got " + tailQuantile);
        }
        long[] sorted = delaysPs.clone();
        Arrays.sort(sorted);
        if (sorted[0] < 0) {
            throw new IllegalArgumentException("delaysPs must not be negative, got " + sorted[0]);
        }
        int n = sorted.length;
        long tailStart = sorted[Math.min(n - 1, (int) Math.floor(tailQuantile * n))];
        long captured = 0;
        long tail = 0;
        long tailCaptured = 0;
        double total = 0;
        double capturedDelay = 0;
        for (long d : sorted) {
            boolean c = d > thresholdPs;
            boolean t = d >= tailStart;
            captured += c ? 1 : 0;
            tail += t ? 1 : 0;
            tailCaptured += c && t ? 1 : 0;
            total += d;
            capturedDelay += c ? d : 0;
        }
        double seconds = durationPs / 1e12;
        return new Result(thresholdPs, n, captured, captured / seconds,
                captured * (double) (recordBytes + metadataBytes) * 8 / seconds, tailQuantile,
                tail == 0 ? 1 : tailCaptured / (double) tail, total == 0 ? 0 : capturedDelay / total);
    }

    /**
     * Collects the queueing delay of every data packet leaving a switch queue (attach with
     * {@code new Simulator(scenario, recorder)}). Memory: 8 bytes per packet-hop observed.
     */
    public static final class Recorder implements QueueingObserver {
        private long[] delays = new long[1024];
        private int size;

        @Override
        public void dequeued(int switchIndex, int port, int flow, boolean data, int wireBytes, long queueingDelayPs,
                long timePs) {
            if (!data) {
                return;
            }
            if (size == delays.length) {
                delays = Arrays.copyOf(delays, 2 * size);
            }
            delays[size++] = queueingDelayPs;
        }

        /** The delays recorded so far [ps]. */
        public long[] delaysPs() {
            return Arrays.copyOf(delays, size);
        }
    }
}
