package fabriclab.simulation.transport.ctcc;

import fabriclab.simulation.element.Network;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.TransportRun;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.fabric.Time;
import fabriclab.Parameters;
import fabriclab.congestion.RttControlParameters;
import fabriclab.congestion.RttRule;

/**
 * CTCC-style RTT-based rate control for the packet simulator (seed 001: Che et al., China Telecom,
 * ICT &amp; Policy 2024): a rate-based sender per queue pair, RTT probes from the NIC, a target RTT,
 * AIMD, and a NACK that halves the rate at once; it needs no switch configuration and runs with PFC
 * off. Loss recovery is go-back-N as in {@link fabriclab.simulation.transport.roce.RoceTransport}.
 *
 * <p>Probing: the source NIC probes each destination it sends to (one probe stream per
 * source-destination pair, shared by all queue pairs on that pair, every
 * {@code params.probeIntervalS()}). A probe ({@code controlBytes} on the wire) travels on the data
 * priority, so it queues behind data and measures the RTT data sees; the receiver's reply goes back on
 * {@code replyPriority} (001: "RTT responses are sent at high priority"). Per-pair probing is this
 * project's reading of "the NIC sends RTT probes": per-QP probes every 10 us for 1,000 QPs would
 * need more than the link.
 *
 * <p>Rate rule at each reply with measured RTT r (every queue pair on the pair):
 * r &gt; target: R := R (1 - min(maxDecrease, beta (r - target) / r)); otherwise R := R + delta
 * (the fluid model's rule, {@link fabriclab.congestion.RttFluidModel}); a NACK: R := R / 2 at once;
 * R stays in [minRate, line rate]. Start at {@code initialRateFraction} of line rate (1 by default; 001
 * does not say). The pacing is the same as RoCE's.
 *
 * @param params rule and parameters (rule must be {@link RttRule#CTCC_TARGET}); defaults
 *        {@link RttControlParameters#ctcc()} (this project's choices, 001 publishes none)
 * @param replyPriority priority of probe replies, 0..7 (0 is the highest)
 * @param rc the reliable connection (ACK coalescing, local ACK timeout, retries), as RoCE's
 * @param controlBytes wire bytes of probes, replies, ACKs and NACKs, 64..1500
 * @param initialRateFraction each queue pair's starting rate as a fraction of its NIC's line rate, in (0, 1]
 */
public record CtccTransport(RttControlParameters params, int replyPriority, ReliableConnection rc, int controlBytes,
        double initialRateFraction) implements TransportModel {
    /** Validates. */
    public CtccTransport {
        Parameters.notNull("params", params);
        if (params.rule() != RttRule.CTCC_TARGET) {
            throw new IllegalArgumentException("params.rule must be CTCC_TARGET for CtccTransport, got " + params.rule());
        }
        Parameters.inRange("replyPriority", replyPriority, 0, 7);
        Parameters.notNull("rc", rc);
        Parameters.inRange("controlBytes", controlBytes, 64, 1500);
        Parameters.inHalfOpenRange("initialRateFraction", initialRateFraction, 0.0, 1.0);
    }

    /** As the canonical constructor, starting at line rate. */
    public CtccTransport(RttControlParameters params, int replyPriority, ReliableConnection rc, int controlBytes) {
        this(params, replyPriority, rc, controlBytes, 1.0);
    }

    /** A copy whose queue pairs start at {@code fraction} of line rate, in (0, 1]. */
    public CtccTransport withInitialRateFraction(double fraction) {
        return new CtccTransport(params, replyPriority, rc, controlBytes, fraction);
    }

    /** CTCC with {@code params}, replies on priority 0, the default reliable connection, 64-byte control frames. */
    public static CtccTransport of(RttControlParameters params) {
        return new CtccTransport(params, 0, ReliableConnection.defaults(), 64);
    }

    /** A copy with another reliable connection. */
    public CtccTransport withReliableConnection(ReliableConnection c) {
        return new CtccTransport(params, replyPriority, c, controlBytes, initialRateFraction);
    }

    /** One run of this transport (the simulator's internal types). */
    @Override
    public TransportRun start(Network network) {
        return new CtccRun(network, this);
    }

    /** The parallel engine runs CTCC: its probes are packets and its state is the sender's. */
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
