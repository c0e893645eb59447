package fabriclab.simulation.config;

import fabriclab.fabric.EcnMarking;
import fabriclab.Parameters;

/**
 * A switch's packet buffer: {@code sharedBytes} shared by all its egress queues, with each
 * (egress port, priority) queue also capped at {@code perQueueLimitBytes} (a static threshold;
 * set it to the shared size for a pure shared buffer). A packet that would exceed either limit is
 * tail-dropped. Bytes are charged when a packet is admitted to an egress queue and released when
 * its last bit leaves the port.
 *
 * @param sharedBytes total buffer in bytes, at least one MTU (checked by the simulator)
 * @param perQueueLimitBytes per (port, priority) cap in bytes, at least one MTU
 * @param ecnMarking ECN marking applied to every egress queue of the switch ({@link EcnMarking#OFF} for none)
 */
public record SwitchBuffer(long sharedBytes, long perQueueLimitBytes, EcnMarking ecnMarking) {
    /** Validates the sizes. */
    public SwitchBuffer {
        Parameters.atLeast("sharedBytes", sharedBytes, 1L);
        Parameters.atLeast("perQueueLimitBytes", perQueueLimitBytes, 1L);
        Parameters.notNull("ecnMarking", ecnMarking);
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
        return new SwitchBuffer(sharedBytes, bytes, ecnMarking);
    }

    /** A copy that marks with {@code marking} at every egress queue. */
    public SwitchBuffer withEcnMarking(EcnMarking marking) {
        return new SwitchBuffer(sharedBytes, perQueueLimitBytes, marking);
    }
}
