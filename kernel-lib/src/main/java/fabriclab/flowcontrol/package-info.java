/**
 * Flow control for incast in lossless Ethernet: the fluid incast without control
 * ({@link fabriclab.flowcontrol.FluidQueue#incast}), PFC on an incast and along a chain of hops
 * (per-ingress pause and resume with the thresholds of {@link fabriclab.fabric.Pfc}), PFC deadlock
 * (the buffer dependency graph of flows routed by name over a {@link fabriclab.fabric.Topology},
 * hook flows and their re-prioritisation, 003's example fabric) and the deadlock
 * detection/recovery watchdog. The traffic is a {@link fabriclab.fabric.Incast}. Sources: 002
 * (Cheng et al., ZTE Technology Journal 2025) section 3.1.2 and figure 7; 003 (intelligent lossless
 * network white paper) section 4.1.
 *
 * <p>Units throughout: rates in bit/s, sizes in bytes, times in seconds (the {@code fabric} records
 * count time in picoseconds; the models convert).
 */
package fabriclab.flowcontrol;
