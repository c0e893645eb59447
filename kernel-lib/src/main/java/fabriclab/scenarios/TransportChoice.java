package fabriclab.scenarios;

import fabriclab.congestion.DcqcnParameters;
import fabriclab.congestion.RttControlParameters;
import fabriclab.fabric.EcnMarking;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.ctcc.CtccTransport;
import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.simulation.transport.hpcc.HpccTransport;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.simulation.transport.uec.UecTransport;
import fabriclab.simulation.transport.window.DctcpTransport;
import fabriclab.simulation.transport.window.SwiftTransport;
import fabriclab.simulation.transport.window.TimelyTransport;
import java.util.List;

/**
 * The transports a run chooses from ({@code bin/simulate --transport}): each value has its name on the command line,
 * says how it runs (acknowledged, forwarded by the switches, with PFC by default), and builds its
 * {@link TransportModel} and switch buffer with the model's published
 * parameters ({@link DcqcnParameters#zhu2015()}, {@link RttControlParameters#ctcc()}, {@link GseTransport#defaults()}, {@link HpccTransport#defaults()}).
 */
public enum TransportChoice {
    /** RoCE's go-back-N without congestion control. */
    ROCE("roce", true, true, true, "go-back-N, no congestion control"),
    /** RoCE with DCQCN (Zhu et al., SIGCOMM 2015), the switches marking ECN on its curve. */
    DCQCN("dcqcn", true, true, true, "RoCE with DCQCN (Zhu et al. 2015) and ECN marking on its curve"),
    /** Senders at line rate, no acknowledgements. */
    LINE_RATE("line-rate", false, true, true, "senders at line rate, no acknowledgements"),
    /** CTCC's RTT-based rate control (seed 001). */
    CTCC("ctcc", true, true, false, "CTCC's RTT-based rate control, RTT probes per host pair, paced senders"),
    /** Global Scheduling Ethernet: the leaves schedule, assemble, spray and reorder containers. */
    GSE("gse", false, false, false, "Global Scheduling Ethernet, line-rate hosts, each leaf assembles 16 KB containers"
            + " per destination host and sends one only when the destination port's scheduler grants it (between hosts"
            + " of one leaf too, with no fabric hop), sprays them over the spines, reorders them and resends any lost"),
    /** HPCC (Li et al., SIGCOMM 2019): in-band telemetry from the switches, the window from measured utilisation. */
    HPCC("hpcc", true, true, true, "HPCC (Li et al., SIGCOMM 2019) over go-back-N: every switch egress stamps queue,"
            + " transmitted bytes, time and rate on data packets, ACKs echo them, the sender sets window W and pacing W/T"
            + " from the utilisation; eta 0.95 and maxStage 5 (the paper; TargetUtil and MiThresh of HPCC's ns-3 model),"
            + " W_AI = 40 Mb/s x T and rate floor 1 Gb/s (HPCC's run.py at 100 Gb/s: RATE_AI, MIN_RATE), per-ACK fast"
            + " reaction (FAST_REACT 1), T the fabric's largest base RTT (GLOBAL_T 1), a 42 B INT header on data and"
            + " ACKs (5 hops x 8 B + 2 B, IntHeader of the ns-3 model)"),
    /** DCTCP over ECN (Alizadeh et al., SIGCOMM 2010) as HPCC's simulator runs it, the switches step-marking at K. */
    DCTCP("dctcp", true, true, true, "DCTCP (Alizadeh et al. 2010) as HPCC's ns-3 runs it (rate paced, no window here):"
            + " g 1/16, R := R (1 - alpha/2) once per window on an ECN echo, + 615 Mb/s per window, floor 1 Gb/s"
            + " (HPCC's run.py), switches marking every packet above K = 30 KB per 10 Gb/s of port rate (run.py)"),
    /** TIMELY (Mittal et al., SIGCOMM 2015): the RTT of each ACK and its gradient set the rate. */
    TIMELY("timely", true, true, true, "TIMELY (Mittal et al. 2015), RTT per ACK, one update per window (no window here):"
            + " T_low 50 us, T_high 500 us, beta 0.8, EWMA 0.875, minRTT 20 us, hyper-active x5 after 5 steps (the"
            + " paper's, HPCC's ns3::Timely defaults), delta 100 Mb/s, floor 1 Gb/s (HPCC's run.py at 100 Gb/s)"),
    /** Swift (Kumar et al., SIGCOMM 2020): a window from delay against a target scaled by hops and by the window. */
    SWIFT("swift", true, true, false, "Swift (Kumar et al. 2020: rule sec. 3.1, target scaling sec. 3.5; values not cited"
            + " from it), fabric window only: ai 1, beta 0.8, max_mdf 0.5, fs_min_cwnd 0.1, fs_max_cwnd 100 (htsim's Swift),"
            + " least window 0.001 packets (sec. 3.4), base target 25 us and fs_range 100 us (the RDMA reference's Swift"
            + " defaults), 1 us per switch hop (this project's), window at most 100 packets"),
    /**
     * The Ultra Ethernet transport (UEC specification 1.0): entropy spraying, NSCC windows, trimming switches,
     * selective acknowledgements ({@link UecTransport}).
     */
    UEC("uec", false, true, false, "Ultra Ethernet (UEC 1.0) as its reference simulator uet-htsim runs it: packets"
            + " sprayed over 64 entropies (REPS, ring of 8; or oblivious) that ECMP switches hash, NSCC window from"
            + " delay and ECN (target 0.75 base RTT with trimming, gamma 0.8, quick adapt gate 3, max 1.5 BDP), switches"
            + " trimming data above 1 BDP of queue to 64 B headers sent ahead of data and marking ECN at dequeue from 0.2"
            + " to 0.8 BDP, selective ACKs every 16 KB, NACKs of trimmed packets, timeout 15 us + 6 threshold drain times;"
            + " see the --uec- options");

