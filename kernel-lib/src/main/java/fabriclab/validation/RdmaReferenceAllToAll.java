package fabriclab.validation;

import fabriclab.simulation.TieOrder;
import fabriclab.Parameters;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Tier;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * DCQCN all-to-all on a small leaf-spine with hashed uplinks, the scenario the RDMA model of HPCC's authors for ns-3
 * (aliyun/ns-3-alibabacloud, {@code scratch/NormalNetwork}) runs from {@code tools/rdma-reference/scenarios/a2a_s0/}
 * to {@code a2a_s9/} (four spines) and {@code a2a_1spine/} (one spine); its outputs are the dataset
 * {@code rdma-ns3-alltoall}.
 *
 * <p>Fabric: 16 hosts (0 to 15) on 4 leaves, four hosts each; every leaf has one uplink to each of S spines; every
 * link 100 Gb/s with 1 us of propagation delay. The spines carry idle hosts (4 + S - 4 = S each, after the active
 * hosts) so that every switch has 4 + S ports: one shared buffer B (this simulator has one buffer setting for every
 * switch) then is the reference's 2 MiB less 4 + S ports' headroom and reserve at every switch, as in
 * {@link RdmaReferencePfcVictim}. Nodes are numbered as in the reference's topology file: active hosts, idle hosts,
 * leaves, spines.
 *
 * <p>Traffic: every active host sends {@value #BYTES_PER_FLOW} B to each of the 15 others (240 flows) at time 0, one
 * queue pair each, on one priority, in the reference's flow-file order (source-major, destinations ascending).
 * Transport, marking and PFC are {@link RdmaReferenceIncast}'s (the reference's DCQCN, Kmin 100 KB, Kmax 400 KB,
 * Pmax 0.2, alpha 1/8 of the free shared buffer, 27,000 B headroom per port).
 *
 * <p>ECMP: each switch hashes a flow's five-tuple to pick among its equal-cost next hops. The reference hashes
 * (source IP, destination IP, source port | destination port &lt;&lt; 16) with a 32-bit Murmur3 seeded with the
 * switch's node id and takes it modulo the next hops; its runs differ in the flows' destination port (100 to 109),
 * which Murmur3, not linear, turns into a fresh path choice. Ours hashes with CRC-32 and per-switch seeds derived from
 * {@link #ecmpSeed}; CRC-32 is linear, so a seed, or any change common to every flow's tuple, only XORs one constant
 * into every hash at a switch and leaves the partition of flows over its uplinks as it was. Our runs therefore also
 * draw every flow's source port from {@link #ecmpSeed} (a RoCE NIC picks a queue pair's source port, the tuple's
 * entropy). Neither reproduces the other's path choice, so the two are compared as distributions over seeds.
 *
 * @param spines S, the spines (1: every flow has one path)
 * @param ecmpSeed our ECMP base seed
 */
public record RdmaReferenceAllToAll(int spines, int ecmpSeed) {
    /** Leaves. */
    public static final int LEAVES = 4;
    /** Active hosts per leaf. */
    public static final int HOSTS_PER_LEAF = 4;
    /** Active hosts, 0 to 15. */
    public static final int HOSTS = LEAVES * HOSTS_PER_LEAF;
    /** Payload of each flow, bytes. */
    public static final long BYTES_PER_FLOW = 256_000;
    /** The reference's switch buffer, bytes (BUFFER_SIZE 2, MiB). */
    public static final long SWITCH_BUFFER_BYTES = 2L << 20;

    /** Validates. */
    public RdmaReferenceAllToAll {
        Parameters.inRange("spines", spines, 1, 8);
    }

    /** Ports of every switch: 4 + S. */
    public int switchPorts() {
        return HOSTS_PER_LEAF + spines;
    }

    /** Idle hosts on each spine, S (so that a spine's 4 leaf ports and they make 4 + S). */
    public int idleHostsPerSpine() {
        return switchPorts() - LEAVES;
    }

    /** B: the reference's buffer less every port's headroom and reserve, bytes (1,848,384 B for S = 4). */
    public long sharedBufferBytes() {
        return SWITCH_BUFFER_BYTES - switchPorts() * (RdmaReferenceIncast.HEADROOM_BYTES + RdmaReferenceIncast.RESERVE_BYTES);
    }

