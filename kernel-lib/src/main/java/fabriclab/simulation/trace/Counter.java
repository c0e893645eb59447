package fabriclab.simulation.trace;

import fabriclab.Parameters;

/**
 * A named counter of a simulation run, with its unit: what a transport or an element reports in
 * {@code SimulationResult.counters()} beside the result's own fields. Each counter is declared once, as a constant
 * of the model that reports it (e.g. {@code RoceTransport.RATE_CUTS}), and read with
 * {@code SimulationResult.counter(Counter)}; its {@link #name} is the key under which it appears in the counters map
 * and in {@code bin/simulate}'s output.
 *
 * @param name the key, e.g. {@code "dcqcn.rateCuts"}; not blank
 * @param unit what one count is
 * @param meaning one line for a reader
 */
public record Counter(String name, Unit unit, String meaning) {
    /** What one count of a counter is. */
    public enum Unit {
        /** Packets (data or control). */
        PACKETS,
        /** Packet containers (GSE). */
        CONTAINERS,
        /** Events of the kind the counter names (rate cuts, timeouts, grants, pauses). */
        EVENTS,
        /** Bytes (a peak occupancy). */
        BYTES,
        /** Picoseconds (a peak time). */
        PICOSECONDS
    }

    /** Validates: name not blank, unit and meaning present. */
    public Counter {
        Parameters.notBlank("name", name);
        Parameters.notNull("unit", unit);
        Parameters.notNull("meaning", meaning);
    }
}
