package fabriclab.congestion;

import fabriclab.fabric.EcnMarking;
import fabriclab.Parameters;

/**
 * Parameters of the DCQCN reaction point (sender NIC) and congestion point (switch marking) in the
 * fluid model of Zhu et al., "Congestion Control for Large-Scale RDMA Deployments" (SIGCOMM 2015,
 * section 5, equations 1-9), as analysed per flow by Zhu, Ghobadi, Misra and Padhye, "ECN or
 * Delay: Lessons Learnt from Analysis of DCQCN and TIMELY" (CoNEXT 2016). The algorithm itself is
 * described in 003 (white paper, DCQCN section) and 000 section 1.2.2.
 *
 * <p>Units: seconds, bytes, bits per second. The model works in packets internally (see
 * {@link Bottleneck#packetBytes()}).
 *
 * @param marking WRED/ECN marking curve of the switch (Kmin, Kmax, Pmax)
 * @param g alpha gain, in (0, 1]
 * @param tauS CNP interval tau (at most one CNP per flow per tau) [s], {@code > 0}
 * @param tauPrimeS alpha update period tau' [s], {@code > 0}
 * @param timerS rate-increase timer T [s], {@code > 0}
 * @param byteCounterBytes rate-increase byte counter B [bytes], {@code > 0}; {@link #NO_BYTE_COUNTER}: none, the
 *        increase stages counted by the timer alone
 * @param fastRecoverySteps F, number of fast-recovery steps before additive increase, {@code >= 1}
 * @param rateAiBitsPerSecond additive-increase step R_AI [bit/s], {@code > 0}
 * @param feedbackDelayS control-loop delay tau* (marking to sender reaction) [s], {@code > 0}
 * @param minRateBitsPerSecond floor of the current and target rate [bit/s], {@code >= 0}
 */
