package fabriclab.flowcontrol;

import fabriclab.Parameters;

import java.util.List;

/**
 * A lossless flow with its route (node names of a {@link fabriclab.fabric.Topology} in order,
 * switches and optionally hosts at the ends) and its PFC priority (0..7).
 *
 * @param name     flow name
 * @param route    nodes visited, at least 2
 * @param priority PFC priority 0..7
 */
public record RoutedFlow(String name, List<String> route, int priority) {
    /** Validates and copies the route. */
    public RoutedFlow {
        Parameters.notBlank("name", name);
        route = List.copyOf(Parameters.noNullElements("route", route));
        if (route.size() < 2) {
            throw new IllegalArgumentException("route of flow '" + name + "' must have at least 2 nodes, got " + route);
        }
        Parameters.inRange("priority", priority, 0, 7);
    }
}