    private final String optionName;
    private final boolean acknowledged;
    private final boolean forwardedBySwitches;
    private final boolean pfcByDefault;
    private final String description;

    TransportChoice(String optionName, boolean acknowledged, boolean forwardedBySwitches, boolean pfcByDefault,
            String description) {
        this.optionName = optionName;
        this.acknowledged = acknowledged;
        this.forwardedBySwitches = forwardedBySwitches;
        this.pfcByDefault = pfcByDefault;
        this.description = description;
    }

    /**
     * Its name after {@code --transport}: {@code roce}, {@code dcqcn}, {@code line-rate}, {@code ctcc}, {@code gse}, {@code hpcc},
     * {@code dctcp}, {@code timely}, {@code swift}, {@code uec}.
     */
    public String optionName() {
        return optionName;
    }

    /** What it is, for the usage text. */
    public String description() {
        return description;
    }

    /** Whether its receivers acknowledge data over a {@link ReliableConnection} (all but line rate, GSE and UEC). */
    public boolean acknowledged() {
        return acknowledged;
    }

    /**
     * Whether the switches forward its packets by the run's forwarding policy: all but GSE, whose leaves and spines
     * spray containers over the paths themselves.
     */
    public boolean forwardedBySwitches() {
        return forwardedBySwitches;
    }

    /** Whether it runs with PFC unless told otherwise: all but CTCC, GSE, Swift and UEC, which need none. */
    public boolean pfcByDefault() {
        return pfcByDefault;
    }

    /**
     * Its model; an acknowledged transport's queue pairs run {@code connection}, the others ignore it.
     *
     * @param connection the reliable connection of {@link #acknowledged} transports
     */
    public TransportModel model(ReliableConnection connection) {
        fabriclab.Parameters.notNull("connection", connection);
        return switch (this) {
            case ROCE -> RoceTransport.noCongestionControl().withReliableConnection(connection);
            case DCQCN -> RoceTransport.dcqcn(DcqcnParameters.zhu2015()).withReliableConnection(connection);
            case LINE_RATE -> TransportModel.uncontrolled();
            case CTCC -> CtccTransport.of(RttControlParameters.ctcc()).withReliableConnection(connection);
            case GSE -> GseTransport.defaults();
            case HPCC -> HpccTransport.defaults().withReliableConnection(connection);
            case DCTCP -> DctcpTransport.hpccSimulation(0).withReliableConnection(connection);
            case TIMELY -> TimelyTransport.hpccSimulation(0).withReliableConnection(connection);
            case SWIFT -> SwiftTransport.defaults(100).withReliableConnection(connection);
            case UEC -> UecTransport.defaults();
        };
    }

    /**
     * The switches' shared buffer of {@code bytes} for this transport: marking ECN on DCQCN's curve for DCQCN, at
     * DCTCP's step of HPCC's runs (K = 30 KB per 10 Gb/s of each port's rate) for DCTCP.
     */
    public SwitchBuffer buffer(long bytes) {
        if (this == DCTCP) {
            return new SwitchBuffer(bytes, bytes, DctcpTransport.hpccMarking(DCTCP_MARKING_RATE))
                    .withEcnScaledFromRate(DCTCP_MARKING_RATE);
        }
        return this == DCQCN ? new SwitchBuffer(bytes, bytes, EcnMarking.dcqcnDefaults()) : SwitchBuffer.shared(bytes);
    }

    /**
     * As {@link #buffer(long)}, for a fabric whose BDP is {@code bdpBytes} in packets of {@code packetWireBytes}: UEC's
     * switches mark ECN at dequeue from 20 % to 80 % of the BDP ({@link UecTransport#switchBuffer}); the other
     * transports ignore the BDP.
     */
    public SwitchBuffer buffer(long bytes, long bdpBytes, int packetWireBytes) {
        return this == UEC ? UecTransport.switchBuffer(bytes, bdpBytes, packetWireBytes) : buffer(bytes);
    }

    /** The port rate DCTCP's K is written for (it scales with each port's rate), bit/s. */
    private static final long DCTCP_MARKING_RATE = 100_000_000_000L;

    /** The choices that satisfy {@code test}, in declaration order. */
    public static List<TransportChoice> where(java.util.function.Predicate<TransportChoice> test) {
        fabriclab.Parameters.notNull("test", test);
        return java.util.Arrays.stream(values()).filter(test).toList();
    }

    /** The choice named {@code name} on the command line. */
    public static TransportChoice named(String name) {
        fabriclab.Parameters.notNull("name", name);
        for (TransportChoice t : values()) {
            if (t.optionName.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("name must name a transport, one of " + where(t -> true) + ", got \"" + name
                + "\"");
    }

    @Override
    public String toString() {
        return optionName;
    }
}
