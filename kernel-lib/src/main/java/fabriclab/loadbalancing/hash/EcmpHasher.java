package fabriclab.loadbalancing.hash;

import fabriclab.Parameters;
import fabriclab.loadbalancing.flow.FiveTuple;
import java.util.List;

/**
 * One switch's ECMP configuration: hash function, seed, an optional rotation of the hash bits (the
 * "hash offset" or bit-selection knob of ASICs) and the way the hash picks a member.
 *
 * <p>{@code path(t, N)} = {@code selection.select(rotr(hash_seed(t), rotation), bits, N)}, where the
 * rotation is within the function's {@link HashFunction#bits()} bits. Immutable and thread-safe.
 */
public final class EcmpHasher {
    private final HashFunction function;
    private final int seed;
    private final int rotation;
    private final PathSelection selection;
    private final FlowHasher hasher;
    private final int bits;
    private final int mask;

    private EcmpHasher(HashFunction function, int seed, int rotation, PathSelection selection) {
        this.function = Parameters.notNull("function", function);
        this.bits = function.bits();
        this.seed = seed;
        this.rotation = Parameters.inRange("rotation", rotation, 0, bits - 1);
        this.selection = Parameters.notNull("selection", selection);
        this.hasher = function.hasher(seed);
        this.mask = bits == 32 ? -1 : (1 << bits) - 1;
    }

    /** Modulo selection, no rotation. */
    public static EcmpHasher of(HashFunction function, int seed) {
        return new EcmpHasher(function, seed, 0, PathSelection.MODULO);
    }

    /** Full configuration; {@code rotation} in [0, function.bits() - 1]. */
    public static EcmpHasher of(HashFunction function, int seed, int rotation, PathSelection selection) {
        return new EcmpHasher(function, seed, rotation, selection);
    }

    /** The same configuration with another seed. */
    public EcmpHasher withSeed(int newSeed) {
        return new EcmpHasher(function, newSeed, rotation, selection);
    }

    /** The same configuration with another rotation of the hash bits, in [0, function.bits() - 1]. */
    public EcmpHasher withRotation(int newRotation) {
        Parameters.inRange("newRotation", newRotation, 0, bits - 1);
        return new EcmpHasher(function, seed, newRotation, selection);
    }

    /** The same configuration with another selection method. */
    public EcmpHasher withSelection(PathSelection newSelection) {
        Parameters.notNull("newSelection", newSelection);
        return new EcmpHasher(function, seed, rotation, newSelection);
    }

    /** The hash function. */
    public HashFunction function() {
        return function;
    }

    /** The seed. */
    public int seed() {
        return seed;
    }

    /** The rotation of the hash bits. */
    public int rotation() {
        return rotation;
    }

    /** The selection method. */
    public PathSelection selection() {
        return selection;
    }

    /** The (rotated) hash of a 5-tuple, in the low {@link HashFunction#bits()} bits. */
    public int hash(FiveTuple t) {
        Parameters.notNull("t", t);
        int h = hasher.hash(t);
        if (rotation == 0) {
            return h;
        }
        return ((h >>> rotation) | (h << (bits - rotation))) & mask;
    }

    /**
     * The member in [0, members) this switch sends the flow to.
     *
     * @param members number of equal-cost members, at least 1
     */
    public int path(FiveTuple t, int members) {
        if (members < 1) {
            Parameters.atLeast("members", members, 1);
        }
        return selection.select(hash(t), bits, members);
    }

    /**
     * Flows per member for a set of flows (each flow counts once).
     *
     * @param flows the flows, not empty
     * @param members number of members, at least 1
     * @return array of length {@code members}, summing to {@code flows.size()}
     */
    public int[] countPerPath(List<FiveTuple> flows, int members) {
        Parameters.noNullElements("flows", flows);
        if (flows.isEmpty()) {
            throw new IllegalArgumentException("flows must not be empty");
        }
        Parameters.inRange("members", members, 1, ResilientHashGroup.MAX_BUCKETS);
        int[] counts = new int[members];
        for (FiveTuple t : flows) {
            counts[path(t, members)]++;
        }
        return counts;
    }

    @Override
    public String toString() {
        return function + " seed=0x" + Integer.toHexString(seed) + (rotation == 0 ? "" : " rot=" + rotation) + " " + selection;
    }
}