    /** The fabric, with links in the order of the reference's topology file. */
    public Topology topology() {
        Topology.Builder b = Topology.builder(LEAVES + " leaves x " + HOSTS_PER_LEAF + " hosts, " + spines + " spines");
        int idle = spines * idleHostsPerSpine();
        for (int h = 0; h < HOSTS + idle; h++) {
            b.node("h" + h, Tier.HOST);
        }
        for (int l = 0; l < LEAVES; l++) {
            b.node("leaf" + l, Tier.LEAF);
        }
        for (int s = 0; s < spines; s++) {
            b.node("spine" + s, Tier.SPINE);
        }
        long rate = RdmaReferenceIncast.RATE_BPS;
        long delay = RdmaReferenceIncast.DELAY_PS;
        for (int l = 0; l < LEAVES; l++) {
            for (int h = 0; h < HOSTS_PER_LEAF; h++) {
                b.link("h" + (l * HOSTS_PER_LEAF + h), "leaf" + l, rate, delay);
            }
        }
        for (int l = 0; l < LEAVES; l++) {
            for (int s = 0; s < spines; s++) {
                b.link("leaf" + l, "spine" + s, rate, delay);
            }
        }
        for (int s = 0; s < spines; s++) {
            for (int p = 0; p < idleHostsPerSpine(); p++) {
                b.link("h" + (HOSTS + s * idleHostsPerSpine() + p), "spine" + s, rate, delay);
            }
        }
        return b.build();
    }

    /**
     * The 240 flows, source-major, destinations ascending, all at 0; each flow's source port drawn uniformly from 49152
     * to 65535 by a {@link SplittableRandom} seeded with {@link #ecmpSeed}, in that order.
     */
    public List<FlowSpec> flows() {
        SplittableRandom ports = new SplittableRandom(ecmpSeed);
        List<FlowSpec> out = new ArrayList<>();
        for (int a = 0; a < HOSTS; a++) {
            for (int d = 0; d < HOSTS; d++) {
                if (a != d) {
                    out.add(new FlowSpec(a, d, BYTES_PER_FLOW, 0, 0, ports.nextInt(49152, 65536)));
                }
            }
        }
        return out;
    }

    /** The scenario, marking at enqueue (ours). */
    public Scenario scenario() {
        return scenario(SwitchBuffer.MarkingPoint.ENQUEUE);
    }

    /** The scenario with ECN marks decided at {@code markingPoint} (the reference's: {@code DEQUEUE}). */
    public Scenario scenario(SwitchBuffer.MarkingPoint markingPoint) {
        return scenario(markingPoint, null);
    }

    /**
     * The scenario with ECN marks decided at {@code markingPoint} and the NICs' DCQCN rate limiter {@code tokenBucket}:
     * null for ours (packet spacing, one packet per turn), {@link RoceTransport.TokenBucket#reference()} for the
     * reference's (a token bucket with burst service, {@code TxDequeueMode DWRR}).
     */
    public Scenario scenario(SwitchBuffer.MarkingPoint markingPoint, RoceTransport.TokenBucket tokenBucket) {
        Parameters.notNull("markingPoint", markingPoint);
        long b = sharedBufferBytes();
        SimulationConfig config = new SimulationConfig(RdmaReferenceIncast.MTU_BYTES, RdmaReferenceIncast.HEADER_BYTES, 1,
                new SwitchBuffer(b, b, RdmaReferenceIncast.MARKING).withEcnMarkingPoint(markingPoint),
                Forwarding.ecmp(HashFunction.CRC32, ecmpSeed), 1, 0, 0);
        Pfc pfc = new Pfc(b / 8, b / 8 - RdmaReferenceIncast.PFC_THRESHOLD.xonOffsetBytes(), RdmaReferenceIncast.HEADROOM_BYTES,
                Pfc.MAX_QUANTA);
        return Scenario.builder(topology(), config).flows(flows()).transport(RdmaReferenceIncast.transport().withTokenBucket(tokenBucket)).pfc(pfc)
                .pfcDynamicThreshold(RdmaReferenceIncast.PFC_THRESHOLD)
                .name("DCQCN all-to-all, " + spines + (spines == 1 ? " spine" : " spines") + ", ECMP seed " + ecmpSeed
                        + (tokenBucket == null ? "" : ", the reference's NIC rule (token bucket, bursts)")).tieOrder(TieOrder.SCHEDULING).build();
    }
}
