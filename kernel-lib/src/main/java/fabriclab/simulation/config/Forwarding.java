package fabriclab.simulation.config;

import fabriclab.Parameters;
import fabriclab.loadbalancing.hash.EcmpHasher;
import fabriclab.loadbalancing.hash.HashFunction;
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
 * </ul>
 *
 * @param mode the policy
 * @param function ECMP hash function
 * @param seed ECMP base seed
 * @param sameSeedEverywhere whether all switches use the same seed
 * @param selection hash-to-member mapping
 */
public record Forwarding(Mode mode, HashFunction function, int seed, boolean sameSeedEverywhere, PathSelection selection) {
    /** Multipath policy. */
    public enum Mode {
        /** Per-flow hashing. */
        ECMP,
        /** Per-packet uniform random choice. */
        SPRAY_RANDOM,
        /** Per-packet round robin. */
        SPRAY_ROUND_ROBIN
    }

    /** Validates. */
    public Forwarding {
        Parameters.notNull("mode", mode);
        Parameters.notNull("function", function);
        Parameters.notNull("selection", selection);
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

    /** The ECMP hasher of switch {@code switchIndex} (see the class comment). */
    public EcmpHasher hasherOf(int switchIndex) {
        int s = sameSeedEverywhere ? seed : seed + switchIndex * 0x9E3779B9;
        return EcmpHasher.of(function, s, 0, selection);
    }
}
