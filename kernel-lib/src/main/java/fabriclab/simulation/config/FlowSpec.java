package fabriclab.simulation.config;

import fabriclab.Parameters;

/**
 * One flow to simulate: {@code bytes} of payload from host {@code source} to host
 * {@code destination}, starting at {@code startPs}, on traffic class {@code priority}
 * (0 = highest, served first by strict priority).
 *
 * @param source sending host index
 * @param destination receiving host index, different from {@code source}
 * @param bytes payload bytes, at least 1
 * @param startPs start time in picoseconds, not negative
 * @param priority traffic class, 0 to {@link SimulationConfig#priorities()} - 1
 * @param sourcePort UDP source port of the flow (its ECMP entropy), 0..65535
 */
public record FlowSpec(int source, int destination, long bytes, long startPs, int priority, int sourcePort) {
    /** Validates. */
    public FlowSpec {
        Parameters.atLeast("source", source, 0);
        Parameters.atLeast("destination", destination, 0);
        if (source == destination) {
            throw new IllegalArgumentException("destination must differ from source, got " + source);
        }
        Parameters.atLeast("bytes", bytes, 1L);
        Parameters.atLeast("startPs", startPs, 0L);
        Parameters.atLeast("priority", priority, 0);
        Parameters.inRange("sourcePort", sourcePort, 0, 65535);
    }

    /** A flow at priority 0 whose source port is derived from its endpoints: 49152 + (31 source + destination) mod 16384. */
    public static FlowSpec of(int source, int destination, long bytes, long startPs) {
        return new FlowSpec(source, destination, bytes, startPs, 0, 49152 + Math.floorMod(31 * source + destination, 16384));
    }
}
