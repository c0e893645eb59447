package fabriclab.congestion;

import fabriclab.Parameters;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Pfc;

/**
 * The single bottleneck port of the fluid models: its line rate, its buffer, optional PFC, the base
 * (propagation plus serialisation) round-trip time seen by a probe, and the packet size used to
 * convert the papers' per-packet quantities.
 *
 * <p>Units: bits per second for rates, bytes for buffers, seconds for times. Assumption: every
 * sender NIC has the same line rate as the bottleneck (true for the 001 incast, all 100G).
 *
 * @param lineRateBitsPerSecond bottleneck capacity C [bit/s], {@code > 0}
 * @param bufferBytes buffer available to the queue [bytes], {@code > 0}; above it packets are
 *                    dropped (never reached when PFC's XOFF is below it)
 * @param pfc PFC of the bottleneck queue, or null for PFC off: the senders pause once
 *            {@code pfc.pausesAt(queue)} (queue &ge; XOFF) and resume once {@code pfc.resumesAt(queue)}
 *            (queue &lt; XON); the fluid models apply both instantly, so the headroom stays unused
 * @param baseRttS base RTT of a probe or small flow through an empty queue [s], {@code >= 0}
 * @param packetBytes packet (MTU) size [bytes], {@code > 0}
 */
public record Bottleneck(double lineRateBitsPerSecond, double bufferBytes, Pfc pfc, double baseRttS,
                         double packetBytes) {
    /** Validates the fields; XOFF plus the PFC headroom must fit the buffer. */
    public Bottleneck {
        Parameters.positive("lineRateBitsPerSecond", lineRateBitsPerSecond);
        Parameters.positive("bufferBytes", bufferBytes);
        Parameters.nonNegative("baseRttS", baseRttS);
        Parameters.positive("packetBytes", packetBytes);
        if (pfc != null && (double) pfc.xoffBytes() + pfc.headroomBytes() > bufferBytes) {
            throw new IllegalArgumentException("pfc.xoffBytes + pfc.headroomBytes must be <= bufferBytes (" + bufferBytes
                    + "), got " + pfc.xoffBytes() + " + " + pfc.headroomBytes());
        }
    }

    /**
     * A port of {@code lineRateBitsPerSecond} with a 32 MB buffer, PFC off, 5 us base RTT and 1000-byte
     * packets (the packet size of the DCQCN fluid model's examples; a choice, stated).
     *
     * <p>Defaults beside the cited papers (Zhu et al., SIGCOMM 2015, section 5, and the fluid model of
     * Zhu, Ghobadi, Misra and Padhye, CoNEXT 2016):
     * <ul>
     *   <li>Buffer 32 MB: the papers' fluid models have no buffer limit (the queue grows without
     *   bound); 32 MB is this library's choice (a shared-buffer switch), and above it the fluid is
     *   counted as dropped. It changes results wherever the queue would pass it: with 64 flows
     *   starting at line rate at 100 Gb/s ({@link DcqcnParameters#zhu2015()}, 2 ms) the peak queue is
     *   capped at 32 MB where an unbounded buffer peaks at about 77 MB (a comparison with the
     *   authors' code differs by -43% on the peak in its 64-flow case); at 40 Gb/s the same 64
     *   flows peak below 32 MB and are unaffected. Use {@link #withBuffer(double)} with a large value
     *   to compare with the papers' model.</li>
     *   <li>Packets of 1000 bytes: the unit in which the model's per-packet terms (byte counter,
     *   marking per packet) are converted; a choice, stated.</li>
     *   <li>Base RTT 5 us and PFC off: not part of the DCQCN dynamics (the base RTT only enters the
     *   probe-latency metrics); PFC is off as in the papers.</li>
     * </ul>
     */
    public static Bottleneck of(double lineRateBitsPerSecond) {
        return new Bottleneck(lineRateBitsPerSecond, 32e6, null, 5e-6, 1000);
    }

    /**
     * The receiver's port of an incast: line rate {@code incast.receiverRateBitsPerSecond()}, otherwise the
     * defaults of {@link #of(double)} (32 MB buffer, PFC off, 5 us base RTT, 1000-byte packets).
     */
    public static Bottleneck of(Incast incast) {
        Parameters.notNull("incast", incast);
        return of((double) incast.receiverRateBitsPerSecond());
    }

    /** A copy with PFC (null for off). */
    public Bottleneck withPfc(Pfc pfc) {
        return new Bottleneck(lineRateBitsPerSecond, bufferBytes, pfc, baseRttS, packetBytes);
    }

    /** A copy with another buffer size [bytes]. */
    public Bottleneck withBuffer(double bytes) {
        return new Bottleneck(lineRateBitsPerSecond, bytes, pfc, baseRttS, packetBytes);
    }

    /** A copy with another base RTT [s]. */
    public Bottleneck withBaseRtt(double seconds) {
        return new Bottleneck(lineRateBitsPerSecond, bufferBytes, pfc, seconds, packetBytes);
    }

    /** Line rate in packets per second. */
    public double lineRatePps() {
        return lineRateBitsPerSecond / (8 * packetBytes);
    }
}
