/** The simulator's deterministic pending-event set. */
package fabriclab.simulation.event;
