package fabriclab.simulation.config;

import fabriclab.Parameters;
import fabriclab.loadbalancing.hash.EcmpHasher;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.loadbalancing.flowlet.Flowlets;
import fabriclab.loadbalancing.hash.PathSelection;

/**
 * How a switch picks among equal-cost egress ports (all shortest-path next hops toward the
 * destination host).
 *
 * <ul>
 *   <li>{@link Mode#ECMP}: per flow, with the real hash functions of switches
 *       ({@link EcmpHasher}): switch {@code k} uses {@code EcmpHasher.of(function, seed_k, 0,
 *       selection)} with {@code seed_k = seed} if {@code sameSeedEverywhere} (which reproduces hash
 *       polarisation, seed 003 section 4.3.1) and otherwise {@code seed_k = seed + k * 0x9E3779B9}.
 *       Members are the candidate ports in port order.</li>
 *   <li>{@link Mode#SPRAY_RANDOM}: every packet independently uniform over the candidates, from the
 *       run's seeded generator.</li>
 *   <li>{@link Mode#SPRAY_ROUND_ROBIN}: every packet to the next candidate in a per-(switch,
 *       destination) round robin.</li>
 *   <li>{@link Mode#ADAPTIVE_PACKET}: adaptive routing per packet: every packet to the candidate whose egress queue
 *       holds the fewest bytes at that instant (all priorities, the packet in transmission included: the local egress
 *       queue occupancy that the switches' adaptive routing reads: NVIDIA Spectrum adaptive routing "selecting forwarding
 *       paths dynamically based on the state of the switch, such as queue occupancy and port utilization", NetQ 4.8
 *       user guide, Monitor Adaptive Routing; Broadcom-based dynamic load balancing (DLB) grading each ECMP member into
 *       quality bands from its port load and "the amount of traffic enqueued on each ECMP link", Juniper Junos
 *       AI-ML Evo guide, Customize Egress Port Link Quality Metrics for DLB). The bytes are compared exactly, not
 *       quantised into bands. Ties go to the first tied candidate in port order starting from the one after this
 *       switch's previous choice toward that destination (a per-(switch, destination) rotation, so that equal queues,
 *       among them empty ones, are used in turn); no random draw.</li>
 *   <li>{@link Mode#ADAPTIVE_FLOWLET}: adaptive routing per flowlet: a packet of a flow (one direction) whose previous
 *       packet passed this switch more than {@code flowletGapPs} earlier ({@link Flowlets#startsNew}), or the first one,
 *       takes the least-queued candidate as above; the others follow the flowlet's port. The gap is the DLB
 *       "inactivity interval" (default 256 us in Juniper Apstra 6.0's DLB policy, Configure Global Load Balancing;
 *       htsim's {@code -ar_sticky_delta} defaults to 10 us, csg-htsim {@code main_roce.cpp}).</li>
 * </ul>
 *
 * @param mode the policy
 * @param function ECMP hash function
 * @param seed ECMP base seed
 * @param sameSeedEverywhere whether all switches use the same seed
 * @param selection hash-to-member mapping
 * @param flowletGapPs the flowlet inactivity interval of {@link Mode#ADAPTIVE_FLOWLET} [ps], at least 0 (the other
 *     modes ignore it)
 */
public record Forwarding(Mode mode, HashFunction function, int seed, boolean sameSeedEverywhere, PathSelection selection,
        long flowletGapPs) {
    /** The flowlet inactivity interval of Juniper Apstra 6.0's default DLB policy: 256 us [ps]. */
    public static final long DLB_INACTIVITY_INTERVAL_PS = 256_000_000L;

    /** Multipath policy. */
    public enum Mode {
        /** Per-flow hashing. */
        ECMP,
        /** Per-packet uniform random choice. */
        SPRAY_RANDOM,
        /** Per-packet round robin. */
        SPRAY_ROUND_ROBIN,
        /** Adaptive routing per packet: the least-queued candidate. */
        ADAPTIVE_PACKET,
        /** Adaptive routing per flowlet: the least-queued candidate at each flowlet's first packet. */
        ADAPTIVE_FLOWLET;

        /** Whether the switch chooses by egress queue depth. */
        public boolean adaptive() {
            return this == ADAPTIVE_PACKET || this == ADAPTIVE_FLOWLET;
        }
    }

    /** Validates. */
    public Forwarding {
        Parameters.notNull("mode", mode);
        Parameters.notNull("function", function);
        Parameters.notNull("selection", selection);
        Parameters.atLeast("flowletGapPs", flowletGapPs, 0);
    }

    /** A policy without a flowlet gap (every mode but {@link Mode#ADAPTIVE_FLOWLET}, which then splits at every gap). */
    public Forwarding(Mode mode, HashFunction function, int seed, boolean sameSeedEverywhere, PathSelection selection) {
        this(mode, function, seed, sameSeedEverywhere, selection, 0);
    }

    /** ECMP with CRC-32, modulo selection, per-switch seeds derived from {@code seed}. */
    public static Forwarding ecmp(HashFunction function, int seed) {
        return new Forwarding(Mode.ECMP, function, seed, false, PathSelection.MODULO);
    }

    /** Per-packet random spraying. */
    public static Forwarding sprayRandom() {
        return new Forwarding(Mode.SPRAY_RANDOM, HashFunction.CRC32, 0, false, PathSelection.MODULO);
    }

    /** Per-packet round-robin spraying. */
    public static Forwarding sprayRoundRobin() {
        return new Forwarding(Mode.SPRAY_ROUND_ROBIN, HashFunction.CRC32, 0, false, PathSelection.MODULO);
    }

    /** Adaptive routing per packet (the least-queued candidate). */
    public static Forwarding adaptivePerPacket() {
        return new Forwarding(Mode.ADAPTIVE_PACKET, HashFunction.CRC32, 0, false, PathSelection.MODULO, 0);
    }

    /**
     * Adaptive routing per flowlet.
     *
     * @param flowletGapPs inactivity interval that starts a new flowlet [ps], at least 0
     */
    public static Forwarding adaptivePerFlowlet(long flowletGapPs) {
        Parameters.atLeast("flowletGapPs", flowletGapPs, 0);
        return new Forwarding(Mode.ADAPTIVE_FLOWLET, HashFunction.CRC32, 0, false, PathSelection.MODULO, flowletGapPs);
    }

    /** The ECMP hasher of switch {@code switchIndex} (see the class comment). */
    public EcmpHasher hasherOf(int switchIndex) {
        int s = sameSeedEverywhere ? seed : seed + switchIndex * 0x9E3779B9;
        return EcmpHasher.of(function, s, 0, selection);
    }
}
