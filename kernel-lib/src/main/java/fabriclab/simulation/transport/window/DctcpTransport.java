package fabriclab.simulation.transport.window;

import fabriclab.Parameters;
import fabriclab.fabric.EcnMarking;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.TransportRun;

/**
 * DCTCP (Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010) over the go-back-N reliable connection, as HPCC's
 * ns-3 simulator runs it beside DCQCN (its {@code CC_MODE 8}): the sender keeps a rate, and a window that follows it.
 *
 * <ul>
 *   <li>Switch: marks every data packet that joins a queue above K bytes ({@link EcnMarking#step}, the project's ECN
 *       curve with Kmin = Kmax = K, section 3.1 of the paper).</li>
 *   <li>Receiver: each ACK echoes how many of the data packets that arrived since the previous ACK were marked (with
 *       an ACK per packet, as HPCC's simulator acknowledges, one ECN-echo bit per packet).</li>
 *   <li>Sender, once per window of data (the ACK that acknowledges every packet sent before the previous update):
 *       alpha := (1 - g) alpha + g F, F the fraction of the window's acknowledged packets that were marked
 *       (equation 1 of the paper; alpha starts at 1, as in HPCC's simulator and Linux). On an ACK with a mark, outside
 *       a reduction: R := R (1 - alpha / 2) (equation 2, on the rate), then no further cut until every packet sent
 *       before this one is acknowledged (once per window, the paper's section 3.1). At each window's update outside
 *       a reduction: R := R + R_AI (one MSS per RTT when R_AI = MSS / RTT, the paper's congestion avoidance).
 *       R stays within [minRate, line rate].</li>
 *   <li>Window: with {@code windowBytes} W_max, at most W_max R / line rate payload bytes unacknowledged (HPCC's
 *       {@code VAR_WIN 1}: its "DCTCP" runs with this window); 0 for none (the rate alone).</li>
 * </ul>
 * A NAK or timeout rewinds the sender (go-back-N) without a further cut (HPCC's simulator reacts to loss the same way).
 *
 * @param g the EWMA gain of alpha, in (0, 1] (the paper's g = 1/16, section 3.4)
 * @param additiveIncreaseBitsPerSecond R_AI per window [bit/s], positive
 * @param minRateBitsPerSecond the rate floor [bit/s], positive
 * @param windowBytes W_max [bytes], 0 for no window
 * @param rc the reliable connection (ACK coalescing, local ACK timeout, retries)
 * @param controlBytes wire bytes of an ACK or NAK, 64..1500
 * @param ackPriority priority of ACKs and NAKs, 0..7
 */
public record DctcpTransport(double g, double additiveIncreaseBitsPerSecond, double minRateBitsPerSecond, long windowBytes,
        ReliableConnection rc, int controlBytes, int ackPriority) implements TransportModel {
    /** Rate cuts R (1 - alpha/2) at the senders. */
    public static final Counter CUTS = new Counter("dctcp.cuts", Counter.Unit.EVENTS, "DCTCP rate cuts at the senders");
    /** Additive increases at the senders. */
    public static final Counter INCREASES = new Counter("dctcp.increases", Counter.Unit.EVENTS,
            "DCTCP additive increases at the senders");
    /** DCTCP's g (Alizadeh et al. 2010, section 3.4; HPCC's {@code run.py} sets {@code EWMA_GAIN 0.0625} for DCTCP). */
    public static final double G = 1.0 / 16;
    /**
     * R_AI of HPCC's DCTCP runs, 615 Mb/s: its {@code run.py} ({@code dctcp_ai=615}, "one MTU of 1 KB per RTT of
     * 13 us"; alibaba-edu/High-Precision-Congestion-Control, simulation/run.py).
     */
    public static final double HPCC_ADDITIVE_INCREASE_BPS = 615e6;
    /** The rate floor of HPCC's runs, 1 Gb/s ({@code MIN_RATE 1000Mb/s} in its {@code run.py}). */
    public static final double HPCC_MIN_RATE_BPS = 1e9;

    /** Validates. */
    public DctcpTransport {
        Parameters.inHalfOpenRange("g", g, 0.0, 1.0);
        Parameters.positive("additiveIncreaseBitsPerSecond", additiveIncreaseBitsPerSecond);
        Parameters.positive("minRateBitsPerSecond", minRateBitsPerSecond);
        Parameters.atLeast("windowBytes", windowBytes, 0L);
        Parameters.notNull("rc", rc);
        Parameters.inRange("controlBytes", controlBytes, 64, 1500);
        Parameters.inRange("ackPriority", ackPriority, 0, 7);
    }

    /**
     * HPCC's DCTCP (its {@code run.py}, {@code --cc dctcp}): g 1/16, R_AI 615 Mb/s, floor 1 Gb/s, an ACK per packet on
     * the data's priority ({@code L2_ACK_INTERVAL 1}, {@code ACK_HIGH_PRIO 0}), the rate-scaled window W_max
     * {@code windowBytes} (0 for none); 64-byte ACKs. Its switches mark at K = 30 KB per 10 Gb/s of port rate
     * ({@link #hpccMarking}).
     */
    public static DctcpTransport hpccSimulation(long windowBytes) {
        return new DctcpTransport(G, HPCC_ADDITIVE_INCREASE_BPS, HPCC_MIN_RATE_BPS, windowBytes,
                ReliableConnection.defaults().withAckEvery(1), 64, 0);
    }

    /**
     * The marking of HPCC's DCTCP runs for ports of {@code portRateBitsPerSecond}: a step at K = 30 KB per 10 Gb/s
     * ({@code kmin_map = kmax_map = 30 bw / 10} KB, {@code pmax 1.0} in its {@code run.py}); 300 KB at 100 Gb/s.
     */
    public static EcnMarking hpccMarking(long portRateBitsPerSecond) {
        Parameters.positive("portRateBitsPerSecond", portRateBitsPerSecond);
        return EcnMarking.step(30_000.0 * portRateBitsPerSecond / 10e9);
    }

    /** A copy with window W_max {@code bytes} (0 for none). */
    public DctcpTransport withWindowBytes(long bytes) {
        return new DctcpTransport(g, additiveIncreaseBitsPerSecond, minRateBitsPerSecond, bytes, rc, controlBytes, ackPriority);
    }

    /** A copy with another reliable connection. */
    public DctcpTransport withReliableConnection(ReliableConnection c) {
        return new DctcpTransport(g, additiveIncreaseBitsPerSecond, minRateBitsPerSecond, windowBytes, c, controlBytes, ackPriority);
    }

    @Override
    public TransportRun start(Network network) {
        return new WindowedRun(network, (n, f) -> new DctcpFlow(n, f, this), CUTS, INCREASES);
    }

    /** The parallel engine runs DCTCP: its state is at the two hosts and its signals travel in packets. */
    @Override
    public String parallelEngineLimitation() {
        return null;
    }

    @Override
    public long recoveryTimeoutPs() {
        return rc.localAckTimeoutPs();
    }
}
