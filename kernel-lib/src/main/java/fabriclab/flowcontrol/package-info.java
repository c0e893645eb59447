/**
 * Flow control for incast in lossless Ethernet: the fluid incast without control, PFC (802.1Qbb
 * pause quanta, XOFF/XON thresholds, headroom, per-ingress pause on an incast), PFC deadlock (the
 * buffer dependency graph of a routed topology, hook flows and their re-prioritisation) and the
 * deadlock detection/recovery watchdog. Sources: 002 (Cheng et al., ZTE Technology Journal 2025)
 * section 3.1.2 and figure 7; 003 (intelligent lossless network white paper) section 4.1.
 *
 * <p>Units throughout: rates in bit/s, sizes in bytes, times in seconds.
 */
package fabriclab.flowcontrol;
