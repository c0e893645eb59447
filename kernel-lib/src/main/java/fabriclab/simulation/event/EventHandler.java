package fabriclab.simulation.event;

/**
 * Something that reacts to an event it scheduled on an {@link EventQueue}. The event itself carries
 * no object of its own: the queue stores (handler, payload) pairs in arrays, one per distinct time,
 * so scheduling a packet hop allocates nothing beyond the packet.
 */
@FunctionalInterface
public interface EventHandler {
    /**
     * Handles one event.
     *
     * @param timePs the event's simulated time in picoseconds
     * @param payload the object given when the event was scheduled (often a packet), may be null
     */
    void handle(long timePs, Object payload);
}
