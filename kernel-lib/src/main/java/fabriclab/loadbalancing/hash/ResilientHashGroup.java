package fabriclab.loadbalancing.hash;

import fabriclab.Parameters;
import java.util.Arrays;

/**
 * A resilient-hashing ECMP group: a table of B buckets, each holding a member; a flow goes to bucket
 * {@code hash mod B}. When a member fails only its buckets are handed to the survivors (spread so
 * every survivor gains at most one bucket more than another), so flows on the other members keep
 * their path. A plain modulo-N group moves most flows when N changes; this one moves only the
 * failed member's share, 1/N of the flows, which is the minimum possible.
 *
 * <p>Immutable: {@link #withoutMember} and {@link #withMember} return new tables. Members are
 * identified by integers 0..(capacity-1).
 */
public final class ResilientHashGroup {
    private final int[] buckets;
    private final boolean[] alive;

    private ResilientHashGroup(int[] buckets, boolean[] alive) {
        this.buckets = buckets;
        this.alive = alive;
    }

    /**
     * A group of {@code members} live members over {@code bucketCount} buckets, filled round-robin
     * (bucket b holds member b mod members).
     *
     * @param members number of members, at least 1
     * @param bucketCount number of buckets, at least {@code members}
     */
    /** The most buckets (and members) a group takes, 2^24 (switches use up to about 2^16). */
    public static final int MAX_BUCKETS = 1 << 24;

    public static ResilientHashGroup create(int members, int bucketCount) {
        Parameters.inRange("members", members, 1, MAX_BUCKETS);
        Parameters.inRange("bucketCount", bucketCount, members, MAX_BUCKETS);
        int[] b = new int[bucketCount];
        for (int i = 0; i < bucketCount; i++) {
            b[i] = i % members;
        }
        boolean[] alive = new boolean[members];
        Arrays.fill(alive, true);
        return new ResilientHashGroup(b, alive);
    }

    /** Number of buckets. */
    public int bucketCount() {
        return buckets.length;
    }

    /** Number of member slots (live or failed). */
    public int capacity() {
        return alive.length;
    }

    /** Whether member {@code m} is live. */
    public boolean isAlive(int m) {
        Parameters.inRange("m (member)", m, 0, alive.length - 1);
        return alive[m];
    }

    /** Number of live members. */
    public int liveMembers() {
        int c = 0;
        for (boolean a : alive) {
            c += a ? 1 : 0;
        }
        return c;
    }

    /** The member holding bucket {@code b}. */
    public int bucket(int b) {
        Parameters.inRange("bucket", b, 0, buckets.length - 1);
        return buckets[b];
    }

    /** Buckets held by each member slot. */
    public int[] bucketsPerMember() {
        int[] c = new int[alive.length];
        for (int m : buckets) {
            c[m]++;
        }
        return c;
    }

    /** The member for a hash value: bucket {@code hash mod bucketCount} (hash taken as unsigned 32-bit). */
    public int select(int hash) {
        return buckets[(int) Long.remainderUnsigned(hash & 0xFFFFFFFFL, buckets.length)];
    }

    /**
     * The table after member {@code m} fails: its buckets go, one at a time, to the live member with
     * the fewest buckets (lowest index on ties). Other buckets are untouched.
     *
     * @throws IllegalArgumentException if {@code m} is out of range, already failed, or the last live member
     */
    public ResilientHashGroup withoutMember(int m) {
        Parameters.inRange("m (member)", m, 0, alive.length - 1);
        if (!alive[m]) {
            throw new IllegalArgumentException("m (member) must be a live member, got " + m + ", which has already failed");
        }
        if (liveMembers() == 1) {
            throw new IllegalArgumentException("m (member) must not be the last live member (a group needs at least 1), got " + m);
        }
        boolean[] a = alive.clone();
        a[m] = false;
        int[] b = buckets.clone();
        int[] count = bucketsPerMember();
        count[m] = Integer.MAX_VALUE;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == m) {
                int best = -1;
                for (int j = 0; j < a.length; j++) {
                    if (a[j] && (best < 0 || count[j] < count[best])) {
                        best = j;
                    }
                }
                b[i] = best;
                count[best]++;
            }
        }
        return new ResilientHashGroup(b, a);
    }

    /**
     * The table after failed member {@code m} returns: it takes buckets from the members holding the
     * most until it holds its fair share (floor(B / live)). Only the buckets it takes change.
     */
    public ResilientHashGroup withMember(int m) {
        Parameters.inRange("m (member)", m, 0, alive.length - 1);
        if (alive[m]) {
            throw new IllegalArgumentException("m (member) must be a failed member, got " + m + ", which is already live");
        }
        boolean[] a = alive.clone();
        a[m] = true;
        int[] b = buckets.clone();
        int[] count = bucketsPerMember();
        int live = liveMembers() + 1;
        int share = b.length / live;
        while (count[m] < share) {
            int donor = -1;
            for (int j = 0; j < a.length; j++) {
                if (a[j] && j != m && (donor < 0 || count[j] > count[donor])) {
                    donor = j;
                }
            }
            for (int i = b.length - 1; i >= 0; i--) {
                if (b[i] == donor) {
                    b[i] = m;
                    count[donor]--;
                    count[m]++;
                    break;
                }
            }
        }
        return new ResilientHashGroup(b, a);
    }
}
