package fabriclab.simulation.event;

/**
 * How a keyed event queue ({@link EventQueue#keyed}) orders the events of one instant before handling them: given
 * the keys and events pending when the instant is taken, it permutes them in place. The queue knows nothing of what a
 * key means; the engine that keys its events supplies the order (the engines' canonical order by node and lane). Called once per instant, never per event; an instance may keep scratch arrays, so each queue has its own.
 */
public interface InstantOrder {
    /**
     * Puts the {@code n} events from index {@code from} in this order: {@code keys[from + j]} is the key of event
     * {@code j}, {@code refs[2 * (from + j)]} its handler and {@code refs[2 * (from + j) + 1]} its payload. Moves each
     * event's key and both references together.
     *
     * @param timePs the instant, ps
     * @param keys the events' keys
     * @param refs the events' handlers and payloads, two entries per event
     * @param from index of the first event
     * @param n number of events, at least 2
     */
    void order(long timePs, long[] keys, Object[] refs, int from, int n);
}
