package fabriclab.simulation.transport.window;

import fabriclab.Parameters;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.TransportRun;

/**
 * Swift (Kumar et al., "Swift: Delay is Simple and Effective for Congestion Control in the Datacenter", SIGCOMM 2020)
 * over the go-back-N reliable connection: a congestion window of packets driven by the measured delay against a
 * target that scales with the path's hops and the flow's own window.
 *
 * <p><b>Target delay</b> (section 3.5): {@code t = baseTarget + hops x hopScale + fs(cwnd)} with the flow-scaling term
 * {@code fs(cwnd) = max(0, min(a / sqrt(cwnd) + b, fsRange))}, {@code a = fsRange / (1 / sqrt(fsMinCwnd) - 1 /
 * sqrt(fsMaxCwnd))}, {@code b = -a / sqrt(fsMaxCwnd)}: fsRange at fsMinCwnd, 0 at fsMaxCwnd and above. N flows
 * sharing a bottleneck have windows near BDP / N, so the target grows with sqrt(N) (the paper's argument for
 * flow scaling). {@code hops} is the number of switches on the shortest path of the flow (the paper derives it from
 * the IP TTL).
 *
 * <p><b>Window</b> (section 3.1, algorithm 1): on each ACK with delay d (the ACK's arrival minus the echoed send time of the packet
 * that triggered it): d &lt; t: {@code cwnd += ai / cwnd x acked} (cwnd &ge; 1) or {@code cwnd += ai x acked}
 * (cwnd &lt; 1); otherwise, if no decrease happened within the last RTT (d),
 * {@code cwnd := cwnd max(1 - beta (d - t) / d, 1 - maxMdf)}. A NAK or a timeout (loss):
 * {@code cwnd := cwnd (1 - maxMdf)}, once per RTT. cwnd stays in [minCwnd, maxCwnd]. At most ceil(cwnd) packets are
 * unacknowledged; below one packet the sender paces one packet per RTT / cwnd (the paper's pacing for cwnd &lt; 1,
 * section 3.4),
 * above it sends at line rate within the window. The flow starts at maxCwnd.
 *
 * <p>The fabric window only: the paper's second window, for the endpoint delay (the receiving host's processing, which
 * this simulator does not model), is not built; with an ACK per packet the delay measured is the fabric's.
 *
 * @param baseTargetS base target delay [s], positive
 * @param hopScaleS per-hop scaling h [s], not negative
 * @param fsRangeS flow-scaling range [s], not negative
 * @param fsMinCwnd window [packets] where flow scaling reaches fsRange, positive
 * @param fsMaxCwnd window [packets] where flow scaling reaches 0, above fsMinCwnd
 * @param ai additive increment [packets per RTT], positive
 * @param beta multiplicative-decrease gain, in (0, 1]
 * @param maxMdf largest multiplicative decrease, in (0, 1)
 * @param minCwnd least window [packets], positive
 * @param maxCwnd largest (and initial) window [packets], at least minCwnd
 * @param rc the reliable connection
 * @param controlBytes wire bytes of an ACK or NAK, 64..1500
 * @param ackPriority priority of ACKs and NAKs, 0..7
 */
