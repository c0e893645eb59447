package fabriclab.container;

import fabriclab.Parameters;
import java.util.SplittableRandom;

/**
 * Bandwidth efficiency and added latency of the spraying alternatives compared in seed 002 section
 * 3.1.1 (figures 4 to 6): cell cutting, packet aggregation and packet containers, with per-packet
 * spraying as the reference (efficiency 1, nothing added).
 *
 * <ul>
 *   <li>Cells (figure 4): a packet of P bytes becomes n = ceil(P/c) cells of c payload + h header
 *       bytes, the last one padded: efficiency P / (n (c + h)); added latency = the extra
 *       serialisation 8 (n (c + h) - P) / R plus, when cells of one packet take different paths with
 *       delay jitter sigma, the reassembly wait for the last cell sigma e_n (e_n: expected maximum of
 *       n standard normals).</li>
 *   <li>Aggregation (figure 5): packets of one destination arrive as a Poisson stream of rate
 *       lambda = load R / (8 E[P]) and are packed, overflow rule, into frames padded to A payload
 *       bytes plus an H-byte header; a frame leaves when the next packet does not fit (or no packet
 *       could fit). Efficiency E[fill] / (A + H), exact from {@link ContainerAssembly#fillDistribution}.
 *       Added latency = waiting for the frame to close (plus header and padding serialisation). For a
 *       fixed size P, n = floor(A/P) packets per frame and the k-th packet waits n - k interarrival
 *       times: E[W] = (n - 1) / (2 lambda), Var(W) = (n - 1)(n + 7) / (12 lambda^2). Other size laws
 *       and timeouts: {@link #aggregationMonteCarlo}.</li>
 *   <li>Containers (figure 6): logical, no padding, no waiting; each packet carries a container tag of
 *       t bytes: efficiency E[P] / (E[P] + t), added latency 8 t / R.</li>
 * </ul>
 * Header, tag and cell sizes are not given in the papers; {@link #defaults()} states the assumed ones.
 *
 * @param cellPayloadBytes c, bytes per cell payload
 * @param cellHeaderBytes h, bytes per cell header
 * @param framePayloadBytes A, aggregated frame payload, bytes
 * @param frameHeaderBytes H, aggregated frame header, bytes
 * @param containerTagBytes t, container tag per packet, bytes
 * @param linkRateBitsPerSecond R, bit/s
 * @param pathDelaySigma jitter of the path delay seen by cells (for reassembly), seconds, >= 0
 */
