package fabriclab.validation;

import fabriclab.simulation.TieOrder;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Tier;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.roce.RoceTransport;

/**
 * Go-back-N after the losses of a link going down, the scenario the RDMA model of HPCC's authors for ns-3
 * (aliyun/ns-3-alibabacloud, {@code scratch/NormalNetwork}) runs from {@code tools/rdma-reference/scenarios/gbn_linkdown/};
 * its outputs are in the dataset {@code rdma-ns3-gbn-linkdown}.
 *
 * <p>Host 0 (on switch 2) sends 1,000,000 B at time 0 to host 1 (on switch 3) over the direct link 2-3; a longer path
 * 2-4-3 is idle. At {@link #LINK_DOWN_PS} the link 2-3 fails in both directions and every switch routes around it at
 * the same instant (the reference's {@code LINK_DOWN 40 2 3}, which takes the link down and recomputes the routes in one
 * event): the packets on the wire and queued for it are lost, the flow continues over 2-4-3, the receiver answers the
 * first packet past the gap with a NACK, and the sender goes back to the gap. Every link 100 Gb/s with 1 us of
 * propagation, an ACK per packet, no congestion control (the reference: {@code QcnEnabled false}, so its DCQCN is never
 * notified), PFC with {@link RdmaReferenceIncast}'s thresholds for a 2 MiB buffer and three ports (nothing queues).
 */
public record RdmaReferenceGoBackN() {
    /** Payload of the flow, bytes (10^6). */
    public static final long BYTES = 1_000_000;
    /** When the link 2-3 goes down, ps after the start (40 us). */
    public static final long LINK_DOWN_PS = 40 * Time.US;
    /** Index of the link 2-3 in {@link #topology()}. */
    public static final int FAILED_LINK = 2;
    /** Ports of switches 2 and 3 (the reference's thresholds differ at switch 4, which has two; nothing queues there). */
    public static final int SWITCH_PORTS = 3;

    /** B: the reference's 2 MiB buffer less three ports' headroom and reserve, bytes. */
    public static long sharedBufferBytes() {
        return RdmaReferenceIncast.SWITCH_BUFFER_BYTES
                - SWITCH_PORTS * (RdmaReferenceIncast.HEADROOM_BYTES + RdmaReferenceIncast.RESERVE_BYTES);
    }

    /** Hosts 0 and 1, switches 2, 3, 4; links 0-2, 1-3, 2-3, 2-4, 4-3 (the reference's file order). */
    public static Topology topology() {
        long rate = RdmaReferenceIncast.RATE_BPS;
        long delay = RdmaReferenceIncast.DELAY_PS;
        return Topology.builder("a direct path and a two-hop detour").node("h0", Tier.HOST).node("h1", Tier.HOST)
                .node("s2", Tier.LEAF).node("s3", Tier.LEAF).node("s4", Tier.SPINE)
                .link("h0", "s2", rate, delay).link("h1", "s3", rate, delay).link("s2", "s3", rate, delay)
                .link("s2", "s4", rate, delay).link("s4", "s3", rate, delay).build();
    }

    /** Go-back-N RoCE without congestion control, an ACK per packet. */
    public static RoceTransport transport() {
        return RoceTransport.noCongestionControl().withReliableConnection(ReliableConnection.defaults().withAckEvery(1));
    }

    /** The scenario. */
    public Scenario scenario() {
        long b = sharedBufferBytes();
        SimulationConfig config = new SimulationConfig(RdmaReferenceIncast.MTU_BYTES, RdmaReferenceIncast.HEADER_BYTES, 1,
                new SwitchBuffer(b, b, EcnMarking.OFF), Forwarding.ecmp(HashFunction.CRC32, 7), 1, Time.US, 1_000);
        Pfc pfc = new Pfc(b / 8, b / 8 - RdmaReferenceIncast.PFC_THRESHOLD.xonOffsetBytes(), RdmaReferenceIncast.HEADROOM_BYTES,
                Pfc.MAX_QUANTA);
        return Scenario.builder(topology(), config).flow(new FlowSpec(0, 1, BYTES, 0, 0, 10000)).transport(transport())
                .pfc(pfc).pfcDynamicThreshold(RdmaReferenceIncast.PFC_THRESHOLD).failLink(FAILED_LINK, LINK_DOWN_PS, LINK_DOWN_PS)
                .name("go-back-N after link 2-3 goes down").tieOrder(TieOrder.SCHEDULING).build();
    }
}
