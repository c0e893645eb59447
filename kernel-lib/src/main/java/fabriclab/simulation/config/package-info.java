/**
 * The immutable records a simulation scenario is made of: the run's {@link
 * fabriclab.simulation.config.SimulationConfig} (MTU, headers, priorities, the {@link
 * fabriclab.simulation.config.SwitchBuffer}, {@link fabriclab.simulation.config.Forwarding}, seed, sampling), the
 * flows ({@link fabriclab.simulation.config.FlowSpec}) and the PFC watchdog ({@link
 * fabriclab.simulation.config.PfcWatchdog}). Shared by the scenario, the elements and the experiments.
 */
package fabriclab.simulation.config;
