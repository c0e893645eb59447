package fabriclab.simulation.transport.hpcc;

import fabriclab.Parameters;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.TransportRun;

/**
 * HPCC, High Precision Congestion Control (Li et al., SIGCOMM 2019), over RoCE's go-back-N reliable connection
 * ({@link ReliableConnection}): one flow is one queue pair writing its bytes in MTU packets.
 *
 * <ul>
 *   <li><b>Telemetry.</b> Every switch egress port stamps each data packet that starts its transmission with its
 *       egress queue length (wire bytes, every priority, the packet itself not counted), its cumulative transmitted
 *       wire bytes, the time and its line rate (the paper's INT header; the reference
 *       simulator stamps at dequeue, {@code switch-node.cc} of HPCC's ns-3 RDMA model). The receiver's ACK (and NAK)
 *       carries the telemetry of the data packet that arrived last; an ACK per packet by default
 *       ({@code L2_ACK_INTERVAL 1} of HPCC's {@code run.py}).</li>
 *   <li><b>Utilisation</b> (Algorithm 1, MeasureInflight). Per hop j, between the previous record L_j and
 *       the one an ACK brings: txRate_j = delta txBytes / delta ts, u_j = min(qlen_j, qlen'_j) / (B_j T) + txRate_j /
 *       B_j; u = max_j u_j, tau = delta ts of that hop, capped at T; U = (1 - tau/T) U + (tau/T) u. T is the base RTT.
 *       A hop whose port differs from the previous record's, or whose time did not advance, is not measured.</li>
 *   <li><b>Window</b> (Algorithm 1, ComputeWind and NewAck). If U &ge; eta or incStage &ge; maxStage:
 *       W = W_c / (U / eta) + W_AI, incStage = 0; otherwise W = W_c + W_AI, incStage + 1. An ACK acknowledging beyond
 *       lastUpdateSeq makes this the reference update (W_c = W, the stage kept, lastUpdateSeq = the next sequence to
 *       send), once per RTT; any other ACK is a fast reaction (W from W_c, neither kept). W lies in
 *       [R_min T, B_host T]; it starts at B_host T (line rate). The first ACK only stores its telemetry (HPCC's
 *       simulator does the same). U starts at 1 ({@code Hpcc} class of HPCC's ns-3 model).</li>
 *   <li><b>Sending.</b> At most W payload bytes unacknowledged (whole packets; a packet may always start when nothing
 *       is in flight) and packets paced at R = W / T.</li>
 * </ul>
 *
 * @param eta the target utilisation, in (0, 1] (the paper: 95%, as the {@code TargetUtil} default of HPCC's ns-3 model
 *        and {@code run.py}'s {@code --utgt} default; the authors' published FCT figures run 99%, hpcc-group.github.io
 *        {@code results.md}, Settings)
 * @param maxStage additive increases before a multiplicative step, 0..1000 (the paper: 5, as the {@code MiThresh}
 *        default of HPCC's ns-3 model; {@code run.py} runs {@code MI_THRESH} 0, and {@code results.md} says the paper's
 *        simulations ran 0, its 5 a typo)
 * @param additiveIncreaseBitsPerSecond R_AI, bit/s, positive: W_AI = R_AI T (HPCC's simulator keeps the additive step
 *        as a rate, {@code RATE_AI}, 10 x bandwidth / 25 Mb/s in {@code run.py}: 40 Mb/s at 100 Gb/s)
 * @param minRateBitsPerSecond R_min, bit/s, positive: the floor of the rate ({@code MIN_RATE 1000Mb/s} of {@code run.py})
 * @param baseRttPs T, ps, at least 0; 0 for the largest base RTT from the flows' sources to any host by HPCC's rule
 *        (twice each link's delay plus one MTU payload's serialization per link, of a shortest path; one T for every
 *        flow, {@code GLOBAL_T 1})
 * @param fastReaction whether ACKs between reference updates set the window (paper's per-ACK reaction;
 *        {@code FAST_REACT 1})
 * @param rc the reliable connection ({@link ReliableConnection#defaults()} with an ACK per packet)
 * @param controlBytes wire bytes of an ACK or NAK, 64..1500 (default 64, a minimum Ethernet frame)
 * @param ackPriority priority of ACKs and NAKs, 0..7 ({@code ACK_HIGH_PRIO 0} of {@code run.py}: the data's)
 * @param intHeaderBytes wire bytes the telemetry adds to every data packet and to every ACK and NAK, which echo it,
 *        0..1000 ({@link #INT_HEADER_BYTES}; 0 leaves its cost out)
 */
