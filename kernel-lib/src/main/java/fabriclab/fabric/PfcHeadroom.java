package fabriclab.fabric;

import fabriclab.Parameters;

/**
 * Headroom an ingress priority queue must keep above XOFF so that no byte is lost while the pause
 * takes effect (003 section 4.1; delay budget of IEEE 802.1Qbb annex N, reasoned term by term):
 *
 * <pre>
 * headroom = 2 * rate * L / v / 8            cable round trip: bytes on the wire towards us, plus
 *                                            bytes sent while the PFC frame travels back
 *          + MTU_receiver                    our PFC frame waits behind a frame already leaving us
 *          + PFC frame                       serialization of the PFC frame itself
 *          + MTU_sender                      the sender finishes the frame it is transmitting
 *          + rate * (2 * interfaceDelay + responseDelay) / 8
 *                                            PHY/MAC delays at both ends, sender's reaction time
 * </pre>
 *
 * @param linkRateBitsPerSecond           link rate [bit/s]
 * @param cableLengthM          cable length [m]
 * @param propagationSPerM      propagation delay [s/m] (about 5e-9 in fibre or copper)
 * @param mtuSenderBytes        largest frame of the upstream sender [bytes]
 * @param mtuReceiverBytes      largest frame of this (pausing) port [bytes]
 * @param pfcFrameBytes         PFC frame on the wire [bytes] (64 + 20 preamble/IFG = 84 typically)
 * @param interfaceDelayS       PHY+MAC delay of one interface, counted at both ends [s]
 * @param responseDelayS        sender's higher-layer reaction time to the PFC frame [s]
 */
public record PfcHeadroom(double linkRateBitsPerSecond, double cableLengthM, double propagationSPerM, double mtuSenderBytes,
                          double mtuReceiverBytes, double pfcFrameBytes, double interfaceDelayS,
                          double responseDelayS) {
    /** Validates every field (no negative delays, positive rate and frame sizes). */
    public PfcHeadroom {
        Parameters.positive("linkRateBitsPerSecond", linkRateBitsPerSecond);
        Parameters.nonNegative("cableLengthM", cableLengthM);
        Parameters.nonNegative("propagationSPerM", propagationSPerM);
        Parameters.positive("mtuSenderBytes", mtuSenderBytes);
        Parameters.positive("mtuReceiverBytes", mtuReceiverBytes);
        Parameters.positive("pfcFrameBytes", pfcFrameBytes);
        Parameters.nonNegative("interfaceDelayS", interfaceDelayS);
        Parameters.nonNegative("responseDelayS", responseDelayS);
    }

    /**
     * A typical data-centre port: 5 ns/m, MTU 1500 B on both ends (plus 38 B of Ethernet overhead =
     * 1538 B on the wire), 84 B PFC frame, interface delay 0, response delay of 3840 bit times
     * (the 802.1Qbb higher-layer budget, 7.5 quanta) at the given rate.
     */
    public static PfcHeadroom typical(double linkRateBitsPerSecond, double cableLengthM) {
        Parameters.positive("linkRateBitsPerSecond", linkRateBitsPerSecond);
        return new PfcHeadroom(linkRateBitsPerSecond, cableLengthM, 5e-9, 1538, 1538, 84, 0.0, 3840.0 / linkRateBitsPerSecond);
    }

    /** One-way cable delay [s]. */
    public double cableDelayS() {
        return cableLengthM * propagationSPerM;
    }

    /** Time from the XOFF crossing until the last byte sent before the pause arrives [s]. */
    public double pauseResponseTimeS() {
        return 8.0 * headroomBytes() / linkRateBitsPerSecond;
    }

    /** Required headroom [bytes], the sum in the class comment. */
    public double headroomBytes() {
        double cable = 2.0 * linkRateBitsPerSecond * cableDelayS() / 8.0;
        double delays = linkRateBitsPerSecond * (2.0 * interfaceDelayS + responseDelayS) / 8.0;
        return cable + mtuReceiverBytes + pfcFrameBytes + mtuSenderBytes + delays;
    }

    /**
     * The same budget read at packet level, as the packet simulator runs PFC: the PAUSE travels out
     * of band (no receiver frame ahead of it), interface and response delays are zero, and a switch
     * admits whole packets of {@code packetWireBytes}. The ingress counter can overshoot XOFF by the
     * packet that crosses it; the PAUSE then needs {@code ser(64 B) + prop} to land upstream; every
     * packet the upstream finished sending up to {@code prop} before the crossing, plus the one it
     * may start just before the PAUSE lands, still arrives. Packets sent back to back end every
     * {@code ser(P)}, so at most {@code floor((2 prop + ser(64 B)) / ser(P)) + 2} of them arrive after
     * the crossing, and
     * <pre>headroom = P (3 + floor((2 prop + ser(64 B)) / ser(P)))</pre>
     * keeps the counter at or below {@code XOFF + headroom} (the continuous budget
     * {@code 2 x bandwidth-delay product + 2 MTU + PAUSE frame}, rounded to whole packets, plus the
     * crossing packet).
     *
     * @param rateBitsPerSecond link rate [bit/s], positive
     * @param propagationPs one-way propagation delay [ps], 0 to 1 s (200,000 km of fibre; keeps the
     *        window and the headroom within a long)
     * @param packetWireBytes largest packet on the wire [bytes], positive
     * @return headroom [bytes]
     */
    public static long packetLevelBytes(long rateBitsPerSecond, long propagationPs, int packetWireBytes) {
        Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
        Parameters.inRange("propagationPs", propagationPs, 0L, Time.S);
        Parameters.inRange("packetWireBytes", packetWireBytes, 1, 1 << 20); // Time.serializationPs's limit
        long serP = Time.serializationPs(packetWireBytes, rateBitsPerSecond);
        long window = 2 * propagationPs + Time.serializationPs(Pfc.PAUSE_FRAME_BYTES, rateBitsPerSecond);
        return (long) packetWireBytes * (3 + window / serP);
    }
}
