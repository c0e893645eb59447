package fabriclab.loadbalancing.polarization;

import fabriclab.Parameters;
import fabriclab.loadbalancing.hash.EcmpHasher;

/**
 * One tier of ECMP decisions: every switch of the tier hashes with the same configuration and
 * chooses among {@code members} equal links (uplinks, parallel links or LAG members).
 *
 * @param hasher the switches' hash configuration
 * @param members links to choose from at each switch of this tier, at least 1
 */
public record Tier(EcmpHasher hasher, int members) {
    /** Validates the tier. */
    public Tier {
        Parameters.notNull("hasher", hasher);
        Parameters.atLeast("members", members, 1);
    }
}
