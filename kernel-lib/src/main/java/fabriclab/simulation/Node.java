package fabriclab.simulation;

import fabriclab.simulation.event.EventHandler;
import java.util.ArrayList;
import java.util.List;

/** A host or switch at runtime (package-private). Handles packet-arrival events. */
abstract class Node implements EventHandler {
    final Simulator sim;
    final int id;
    final List<Port> ports = new ArrayList<>();

    Node(Simulator sim, int id) {
        this.sim = sim;
        this.id = id;
    }

    /** A packet for an idle port whose queues are empty (hosts generate packets on demand). */
    abstract Packet nextToSend(Port port);

    /** The last bit of {@code p} left {@code port}. */
    abstract void departed(Port port, Packet p);
}
