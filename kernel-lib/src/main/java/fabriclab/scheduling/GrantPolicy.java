package fabriclab.scheduling;

/**
 * How a destination port splits its credit C among the requesting sources (002 section 3.1.2:
 * sum c_i <= C <= R). All policies are weighted fair: the next grant goes to the eligible source
 * with the smallest (granted bytes + grant) / weight.
 */
public enum GrantPolicy {
    /** Equal weights: round robin among requesting sources. */
    EQUAL,
    /** Weight = the source's total demand (bytes of its virtual queue at request time). */
    DEMAND_WEIGHTED,
    /** Weight = the source's path capacity (bottleneck of the intermediate links, 000 section 2). */
    PATH_WEIGHTED
}
