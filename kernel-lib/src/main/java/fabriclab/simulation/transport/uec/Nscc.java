package fabriclab.simulation.transport.uec;

import fabriclab.Parameters;
import fabriclab.fabric.Time;

/**
 * The settings of NSCC, the Ultra Ethernet sender's network-signal congestion control (UEC specification 1.0, section
 * 3.6.13; its configuration parameters section 3.6.13.3), and the constants a run derives from them ({@link #derive}).
 *
 * <p>The sender keeps a window {@code cwnd} of wire bytes in flight. Each acknowledgement carries the ECN mark of the
 * packet it acknowledges and gives a delay sample (its RTT less the base RTT); the four cases of section 3.6.13: no mark
 * and delay under the target, proportional increase (with fast increase when the delay stays near zero for a window);
 * no mark and delay at or above the target, fair increase; a mark and delay under the target, no change; a mark and
 * delay at or above the target, multiplicative decrease by {@code gamma (avgDelay - target) / avgDelay}, at most halving,
 * once per base RTT. Increases accumulate and are applied each base RTT or every 8 packets acknowledged. Quick adapt:
 * once per {@code baseRtt + target}, after a trimmed packet's NACK or a delay above 4 x target, if the bytes acknowledged
 * in that period are under {@code maxWnd >> quickAdaptGate}, the window becomes those bytes.
 *
 * <p>Defaults ({@link #defaults()}), each from the reference simulator ultraethernet/uet-htsim
 * ({@code htsim/sim/uec.cpp}, {@code UecSrc::initNsccParams} and {@code initNscc}) and matching section 3.6.13.3:
 * target queueing delay 0.75 x the fabric's base RTT with trimming, 1 x without; gamma 0.8; delay EWMA gain 0.0125;
 * quick-adapt gate 3; maximum window 1.5 BDP. Scaled to the fabric from a reference of 100 Gb/s and 12 us
 * ({@code scaling_a} = BDP / 150 KB, {@code scaling_b} = target / 12 us): alpha = 4 MSS a b / target, fair increase
 * 5 MSS a per acknowledged byte (before the division by cwnd), eta 0.15 MSS a per base RTT, fast increase 0.25 a per
 * acknowledged byte, below a delay of 1 us.
 *
 * @param targetQueueDelayPs the target queueing delay, ps; 0 for the default (0.75 or 1 x the base RTT), at most 1 s
 * @param gamma the multiplicative decrease's gain, in (0, 1]
 * @param delayEwmaGain the gain of the average delay's EWMA, in (0, 1]
 * @param quickAdapt whether quick adapt runs
 * @param quickAdaptGate quick adapt acts only when the bytes acknowledged in its period are under maxWnd / 2^gate, 0..16
 * @param maxWindowBdp the largest window, in BDPs (line rate x base RTT), in [0.1, 100]
 */
