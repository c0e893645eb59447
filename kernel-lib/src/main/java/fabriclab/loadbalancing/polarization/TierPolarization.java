package fabriclab.loadbalancing.polarization;

import fabriclab.Parameters;
import fabriclab.loadbalancing.analytics.BallsIntoBins;
import fabriclab.loadbalancing.flow.FiveTuple;
import java.util.ArrayList;
import java.util.List;

/**
 * Hash polarization across tiers: when two successive tiers (a leaf's uplink choice, then a
 * spine's choice among parallel links or a LAG; or the tiers of a three-tier fat tree) hash the same
 * 5-tuple with the same function, the second choice is a function of the first and some links are
 * never used (seed 000 section 1.2.1 "hash polarization"; seed 003 section 4.3.1 ECMP and LAG hash
 * the same 5-tuple).
 *
 * <p>Closed forms, for two tiers of m1 and m2 members taking the same hash value h:
 * <ul>
 *   <li>modulo: tier 1 fixes h mod m1, which fixes h mod g for g = gcd(m1, m2); tier 2 can then reach
 *       only m2 / g of its members, so at most a fraction {@code 1/g} of the tier-2 links is ever
 *       used ({@link #reachableFractionSameHashModulo});</li>
 *   <li>an affine hash (CRC or XOR fold) with a different seed gives h2 = h1 XOR const; for
 *       power-of-two m1, m2 this only relabels the members, so the same {@code 1/g} holds: a new
 *       seed does not cure polarization, a different function or bit window does;</li>
 *   <li>hash-threshold: tier-1 member j holds the hash interval [j/m1, (j+1)/m1), so tier 2 reaches
 *       only the members whose intervals overlap it ({@link #reachableFractionSameHashThreshold}).</li>
 * </ul>
 * With n flows on uniformly distributed hashes, the expected used fraction is
 * {@code (1/g)(1 - (1 - g/(m1 m2))^n)} for modulo with the same hash and
 * {@code 1 - (1 - 1/(m1 m2))^n} for independent tiers. {@link #simulate} measures real hash
 * functions on real 5-tuples for any number of tiers.
 */
public final class TierPolarization {
    private TierPolarization() {
    }

    /** Greatest common divisor. */
    static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private static void check(int m1, int m2) {
        Parameters.inRange("m1 (tier-1 members)", m1, 1, 1 << 24);
        Parameters.inRange("m2 (tier-2 members)", m2, 1, 1 << 24);
        if ((long) m1 * m2 > BallsIntoBins.MAX_LOAD_PATHS) {
            throw new IllegalArgumentException("m1 x m2 (tier-2 links) must be <= " + BallsIntoBins.MAX_LOAD_PATHS + ", got "
                    + m1 + " x " + m2);
        }
    }

    /** Fraction of tier-2 links reachable when both tiers use the same hash with modulo: {@code 1/gcd(m1, m2)}. */
    public static double reachableFractionSameHashModulo(int m1, int m2) {
        check(m1, m2);
        return 1.0 / gcd(m1, m2);
    }

    /**
     * Fraction of tier-2 links reachable when both tiers use the same hash with hash-threshold:
     * {@code sum_j (ceil((j+1) m2 / m1) - floor(j m2 / m1)) / (m1 m2)} (continuous hash space).
     */
    public static double reachableFractionSameHashThreshold(int m1, int m2) {
        check(m1, m2);
        long reach = 0;
        for (int j = 0; j < m1; j++) {
            long lo = (long) j * m2 / m1;
            long hi = ((long) (j + 1) * m2 + m1 - 1) / m1;
            reach += hi - lo;
        }
        return (double) reach / ((long) m1 * m2);
    }

    /** Expected used fraction of the m1 x m2 tier-2 links for n flows on independent tiers. */
    public static double expectedUsedFractionIndependent(int n, int m1, int m2) {
        check(m1, m2);
        return BallsIntoBins.expectedUsedFraction(n, m1 * m2);
    }

    /**
     * Expected used fraction of the tier-2 links for n flows when both tiers take the same hash
     * modulo their member counts: the flows spread uniformly over the {@code m1 m2 / g} reachable
     * links (exact when the hash is uniform over a multiple of lcm(m1, m2) values).
     */
    public static double expectedUsedFractionSameHashModulo(int n, int m1, int m2) {
        check(m1, m2);
        int g = gcd(m1, m2);
        return BallsIntoBins.expectedUsedFraction(n, m1 * m2 / g) / g;
    }

    /** {@code E[max] / (n / (m1 m2))} of tier-2 link loads for independent tiers. */
    public static double expectedMaxOverMeanIndependent(int n, int m1, int m2) {
        check(m1, m2);
        return BallsIntoBins.maxLoad(n, m1 * m2).meanMaxOverMean();
    }

    /** {@code E[max] / (n / (m1 m2))} of tier-2 link loads when both tiers take the same hash modulo: g times worse spread. */
    public static double expectedMaxOverMeanSameHashModulo(int n, int m1, int m2) {
        check(m1, m2);
        int g = gcd(m1, m2);
        return g * BallsIntoBins.maxLoad(n, m1 * m2 / g).meanMaxOverMean();
    }

    /**
     * Hashes every flow through the tiers in order and reports every tier's link usage. A flow at
     * tier t is on link {@code prefix_t = prefix_{t-1} * m_t + choice_t}; all switches of a tier
     * share that tier's configuration.
     *
     * @param flows the flows, not empty
     * @param tiers the hash stage of each tier, in path order, at least one; the product of member
     *              counts at most 2^24
     */
    public static List<PolarizationResult> simulate(List<FiveTuple> flows, List<HashStage> tiers) {
        Parameters.noNullElements("flows", flows);
        if (flows.isEmpty()) {
            throw new IllegalArgumentException("flows must not be empty");
        }
        Parameters.noNullElements("tiers", tiers);
        if (tiers.isEmpty()) {
            throw new IllegalArgumentException("tiers must contain at least 1 tier, got 0");
        }
        long links = 1;
        for (HashStage t : tiers) {
            Parameters.notNull("tier", t);
            links *= t.members();
            if (links > (1 << 24)) {
                throw new IllegalArgumentException("tiers: the product of member counts must be <= 2^24, got more");
            }
        }
        int[][] counts = new int[tiers.size()][];
        long size = 1;
        for (int t = 0; t < tiers.size(); t++) {
            size *= tiers.get(t).members();
            counts[t] = new int[(int) size];
        }
        for (FiveTuple f : flows) {
            int prefix = 0;
            for (int t = 0; t < tiers.size(); t++) {
                HashStage tier = tiers.get(t);
                prefix = prefix * tier.members() + tier.hasher().path(f, tier.members());
                counts[t][prefix]++;
            }
        }
        List<PolarizationResult> out = new ArrayList<>();
        for (int t = 0; t < tiers.size(); t++) {
            int used = 0;
            int max = 0;
            for (int c : counts[t]) {
                used += c > 0 ? 1 : 0;
                max = Math.max(max, c);
            }
            int l = counts[t].length;
            out.add(new PolarizationResult(t, l, (double) used / l, max / ((double) flows.size() / l), counts[t]));
        }
        return List.copyOf(out);
    }
}
