package fabriclab.simulation.element;

import fabriclab.simulation.trace.DropReason;
import java.util.ArrayList;
import java.util.List;

/** A host NIC or a switch at runtime (package-private): its ports, and what it does with an arriving packet. */
public abstract class Node {
    final Network net;
    public final int id;
    public final List<Port> ports = new ArrayList<>();
    /** The partition this node runs in: its events, clock and packet pool. */
    Partition part;

    /** The partition this node runs in: its events, clock and packet pool. */
    public final Partition partition() {
        return part;
    }

    /** Index in a drop count of {@link #dropped}: data packets lost. */
    public static final int DROPPED_DATA_PACKETS = 0;
    /** Index in a drop count of {@link #dropped}: payload bytes of the data packets lost. */
    public static final int DROPPED_PAYLOAD_BYTES = 1;
    /** Index in a drop count of {@link #dropped}: control packets lost. */
    public static final int DROPPED_CONTROL_PACKETS = 2;
    private static final DropReason[] REASONS = DropReason.values();
    /**
     * The packets this node lost, by place and reason, null before the first: at {@code ((port + 1) * reasons +
     * reason) * 3 + what}, port -1 for a drop at no port (no route), {@code what} one of the {@code DROPPED_}
     * indices. Written only by this node's partition (its own thread in a parallel run).
     */
    private long[] drops;

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

    /** Counts {@code p} as lost at {@code port} of this node (null: at no port) for {@code reason}. */
    void countDrop(Packet p, Port port, DropReason reason) {
        if (drops == null) {
            drops = new long[(ports.size() + 1) * REASONS.length * 3];
        }
        int at = ((port == null ? 0 : port.index + 1) * REASONS.length + reason.ordinal()) * 3;
        if (p.isData()) {
            drops[at + DROPPED_DATA_PACKETS]++;
            drops[at + DROPPED_PAYLOAD_BYTES] += p.payloadBytes;
        } else {
            drops[at + DROPPED_CONTROL_PACKETS]++;
        }
    }

    /** Whether this node lost any packet. */
    public boolean hasDrops() {
        return drops != null;
    }

    /**
     * What this node lost at port {@code port} (-1: at no port, i.e. without a route) for {@code reason}:
     * {@code what} is {@link #DROPPED_DATA_PACKETS}, {@link #DROPPED_PAYLOAD_BYTES} (bytes) or
     * {@link #DROPPED_CONTROL_PACKETS}; 0 when nothing was lost there.
     */
    public long dropped(int port, DropReason reason, int what) {
        if (drops == null) {
            return 0;
        }
        return drops[((port + 1) * REASONS.length + reason.ordinal()) * 3 + what];
    }
}
