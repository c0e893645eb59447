package fabriclab.simulation;

/**
 * The transport every flow of a run uses: how senders pace, what receivers acknowledge, how loss
 * is recovered. Chosen with {@link Simulator#withTransport}. Implementations are immutable
 * parameter records; the simulator creates one runtime instance per flow.
 *
 * <ul>
 *   <li>{@link Uncontrolled} (default): line rate, no acknowledgements, no retransmission; a
 *       dropped packet is simply lost.</li>
 * </ul>
 */
public interface TransportModel {
    /** The default transport: every packet at line rate, no control loop. */
    static TransportModel uncontrolled() {
        return new Uncontrolled();
    }

    /** Line rate, no acknowledgements, no retransmission. */
    record Uncontrolled() implements TransportModel {
    }
}
