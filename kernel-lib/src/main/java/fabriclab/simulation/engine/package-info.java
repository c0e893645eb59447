/**
 * The engines that run a simulation's events: sequential (one partition, one event loop) and parallel ({@link
 * fabriclab.simulation.engine.ParallelEngine}: leaves with their hosts and spines spread over threads,
 * conservative windows of the smallest link delay, a canonical order of simultaneous events so that the result is
 * the same for every thread count, its figures in {@link fabriclab.simulation.engine.ParallelRunStats}).
 */
package fabriclab.simulation.engine;
