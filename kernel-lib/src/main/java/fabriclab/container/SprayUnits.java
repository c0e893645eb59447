package fabriclab.container;

import fabriclab.Parameters;

/**
 * The spraying units of one traffic aggregate, described by their count and the first two moments
 * of their wire size; this is all the exact load-variance formulas of {@link LoadVariance} need
 * (units are treated as i.i.d., see each factory for how exact that is).
 *
 * @param granularity unit kind
 * @param count number of units K (expected number where it is random)
 * @param meanBytes E[U], wire bytes per unit
 * @param secondMomentBytes E[U^2], bytes^2
 * @param maxBytes largest possible unit, bytes (for bounds)
 */
public record SprayUnits(Granularity granularity, double count, double meanBytes, double secondMomentBytes, double maxBytes) {
    /** Validates the moments (E[U^2] >= E[U]^2 up to rounding). */
    public SprayUnits {
        Parameters.notNull("granularity", granularity);
        Parameters.positive("count", count);
        Parameters.positive("meanBytes", meanBytes);
        Parameters.positive("secondMomentBytes", secondMomentBytes);
        Parameters.positive("maxBytes", maxBytes);
        if (maxBytes < meanBytes * (1 - 1e-12)) {
            throw new IllegalArgumentException("maxBytes must be >= meanBytes = " + meanBytes + " (no mean exceeds the"
                    + " largest value), got " + maxBytes);
        }
        if (secondMomentBytes < meanBytes * meanBytes * (1 - 1e-12)) {
            throw new IllegalArgumentException("secondMomentBytes must be >= meanBytes^2, got " + secondMomentBytes);
        }
    }

    /** Var(U), bytes^2. */
    public double varianceBytes() {
        return Math.max(0, secondMomentBytes - meanBytes * meanBytes);
    }

    /** Expected total wire bytes K E[U]. */
    public double totalBytes() {
        return count * meanBytes;
    }

    /** {@code flows} flows of {@code packetsPerFlow} i.i.d. packets each, one unit per flow (exact). */
    public static SprayUnits flows(PacketSizes sizes, int flows, int packetsPerFlow) {
        Parameters.notNull("sizes", sizes);
        Parameters.atLeast("flows", flows, 1);
        Parameters.atLeast("packetsPerFlow", packetsPerFlow, 1);
        double m = packetsPerFlow * sizes.mean();
        double v = packetsPerFlow * sizes.variance();
        return new SprayUnits(Granularity.FLOW, flows, m, v + m * m, (double) packetsPerFlow * sizes.max());
    }

    /** {@code packets} i.i.d. packets, one unit per packet (exact). */
    public static SprayUnits packets(PacketSizes sizes, long packets) {
        Parameters.notNull("sizes", sizes);
        Parameters.atLeast("packets", packets, 1L);
        return new SprayUnits(Granularity.PACKET, packets, sizes.mean(), sizes.secondMoment(), sizes.max());
    }

    /**
     * Cells: each packet of P bytes becomes ceil(P / payload) cells of (payload + header) wire bytes
     * (last cell padded, 002 figure 4). Units are identical; the count is its expectation
     * {@code packets * E[ceil(P/payload)]}.
     */
    public static SprayUnits cells(PacketSizes sizes, long packets, int cellPayloadBytes, int cellHeaderBytes) {
        Parameters.notNull("sizes", sizes);
        Parameters.atLeast("packets", packets, 1L);
        Parameters.inRange("cellPayloadBytes", cellPayloadBytes, 1, 1 << 20);
        Parameters.inRange("cellHeaderBytes", cellHeaderBytes, 0, 1 << 20);
        double cellsPerPacket = sizes.expect(p -> Math.ceil((double) p / cellPayloadBytes));
        double u = cellPayloadBytes + cellHeaderBytes;
        return new SprayUnits(Granularity.CELL, packets * cellsPerPacket, u, u * u, u);
    }

    /**
     * Aggregated frames of {@code framePayloadBytes} (padded to that size) plus a shared header, filled
     * by {@link AssemblyRule#OVERFLOW_STARTS_NEXT} (002 figure 5). Units are identical; the count is
     * the long-run {@code packets * E[P] / E[fill]}.
     */
    public static SprayUnits frames(PacketSizes sizes, long packets, int framePayloadBytes, int frameHeaderBytes) {
        Parameters.notNull("sizes", sizes);
        Parameters.atLeast("packets", packets, 1L);
        Parameters.inRange("framePayloadBytes", framePayloadBytes, 1, 1 << 24);
        Parameters.inRange("frameHeaderBytes", frameHeaderBytes, 0, 1 << 20);
        ContainerFill fill = ContainerAssembly.fillDistribution(AssemblyRule.OVERFLOW_STARTS_NEXT, sizes, framePayloadBytes);
        double u = framePayloadBytes + frameHeaderBytes;
        return new SprayUnits(Granularity.FRAME, packets * sizes.mean() / fill.mean(), u, u * u, u);
    }

    /**
     * Packet containers of length C under the given assembly rule (002 figure 6); unit bytes follow
     * {@link ContainerAssembly#fillDistribution} and the count is the long-run
     * {@code packets * E[P] / E[B]}. Container tags (a few bytes per packet) are not counted in the
     * load. Consecutive containers are weakly correlated; the i.i.d. treatment neglects that.
     */
    public static SprayUnits containers(PacketSizes sizes, long packets, AssemblyRule rule, int containerLength) {
        Parameters.notNull("sizes", sizes);
        Parameters.atLeast("packets", packets, 1L);
        ContainerFill fill = ContainerAssembly.fillDistribution(rule, sizes, containerLength);
        return new SprayUnits(Granularity.CONTAINER, packets * sizes.mean() / fill.mean(), fill.mean(), fill.secondMoment(), fill.maxBytes());
    }
}
