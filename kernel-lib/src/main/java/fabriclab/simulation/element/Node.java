package fabriclab.simulation.element;

import java.util.ArrayList;
import java.util.List;

/** A host NIC or a switch at runtime (package-private): its ports, and what it does with an arriving packet. */
public abstract class Node {
    final Network net;
    public final int id;
    public final List<Port> ports = new ArrayList<>();
    /** The partition this node runs in: its events, clock and packet pool. */
    public Partition part;

    Node(Network net, int id) {
        this.net = net;
        this.id = id;
        this.part = net.main;
    }

    /** Packet {@code p} arrived through {@code p.ingress} at {@code timePs}. */
    abstract void receive(Packet p, long timePs);

    /** A packet for an idle port whose queues are empty (a host NIC generates data on demand), or null. */
    abstract Packet nextToSend(Port port);

    /** The last bit of {@code p} left {@code port} (or it was dropped from the port's queue). */
    abstract void departed(Port port, Packet p);
}
