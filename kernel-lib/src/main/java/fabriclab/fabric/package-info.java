/**
 * The fabric vocabulary every fidelity level shares: time in picoseconds and serialisation
 * ({@link fabriclab.fabric.Time}), the fabric graph with named nodes and tiers
 * ({@link fabriclab.fabric.Topology}, {@link fabriclab.fabric.LinkSpec}, {@link fabriclab.fabric.Tier},
 * {@link fabriclab.fabric.LeafSpine}), priority flow control ({@link fabriclab.fabric.Pfc},
 * {@link fabriclab.fabric.PfcHeadroom}), ECN marking ({@link fabriclab.fabric.EcnMarking}) and the
 * incast traffic pattern ({@link fabriclab.fabric.Incast}). The analytic bounds, the fluid models and
 * the packet simulator take these same objects, so one scenario can be run through all three. This
 * package depends on nothing else in fabriclab but {@link fabriclab.Parameters}.
 */
package fabriclab.fabric;
