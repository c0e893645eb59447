package fabriclab.loadbalancing.hash;

import fabriclab.Parameters;
import fabriclab.loadbalancing.flow.FiveTuple;
import java.util.List;

/**
 * How many flows change path when one member of an ECMP group fails (seed 002 table 1 tests "one
 * link down" and "four links down"; a moved RDMA flow may see reordering or a transient). Any scheme
 * must move the flows of the failed member, a fraction near 1/N; plain modulo re-hashes over N - 1
 * members and moves most flows, hash-threshold (RFC 2992) about half, a resilient table only the
 * unavoidable ones.
 */
public final class MemberFailure {
    private MemberFailure() {
    }

    private static void check(List<FiveTuple> flows, EcmpHasher hasher, int members, int failed) {
        Parameters.noNullElements("flows", flows);
        if (flows.isEmpty()) {
            throw new IllegalArgumentException("flows must not be empty");
        }
        Parameters.notNull("hasher", hasher);
        Parameters.inRange("members", members, 2, ResilientHashGroup.MAX_BUCKETS);
        Parameters.inRange("failed", failed, 0, members - 1);
    }

    /**
     * Fraction of flows whose member changes when {@code failed} leaves a plain group: before, member
     * {@code hasher.path(t, N)}; after, the surviving members in their order, indexed by
     * {@code hasher.path(t, N - 1)} (the selection of the hasher: modulo or hash-threshold).
     *
     * @param members N, at least 2
     * @param failed index of the failed member, 0..N-1
     */
    public static double fractionMovedPlain(List<FiveTuple> flows, EcmpHasher hasher, int members, int failed) {
        check(flows, hasher, members, failed);
        int moved = 0;
        for (FiveTuple t : flows) {
            int before = hasher.path(t, members);
            int idx = hasher.path(t, members - 1);
            int after = idx < failed ? idx : idx + 1;
            moved += before != after ? 1 : 0;
        }
        return (double) moved / flows.size();
    }

    /**
     * Fraction of flows whose member changes in a {@link ResilientHashGroup} of {@code buckets}
     * buckets when {@code failed} leaves; the bucket is {@code hasher.hash(t) mod buckets}.
     */
    public static double fractionMovedResilient(List<FiveTuple> flows, EcmpHasher hasher, int members, int buckets, int failed) {
        check(flows, hasher, members, failed);
        Parameters.inRange("buckets", buckets, members, ResilientHashGroup.MAX_BUCKETS);
        ResilientHashGroup before = ResilientHashGroup.create(members, buckets);
        ResilientHashGroup after = before.withoutMember(failed);
        int moved = 0;
        for (FiveTuple t : flows) {
            int h = hasher.hash(t);
            moved += before.select(h) != after.select(h) ? 1 : 0;
        }
        return (double) moved / flows.size();
    }

    /** Fraction of flows on member {@code failed} before the failure (the minimum any scheme must move). */
    public static double fractionOnFailedMember(List<FiveTuple> flows, EcmpHasher hasher, int members, int failed) {
        check(flows, hasher, members, failed);
        int on = 0;
        for (FiveTuple t : flows) {
            on += hasher.path(t, members) == failed ? 1 : 0;
        }
        return (double) on / flows.size();
    }
}
