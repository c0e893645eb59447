package fabriclab.simulation;

/**
 * The transport every flow of a run uses: how senders pace, what receivers acknowledge, how loss
 * is recovered, and what the switches do for it. Chosen in the run's scenario. Implementations are
 * immutable parameter records: {@link Uncontrolled} (the default: line rate, no acknowledgements, no
 * retransmission; a dropped packet is simply lost), {@link RoceTransport}, {@link CtccTransport},
 * {@link GseTransport}.
 */
public interface TransportModel {
    /** The default transport: every packet at line rate, no control loop. */
    static TransportModel uncontrolled() {
        return new Uncontrolled();
    }

    /**
     * Starts this transport for one run of the simulator. The argument and result are the
     * simulator's internal types, so only the transports of this package implement it.
     */
    TransportRun start(Network network);

    /** Line rate, no acknowledgements, no retransmission. */
    record Uncontrolled() implements TransportModel {
        @Override
        public TransportRun start(Network network) {
            return new TransportRun.LineRate(network);
        }
    }
}
