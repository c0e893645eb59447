package fabriclab.simulation.transport.gse;

import fabriclab.simulation.trace.Counters;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Transport;
import fabriclab.simulation.transport.TransportRun;
import java.util.List;

/**
 * One run of {@link GseTransport}: hosts send at line rate ({@link Transport.LineRate}) and a
 * {@link GseEdge} on every switch with host ports schedules the fabric.
 */
final class GseRun extends TransportRun {
    private final List<GseEdge> edges;
    private final long controlLatencyPs;

    GseRun(Network net, GseTransport model) {
        super(net);
        long container = containerWireBytes(model.containerBytes(), net.config.mtuBytes(), net.config.headerBytes());
        long room = Math.min(net.config.buffer().sharedBytes(), net.config.buffer().perQueueLimitBytes());
        if (room < container) {
            throw new IllegalArgumentException("containerBytes must fit a switch's buffer: a container of "
                    + model.containerBytes() + " B is " + container + " B on the wire (packets of mtuBytes "
                    + net.config.mtuBytes() + " + headerBytes " + net.config.headerBytes() + "), but the switches hold "
                    + room + " B (config.buffer); a container that never fits is never sent");
        }
        this.edges = GseEdge.install(net, model);
        GseEdge.drawMessageOrders(net, edges);
        this.controlLatencyPs = model.controlLatencyPs();
    }

    @Override
    public long messageLatencyPs() {
        return controlLatencyPs;
    }

    @Override
    public int messageLanes() {
        return net.switches.length;
    }

    @Override
    public Transport newFlow(FlowState f) {
        return new Transport.LineRate(net, f);
    }

    @Override
    public void reportCounters(Counters.Builder out) {
        long containers = 0;
        long grants = 0;
        long reordered = 0;
        long pauses = 0;
        long voqPeak = 0;
        long reorderPeak = 0;
        long resent = 0;
        long packetsResent = 0;
        long duplicates = 0;
        long abandoned = 0;
        long requestsConfirmed = 0;
        long loopPeak = 0;
        long rtoPeak = 0;
        for (GseEdge e : edges) {
            resent += e.containersResent;
            packetsResent += e.packetsResent;
            duplicates += e.duplicatesDiscarded;
            abandoned += e.containersAbandoned;
            requestsConfirmed += e.requestsConfirmed;
            loopPeak = Math.max(loopPeak, e.confirmLoopPeakPs);
            rtoPeak = Math.max(rtoPeak, e.rtoPeakPs);
            containers += e.containers;
            grants += e.grants;
            reordered += e.containersReordered;
            pauses += e.localPauses();
            voqPeak = Math.max(voqPeak, e.voqPeakBytes);
            reorderPeak = Math.max(reorderPeak, e.reorderPeakBytes);
        }
        out.put(GseTransport.CONTAINERS, containers);
        out.put(GseTransport.GRANTS, grants);
        out.put(GseTransport.CONTAINERS_REORDERED, reordered);
        out.put(GseTransport.LOCAL_PAUSES, pauses);
        out.put(GseTransport.VOQ_PEAK_BYTES, voqPeak);
        out.put(GseTransport.REORDER_PEAK_BYTES, reorderPeak);
        out.put(GseTransport.CONTAINERS_RESENT, resent);
        out.put(GseTransport.PACKETS_RESENT, packetsResent);
        out.put(GseTransport.DUPLICATES_DISCARDED, duplicates);
        out.put(GseTransport.CONTAINERS_ABANDONED, abandoned);
        out.put(GseTransport.REPEATED_REQUESTS_CONFIRMED, requestsConfirmed);
        out.put(GseTransport.CONFIRM_LOOP_PEAK_PS, loopPeak);
        out.put(GseTransport.RESEND_TIMEOUT_PEAK_PS, rtoPeak);
    }

    /** Payload of the container copies the edges resent (they enter the fabric at an edge, not at a NIC). */
    @Override
    public long fabricInjectedBytes() {
        long b = 0;
        for (GseEdge e : edges) {
            b += e.resentPayloadBytes;
        }
        return b;
    }

    /** A container of {@code payload} bytes on the wire: its payload and a header per packet of up to {@code mtu}. */
    static long containerWireBytes(long payload, int mtu, int header) {
        return payload + (payload + mtu - 1) / mtu * header;
    }
}
