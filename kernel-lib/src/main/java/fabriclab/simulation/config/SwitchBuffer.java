package fabriclab.simulation.config;

import fabriclab.fabric.EcnMarking;
import fabriclab.Parameters;

/**
 * A switch's packet buffer: {@code sharedBytes} shared by all its egress queues, with each
 * (egress port, priority) queue also capped at {@code perQueueLimitBytes} (a static threshold;
 * set it to the shared size for a pure shared buffer). A packet that would exceed either limit is
 * tail-dropped. Bytes are charged when a packet is admitted to an egress queue and released when
 * its last bit leaves the port. A run gives every switch one buffer ({@link SimulationConfig#buffer()}); its
 * {@link BufferPlan} gives tiers or single switches another and single ports or a tier's ports another queue limit.
 *
 * @param sharedBytes total buffer in bytes, at least one MTU (checked by the simulator)
 * @param perQueueLimitBytes per (port, priority) cap in bytes, at least one MTU
 * @param ecnMarking ECN marking applied to every egress queue of the switch ({@link EcnMarking#OFF} for none)
 * @param ecnReferenceRateBitsPerSecond 0: {@code ecnMarking}'s thresholds at every port; otherwise the link rate
 *        [bit/s] they are written for, and a port of rate r marks with Kmin and Kmax scaled by r / this rate (the
 *        probability curve keeps its Pmax), as switches are configured with a marking profile per port speed
 *        (HPCC's simulator, for example, maps 100 Gb/s to Kmin 400 KB, Kmax 1600 KB and 400 Gb/s to four times
 *        that); in [0, 10^13]
 */
public record SwitchBuffer(long sharedBytes, long perQueueLimitBytes, EcnMarking ecnMarking,
        long ecnReferenceRateBitsPerSecond) {
    /** Validates the sizes. */
    public SwitchBuffer {
        Parameters.atLeast("sharedBytes", sharedBytes, 1L);
        Parameters.atLeast("perQueueLimitBytes", perQueueLimitBytes, 1L);
        Parameters.notNull("ecnMarking", ecnMarking);
        Parameters.inRange("ecnReferenceRateBitsPerSecond", ecnReferenceRateBitsPerSecond, 0L, 10_000_000_000_000L);
    }

    /** The same thresholds at every port ({@code ecnReferenceRateBitsPerSecond} 0). */
    public SwitchBuffer(long sharedBytes, long perQueueLimitBytes, EcnMarking ecnMarking) {
        this(sharedBytes, perQueueLimitBytes, ecnMarking, 0);
    }

    /**
     * A shared buffer with no per-queue cap and no ECN marking.
     *
     * @param bytes total buffer [bytes], at least 1 (the simulator also needs one packet)
     */
    public static SwitchBuffer shared(long bytes) {
        Parameters.atLeast("bytes", bytes, 1L);
        return new SwitchBuffer(bytes, bytes, EcnMarking.OFF);
    }

    /** A copy whose (port, priority) queues are each capped at {@code bytes} (tail drop above). */
    public SwitchBuffer withPerQueueLimit(long bytes) {
        return new SwitchBuffer(sharedBytes, bytes, ecnMarking, ecnReferenceRateBitsPerSecond);
    }

    /** A copy that marks with {@code marking} at every egress queue. */
    public SwitchBuffer withEcnMarking(EcnMarking marking) {
        return new SwitchBuffer(sharedBytes, perQueueLimitBytes, marking, ecnReferenceRateBitsPerSecond);
    }

    /**
     * A copy whose marking thresholds are written for ports of {@code bitsPerSecond} and scale with each port's
     * rate (0: the same at every port).
     */
    public SwitchBuffer withEcnScaledFromRate(long bitsPerSecond) {
        return new SwitchBuffer(sharedBytes, perQueueLimitBytes, ecnMarking, bitsPerSecond);
    }
}
