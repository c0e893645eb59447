package fabriclab.simulation;

import fabriclab.Parameters;

/**
 * Priority-based flow control (IEEE 802.1Qbb, the lossless mode of RoCE fabrics) as configured in
 * every switch of a run. Sources: seed 003_0201cd25db5b9052.txt (lossless network white paper:
 * PAUSE per 802.3 annex 31B with pause time in quanta of 512 bit times, 0..65535; per-priority
 * XOFF/XON thresholds) and seed 000_5f64c80d7629dca1.txt section 1 (PFC's head-of-line blocking
 * and congestion spreading, the RoCE side of the GSE comparison). Deadlock detection and recovery
 * (also in 003) are not modelled.
 *
 * <p>Each switch counts, per ingress port and priority, the wire bytes it has admitted from that
 * port and not yet transmitted. When the counter reaches {@code xoffBytes} the switch sends a
 * 64-byte PAUSE frame for that priority back to the upstream node, asking for
 * {@code pauseQuanta} quanta of 512 bit times of silence; while the counter has not fallen below
 * {@code xonBytes} the pause is refreshed every half pause time; when it falls below
 * {@code xonBytes} the switch sends a zero-quanta PAUSE (XON) and the upstream resumes at once.
 * {@code headroomBytes} is the buffer reserved above XOFF for what is already on the way when the
 * PAUSE lands; {@link #headroomRule} sizes it.
 *
 * @param xoffBytes ingress counter (wire bytes) at which a PAUSE is sent, at least 1
 * @param xonBytes ingress counter below which the XON is sent, 0 to {@code xoffBytes}
 * @param headroomBytes buffer reserved above XOFF per ingress port and priority, not negative
 * @param pauseQuanta pause time of one PAUSE frame in quanta of 512 bit times, 1 to 65535
 */
public record Pfc(long xoffBytes, long xonBytes, long headroomBytes, int pauseQuanta) {
    /** Size of a PAUSE (MAC control) frame on the wire, bytes. */
    public static final int PAUSE_FRAME_BYTES = 64;
    /** One pause quantum, in bit times. */
    public static final int QUANTUM_BITS = 512;

    /** Validates: XON must not exceed XOFF. */
    public Pfc {
        Parameters.atLeast("xoffBytes", xoffBytes, 1L);
        Parameters.atLeast("xonBytes", xonBytes, 0L);
        Parameters.atLeast("headroomBytes", headroomBytes, 0L);
        Parameters.inRange("pauseQuanta", pauseQuanta, 1, 65535);
        if (xonBytes > xoffBytes) {
            throw new IllegalArgumentException("xonBytes must be at most xoffBytes = " + xoffBytes + ", got " + xonBytes);
        }
    }

    /** Duration of {@code quanta} pause quanta on a link of {@code rateBps}, ps (rounded up). */
    public static long quantaPs(long quanta, long rateBps) {
        Parameters.atLeast("quanta", quanta, 0L);
        Parameters.atLeast("rateBps", rateBps, 1L);
        java.math.BigInteger num = java.math.BigInteger.valueOf(quanta).multiply(java.math.BigInteger.valueOf(QUANTUM_BITS))
                .multiply(java.math.BigInteger.valueOf(Time.S)).add(java.math.BigInteger.valueOf(rateBps - 1));
        return num.divide(java.math.BigInteger.valueOf(rateBps)).longValueExact();
    }

    /**
     * Headroom that provably keeps an ingress counter at or below {@code xoff + headroom} on a link
     * of {@code rateBps} and one-way propagation {@code propagationPs}, for packets of at most
     * {@code packetWireBytes} on the wire. The counter can overshoot XOFF by one packet when it
     * crosses; the PAUSE then needs {@code ser(64 B) + prop} to land upstream; everything the
     * upstream finished sending up to {@code prop} before the crossing, plus the packet it may
     * start just before the PAUSE lands, still arrives. Packets sent back to back end every
     * {@code ser(P)}, so at most {@code floor((2 prop + ser(64)) / ser(P)) + 2} of them arrive
     * after the crossing:
     * <pre>headroom = P (3 + floor((2 prop + ser(64 B)) / ser(P)))</pre>
     * (the conventional rule "2 x bandwidth-delay product + 2 MTU", rounded up to whole packets).
     */
    public static long headroomRule(long rateBps, long propagationPs, int packetWireBytes) {
        Parameters.atLeast("rateBps", rateBps, 1L);
        Parameters.atLeast("propagationPs", propagationPs, 0L);
        Parameters.atLeast("packetWireBytes", packetWireBytes, 1);
        long serP = Time.serializationPs(packetWireBytes, rateBps);
        long window = 2 * propagationPs + Time.serializationPs(PAUSE_FRAME_BYTES, rateBps);
        return (long) packetWireBytes * (3 + window / serP);
    }
}
