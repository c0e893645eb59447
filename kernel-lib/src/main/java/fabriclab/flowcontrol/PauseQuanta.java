package fabriclab.flowcontrol;

import fabriclab.Parameters;

/**
 * PAUSE / PFC timers (003 section 4.1, 802.3 annex 31B and 802.1Qbb): a pause time is a count of
 * pause_quanta, one quantum being 512 bit times at the link rate, count in 0..65535.
 */
public final class PauseQuanta {
    /** Bit times in one pause quantum. */
    public static final int BITS_PER_QUANTUM = 512;
    /** Largest pause time a frame can carry, in quanta. */
    public static final int MAX_QUANTA = 65535;

    private PauseQuanta() {
    }

    /** Duration of {@code quanta} pause quanta at {@code linkRateBps}: quanta * 512 / rate [s]. */
    public static double seconds(int quanta, double linkRateBps) {
        Parameters.inRange("quanta", quanta, 0, MAX_QUANTA);
        Parameters.positive("linkRateBps", linkRateBps);
        return (double) quanta * BITS_PER_QUANTUM / linkRateBps;
    }

    /** Smallest quanta count whose pause lasts at least {@code seconds} (fails above 65535). */
    public static int quantaFor(double seconds, double linkRateBps) {
        Parameters.nonNegative("seconds", seconds);
        Parameters.positive("linkRateBps", linkRateBps);
        double q = Math.ceil(seconds * linkRateBps / BITS_PER_QUANTUM - 1e-9);
        if (q > MAX_QUANTA) {
            throw new IllegalArgumentException("seconds " + seconds + " needs " + q + " quanta at "
                    + linkRateBps + " bit/s, more than the maximum " + MAX_QUANTA);
        }
        return (int) Math.max(0, q);
    }
}
