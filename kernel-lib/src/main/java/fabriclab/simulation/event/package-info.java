/**
 * The simulator's deterministic pending-event set: {@link fabriclab.simulation.event.EventQueue}, a timing wheel of
 * the near instants with a heap of the far ones, in FIFO order within an instant or in an order the engine supplies
 * ({@link fabriclab.simulation.event.InstantOrder}).
 */
package fabriclab.simulation.event;
