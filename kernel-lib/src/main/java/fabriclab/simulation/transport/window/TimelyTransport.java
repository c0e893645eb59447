package fabriclab.simulation.transport.window;

import fabriclab.Parameters;
import fabriclab.congestion.RttControlParameters;
import fabriclab.congestion.RttRule;
import fabriclab.congestion.TimelyUpdate;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.TransportRun;

/**
 * TIMELY (Mittal et al., "TIMELY: RTT-based Congestion Control for the Datacenter", SIGCOMM 2015) over the go-back-N
 * reliable connection, with the window HPCC's evaluation adds to it ("TIMELY+w", Li et al., SIGCOMM 2019, section
 * 5.1; its simulator's {@code CC_MODE 7} with {@code HAS_WIN 1}, {@code VAR_WIN 1}).
 *
 * <p>Every data packet carries its send time; the receiver's ACK echoes the send time of the packet that triggered it,
 * and the sender reads the RTT as the ACK's arrival minus that time (the paper's completion-time RTT, section 4.1, with
 * the NIC's timestamps). Once per window of data (at the ACK that acknowledges every packet sent before the previous
 * update; HPCC's simulator updates TIMELY at the same points) the sample drives TIMELY's rule, the one definition in
 * {@link TimelyUpdate}: additive increase below T_low, a cut proportional to the excess above T_high, and in between
 * the normalised gradient's sign (hyper-active increase after {@code haiThreshold} non-positive gradients). The rate
 * stays within [{@code params.minRateBitsPerSecond()}, line rate]; with {@code windowBytes} W_max at most
 * W_max R / line rate payload bytes are unacknowledged (0: the rate alone, plain TIMELY).
 *
 * @param params TIMELY's parameters (rule {@link RttRule#TIMELY_GRADIENT}; its probe interval and target RTT are not
 *        read: the ACKs are the samples)
 * @param windowBytes W_max [bytes], 0 for no window
 * @param rc the reliable connection
 * @param controlBytes wire bytes of an ACK or NAK, 64..1500
 * @param ackPriority priority of ACKs and NAKs, 0..7
 */
public record TimelyTransport(RttControlParameters params, long windowBytes, ReliableConnection rc, int controlBytes,
        int ackPriority) implements TransportModel {
    /** Rate decreases at the senders. */
    public static final Counter DECREASES = new Counter("timely.decreases", Counter.Unit.EVENTS,
            "TIMELY rate decreases at the senders");
    /** Rate increases at the senders. */
    public static final Counter INCREASES = new Counter("timely.increases", Counter.Unit.EVENTS,
            "TIMELY rate increases at the senders");

    /** Validates. */
    public TimelyTransport {
        Parameters.notNull("params", params);
        if (params.rule() != RttRule.TIMELY_GRADIENT) {
            throw new IllegalArgumentException("params.rule must be TIMELY_GRADIENT for TimelyTransport, got " + params.rule());
        }
        Parameters.atLeast("windowBytes", windowBytes, 0L);
        Parameters.notNull("rc", rc);
        Parameters.inRange("controlBytes", controlBytes, 64, 1500);
        Parameters.inRange("ackPriority", ackPriority, 0, 7);
    }

    /**
     * TIMELY's parameters as HPCC's simulator runs it at 100 Gb/s hosts: delta = 10 Mb/s per 1 Gb/s of host rate
     * (its {@code run.py}: {@code ai = 10 bw / 10} Mb/s, 100 Mb/s at 100 Gb/s; its hyper-active step {@code hai = 50 bw / 10}
     * is {@value TimelyUpdate#HYPER_MULTIPLIER} delta, TIMELY's N), floor 1 Gb/s ({@code MIN_RATE}), and the defaults of its
     * {@code ns3::Timely} class, which are the paper's (Mittal et al., section 5): EWMA weight 0.875, beta 0.8, T_low 50 us,
     * T_high 500 us, minRTT 20 us, hyper-active increase after 5 steps; at most half the rate per cut
     * ({@link RttControlParameters#timely()}; HPCC's class lets a gradient above 1 / beta take the rate to its floor).
     *
     * @param hostRateBitsPerSecond the host link rate [bit/s], in (0, 1e15]
     */
    public static RttControlParameters hpccParameters(double hostRateBitsPerSecond) {
        Parameters.positive("hostRateBitsPerSecond", hostRateBitsPerSecond);
        Parameters.inRange("hostRateBitsPerSecond", hostRateBitsPerSecond, 0.0, 1e15);
        RttControlParameters t = RttControlParameters.timely();
        return new RttControlParameters(RttRule.TIMELY_GRADIENT, t.probeIntervalS(), t.targetRttS(),
                10e6 * hostRateBitsPerSecond / 1e9 / 10, t.beta(), t.maxDecrease(), t.tLowS(), t.tHighS(), t.ewma(),
                t.minRttS(), t.haiThreshold(), 1e9);
    }

    /**
     * HPCC's TIMELY+w at 100 Gb/s hosts ({@link #hpccParameters}), the rate-scaled window W_max {@code windowBytes}
     * (0: plain TIMELY), an ACK per packet on the data's priority; 64-byte ACKs.
     */
    public static TimelyTransport hpccSimulation(long windowBytes) {
        return new TimelyTransport(hpccParameters(100e9), windowBytes, ReliableConnection.defaults().withAckEvery(1), 64, 0);
    }

    /** A copy with window W_max {@code bytes} (0 for none). */
    public TimelyTransport withWindowBytes(long bytes) {
        return new TimelyTransport(params, bytes, rc, controlBytes, ackPriority);
    }

    /** A copy with another reliable connection. */
    public TimelyTransport withReliableConnection(ReliableConnection c) {
        return new TimelyTransport(params, windowBytes, c, controlBytes, ackPriority);
    }

    @Override
    public TransportRun start(Network network) {
        return new WindowedRun(network, (n, f) -> new TimelyFlow(n, f, this), DECREASES, INCREASES);
    }

    /** The parallel engine runs TIMELY: its state is at the two hosts and its timestamps travel in packets. */
    @Override
    public String parallelEngineLimitation() {
        return null;
    }

    @Override
    public long recoveryTimeoutPs() {
        return rc.localAckTimeoutPs();
    }
}
