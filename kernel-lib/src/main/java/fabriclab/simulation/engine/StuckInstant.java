package fabriclab.simulation.engine;

import fabriclab.simulation.element.Packet;
import fabriclab.simulation.event.EventQueue;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An instant that never ends, as the progress watchdog found it: {@code events} were handled at simulated time
 * {@code timePs} and events kept being scheduled at that same time, so simulated time could not advance. What was
 * still pending there, for the report: the kinds of handler ({@code handlers}, simple class name to count) and the
 * flow states (queue pairs) whose packets they carry ({@code flowStates}, ids, at most {@link #MAX_SAMPLED} events
 * looked at).
 *
 * @param timePs the instant, ps
 * @param events events handled at it before the stop
 * @param handlers pending events at the instant by the handler's class
 * @param flowStates ids of the flow states whose packets are among the pending events, ascending
 */
public record StuckInstant(long timePs, long events, Map<String, Long> handlers, List<Integer> flowStates) {
    /** Pending events of the instant looked at for the report. */
    static final int MAX_SAMPLED = 4096;

    /** Validates and copies. */
    public StuckInstant {
        fabriclab.Parameters.atLeast("timePs", timePs, 0L);
        fabriclab.Parameters.atLeast("events", events, 1L);
        fabriclab.Parameters.notNull("handlers", handlers);
        for (Map.Entry<String, Long> e : handlers.entrySet()) {
            fabriclab.Parameters.notNull("handlers' key", e.getKey());
            fabriclab.Parameters.atLeast("handlers[" + e.getKey() + "]", fabriclab.Parameters.notNull("handlers["
                    + e.getKey() + "]", e.getValue()), 1L);
        }
        handlers = Map.copyOf(handlers);
        flowStates = List.copyOf(fabriclab.Parameters.noNullElements("flowStates", flowStates));
        for (int i = 0; i < flowStates.size(); i++) {
            fabriclab.Parameters.atLeast("flowStates[" + i + "]", flowStates.get(i), 0);
        }
    }

    /**
     * The instant {@code timePs} of {@code q} after {@code events} were handled at it, described by taking (without
     * handling) up to {@link #MAX_SAMPLED} of its pending events; the run is over, so they are not needed.
     */
    static StuckInstant takeFrom(EventQueue q, long timePs, long events) {
        Map<String, Long> handlers = new TreeMap<>();
        TreeSet<Integer> flows = new TreeSet<>();
        for (int i = 0; i < MAX_SAMPLED && !q.isEmpty() && q.peekTime() == timePs; i++) {
            q.poll();
            handlers.merge(kind(q.polledHandler()), 1L, Long::sum);
            if (q.polledPayload() instanceof Packet p && p.flow() != null) {
                flows.add(p.flow().id);
            }
        }
        return new StuckInstant(timePs, events, handlers, List.copyOf(flows));
    }

    /** The handler's class as a reader knows it: its simple name, a lambda's or nested class's outermost class. */
    private static String kind(Object handler) {
        String name = handler.getClass().getName();
        name = name.substring(name.lastIndexOf('.') + 1);
        int nested = name.indexOf('$');
        return nested > 0 ? name.substring(0, nested) : name;
    }
}
