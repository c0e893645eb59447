package fabriclab.fabric;

import fabriclab.Parameters;
import java.math.BigInteger;

/**
 * Priority-based flow control (IEEE 802.1Qbb, the lossless mode of RoCE fabrics): the one
 * description of PFC that the analytic bounds, the fluid models and the packet simulator share.
 * Sources: seed 003_0201cd25db5b9052.txt (lossless network white paper: PAUSE per 802.3 annex 31B
 * with the pause time in quanta of 512 bit times, 0..65535; per-priority XOFF/XON thresholds and
 * headroom, section 4.1) and seed 000_5f64c80d7629dca1.txt section 1 (PFC's head-of-line blocking
 * and congestion spreading, the RoCE side of the GSE comparison).
 *
 * <p>A switch counts, per ingress port and priority, the bytes it holds that arrived through that
 * port. The one hysteresis convention of the whole library:
 * <ul>
 *   <li>{@link #pausesAt pause} when the counter reaches {@code xoffBytes} (counter &ge; XOFF): a
 *       64-byte PAUSE frame asks the upstream node for {@code pauseQuanta} quanta of silence, and is
 *       refreshed every half pause time while the pause holds;</li>
 *   <li>{@link #resumesAt resume} when the counter falls below {@code xonBytes} (counter &lt; XON):
 *       a zero-quanta PAUSE (XON) lets the upstream send again at once.</li>
 * </ul>
 * The fluid models apply the same two tests to their continuous queue (instantly, or after their
 * feedback delay); the packet simulator applies them to whole packets as they are admitted and
 * leave. {@code headroomBytes} is the buffer reserved above XOFF for what is already on its way
 * when the PAUSE lands; {@link PfcHeadroom} sizes it.
 *
 * @param xoffBytes ingress counter at which a PAUSE is sent [bytes], at least 1
 * @param xonBytes the XON is sent when the counter falls below this [bytes], 1 to {@code xoffBytes}
 * @param headroomBytes buffer reserved above XOFF per ingress port and priority [bytes], not negative
 * @param pauseQuanta pause time of one PAUSE frame in quanta of 512 bit times, 1 to 65535
 */
public record Pfc(long xoffBytes, long xonBytes, long headroomBytes, int pauseQuanta) {
    /** Size of a PAUSE (MAC control) frame on the wire, bytes. */
    public static final int PAUSE_FRAME_BYTES = 64;
    /** One pause quantum, in bit times. */
    public static final int QUANTUM_BITS = 512;
    /** Largest pause time a PAUSE frame can carry, in quanta. */
    public static final int MAX_QUANTA = 65535;

    /** Validates: 1 &le; XON &le; XOFF (an XON of 0 could never be reached by a counter that falls below it). */
    public Pfc {
        Parameters.atLeast("xoffBytes", xoffBytes, 1L);
        Parameters.atLeast("xonBytes", xonBytes, 1L);
        Parameters.atLeast("headroomBytes", headroomBytes, 0L);
        Parameters.inRange("pauseQuanta", pauseQuanta, 1, MAX_QUANTA);
        if (xonBytes > xoffBytes) {
            throw new IllegalArgumentException("xonBytes must be at most xoffBytes = " + xoffBytes + ", got " + xonBytes);
        }
    }

    /**
     * Thresholds without headroom accounting, pausing for the longest time a frame can carry (65535
     * quanta, refreshed while the pause holds): the form the fluid models use.
     *
     * @param xoffBytes pause threshold [bytes], at least 1
     * @param xonBytes resume threshold [bytes], 1 to {@code xoffBytes}
     */
    public static Pfc thresholds(long xoffBytes, long xonBytes) {
        return new Pfc(xoffBytes, xonBytes, 0, MAX_QUANTA);
    }

    /** Whether an ingress counter of {@code counterBytes} asks for a pause: counter &ge; XOFF. */
    public boolean pausesAt(double counterBytes) {
        checkNotNaN(counterBytes);
        return counterBytes >= xoffBytes;
    }

