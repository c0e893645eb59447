package fabriclab.simulation.transport;

import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.element.Network;
/**
 * The transport every flow of a run uses: how senders pace, what receivers acknowledge, how loss
 * is recovered, and what the switches do for it. Chosen in the run's scenario. Implementations are
 * immutable parameter records: {@link Uncontrolled} (the default: line rate, no acknowledgements, no
 * retransmission; a dropped packet is simply lost), {@code RoceTransport}, {@code CtccTransport},
 * {@code GseTransport}.
 */
public interface TransportModel {
    /** Go-back-N (RoCE, CTCC): NACKs the receivers sent for a gap in the sequence. */
    Counter NACKS = new Counter("nacks", Counter.Unit.PACKETS, "NACKs sent by receivers for a sequence gap");
    /** Go-back-N (RoCE, CTCC): retransmission timeouts that fired at the senders. */
    Counter TIMEOUTS = new Counter("timeouts", Counter.Unit.EVENTS, "retransmission timeouts fired at senders");
    /** Go-back-N (RoCE, CTCC): of the timeouts, those with no loss of the flow since its previous timeout (or start). */
    Counter SPURIOUS_TIMEOUTS = new Counter("timeouts.spurious", Counter.Unit.EVENTS,
            "timeouts with nothing of the flow lost to explain them");
    /** Go-back-N (RoCE, CTCC): queue pairs that exhausted their retry count and went to the error state. */
    Counter FAILED_QPS = new Counter("qp.failed", Counter.Unit.EVENTS, "queue pairs failed after exhausting their retries");

    /**
     * The longest a flow of this transport may go without delivering anything before the transport acts on its own
     * (a retransmission timeout), ps; 0 if it has no such timer. The progress watchdog waits this much longer.
     */
    default long recoveryTimeoutPs() {
        return 0;
    }

    /** The default transport: every packet at line rate, no control loop. */
    static TransportModel uncontrolled() {
        return new Uncontrolled();
    }

    /**
     * Starts this transport for one run of the simulator. The argument and result are the
     * simulator's internal types, so only the transports of this package implement it.
     */
    TransportRun start(Network network);

    /**
     * What of this transport the parallel engine cannot run, described for an error message (the engine
     * needs every interaction between nodes to take at least its lookahead), or null if it can run it. Each
     * transport declares this once; the default refuses.
     */
    default String parallelEngineLimitation() {
        return "transport " + this + " (it does not declare support for the parallel engine)";
    }

    /** Line rate, no acknowledgements, no retransmission. */
    record Uncontrolled() implements TransportModel {
        @Override
        public TransportRun start(Network network) {
            return new TransportRun.LineRate(network);
        }

        @Override
        public String parallelEngineLimitation() {
            return null;
        }
    }
}
