package fabriclab.loadbalancing.polarization;

import fabriclab.Parameters;
import fabriclab.loadbalancing.hash.EcmpHasher;

/**
 * One stage of ECMP decisions along a path: every switch of one fabric tier hashes with the same
 * configuration and chooses among {@code members} equal links (uplinks, parallel links or LAG
 * members). A path through a multi-tier fabric is a sequence of such stages, and polarization is
 * the correlation between their choices.
 *
 * @param hasher the switches' hash configuration
 * @param members links to choose from at each switch of this stage, at least 1
 */
public record HashStage(EcmpHasher hasher, int members) {
    /** Validates the stage. */
    public HashStage {
        Parameters.notNull("hasher", hasher);
        Parameters.atLeast("members", members, 1);
    }
}