    /** Whether a paused ingress counter of {@code counterBytes} lets the upstream resume: counter &lt; XON. */
    public boolean resumesAt(double counterBytes) {
        checkNotNaN(counterBytes);
        return counterBytes < xonBytes;
    }

    private static void checkNotNaN(double counterBytes) {
        if (Double.isNaN(counterBytes)) {
            throw new IllegalArgumentException("counterBytes must be a number (+-infinity allowed), got NaN");
        }
    }

    /** A copy with another headroom [bytes]. */
    public Pfc withHeadroom(long bytes) {
        return new Pfc(xoffBytes, xonBytes, bytes, pauseQuanta);
    }

    /**
     * Duration of {@code quanta} pause quanta on a link of {@code rateBitsPerSecond}, ps, rounded up:
     * {@code ceil(quanta * 512 * 1e12 / rate)}.
     *
     * @param quanta pause time in quanta, 0 to 65535
     * @param rateBitsPerSecond link rate [bit/s], positive, and at least {@code quanta * 512 * 1e12 / (2^63 - 1)} (the
     *        result fits a long: 4 bit/s for 65535 quanta)
     */
    public static long quantaPs(long quanta, long rateBitsPerSecond) {
        Parameters.inRange("quanta", quanta, 0L, MAX_QUANTA);
        Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
        BigInteger num = BigInteger.valueOf(quanta).multiply(BigInteger.valueOf(QUANTUM_BITS))
                .multiply(BigInteger.valueOf(Time.S)).add(BigInteger.valueOf(rateBitsPerSecond - 1));
        BigInteger ps = num.divide(BigInteger.valueOf(rateBitsPerSecond));
        if (ps.bitLength() > 63) {
            BigInteger bits = BigInteger.valueOf(quanta).multiply(BigInteger.valueOf(QUANTUM_BITS)).multiply(BigInteger.valueOf(Time.S));
            BigInteger min = bits.add(BigInteger.valueOf(Long.MAX_VALUE - 1)).divide(BigInteger.valueOf(Long.MAX_VALUE));
            throw new IllegalArgumentException("rateBitsPerSecond must be at least " + min + " for quanta = " + quanta
                    + " (the pause, quanta x 512 bit / rate, must be at most 2^63 - 1 ps, 106 days), got " + rateBitsPerSecond);
        }
        return ps.longValue();
    }

    /**
     * Duration of {@code quanta} pause quanta at {@code linkRateBitsPerSecond}: {@code quanta * 512 / rate}
     * [s] (802.3 annex 31B).
     *
     * @param quanta pause time in quanta, 0 to 65535
     * @param linkRateBitsPerSecond link rate [bit/s], positive
     */
    public static double quantaSeconds(int quanta, double linkRateBitsPerSecond) {
        Parameters.inRange("quanta", quanta, 0, MAX_QUANTA);
        Parameters.positive("linkRateBitsPerSecond", linkRateBitsPerSecond);
        return (double) quanta * QUANTUM_BITS / linkRateBitsPerSecond;
    }

    /**
     * Smallest quanta count whose pause lasts at least {@code seconds} at {@code linkRateBitsPerSecond}.
     *
     * @throws IllegalArgumentException if more than 65535 quanta would be needed
     */
    public static int quantaFor(double seconds, double linkRateBitsPerSecond) {
        Parameters.nonNegative("seconds", seconds);
        Parameters.positive("linkRateBitsPerSecond", linkRateBitsPerSecond);
        double q = Math.ceil(seconds * linkRateBitsPerSecond / QUANTUM_BITS - 1e-9);
        if (q > MAX_QUANTA) {
            throw new IllegalArgumentException("seconds = " + seconds + " needs " + q + " quanta at " + linkRateBitsPerSecond
                    + " bit/s, more than the maximum " + MAX_QUANTA);
        }
        return (int) Math.max(0, q);
    }
}