public record HpccTransport(double eta, int maxStage, double additiveIncreaseBitsPerSecond, double minRateBitsPerSecond,
        long baseRttPs, boolean fastReaction, ReliableConnection rc, int controlBytes, int ackPriority, int intHeaderBytes)
        implements TransportModel {

    /** Validates. */
    public HpccTransport {
        Parameters.inRange("eta", eta, Double.MIN_VALUE, 1.0);
        Parameters.inRange("maxStage", maxStage, 0, 1000);
        Parameters.positive("additiveIncreaseBitsPerSecond", additiveIncreaseBitsPerSecond);
        Parameters.finite("additiveIncreaseBitsPerSecond", additiveIncreaseBitsPerSecond);
        Parameters.positive("minRateBitsPerSecond", minRateBitsPerSecond);
        Parameters.finite("minRateBitsPerSecond", minRateBitsPerSecond);
        Parameters.inRange("baseRttPs", baseRttPs, 0L, fabriclab.fabric.Time.S);
        Parameters.notNull("rc", rc);
        Parameters.inRange("controlBytes", controlBytes, 64, 1500);
        Parameters.inRange("ackPriority", ackPriority, 0, 7);
        Parameters.inRange("intHeaderBytes", intHeaderBytes, 0, 1000);
    }

    /**
     * The size of the INT header of HPCC's simulator, bytes: room for 5 hops of 8 bytes (line rate, time, bytes and queue
     * length packed in 64 bits) and a 2-byte hop count ({@code IntHeader} of its ns-3 model, {@code maxHop} 5), carried by
     * every data packet and echoed in the ACK; the cost results.md puts at about 5% of the load.
     */
    public static final int INT_HEADER_BYTES = 5 * 8 + 2;

    /** The paper's eta, 0.95. */
    public static final double PAPER_ETA = 0.95;
    /** The paper's maxStage, 5. */
    public static final int PAPER_MAX_STAGE = 5;
    /** R_AI of HPCC's {@code run.py} at 100 Gb/s hosts (10 x 100 / 25 Mb/s), bit/s. */
    public static final double SIMULATION_RATE_AI = 40e6;
    /** R_min of HPCC's {@code run.py} ({@code MIN_RATE 1000Mb/s}), bit/s. */
    public static final double SIMULATION_MIN_RATE = 1e9;

    /**
     * The paper's settings (eta 0.95, maxStage 5, fast reaction) with the additive step and rate floor of HPCC's
     * simulator ({@link #SIMULATION_RATE_AI}, {@link #SIMULATION_MIN_RATE}), T the fabric's largest base RTT, an ACK
     * per packet on priority 0, the simulator's INT header ({@link #INT_HEADER_BYTES}).
     */
    public static HpccTransport defaults() {
        return new HpccTransport(PAPER_ETA, PAPER_MAX_STAGE, SIMULATION_RATE_AI, SIMULATION_MIN_RATE, 0, true,
                ReliableConnection.defaults().withAckEvery(1), 64, 0, INT_HEADER_BYTES);
    }

    /**
     * The settings of the authors' published FCT figures ({@code results.md}, Settings, dataset
     * {@code hpcc-fct-slowdown-30pct}): {@link #defaults()} with eta 0.99 and maxStage 0.
     */
    public static HpccTransport publishedFigures() {
        return defaults().withTarget(0.99, 0);
    }

    /** A copy with target utilisation {@code eta} and {@code maxStage}. */
    public HpccTransport withTarget(double eta, int maxStage) {
        return new HpccTransport(eta, maxStage, additiveIncreaseBitsPerSecond, minRateBitsPerSecond, baseRttPs, fastReaction,
                rc, controlBytes, ackPriority, intHeaderBytes);
    }

    /** A copy with R_AI {@code bps} (W_AI = R_AI T). */
    public HpccTransport withAdditiveIncrease(double bps) {
        return new HpccTransport(eta, maxStage, bps, minRateBitsPerSecond, baseRttPs, fastReaction, rc, controlBytes,
                ackPriority, intHeaderBytes);
    }

    /** A copy with base RTT T = {@code ps} (0: the fabric's largest). */
    public HpccTransport withBaseRtt(long ps) {
        return new HpccTransport(eta, maxStage, additiveIncreaseBitsPerSecond, minRateBitsPerSecond, ps, fastReaction, rc,
                controlBytes, ackPriority, intHeaderBytes);
    }

    /** A copy with the per-ACK fast reaction on or off. */
    public HpccTransport withFastReaction(boolean on) {
        return new HpccTransport(eta, maxStage, additiveIncreaseBitsPerSecond, minRateBitsPerSecond, baseRttPs, on, rc,
                controlBytes, ackPriority, intHeaderBytes);
    }

    /** A copy with another reliable connection. */
    public HpccTransport withReliableConnection(ReliableConnection c) {
        return new HpccTransport(eta, maxStage, additiveIncreaseBitsPerSecond, minRateBitsPerSecond, baseRttPs, fastReaction,
                c, controlBytes, ackPriority, intHeaderBytes);
    }

    /** A copy whose telemetry adds {@code bytes} to every data packet, ACK and NAK (0: its cost left out). */
    public HpccTransport withIntHeaderBytes(int bytes) {
        return new HpccTransport(eta, maxStage, additiveIncreaseBitsPerSecond, minRateBitsPerSecond, baseRttPs, fastReaction,
                rc, controlBytes, ackPriority, bytes);
    }

    /** Reference window updates (once per RTT, W_c set). */
    public static final Counter UPDATES = new Counter("hpcc.updates", Counter.Unit.EVENTS,
            "reference window updates at the senders (once per RTT)");
    /** Fast reactions (per-ACK window changes between reference updates). */
    public static final Counter FAST_REACTIONS = new Counter("hpcc.fastReactions", Counter.Unit.EVENTS,
            "per-ACK window settings between reference updates");
    /** Window settings that took the multiplicative step (U &ge; eta or incStage &ge; maxStage). */
    public static final Counter DECREASES = new Counter("hpcc.multiplicative", Counter.Unit.EVENTS,
            "window settings by the multiplicative step W_c eta / U");
    /** Telemetry records the switches stamped. */
    public static final Counter INT_RECORDS = new Counter("hpcc.intRecords", Counter.Unit.EVENTS,
            "in-band telemetry records stamped by switch egress ports");

    /**
     * The utilisation of one hop between two of its records (Algorithm 1, MeasureInflight):
     * txRate / B + min(qlen, qlen') / (B T), txRate the bytes sent between the records over their time difference.
     *
     * @param queueBytes qlen of the newer record, bytes, at least 0
     * @param previousQueueBytes qlen' of the older record, bytes, at least 0
     * @param txBytes cumulative transmitted bytes of the newer record, at least {@code previousTxBytes}
     * @param previousTxBytes those of the older record, at least 0
     * @param dtPs time between the records, ps, at least 1
     * @param rateBitsPerSecond B, bit/s, at least 1
     * @param baseRttPs T, ps, at least 1
     */
    public static double hopUtilisation(long queueBytes, long previousQueueBytes, long txBytes, long previousTxBytes,
            long dtPs, long rateBitsPerSecond, long baseRttPs) {
        Parameters.atLeast("queueBytes", queueBytes, 0L);
        Parameters.atLeast("previousQueueBytes", previousQueueBytes, 0L);
        Parameters.atLeast("previousTxBytes", previousTxBytes, 0L);
        Parameters.atLeast("txBytes", txBytes, previousTxBytes);
        Parameters.atLeast("dtPs", dtPs, 1L);
        Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
        Parameters.atLeast("baseRttPs", baseRttPs, 1L);
        double bytesPerPs = rateBitsPerSecond / 8e12;
        double txRate = (double) (txBytes - previousTxBytes) / dtPs; // bytes per ps
        return txRate / bytesPerPs + Math.min(queueBytes, previousQueueBytes) / (bytesPerPs * baseRttPs);
    }

    /**
     * The utilisation estimate after a measurement {@code u} over {@code tauPs} (Algorithm 1): tau capped at T,
     * U' = (1 - tau/T) U + (tau/T) u.
     *
     * @param utilisation U before, at least 0
     * @param u the measurement, at least 0
     * @param tauPs its time, ps, at least 0
     * @param baseRttPs T, ps, at least 1
     */
    public static double smoothed(double utilisation, double u, long tauPs, long baseRttPs) {
        Parameters.nonNegative("utilisation", utilisation);
        Parameters.nonNegative("u", u);
        Parameters.atLeast("tauPs", tauPs, 0L);
        Parameters.atLeast("baseRttPs", baseRttPs, 1L);
        double f = (double) Math.min(tauPs, baseRttPs) / baseRttPs;
        return (1 - f) * utilisation + f * u;
    }

    /**
     * The window for utilisation {@code utilisation} (Algorithm 1, ComputeWind) within [{@code minBytes}, {@code maxBytes}]:
     * if U &ge; eta or {@code stage} &ge; maxStage, W_c / (U / eta) + W_AI (for an idle path, U = 0, the largest);
     * else W_c + W_AI.
     *
     * @param referenceWindowBytes W_c, bytes, positive
     * @param utilisation U, at least 0
     * @param stage incStage, at least 0
     * @param additiveIncreaseBytes W_AI, bytes, at least 0
     * @param minBytes the smallest window (R_min T), bytes, positive
     * @param maxBytes the largest window (B_host T), bytes, at least {@code minBytes}
     */
    public double window(double referenceWindowBytes, double utilisation, int stage, double additiveIncreaseBytes,
            double minBytes, double maxBytes) {
        Parameters.positive("referenceWindowBytes", referenceWindowBytes);
        Parameters.nonNegative("utilisation", utilisation);
        Parameters.finite("utilisation", utilisation);
        Parameters.atLeast("stage", stage, 0);
        Parameters.nonNegative("additiveIncreaseBytes", additiveIncreaseBytes);
        Parameters.positive("minBytes", minBytes);
        Parameters.inRange("maxBytes", maxBytes, minBytes, Double.MAX_VALUE);
        double w;
        if (multiplicative(utilisation, stage)) {
            w = utilisation == 0 ? maxBytes : referenceWindowBytes * eta / utilisation + additiveIncreaseBytes;
        } else {
            w = referenceWindowBytes + additiveIncreaseBytes;
        }
        return Math.max(minBytes, Math.min(maxBytes, w));
    }

    /** Whether {@link #window} takes the multiplicative step: U &ge; eta or {@code stage} &ge; maxStage. */
    public boolean multiplicative(double utilisation, int stage) {
        Parameters.nonNegative("utilisation", utilisation);
        Parameters.finite("utilisation", utilisation);
        Parameters.atLeast("stage", stage, 0);
        return utilisation >= eta || stage >= maxStage;
    }

    /** One run of this transport (the simulator's internal types). */
    @Override
    public TransportRun start(Network network) {
        return new HpccRun(network, this);
    }

    /**
     * The parallel engine runs HPCC: the telemetry travels in the packets, each record written by the switch the packet
     * leaves, and the window lives at the sender.
     */
    @Override
    public String parallelEngineLimitation() {
        return null;
    }

    /** The local ACK timeout of {@link #rc()}: the watchdog waits for it before calling a run stalled. */
    @Override
    public long recoveryTimeoutPs() {
        return rc.localAckTimeoutPs();
    }
}
