package fabriclab.simulation.transport.uec;

import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Switch;
import fabriclab.simulation.element.Transport;
import fabriclab.simulation.trace.Counters;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.TransportRun;

/**
 * One run of {@link UecTransport}: derives the fabric's base RTT, BDP, trimming threshold, retransmission timeout and
 * NSCC constants, turns trimming on at every switch, creates a {@link UecFlow} per flow and reports the counters.
 */
final class UecRun extends TransportRun {
    private final UecTransport model;
    private final UecFlow[] flows;
    /** RCCC: the credit pacer of each receiving host (null until a flow into it is created, or with RCCC off). */
    private final CreditPacer[] pacers;
    final long baseRttPs;
    final long bdpBytes;
    final long trimThresholdBytes;
    final long rtoPs;
    final Nscc.Constants constants;

    UecRun(Network net, UecTransport model) {
        super(net);
        this.model = model;
        this.flows = new UecFlow[net.workload().flows.size()];
        this.pacers = new CreditPacer[net.hosts.length];
        int mtu = net.config.mtuBytes();
        int packetWire = mtu + net.config.headerBytes();
        int[] sources = net.workload().flows.stream().mapToInt(f -> f.spec.source()).distinct().toArray();
        long t = model.baseRttPs();
        if (t == 0) {
            t = longestBaseRttPs(net.topology, sources, packetWire, model.controlBytes());
        }
        this.baseRttPs = Math.max(1, t);
        long rate = lineRate(net, sources);
        this.bdpBytes = Math.max(1, Math.round(rate / 8.0 * baseRttPs / 1e12));
        this.trimThresholdBytes = model.trimThresholdBytes() > 0 ? model.trimThresholdBytes()
                : Math.max(packetWire, (long) Math.ceil((double) bdpBytes / packetWire) * packetWire);
        this.rtoPs = model.retransmissionTimeoutPs() > 0 ? model.retransmissionTimeoutPs()
                : 15 * Time.US + 6 * Time.serializationPs(trimThresholdBytes, rate);
        this.constants = model.nscc().derive(rate, baseRttPs, mtu, packetWire, model.trimming());
        if (model.trimming()) {
            Switch.Trimming trimming = new Switch.Trimming(trimThresholdBytes, model.trimmedWireBytes());
            for (Switch sw : net.switches) {
                sw.attachTrimming(trimming);
            }
        }
    }

    /** The fastest line rate of the flows' sources (the NSCC BDP's rate), bit/s. */
    private static long lineRate(Network net, int[] sources) {
        long rate = 0;
        for (int s : sources) {
            rate = Math.max(rate, net.hosts[s].nic().link.rateBitsPerSecond);
        }
        return rate > 0 ? rate : net.hosts[0].nic().link.rateBitsPerSecond;
    }

    /**
     * The fabric's base RTT by the reference simulator's rule ({@code main_uec.cpp}, {@code calculate_rtt}), ps: over
     * the shortest paths (fewest links) from {@code sources} to every host, the largest sum over the path's links of
     * twice the propagation delay plus the serialization of a {@code dataWireBytes} packet and of a
     * {@code ackWireBytes} acknowledgement at the link's rate.
     */
    static long longestBaseRttPs(Topology topology, int[] sources, int dataWireBytes, int ackWireBytes) {
        return topology.longestShortestPathCost(sources, l -> 2 * l.propagationPs()
                + Time.serializationPs(dataWireBytes, l.rateBitsPerSecond())
                + Time.serializationPs(ackWireBytes, l.rateBitsPerSecond()));
    }

    @Override
    public Transport newFlow(FlowState f) {
        CreditPacer pacer = null;
        if (model.rccc().enabled()) {
            int d = f.spec.destination();
            if (pacers[d] == null) {
                pacers[d] = new CreditPacer(model.rccc(), net.hosts[d].nic().link.rateBitsPerSecond, net.config.mtuBytes(),
                        Math.max(1, Math.round(model.rccc().maxCreditBdp() * bdpBytes)));
            }
            pacer = pacers[d];
        }
        UecFlow u = new UecFlow(net, f, model, constants, rtoPs, pacer, bdpBytes);
        flows[f.id] = u;
        return u;
    }

    @Override
    public void finish() {
        for (UecFlow u : flows) {
            if (u != null) {
                u.classifyTimeouts();
            }
        }
    }

    @Override
    public void reportCounters(Counters.Builder out) {
        long nacks = 0;
        long timeouts = 0;
        long spurious = 0;
        long failed = 0;
        long headers = 0;
        long resent = 0;
        long up = 0;
        long down = 0;
        long md = 0;
        long qa = 0;
        long recycled = 0;
        long explored = 0;
        for (UecFlow u : flows) {
            if (u == null) {
                continue;
            }
            nacks += u.nacks;
            timeouts += u.flow.timeouts();
            spurious += u.flow.spuriousTimeouts();
            failed += u.flow.failed() ? 1 : 0;
            headers += u.headersReceived;
            resent += u.retransmits;
            up += u.windowIncreases;
            down += u.windowDecreases;
            md += u.multiplicativeDecreases;
            qa += u.quickAdapts;
            recycled += u.recycledEntropies();
            explored += u.exploredEntropies();
        }
        long trims = 0;
        long trimmedBytes = 0;
        for (Switch sw : net.switches) {
            trims += sw.trimmedPackets();
            trimmedBytes += sw.trimmedPayloadBytes();
        }
        out.put(TransportModel.NACKS, nacks);
        out.put(TransportModel.TIMEOUTS, timeouts);
        out.put(TransportModel.SPURIOUS_TIMEOUTS, spurious);
        out.put(TransportModel.FAILED_QPS, failed);
        out.put(UecTransport.TRIMS, trims);
        out.put(UecTransport.TRIMMED_BYTES, trimmedBytes);
        out.put(UecTransport.TRIMMED_RECEIVED, headers);
        out.put(UecTransport.RETRANSMITS, resent);
        out.put(UecTransport.WINDOW_INCREASES, up);
        out.put(UecTransport.WINDOW_DECREASES, down);
        out.put(UecTransport.MULTIPLICATIVE_DECREASES, md);
        out.put(UecTransport.QUICK_ADAPTS, qa);
        out.put(UecTransport.RECYCLED_ENTROPIES, recycled);
        out.put(UecTransport.EXPLORED_ENTROPIES, explored);
        if (model.rccc().enabled()) {
            long credits = 0;
            long creditBytes = 0;
            long requests = 0;
            for (CreditPacer p : pacers) {
                if (p != null) {
                    credits += p.creditPackets;
                    creditBytes += p.creditBytes;
                }
            }
            for (UecFlow u : flows) {
                if (u != null) {
                    requests += u.creditRequests;
                }
            }
            out.put(UecTransport.CREDITS, credits);
            out.put(UecTransport.CREDIT_BYTES, creditBytes);
            out.put(UecTransport.CREDIT_REQUESTS, requests);
        }
    }
}