public record OverheadModel(int cellPayloadBytes, int cellHeaderBytes, int framePayloadBytes, int frameHeaderBytes,
                            int containerTagBytes, double linkRateBitsPerSecond, double pathDelaySigma) {

    /**
     * Cost of one alternative.
     *
     * @param granularity the unit
     * @param efficiency packet bytes / wire bytes, in (0, 1]
     * @param meanAddedLatency mean added latency per packet, seconds
     * @param stdAddedLatency standard deviation of the added latency (jitter), seconds
     */
    public record Cost(Granularity granularity, double efficiency, double meanAddedLatency, double stdAddedLatency) {
        /** Validates: granularity not null, efficiency in (0, 1], latencies finite and &gt;= 0. */
        public Cost {
            Parameters.notNull("granularity", granularity);
            Parameters.inHalfOpenRange("efficiency", efficiency, 0, 1);
            Parameters.nonNegative("meanAddedLatency", meanAddedLatency);
            Parameters.nonNegative("stdAddedLatency", stdAddedLatency);
        }
    }

    /** Validates. */
    public OverheadModel {
        Parameters.atLeast("cellPayloadBytes", cellPayloadBytes, 1);
        Parameters.atLeast("cellHeaderBytes", cellHeaderBytes, 0);
        Parameters.atLeast("framePayloadBytes", framePayloadBytes, 1);
        Parameters.atLeast("frameHeaderBytes", frameHeaderBytes, 0);
        Parameters.atLeast("containerTagBytes", containerTagBytes, 0);
        Parameters.positive("linkRateBitsPerSecond", linkRateBitsPerSecond);
        Parameters.nonNegative("pathDelaySigma", pathDelaySigma);
    }

    /**
     * Assumed defaults (not from the papers): 256 B cells with a 16 B header (typical of cell
     * fabrics), 16 KB aggregated frames (the 000 container length) with a 64 B header, a 4 B
     * container tag, 100 Gb/s links (000 section 3), no path jitter.
     */
    public static OverheadModel defaults() {
        return new OverheadModel(256, 16, 16 * 1024, 64, 4, 100e9, 0);
    }

    /** The same model with another link rate, bit/s. */
    public OverheadModel withLinkRate(double bitsPerSecond) {
        return new OverheadModel(cellPayloadBytes, cellHeaderBytes, framePayloadBytes, frameHeaderBytes, containerTagBytes, bitsPerSecond, pathDelaySigma);
    }

    /** The same model with another path jitter, seconds. */
    public OverheadModel withPathDelaySigma(double sigma) {
        return new OverheadModel(cellPayloadBytes, cellHeaderBytes, framePayloadBytes, frameHeaderBytes, containerTagBytes, linkRateBitsPerSecond, sigma);
    }

    /** Per-packet spraying: efficiency 1, no added latency. */
    public Cost packet(PacketSizes sizes) {
        Parameters.notNull("sizes", sizes);
        return new Cost(Granularity.PACKET, 1, 0, 0);
    }

    /** Cell cutting (exact over the size law). */
    public Cost cells(PacketSizes sizes) {
        Parameters.notNull("sizes", sizes);
        int c = cellPayloadBytes;
        double u = c + cellHeaderBytes;
        double wire = sizes.expect(p -> Math.ceil((double) p / c) * u);
        int maxCells = (sizes.max() + c - 1) / c;
        double[] eMax = new double[maxCells + 1];
        for (int n = 1; n <= maxCells; n++) {
            eMax[n] = pathDelaySigma == 0 ? 0 : pathDelaySigma * LoadVariance.expectedMaxOfStandardNormals(n);
        }
        java.util.function.IntToDoubleFunction lat = p -> {
            int n = (p + c - 1) / c;
            return 8 * (n * u - p) / linkRateBitsPerSecond + eMax[n];
        };
        double m1 = sizes.expect(lat);
        double m2 = sizes.expect(p -> lat.applyAsDouble(p) * lat.applyAsDouble(p));
        return new Cost(Granularity.CELL, sizes.mean() / wire, m1, Math.sqrt(Math.max(0, m2 - m1 * m1)));
    }

    /** Containers: a tag per packet, no waiting. */
    public Cost containers(PacketSizes sizes) {
        Parameters.notNull("sizes", sizes);
        double lat = 8.0 * containerTagBytes / linkRateBitsPerSecond;
        return new Cost(Granularity.CONTAINER, sizes.mean() / (sizes.mean() + containerTagBytes), lat, 0);
    }

    /**
     * Aggregation without timeout. Efficiency is exact for any size law; the waiting-time moments are
     * the closed form for a fixed packet size, so a law with more than one size is rejected here (use
     * {@link #aggregationMonteCarlo}).
     *
     * <p>The moments scale as 1 / lambda, so a vanishing load gives a correspondingly long (finite) wait:
     * at load 1e-300 a frame of n &gt; 1 packets waits about 1e300 times longer than at load 1. A load
     * so small that the mean or standard deviation of the wait exceeds the largest double is rejected
     * with the smallest load allowed for this frame.
     *
     * @param load share of the link rate offered to this destination's aggregator, in (0, 1]
     */
    public Cost aggregation(PacketSizes sizes, double load) {
        Parameters.notNull("sizes", sizes);
        Parameters.inHalfOpenRange("load", load, 0, 1);
        if (sizes.min() != sizes.max()) {
            throw new IllegalArgumentException("sizes must be a fixed size for the closed-form aggregation wait, got "
                    + sizes.label() + "; use aggregationMonteCarlo");
        }
        checkFrame(sizes);
        int p = sizes.min();
        int n = framePayloadBytes / p;
        double lambda = load * linkRateBitsPerSecond / (8.0 * p);
        double pad = 8.0 * (framePayloadBytes - n * p + frameHeaderBytes) / linkRateBitsPerSecond;
        // n = 1: the frame is full with its first packet and leaves at once (no wait, whatever lambda)
        double mean = n == 1 ? pad : (n - 1) / (2 * lambda) + pad;
        double var = n == 1 ? 0 : (n - 1.0) * (n + 7.0) / (12 * lambda * lambda);
        double std = Math.sqrt(var);
        if (!Double.isFinite(var) && Double.isFinite(lambda)) { // lambda^2 underflowed: the same value as sqrt(...) / lambda
            std = Math.sqrt((n - 1.0) * (n + 7.0) / 12) / lambda;
        }
        if (!Double.isFinite(mean) || !Double.isFinite(std)) {
            double scale = Math.max((n - 1) / 2.0, Math.sqrt((n - 1.0) * (n + 7.0) / 12)); // mean, std = scale / lambda
            double minLoad = scale * 8.0 * p / linkRateBitsPerSecond / Double.MAX_VALUE;
            throw new IllegalArgumentException("load must be in [" + minLoad + ", 1] for " + n + " packets of " + p
                    + " B per frame (below it the wait for the frame to fill, about (n - 1) / (2 lambda), exceeds the largest double), got "
                    + load);
        }
        return new Cost(Granularity.FRAME, (double) n * p / (framePayloadBytes + frameHeaderBytes), mean, std);
    }

    private void checkFrame(PacketSizes sizes) {
        if (framePayloadBytes < sizes.max()) {
            throw new IllegalArgumentException("framePayloadBytes must be >= the largest packet (" + sizes.max() + " B), got " + framePayloadBytes);
        }
    }

    /**
     * Aggregation by simulation: Poisson arrivals of rate load R / (8 E[P]), sizes from the law, a
     * frame closes when the arriving packet does not fit (the packet opens the next frame), when the
     * free space is below the smallest packet, or {@code timeoutSeconds} after its first packet
     * arrived (0 = no timeout). Efficiency = packet bytes / (frames (A + H)).
     *
     * @param packets packets simulated, at least 1,000
     */
    public Cost aggregationMonteCarlo(PacketSizes sizes, double load, double timeoutSeconds, int packets, long seed) {
        Parameters.notNull("sizes", sizes);
        Parameters.inHalfOpenRange("load", load, 0, 1);
        Parameters.nonNegative("timeoutSeconds", timeoutSeconds);
        Parameters.inRange("packets", packets, 1000, 50_000_000);
        checkFrame(sizes);
        SplittableRandom rng = new SplittableRandom(seed);
        double lambda = load * linkRateBitsPerSecond / (8.0 * sizes.mean());
        double timeout = timeoutSeconds == 0 ? Double.POSITIVE_INFINITY : timeoutSeconds;
        int minP = sizes.min();
        double[] arrival = new double[packets];
        int[] frameOf = new int[packets];
        double[] close = new double[packets + 1];
        int[] fillOf = new int[packets + 1];
        double t = 0;
        int frame = -1;
        int fill = 0;
        double opened = 0;
        long bytes = 0;
        for (int i = 0; i < packets; i++) {
            t += rng.nextExponential() / lambda;
            int p = sizes.sample(rng);
            bytes += p;
            arrival[i] = t;
            if (frame >= 0 && close[frame] < 0) {
                if (t >= opened + timeout) {
                    close[frame] = opened + timeout;
                } else if (fill + p > framePayloadBytes) {
                    close[frame] = t;
                }
            }
            if (frame < 0 || close[frame] >= 0) {
                frame++;
                close[frame] = -1;
                fill = 0;
                opened = t;
            }
            fill += p;
            fillOf[frame] = fill;
            frameOf[i] = frame;
            if (framePayloadBytes - fill < minP) {
                close[frame] = t;
            }
        }
        if (close[frame] < 0) {
            close[frame] = Math.min(t, opened + timeout); // flush the last frame at the end
        }
        int frames = frame + 1;
        double s = 0, s2 = 0;
        for (int i = 0; i < packets; i++) {
            double pad = 8.0 * (framePayloadBytes - fillOf[frameOf[i]] + frameHeaderBytes) / linkRateBitsPerSecond;
            double w = close[frameOf[i]] - arrival[i] + pad;
            s += w;
            s2 += w * w;
        }
        double mean = s / packets;
        double eff = bytes / ((double) frames * (framePayloadBytes + frameHeaderBytes));
        return new Cost(Granularity.FRAME, eff, mean, Math.sqrt(Math.max(0, s2 / packets - mean * mean)));
    }
}
