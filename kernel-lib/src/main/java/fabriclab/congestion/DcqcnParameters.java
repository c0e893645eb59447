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
     * The reaction point's rate-increase values of NVIDIA ConnectX NICs with Zhu et al.'s alpha update and CNP
     * interval: T = {@code rpg_time_reset} 300 us, B = {@code rpg_byte_reset} 32,767 bytes, F = {@code rpg_threshold}
     * 1, R_AI = {@code rpg_ai_rate} 5 Mb/s, tau 4 us ({@code rate_reduce_monitor_period}); marking, g = 1/256 and
     * tau' = 55 us as in {@link #zhu2015()}. The NIC values and their sources are listed at {@link #nvidiaConnectX()},
     * which also takes NVIDIA's alpha update.
     */
    public static DcqcnParameters nicDefaults() {
        return new DcqcnParameters(EcnMarking.dcqcnDefaults(), 1.0 / 256, 4e-6, 55e-6, 300e-6, 32_767, 1, 5e6,
                4e-6, 1e6);
    }

    /**
     * The DCQCN defaults of NVIDIA ConnectX-4 and later NICs, each value from a cited source:
     * <ul>
     *   <li>Alpha update: {@code dce_tcp_g} = 1019 (of 1024), so alpha = (1019/1024) alpha + 5/1024 in a period with a
     *       CNP and alpha = (1019/1024) alpha without: g = 5/1024; {@code dce_tcp_rtt} = 1 us, the period tau';
     *       {@code initial_alpha_value} = 1023 (of 1024), the alpha of the first cut (the reaction point here starts
     *       at alpha = 1, 0.1% more) [1, section "Alpha Update"].</li>
     *   <li>Rate decrease: {@code rate_reduce_monitor_period} = 4 us between rate reductions [1, section "Rate
     *       Decrease"; 2, table 2], modelled as tau (one CNP per flow per 4 us, each cutting: the NIC's notification
     *       point sends at most one per {@code min_time_between_cnps}, 4 us by [2, table 2], and its reaction point
     *       cuts at most once per monitor period, so cuts are 4 us apart either way); {@code rpg_gd} = 11 (a cut by
     *       alpha/2), {@code rpg_min_dec_fac} = 50 (no cut below half the rate, which a cut by alpha/2 with alpha at most
     *       1 never reaches), {@code rate_to_set_on_first_cnp} = 0 (the first CNP cuts as the others do) and
     *       {@code rpg_min_rate} = 1 Mb/s, the floor [1, section "Rate Decrease"].</li>
     *   <li>Rate increase: T = {@code rpg_time_reset} = 300 us [2, table 2; 3], B = {@code rpg_byte_reset} = 32,767
     *       bytes [3], F = {@code rpg_threshold} = 1 [3], R_AI = {@code rpg_ai_rate} = 5 Mb/s [2, table 2; 3]; R_HAI
     *       = {@code rpg_hai_rate} = 50 Mb/s [3] is the transport's setting
     *       ({@code RoceTransport.hyperIncreaseBitsPerSecond}, 50 Mb/s by default), and so are
     *       {@code clamp_tgt_rate} = 0 with {@code clamp_tgt_rate_after_time_inc} = 1 [3] (a cut sets the target rate
     *       only after a rate increase: {@code RoceTransport.withClampTargetRate(false)}; the transport's default,
     *       {@code true}, is Zhu et al.'s reaction point).</li>
     * </ul>
     * Marking (a switch setting) as in {@link #zhu2015()}; the feedback delay (4 us) is used only by the fluid model.
     * Sources: [1] NVIDIA DOCA SDK documentation 3.4, "DCQCN CC Parameters",
     * https://networking-docs.nvidia.com/doca/archive/3-4-0/dcqcn-cc-parameters (its predecessor, Mellanox community
     * document DOC-2790 "DCQCN Parameters", gives the same alpha-update values); [2] Peng et al., "Barre: Empowering
     * Simplified and Versatile Programmable Congestion Control in High-Speed AI Clusters", USENIX ATC 2025, table 2
     * ("Default Value" column: {@code min_time_between_cnps} 4 us, {@code rpg_min_dec_fac} 50,
     * {@code rate_reduce_monitor_period} 4 us, {@code rpg_ai_rate} 5 Mb/s, {@code rpg_time_reset} 300 us); [3] the
     * NVConfig (firmware) defaults as {@code mlxconfig -d <device> query} lists them for a ConnectX adapter
     * ({@code RPG_TIME_RESET} 300, {@code RPG_BYTE_RESET} 32767, {@code RPG_THRESHOLD} 1, {@code RPG_AI_RATE} 5,
     * {@code RPG_HAI_RATE} 50, {@code CLAMP_TGT_RATE} False, {@code CLAMP_TGT_RATE_AFTER_TIME_INC} True,
     * {@code DCE_TCP_G} 1019, {@code DCE_TCP_RTT} 1, {@code RATE_REDUCE_MONITOR_PERIOD} 4,
     * {@code INITIAL_ALPHA_VALUE} 1023, {@code RPG_MIN_RATE} 1). The main difference from Zhu et al.: alpha decays with
     * time constant 1 us / g = 205 us instead of 55 us x 256 = 14 ms, so a flow's cuts after a burst shrink quickly,
     * and recovery waits 300 us per step instead of 55 us.
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

    /**
     * The DCQCN reaction point of the RDMA reference simulator (HPCC's ns-3 model as aliyun/ns-3-alibabacloud carries
     * it, branch dev/qp, commit eb45e7f2) as its shipped example configuration sets it,
     * {@code simulation/examples/rdma-test/config_8to1.sh} lines 53-69: g = {@code MellanoxDcqcn::EwmaGain} 1/256
     * (line 68), alpha updated every {@code AlphaResumInterval} 1 us (line 64, tau'), a rate-decrease check every
     * {@code RateDecreaseInterval} 4 us (line 65, tau), rate-increase timer {@code RPTimer} T = 900 us (line 67) and no
     * byte counter ({@link #NO_BYTE_COUNTER}: {@code MellanoxDcqcn} has none), F = {@code FastRecoveryTimes} 1 (line
     * 69), R_AI = {@code RateAI} 5 Mb/s (line 53) and a floor of {@code MinRate} 100 Mb/s (line 55). Its R_HAI,
     * {@code RateHAI} 50 Mb/s (line 54), and {@code ClampTargetRate false} (line 66) are the transport's settings
     * ({@code RoceTransport.withHyperIncrease}, {@code RoceTransport.withClampTargetRate(false)}). The class's own
     * attribute defaults ({@code src/point-to-point/model/rdma-congestion-ops.cc} lines 58-98: g 1/16, T 1500 us,
     * F 5, tau' 55 us) are overridden by that configuration. The reference cuts at its rate-decrease checks, every
     * 4 us when a CNP came since the last (its first CNP keeps the rate, {@code RateOnFirstCnp} 1.0, and cuts at the
     * first check, {@code MellanoxDcqcn::CheckRateDecrease}, rdma-congestion-ops.cc lines 175-196); here each CNP cuts
     * when it arrives and the receiver sends at most one per flow per tau = 4 us. Marking as
     * in {@link #zhu2015()} (a switch setting: the reference's own is {@code KMIN_MAP}/{@code KMAX_MAP}/{@code PMAX_MAP},
     * lines 39-41 of the same file); the feedback delay (4 us) is used only by the fluid model.
     */
    public static DcqcnParameters ns3Reference() {
        return new DcqcnParameters(EcnMarking.dcqcnDefaults(), 1.0 / 256, 4e-6, 1e-6, 900e-6, NO_BYTE_COUNTER, 1, 5e6,
                4e-6, 100e6);
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
