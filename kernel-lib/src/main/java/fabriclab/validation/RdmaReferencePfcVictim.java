package fabriclab.validation;

import fabriclab.simulation.TieOrder;
import fabriclab.Parameters;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Tier;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.fabric.Time;
import java.util.List;

/**
 * PFC pause propagation and head-of-line blocking on two tiers, the scenario the RDMA model of HPCC's authors for ns-3
 * (aliyun/ns-3-alibabacloud, {@code scratch/NormalNetwork}) runs from {@code tools/rdma-reference/scenarios/hol_dcqcn/}
 * and {@code hol_pfc/}; its outputs are the dataset {@code rdma-ns3-pfc-victim}.
 *
 * <p>Fabric: leaves 11 and 12 joined by spine 13 (the reference's node ids, which are ours: hosts first), every link
 * 100 Gb/s with 1 us of propagation delay. Leaf 11 holds hosts 0 to 3, leaf 12 hosts 4 to 7, the spine hosts 8 to 10.
 * Hosts 2, 3, 8, 9, 10 send nothing: they give every switch five ports, so that one shared buffer B (this simulator has
 * one buffer setting for every switch) is the reference's buffer less five ports' headroom and reserve at every
 * switch. Flows, 1,000,000 B each at time 0 on one priority:
 * <ul>
 *   <li>the incast: hosts 0 (across the spine), 4 and 5 to host 6;</li>
 *   <li>the victim: host 1 to host 7, whose port is never congested; it shares the uplink 11-13 and the link 13-12
 *       with host 0's incast flow, so when leaf 12 pauses the spine, and the spine pauses leaf 11, it waits behind the
 *       incast's packets.</li>
 * </ul>
 * With {@code dcqcn} the transport, marking and PFC are {@link RdmaReferenceIncast}'s (DCQCN of the reference, Kmin
 * 100 KB, Kmax 400 KB, Pmax 0.2, alpha 1/8 of the free shared buffer); without it no switch marks and no sender
 * changes its rate (the reference's {@code QcnEnabled false}: DCQCN runs but is never notified). The buffer is 1 MiB
 * ({@code BUFFER_SIZE 1}), so that PFC acts with three senders.
 *
 * @param dcqcn whether DCQCN reacts to ECN marks (false: PFC alone)
 */
public record RdmaReferencePfcVictim(boolean dcqcn) {
    /** Payload of each flow, bytes (10^6). */
    public static final long BYTES_PER_FLOW = 1_000_000;
    /** The reference's switch buffer, bytes (BUFFER_SIZE 1, MiB). */
    public static final long SWITCH_BUFFER_BYTES = 1L << 20;
    /** Ports of every switch. */
    public static final int SWITCH_PORTS = 5;
    /** Hosts, numbered 0 to 10. */
    public static final int HOSTS = 11;
    /** Node of leaf 0, leaf 1 and the spine. */
    public static final int LEAF0 = 11;
    /** Node of leaf 1 (the receivers'). */
    public static final int LEAF1 = 12;
    /** Node of the spine. */
    public static final int SPINE = 13;
    /** The incast's receiver. */
    public static final int INCAST_RECEIVER = 6;
    /** The victim's source and receiver. */
    public static final int VICTIM_SOURCE = 1;
    /** The victim's receiver. */
    public static final int VICTIM_RECEIVER = 7;
    /** The incast's senders, in the order of the reference's flow file. */
    public static final List<Integer> INCAST_SENDERS = List.of(0, 4, 5);

    /** B: the reference's buffer less every port's headroom and reserve, bytes (893,096 B). */
    public static long sharedBufferBytes() {
        return SWITCH_BUFFER_BYTES - SWITCH_PORTS * (RdmaReferenceIncast.HEADROOM_BYTES + RdmaReferenceIncast.RESERVE_BYTES);
    }

    /** The fabric: hosts 0 to 10, then leaves 11, 12 and the spine 13; links in the order of the reference's file. */
    public static Topology topology() {
        Topology.Builder b = Topology.builder("two leaves and a spine, five ports each");
        for (int h = 0; h < HOSTS; h++) {
            b.node("h" + h, Tier.HOST);
        }
        b.node("leaf0", Tier.LEAF).node("leaf1", Tier.LEAF).node("spine", Tier.SPINE);
        long rate = RdmaReferenceIncast.RATE_BPS;
        long delay = RdmaReferenceIncast.DELAY_PS;
        for (int h = 0; h < 4; h++) {
            b.link("h" + h, "leaf0", rate, delay);
        }
        for (int h = 4; h < 8; h++) {
            b.link("h" + h, "leaf1", rate, delay);
        }
        b.link("leaf0", "spine", rate, delay).link("leaf1", "spine", rate, delay);
        for (int h = 8; h < HOSTS; h++) {
            b.link("h" + h, "spine", rate, delay);
        }
        return b.build();
    }

    /** The transport: {@link RdmaReferenceIncast#transport()}, or without DCQCN the same reliable connection alone. */
    public RoceTransport transport() {
        return dcqcn ? RdmaReferenceIncast.transport()
                : RoceTransport.noCongestionControl().withReliableConnection(ReliableConnection.defaults().withAckEvery(1));
    }

    /** The flows in the order of the reference's flow file: 0 to 6, the victim 1 to 7, 4 to 6, 5 to 6. */
    public static List<FlowSpec> flows() {
        return List.of(new FlowSpec(0, INCAST_RECEIVER, BYTES_PER_FLOW, 0, 0, 10000),
                new FlowSpec(VICTIM_SOURCE, VICTIM_RECEIVER, BYTES_PER_FLOW, 0, 0, 10000),
                new FlowSpec(4, INCAST_RECEIVER, BYTES_PER_FLOW, 0, 0, 10000),
                new FlowSpec(5, INCAST_RECEIVER, BYTES_PER_FLOW, 0, 0, 10000));
    }

    /** Index of the victim's flow in {@link #flows()}. */
    public static final int VICTIM_FLOW = 1;

    /** The scenario, marking at enqueue (ours). */
    public Scenario scenario() {
        return scenario(SwitchBuffer.MarkingPoint.ENQUEUE);
    }

    /** The scenario with ECN marks decided at {@code markingPoint} (the reference's: {@code DEQUEUE}). */
    public Scenario scenario(SwitchBuffer.MarkingPoint markingPoint) {
        Parameters.notNull("markingPoint", markingPoint);
        long b = sharedBufferBytes();
        EcnMarking marking = dcqcn ? RdmaReferenceIncast.MARKING : EcnMarking.OFF;
        SimulationConfig config = new SimulationConfig(RdmaReferenceIncast.MTU_BYTES, RdmaReferenceIncast.HEADER_BYTES, 1,
                new SwitchBuffer(b, b, marking).withEcnMarkingPoint(markingPoint), Forwarding.ecmp(HashFunction.CRC32, 7), 1,
                Time.US, 1_000);
        Pfc pfc = new Pfc(b / 8, b / 8 - RdmaReferenceIncast.PFC_THRESHOLD.xonOffsetBytes(), RdmaReferenceIncast.HEADROOM_BYTES,
                Pfc.MAX_QUANTA);
        return Scenario.builder(topology(), config).flows(flows()).transport(transport()).pfc(pfc)
                .pfcDynamicThreshold(RdmaReferenceIncast.PFC_THRESHOLD)
                .name("PFC victim on two leaves and a spine, " + (dcqcn ? "DCQCN+PFC" : "PFC alone")).tieOrder(TieOrder.SCHEDULING).build();
    }
}
