package fabriclab.simulation.transport;

import fabriclab.simulation.trace.Counters;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Transport;

/**
 * The part of a {@link TransportModel} that lives for one run: it creates each flow's endpoints
 * ({@link Transport}), holds what the flows of the run share (CTCC's probe stream per host pair),
 * attaches switch functions where the transport has them (GSE edges, iQCN congestion points), and
 * reports its counters. Package-private SPI: a {@link TransportModel} creates one per run.
 */
public abstract class TransportRun {
    public final Network net;

    public TransportRun(Network net) {
        this.net = net;
    }

    /** The runtime transport of flow {@code f}. */
    public abstract Transport newFlow(FlowState f);

    /**
     * The run's events are over (called once, before the result is assembled): the transport completes the
     * counters it can only know at the end (a go-back-N run classifies its timeouts as spurious or explained).
     */
    public void finish() {
    }

    /**
     * Adds the counters of the go-back-N flows {@code flows} to {@code out}: NAKs, timeouts, spurious timeouts,
     * failed queue pairs (for the runs of the transports built on {@link ReliableTransport}).
     */
    protected static void putReliableCounters(Counters.Builder out, Iterable<? extends ReliableTransport> flows) {
        long nacks = 0;
        long timeouts = 0;
        long spurious = 0;
        long failed = 0;
        for (ReliableTransport r : flows) {
            if (r != null) {
                nacks += r.nacks;
                timeouts += r.flow.timeouts();
                spurious += r.flow.spuriousTimeouts();
                failed += r.flow.failed() ? 1 : 0;
            }
        }
        out.put(TransportModel.NACKS, nacks);
        out.put(TransportModel.TIMEOUTS, timeouts);
        out.put(TransportModel.SPURIOUS_TIMEOUTS, spurious);
        out.put(TransportModel.FAILED_QPS, failed);
    }

    /** Classifies the timeouts of {@code flows} (see {@link ReliableTransport#classifyTimeouts}). */
    protected static void classifyTimeouts(Iterable<? extends ReliableTransport> flows) {
        for (ReliableTransport r : flows) {
            if (r != null) {
                r.classifyTimeouts();
            }
        }
    }

    /** Adds this run's counters (CNPs, containers, grants...) to {@code out}, which keeps only positive counts. */
    public void reportCounters(Counters.Builder out) {
    }

    /**
     * The smallest delay of a message this run sends between switches outside the links (GSE's requests and
     * grants), ps; {@code Long.MAX_VALUE} if it sends none. The parallel engine's lookahead is at most this.
     */
    public long messageLatencyPs() {
        return Long.MAX_VALUE;
    }

    /**
     * Event lanes a switch needs for this run's messages besides those of its ports (GSE: one per sending edge,
     * so that simultaneous messages have one order whatever the partitioning); 0 if it sends none.
     */
    public int messageLanes() {
        return 0;
    }

    /** Control packets this transport created inside the fabric (not at a host NIC). */
    public long fabricControlPackets() {
        return 0;
    }

    /**
     * Payload bytes of data packets this transport created inside the fabric (copies a switch function
     * resent, not sent by a NIC); counted in {@code SimulationResult.injectedBytes()}.
     */
    public long fabricInjectedBytes() {
        return 0;
    }

    /** Line rate, no acknowledgements, no retransmission: the runtime of {@link TransportModel.Uncontrolled}. */
    static final class LineRate extends TransportRun {
        LineRate(Network net) {
            super(net);
        }

        @Override
        public Transport newFlow(FlowState f) {
            return new Transport.LineRate(net, f);
        }
    }
}
