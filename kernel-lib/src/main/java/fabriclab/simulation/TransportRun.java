package fabriclab.simulation;

import java.util.Map;

/**
 * The part of a {@link TransportModel} that lives for one run: it creates each flow's endpoints
 * ({@link Transport}), holds what the flows of the run share (CTCC's probe stream per host pair),
 * attaches switch functions where the transport has them (GSE edges, iQCN congestion points), and
 * reports its counters. Package-private SPI: a {@link TransportModel} creates one per run.
 */
abstract class TransportRun {
    final Network net;

    TransportRun(Network net) {
        this.net = net;
    }

    /** The runtime transport of flow {@code f}. */
    abstract Transport newFlow(FlowState f);

    /** Adds this run's named counters (CNPs, containers, grants...) to {@code out}; only non-zero values. */
    void reportCounters(Map<String, Long> out) {
    }

    /**
     * Called once the parallel engine has spread the nodes over its partitions, before the run: what this run needs
     * only in the parallel engine (GSE's order of the edges' messages at each edge).
     */
    void partitioned() {
    }

    /** Control packets this transport created inside the fabric (not at a host NIC). */
    long fabricControlPackets() {
        return 0;
    }

    /**
     * Payload bytes of data packets this transport created inside the fabric (copies a switch function
     * resent, not sent by a NIC); counted in {@link SimulationResult#injectedBytes()}.
     */
    long fabricInjectedBytes() {
        return 0;
    }

    /** Puts {@code value} under {@code name} if it is positive. */
    static void put(Map<String, Long> out, String name, long value) {
        if (value > 0) {
            out.put(name, value);
        }
    }

    /** Line rate, no acknowledgements, no retransmission: the runtime of {@link TransportModel.Uncontrolled}. */
    static final class LineRate extends TransportRun {
        LineRate(Network net) {
            super(net);
        }

        @Override
        Transport newFlow(FlowState f) {
            return new Transport.LineRate(net, f);
        }
    }
}
