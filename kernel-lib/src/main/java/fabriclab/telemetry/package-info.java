/**
 * Telemetry of seed 004: high-delay capture (HDC) of packets whose queueing delay passes a threshold,
 * fed by the packet simulator's per-packet queueing delays.
 */
package fabriclab.telemetry;
