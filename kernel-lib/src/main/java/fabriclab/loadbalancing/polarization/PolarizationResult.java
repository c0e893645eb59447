package fabriclab.loadbalancing.polarization;

import fabriclab.Parameters;

/**
 * Link usage of one tier after a set of flows has been hashed through all tiers above it.
 *
 * @param tier 0-based tier index
 * @param links links in this tier (product of the member counts of tiers 0..tier)
 * @param usedFraction fraction of the tier's links carrying at least one flow
 * @param maxOverMean flows on the fullest link over the mean, {@code max / (n / links)}
 * @param flowsPerLink flow count of every link, indexed by the path prefix
 *     {@code ((c0 * m1 + c1) * m2 + c2)...}
 */
public record PolarizationResult(int tier, int links, double usedFraction, double maxOverMean, int[] flowsPerLink) {
    /** Keeps a private copy of the counts. */
    public PolarizationResult {
        Parameters.atLeast("tier", tier, 0);
        Parameters.atLeast("links", links, 1);
        Parameters.inRange("usedFraction", usedFraction, 0, 1);
        Parameters.nonNegative("maxOverMean", maxOverMean);
        flowsPerLink = Parameters.notNull("flowsPerLink", flowsPerLink).clone();
    }

    /** A copy of the flow count of every link. */
    @Override
    public int[] flowsPerLink() {
        return flowsPerLink.clone();
    }
}
