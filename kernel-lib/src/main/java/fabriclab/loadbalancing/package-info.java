/**
 * ECMP load balancing and hash polarization.
 *
 * <p>The papers' first complaint about RoCE fabrics is that per-flow ECMP "polarizes" under AI
 * training traffic: few, large, long-lived flows (low entropy), so some links carry several of them
 * while others idle (seed 000 Duan et al., section 1.2.1; seed 002 Cheng et al., challenge 1 and
 * figure 1; seed 003 Huawei white paper, section 4.3.1). The sub-packages turn that claim into
 * numbers:
 * <ul>
 *   <li>{@link fabriclab.loadbalancing.flow}: RoCEv2 5-tuples as a switch sees them, and the traffic
 *       of a training job;</li>
 *   <li>{@link fabriclab.loadbalancing.hash}: the hash functions switches use (CRC-16, CRC-32,
 *       CRC-32C, XOR folding, Toeplitz), seeds, and path selection (modulo, hash-threshold,
 *       resilient hashing);</li>
 *   <li>{@link fabriclab.loadbalancing.analytics}: n flows on m equal paths (balls into bins),
 *       exact distributions and Monte Carlo;</li>
 *   <li>{@link fabriclab.collectives.SynchronousCollective} (in the collectives package): what
 *       the imbalance costs a synchronous collective, and QP scaling;</li>
 *   <li>{@link fabriclab.loadbalancing.polarization}: correlated choices of successive tiers;</li>
 *   <li>{@link fabriclab.loadbalancing.flowlet}: flowlet splitting and why it does not help AI
 *       traffic.</li>
 * </ul>
 */
package fabriclab.loadbalancing;
