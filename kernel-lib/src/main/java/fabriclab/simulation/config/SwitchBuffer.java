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
 * <p>Where the switch decides to ECN-mark a data packet is {@link MarkingPoint}: at enqueue, on the queue the packet
 * finds (the default; the congestion point of Zhu et al.'s DCQCN model and of ns-3's RED queue disc), or at dequeue,
 * on the queue it leaves behind as it starts its transmission (the switch MMU of HPCC's RDMA model for ns-3,
 * {@code SwitchMmu::ShouldSendCN} called from {@code SwitchNode::SwitchNotifyDequeue}). Marking at dequeue tells the
 * receiver, and through it the sender, of a queue at once; a packet marked at enqueue carries the news only after it
 * has waited through that queue (8 us behind 100 KB at 100 Gb/s).
 *
 * @param sharedBytes total buffer in bytes, at least one MTU (checked by the simulator)
 * @param perQueueLimitBytes per (port, priority) cap in bytes, at least one MTU
 * @param ecnMarking ECN marking applied to every egress queue of the switch ({@link EcnMarking#OFF} for none)
 * @param ecnReferenceRateBitsPerSecond 0: {@code ecnMarking}'s thresholds at every port; otherwise the link rate
 *        [bit/s] they are written for, and a port of rate r marks with Kmin and Kmax scaled by r / this rate (the
 *        probability curve keeps its Pmax), as switches are configured with a marking profile per port speed
 *        (HPCC's simulator, for example, maps 100 Gb/s to Kmin 400 KB, Kmax 1600 KB and 400 Gb/s to four times
 *        that); in [0, 10^13]
 * @param ecnMarkingPoint where a data packet's mark is decided: {@link MarkingPoint#ENQUEUE} on the queue it finds,
 *        {@link MarkingPoint#DEQUEUE} on the queue it leaves behind
 */
public record SwitchBuffer(long sharedBytes, long perQueueLimitBytes, EcnMarking ecnMarking,
        long ecnReferenceRateBitsPerSecond, MarkingPoint ecnMarkingPoint) {
    /** Where a switch decides whether to ECN-mark a data packet. */
    public enum MarkingPoint {
        /** As the packet joins its (port, priority) queue, on the bytes it finds there. */
        ENQUEUE,
        /**
         * As the packet leaves its (port, priority) queue to start its transmission, on the bytes left behind (itself
         * not counted), as HPCC's RDMA model for ns-3 marks.
         */
        DEQUEUE
    }

    /** Validates the sizes. */
    public SwitchBuffer {
        Parameters.atLeast("sharedBytes", sharedBytes, 1L);
        Parameters.atLeast("perQueueLimitBytes", perQueueLimitBytes, 1L);
        Parameters.notNull("ecnMarking", ecnMarking);
        Parameters.inRange("ecnReferenceRateBitsPerSecond", ecnReferenceRateBitsPerSecond, 0L, 10_000_000_000_000L);
        Parameters.notNull("ecnMarkingPoint", ecnMarkingPoint);
    }

    /** Marking at enqueue. */
    public SwitchBuffer(long sharedBytes, long perQueueLimitBytes, EcnMarking ecnMarking, long ecnReferenceRateBitsPerSecond) {
        this(sharedBytes, perQueueLimitBytes, ecnMarking, ecnReferenceRateBitsPerSecond, MarkingPoint.ENQUEUE);
    }

    /** The same thresholds at every port ({@code ecnReferenceRateBitsPerSecond} 0), marking at enqueue. */
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
        return new SwitchBuffer(sharedBytes, bytes, ecnMarking, ecnReferenceRateBitsPerSecond, ecnMarkingPoint);
    }

    /** A copy that marks with {@code marking} at every egress queue. */
    public SwitchBuffer withEcnMarking(EcnMarking marking) {
        return new SwitchBuffer(sharedBytes, perQueueLimitBytes, marking, ecnReferenceRateBitsPerSecond, ecnMarkingPoint);
    }

    /**
     * A copy whose marking thresholds are written for ports of {@code bitsPerSecond} and scale with each port's
     * rate (0: the same at every port).
     */
    public SwitchBuffer withEcnScaledFromRate(long bitsPerSecond) {
        return new SwitchBuffer(sharedBytes, perQueueLimitBytes, ecnMarking, bitsPerSecond, ecnMarkingPoint);
    }

    /** A copy that decides ECN marks at {@code point} (enqueue or dequeue). */
    public SwitchBuffer withEcnMarkingPoint(MarkingPoint point) {
        return new SwitchBuffer(sharedBytes, perQueueLimitBytes, ecnMarking, ecnReferenceRateBitsPerSecond,
                Parameters.notNull("point", point));
    }
}