public record SwiftTransport(double baseTargetS, double hopScaleS, double fsRangeS, double fsMinCwnd, double fsMaxCwnd,
        double ai, double beta, double maxMdf, double minCwnd, double maxCwnd, ReliableConnection rc, int controlBytes,
        int ackPriority) implements TransportModel {
    /** Window decreases at the senders. */
    public static final Counter DECREASES = new Counter("swift.decreases", Counter.Unit.EVENTS,
            "Swift window decreases at the senders");
    /** Window increases at the senders. */
    public static final Counter INCREASES = new Counter("swift.increases", Counter.Unit.EVENTS,
            "Swift window increases at the senders");

    /** Validates. */
    public SwiftTransport {
        Parameters.positive("baseTargetS", baseTargetS);
        Parameters.nonNegative("hopScaleS", hopScaleS);
        Parameters.nonNegative("fsRangeS", fsRangeS);
        Parameters.positive("fsMinCwnd", fsMinCwnd);
        Parameters.positive("fsMaxCwnd", fsMaxCwnd);
        if (!(fsMaxCwnd > fsMinCwnd)) {
            throw new IllegalArgumentException("fsMaxCwnd must be > fsMinCwnd (" + fsMinCwnd + "), got " + fsMaxCwnd);
        }
        Parameters.positive("ai", ai);
        Parameters.inHalfOpenRange("beta", beta, 0.0, 1.0);
        Parameters.inHalfOpenRange("maxMdf", maxMdf, 0.0, 1.0);
        if (maxMdf >= 1) {
            throw new IllegalArgumentException("maxMdf must be < 1, got " + maxMdf);
        }
        Parameters.positive("minCwnd", minCwnd);
        Parameters.positive("maxCwnd", maxCwnd);
        if (!(maxCwnd >= minCwnd)) {
            throw new IllegalArgumentException("maxCwnd must be at least minCwnd (" + minCwnd + "), got " + maxCwnd);
        }
        Parameters.notNull("rc", rc);
        Parameters.inRange("controlBytes", controlBytes, 64, 1500);
        Parameters.inRange("ackPriority", ackPriority, 0, 7);
    }

    /**
     * Defaults, each with its source. From the paper: the window rule with its constants ai, beta and maxMdf
     * (section 3.1, algorithm 1), the least window 0.001 packets with pacing below one packet (section 3.4, large-scale
     * incast), and the target {@code baseTarget + hops x h + fs(cwnd)} with fs spanning fsRange over
     * [fsMinCwnd, fsMaxCwnd] (section 3.5). The values of ai, beta, maxMdf, fsMinCwnd and fsMaxCwnd are not cited from
     * the paper (its text was not at hand): ai 1 packet per RTT, beta 0.8, maxMdf 0.5, fsMinCwnd 0.1 and fsMaxCwnd 100
     * packets as htsim's Swift sets them (Broadcom/csg-htsim @ d6bfbe6, {@code sim/swift.cpp}, which calls its ai,
     * beta and maxMdf guesses; the RDMA reference's Swift class has {@code MaxMdf} 0.4); base target 25 us and fsRange 4 x base target (100 us)
     * as the RDMA reference's Swift class (aliyun/ns-3-alibabacloud @ eb45e7f, {@code rdma-congestion-ops.cc}:
     * {@code BaseTarget 25000} ns, {@code Range 4.0}; htsim: 20 us and 5 x base target); per-hop scaling h 1 us (this
     * project's choice, an axis: the reference has no per-hop term, htsim base target / 6.55 = 3.05 us); maxCwnd
     * {@code maxCwndPackets}; an ACK per packet on the data's priority, 64-byte ACKs.
     *
     * @param maxCwndPackets the largest and initial window [packets] (one BDP of the fabric's longest path starts a
     *        flow at line rate), positive
     */
    public static SwiftTransport defaults(double maxCwndPackets) {
        Parameters.positive("maxCwndPackets", maxCwndPackets);
        return new SwiftTransport(25e-6, 1e-6, 100e-6, 0.1, 100, 1.0, 0.8, 0.5, 0.001, Math.max(0.001, maxCwndPackets),
                ReliableConnection.defaults().withAckEvery(1), 64, 0);
    }

    /**
     * The target delay of a flow crossing {@code hops} switches with window {@code cwndPackets} [s] (section 3.5,
     * above).
     *
     * @param hops switches on the path, at least 0
     * @param cwndPackets the window [packets], positive
     */
    public double targetDelayS(int hops, double cwndPackets) {
        Parameters.atLeast("hops", hops, 0);
        Parameters.positive("cwndPackets", cwndPackets);
        return targetUnchecked(hops, cwndPackets);
    }

    double targetUnchecked(int hops, double cwnd) {
        double a = fsRangeS / (1 / Math.sqrt(fsMinCwnd) - 1 / Math.sqrt(fsMaxCwnd));
        double b = -a / Math.sqrt(fsMaxCwnd);
        double fs = Math.max(0, Math.min(a / Math.sqrt(cwnd) + b, fsRangeS));
        return baseTargetS + hops * hopScaleS + fs;
    }

    /** A copy with another reliable connection. */
    public SwiftTransport withReliableConnection(ReliableConnection c) {
        return new SwiftTransport(baseTargetS, hopScaleS, fsRangeS, fsMinCwnd, fsMaxCwnd, ai, beta, maxMdf, minCwnd, maxCwnd,
                c, controlBytes, ackPriority);
    }

    /** A copy with base target {@code seconds} and per-hop scaling {@code hopSeconds}. */
    public SwiftTransport withTarget(double seconds, double hopSeconds) {
        return new SwiftTransport(seconds, hopSeconds, fsRangeS, fsMinCwnd, fsMaxCwnd, ai, beta, maxMdf, minCwnd, maxCwnd,
                rc, controlBytes, ackPriority);
    }

    @Override
    public TransportRun start(Network network) {
        return new WindowedRun(network, (n, f) -> new SwiftFlow(n, f, this), DECREASES, INCREASES);
    }

    /** The parallel engine runs Swift: its state is at the two hosts and its timestamps travel in packets. */
    @Override
    public String parallelEngineLimitation() {
        return null;
    }

    @Override
    public long recoveryTimeoutPs() {
        return rc.localAckTimeoutPs();
    }
}