public record Nscc(long targetQueueDelayPs, double gamma, double delayEwmaGain, boolean quickAdapt, int quickAdaptGate,
        double maxWindowBdp) {
    /** The reference fabric the scaling factors are written for: 100 Gb/s (uec.cpp, {@code _reference_network_linkspeed}). */
    public static final double REFERENCE_RATE_BPS = 100e9;
    /** The reference RTT of the scaling factors: 12 us (uec.cpp, {@code _reference_network_rtt}). */
    public static final long REFERENCE_RTT_PS = 12 * Time.US;
    /** Fast increase applies below this delay (uec.cpp, {@code fast_increase}: 1 us; the specification's "delay ~= 0"). */
    public static final long FAST_INCREASE_DELAY_PS = Time.US;
    /** The largest multiplicative cut keeps this fraction of the window (uec.cpp, {@code multiplicative_decrease}: 0.5). */
    public static final double MAX_MD_JUMP = 0.5;

    /** Validates. */
    public Nscc {
        Parameters.inRange("targetQueueDelayPs", targetQueueDelayPs, 0L, Time.S);
        Parameters.inRange("gamma", gamma, Double.MIN_VALUE, 1.0);
        Parameters.inRange("delayEwmaGain", delayEwmaGain, Double.MIN_VALUE, 1.0);
        Parameters.inRange("quickAdaptGate", quickAdaptGate, 0, 16);
        Parameters.inRange("maxWindowBdp", maxWindowBdp, 0.1, 100.0);
    }

    /** The reference simulator's settings: target derived, gamma 0.8, EWMA 0.0125, quick adapt on with gate 3, 1.5 BDP. */
    public static Nscc defaults() {
        return new Nscc(0, 0.8, 0.0125, true, 3, 1.5);
    }

    /** A copy with target queueing delay {@code ps} (0: derived). */
    public Nscc withTargetQueueDelayPs(long ps) {
        return new Nscc(ps, gamma, delayEwmaGain, quickAdapt, quickAdaptGate, maxWindowBdp);
    }

    /** A copy with quick adapt on or off. */
    public Nscc withQuickAdapt(boolean on) {
        return new Nscc(targetQueueDelayPs, gamma, delayEwmaGain, on, quickAdaptGate, maxWindowBdp);
    }

    /**
     * The constants of one run (section 3.6.13.3's formulas, uec.cpp's defaults).
     *
     * @param lineRateBitsPerSecond the sender's line rate, bit/s, positive
     * @param baseRttPs the fabric's base RTT (config_base_rtt), ps, 1 ps to 1 s
     * @param mssBytes payload of a full packet, bytes, positive
     * @param packetWireBytes wire bytes of a full packet (the window's MTU), at least {@code mssBytes}
     * @param trimming whether the switches trim (the default target is then 0.75 x the base RTT)
     */
    public Constants derive(long lineRateBitsPerSecond, long baseRttPs, int mssBytes, int packetWireBytes, boolean trimming) {
        Parameters.atLeast("lineRateBitsPerSecond", lineRateBitsPerSecond, 1L);
        Parameters.inRange("baseRttPs", baseRttPs, 1L, Time.S);
        Parameters.atLeast("mssBytes", mssBytes, 1);
        Parameters.atLeast("packetWireBytes", packetWireBytes, mssBytes);
        long target = targetQueueDelayPs > 0 ? targetQueueDelayPs
                : Math.max(1, Math.round((trimming ? 0.75 : 1.0) * baseRttPs));
        double bdp = lineRateBitsPerSecond / 8.0 * baseRttPs / 1e12;
        double referenceBdp = REFERENCE_RATE_BPS / 8.0 * REFERENCE_RTT_PS / 1e12;
        double a = bdp / referenceBdp;
        double b = (double) target / REFERENCE_RTT_PS;
        return new Constants(baseRttPs, target, lineRateBitsPerSecond, maxWindowBdp * bdp, packetWireBytes,
                4.0 * mssBytes * a * b / target, 5.0 * mssBytes * a, 0.15 * mssBytes * a, 0.25 * a,
                4 * target, baseRttPs, 8L * packetWireBytes, this);
    }

    /**
     * What a run's senders use (all bytes are wire bytes of the window; times in ps).
     *
     * @param baseRttPs the fabric's base RTT (the adjustment period, and every sender's initial base RTT)
     * @param targetPs the target queueing delay
     * @param lineRateBitsPerSecond the line rate the maximum window is computed from
     * @param maxWindowBytes the largest (and initial) window, {@code maxWindowBdp} x BDP
     * @param minWindowBytes the least window, one full packet
     * @param alphaPerPs proportional increase per acknowledged byte per ps under the target (before the division by cwnd)
     * @param fairIncrease fair increase per acknowledged byte (before the division by cwnd)
     * @param eta the additive increase applied once per adjustment period, bytes
     * @param fastIncreaseScale fast increase per acknowledged byte
     * @param quickAdaptThresholdPs a delay above this triggers quick adapt (4 x target)
     * @param adjustPeriodPs accumulated increases are applied at least this often
     * @param adjustBytes or whenever more than this is acknowledged since the last application (8 packets)
     * @param nscc the settings these are derived from
     */
    public record Constants(long baseRttPs, long targetPs, long lineRateBitsPerSecond, double maxWindowBytes,
            double minWindowBytes, double alphaPerPs, double fairIncrease, double eta, double fastIncreaseScale,
            long quickAdaptThresholdPs, long adjustPeriodPs, long adjustBytes, Nscc nscc) {
        /** Validates: times and sizes positive, the rates and increases finite and positive, the settings present. */
        public Constants {
            Parameters.atLeast("baseRttPs", baseRttPs, 1L);
            Parameters.atLeast("targetPs", targetPs, 1L);
            Parameters.atLeast("lineRateBitsPerSecond", lineRateBitsPerSecond, 1L);
            Parameters.positive("maxWindowBytes", maxWindowBytes);
            Parameters.positive("minWindowBytes", minWindowBytes);
            Parameters.positive("alphaPerPs", alphaPerPs);
            Parameters.positive("fairIncrease", fairIncrease);
            Parameters.positive("eta", eta);
            Parameters.positive("fastIncreaseScale", fastIncreaseScale);
            Parameters.atLeast("quickAdaptThresholdPs", quickAdaptThresholdPs, 1L);
            Parameters.atLeast("adjustPeriodPs", adjustPeriodPs, 1L);
            Parameters.atLeast("adjustBytes", adjustBytes, 1L);
            Parameters.notNull("nscc", nscc);
        }

        /** The largest window for base RTT {@code rttPs}: {@code maxWindowBdp} x line rate x RTT, bytes. */
        public double maxWindowFor(long rttPs) {
            return nscc.maxWindowBdp() * lineRateBitsPerSecond / 8.0 * rttPs / 1e12;
        }
    }
}
