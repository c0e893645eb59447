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
            + " ACKs (5 hops x 8 B + 2 B, IntHeader of the ns-3 model)");

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

    /** Its name after {@code --transport}: {@code roce}, {@code dcqcn}, {@code line-rate}, {@code ctcc}, {@code gse}, {@code hpcc}. */
    public String optionName() {
        return optionName;
    }

    /** What it is, for the usage text. */
    public String description() {
        return description;
    }

    /** Whether its receivers acknowledge data over a {@link ReliableConnection} (RoCE, DCQCN, CTCC, HPCC). */
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

    /** Whether it runs with PFC unless told otherwise: all but CTCC and GSE, which need none. */
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
        };
    }

    /** The switches' shared buffer of {@code bytes} for this transport: marking ECN on DCQCN's curve for DCQCN. */
    public SwitchBuffer buffer(long bytes) {
        return this == DCQCN ? new SwitchBuffer(bytes, bytes, EcnMarking.dcqcnDefaults()) : SwitchBuffer.shared(bytes);
    }

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