public record DcqcnParameters(EcnMarking marking, double g, double tauS, double tauPrimeS, double timerS,
                              double byteCounterBytes, int fastRecoverySteps, double rateAiBitsPerSecond,
                              double feedbackDelayS, double minRateBitsPerSecond) {
    /**
     * {@code byteCounterBytes} of a reaction point with no byte counter, as HPCC's ns-3 DCQCN runs: the rate-increase
     * events come from the timer alone, and the k-th event after a cut (k from 0) is fast recovery while k &lt; F,
     * additive increase (R_T += R_AI) at k = F and hyper increase (R_T += R_HAI, a fixed step) after; each then sets
     * R_C = (R_T + R_C) / 2.
     */
    public static final double NO_BYTE_COUNTER = Double.MAX_VALUE;

    /** Validates every field (message names it). */
    public DcqcnParameters {
        Parameters.notNull("marking", marking);
        Parameters.inHalfOpenRange("g", g, 0.0, 1.0);
        Parameters.positive("tauS", tauS);
        Parameters.positive("tauPrimeS", tauPrimeS);
        Parameters.positive("timerS", timerS);
        Parameters.positive("byteCounterBytes", byteCounterBytes);
        Parameters.atLeast("fastRecoverySteps", fastRecoverySteps, 1);
        Parameters.positive("rateAiBitsPerSecond", rateAiBitsPerSecond);
        Parameters.positive("feedbackDelayS", feedbackDelayS);
        Parameters.nonNegative("minRateBitsPerSecond", minRateBitsPerSecond);
    }

    /**
     * The defaults of Zhu et al. 2015 (section 5, the parameter values used in their fluid model
     * and testbed): Kmin 5 KB, Kmax 200 KB, Pmax 1%, g 1/256, tau 50 us, tau' 55 us, T 55 us,
     * B 10 MB, F 5, R_AI 40 Mb/s. The feedback delay tau* = 4 us and the 1 Mb/s rate floor are this
     * project's choices (the paper's examples use a few microseconds of loop delay).
     *
     * <p>Defaults beside the cited paper:
     * <ul>
     *   <li>Rate floor: 1 Mb/s here (minRateBitsPerSecond), none in the paper's fluid model (rates may
     *   fall towards 0). This library's choice, like a NIC's minimum rate; it changes results only
     *   where flows cut their rates below 1 Mb/s (thousands of flows on one port, or long deep
     *   congestion), where it keeps a sum of N x 1 Mb/s flowing. Pass 0 to the constructor (or
     *   {@link #withMinRate}) for the paper's model.</li>
     *   <li>Feedback delay tau* = 4 us: this project's choice (the paper's examples use a few
     *   microseconds of loop delay); {@link #withFeedbackDelay}.</li>
     * </ul>
     * The fluid model's own defaults ({@link DcqcnFluidModel}): every flow starts at its start time
     * at line rate with R_C = R_T and alpha = 1 and an empty queue, as in the paper, and its delayed
     * terms see rate 0 before t = 0 ({@link DcqcnFluidModel.History#SILENT}), whereas the authors'
     * code holds line rate before t = 0 ({@link DcqcnFluidModel.History#CONSTANT}); per-class
     * R_C, R_T and alpha, the initial queue, the history and the adaptive solver are options of
     * {@link DcqcnFluidModel} ({@code withClassStart}, {@code withInitialQueue}, {@code withHistory},
     * {@code simulate(duration, DdeSolver.adaptive(...), ...)}).
     */
    public static DcqcnParameters zhu2015() {
        return new DcqcnParameters(EcnMarking.dcqcnDefaults(), 1.0 / 256, 50e-6, 55e-6, 55e-6, 10e6, 5, 40e6,
                4e-6, 1e6);
    }

    /**
     * A second preset closer to the congestion-control parameters exposed by later Mellanox/NVIDIA
     * ConnectX NICs (mlx5 driver names rpg_time_reset, rpg_byte_reset, rpg_threshold, rpg_ai_rate,
     * min_time_between_cnps): T 300 us, B 32,767 bytes, F 1, R_AI 5 Mb/s, tau 4 us; marking, g and
     * tau' as in {@link #zhu2015()}. These values are as commonly reported for the mlx5 driver
     * (drivers/infiniband/hw/mlx5/cong.c) and were not re-checked against a specific firmware
     * release; treat the preset as illustrative.
     */
    public static DcqcnParameters nicDefaults() {
        return new DcqcnParameters(EcnMarking.dcqcnDefaults(), 1.0 / 256, 4e-6, 55e-6, 300e-6, 32_767, 1, 5e6,
                4e-6, 1e6);
    }

    /**
     * The reaction-point defaults NVIDIA documents for ConnectX-4 and later firmware (DOCA SDK
     * documentation 3.4, "DCQCN CC Parameters",
     * https://networking-docs.nvidia.com/doca/archive/3-4-0/dcqcn-cc-parameters): alpha update
     * {@code dce_tcp_g} = 1019 of 1024, i.e. alpha = (1019/1024) alpha + 5/1024 on a CNP period, so
     * g = 5/1024; alpha update period {@code dce_tcp_rtt} = 1 us (tau'); initial alpha 1023/1024;
     * rate reductions at most every {@code rate_reduce_monitor_period} = 4 us (our tau). The
     * rate-increase values are those of {@link #nicDefaults()} (T = rpg_time_reset 300 us, B =
     * rpg_byte_reset 32,767 bytes, F = rpg_threshold 1, R_AI = rpg_ai_rate 5 Mb/s), which the excerpt
     * we could read did not show; marking (a switch setting) as in {@link #zhu2015()}. The main
     * difference from Zhu et al.: alpha decays with time constant 1 us / g = 205 us instead of
     * 55 us x 256 = 14 ms, so a flow's cuts after a burst shrink quickly, and recovery waits 300 us
     * per step instead of 55 us.
     */
    public static DcqcnParameters nvidiaConnectX() {
        return new DcqcnParameters(EcnMarking.dcqcnDefaults(), 5.0 / 1024, 4e-6, 1e-6, 300e-6, 32_767, 1, 5e6,
                4e-6, 1e6);
    }

    /**
     * The DCQCN settings of HPCC's ns-3 evaluation at 100 Gb/s host links (Li et al., "HPCC: High Precision Congestion
     * Control", SIGCOMM 2019, section 5.1; the values as the authors' simulation/run.py writes them for
     * {@code --bw 100}, repository alibaba-edu/High-Precision-Congestion-Control, commit 9f4be2a9): marking Kmin
     * 400 KB, Kmax 1600 KB, Pmax 0.2 at 100 Gb/s (four times the thresholds at 400 Gb/s: use
     * the simulator's {@code SwitchBuffer.withEcnScaledFromRate}), g = 1/256, alpha updated every
     * 1 us (tau'), rate decreases at most every 4 us (tau), rate-increase timer T = 300 us and no byte counter
     * ({@link #NO_BYTE_COUNTER}), F = 1, R_AI = 20 Mb/s, a 1 Gb/s floor. Its R_HAI of 200 Mb/s is a setting of
     * the transport ({@code RoceTransport.withHyperIncrease}). HPCC's reaction point checks for a CNP every 4 us
     * and cuts then; ours cuts on each CNP, and the receiver sends at most one per tau = 4 us. The feedback delay
     * (4 us) is used only by the fluid model.
     */
    public static DcqcnParameters hpccSimulation() {
        return new DcqcnParameters(new EcnMarking(400_000, 1_600_000, 0.2), 1.0 / 256, 4e-6, 1e-6, 300e-6,
                NO_BYTE_COUNTER, 1, 20e6, 4e-6, 1e9);
    }

    /** A copy with another marking curve. */
    public DcqcnParameters withMarking(EcnMarking m) {
        return new DcqcnParameters(m, g, tauS, tauPrimeS, timerS, byteCounterBytes, fastRecoverySteps, rateAiBitsPerSecond,
                feedbackDelayS, minRateBitsPerSecond);
    }

    /** A copy with another feedback delay tau* [s]. */
    public DcqcnParameters withFeedbackDelay(double seconds) {
        return new DcqcnParameters(marking, g, tauS, tauPrimeS, timerS, byteCounterBytes, fastRecoverySteps,
                rateAiBitsPerSecond, seconds, minRateBitsPerSecond);
    }

    /** A copy with another byte counter B [bytes]. */
    public DcqcnParameters withByteCounter(double bytes) {
        return new DcqcnParameters(marking, g, tauS, tauPrimeS, timerS, bytes, fastRecoverySteps, rateAiBitsPerSecond,
                feedbackDelayS, minRateBitsPerSecond);
    }

    /** A copy with another rate floor [bit/s]. */
    public DcqcnParameters withMinRate(double bps) {
        return new DcqcnParameters(marking, g, tauS, tauPrimeS, timerS, byteCounterBytes, fastRecoverySteps,
                rateAiBitsPerSecond, feedbackDelayS, bps);
    }
}
