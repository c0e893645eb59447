package fabriclab.collectives;

import fabriclab.Parameters;

/**
 * The bandwidth lower bound on a collective's completion time on a non-blocking fabric.
 *
 * <p>With p ranks, a buffer of S bytes per rank and a NIC of B bit/s per rank, each rank must send
 * (and receive) at least
 * <ul>
 *   <li>AlltoAll: (p - 1)/p &middot; S bytes (it keeps its own 1/p), and</li>
 *   <li>ring AllReduce: 2 (p - 1)/p &middot; S bytes (p - 1 reduce-scatter steps and p - 1
 *       all-gather steps of S/p bytes each),</li>
 * </ul>
 * so the job completion time is at least bytes &middot; 8 / B. Latency (alpha) terms, protocol
 * headers and congestion are ignored: this is the ideal that a perfect fabric approaches for large
 * buffers, the reference against which the papers' JCT of RoCE and GSE (000 figures 11 and 12) can
 * be read.
 *
 * @param ranks number of ranks p in the job (>= 2)
 * @param nicGbps NIC line rate per rank, Gb/s (> 0)
 */
public record BandwidthBound(int ranks, double nicGbps) {
    /** The largest buffer the collective models take, bytes (1e18, an exabyte: sizes beyond overflow the time). */
    public static final double MAX_BYTES = 1e18;

    /** Validates the parameters. */
    public BandwidthBound {
        Parameters.atLeast("ranks", ranks, 2);
        Parameters.positive("nicGbps", nicGbps);
    }

    /** Bytes each rank sends in the collective for a buffer of {@code bufferBytes} per rank. */
    public double bytesSentPerRank(Collective collective, double bufferBytes) {
        Parameters.notNull("collective", collective);
        Parameters.inRange("bufferBytes", bufferBytes, 0, MAX_BYTES);
        double share = (ranks - 1) / (double) ranks;
        return switch (collective) {
            case ALL_TO_ALL -> share * bufferBytes;
            case RING_ALL_REDUCE, HALVING_DOUBLING_ALL_REDUCE -> 2 * share * bufferBytes;
        };
    }

    /** Lower bound on the completion time, seconds. */
    public double seconds(Collective collective, double bufferBytes) {
        return bytesSentPerRank(collective, bufferBytes) * 8 / (nicGbps * 1e9);
    }
}
