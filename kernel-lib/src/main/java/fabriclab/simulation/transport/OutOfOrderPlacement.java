package fabriclab.simulation.transport;

import fabriclab.Parameters;
import fabriclab.fabric.Time;

/**
 * Out-of-order data placement at a RoCE responder, as NVIDIA's NICs (ConnectX-5 and later, RC and XRC queue pairs)
 * offer it for fabrics whose adaptive routing sends the packets of one queue pair over several paths: "data will be
 * placed into host memory in an out-of-order manner when out-of-order messages are received" instead of being dropped
 * and retransmitted (NVIDIA MLNX_OFED and DOCA documentation, "Out-of-Order (OOO) Data Placement").
 *
 * <p>The responder accepts any packet whose sequence number lies in {@code [ePSN, ePSN + windowPackets)} and has not
 * arrived before, places it at once (the application has its bytes) and records it; the ePSN advances over every
 * packet placed without a gap below it, and the cumulative ACK carries it, by the connection's ACK rules, so a
 * completion is reported in order. A packet at or beyond {@code ePSN + windowPackets} is discarded and answered with a
 * sequence-error NAK (once per ePSN value), as the in-order responder answers every packet above the ePSN. A gap is
 * read as a loss only when it persists: when the responder first holds a packet above the ePSN, it checks again
 * {@code reorderTimeoutPs} later; if the ePSN has not moved it sends one sequence-error NAK carrying it (the requester
 * then goes back to it, and the packets above it that were already placed come back as duplicates); if the ePSN moved
 * and a gap remains, the check repeats {@code reorderTimeoutPs} later for the new ePSN. Reordering shorter than that
 * causes no NAK, no retransmission and no wait beyond the last packet's own arrival.
 *
 * <p>NVIDIA publishes neither the bitmap's size nor a reorder timer; the defaults ({@link #defaults()}: 1,024 packets,
 * 100 us) are this project's settings, axes of any experiment that depends on them. A reorder timeout shorter than
 * the skew between the paths' queueing delays makes NAKs out of mere reordering; the window bounds the reordering
 * the responder absorbs (1,024 packets of 1 KB are 82 us at 100 Gb/s).
 *
 * @param windowPackets packets the responder accepts from the ePSN on, at least 1
 * @param reorderTimeoutPs how long a gap may persist before it is NAKed [ps], at least 1
 */
public record OutOfOrderPlacement(int windowPackets, long reorderTimeoutPs) {
    /** The largest window: 2^23 packets, half the 24-bit PSN space (the most a requester may have outstanding). */
    public static final int MAX_WINDOW_PACKETS = 1 << 23;

    /** Validates. */
    public OutOfOrderPlacement {
        Parameters.inRange("windowPackets", windowPackets, 1, MAX_WINDOW_PACKETS);
        Parameters.atLeast("reorderTimeoutPs", reorderTimeoutPs, 1L);
    }

    /** A window of 1,024 packets and a reorder timeout of 100 us (this project's settings). */
    public static OutOfOrderPlacement defaults() {
        return new OutOfOrderPlacement(1024, 100 * Time.US);
    }
}
