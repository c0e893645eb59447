/**
 * The packet simulator as a command-line program ({@code bin/simulate}): {@link
 * fabriclab.cli.SimulateOptions} describes one run (fabric, workload, transport, PFC,
 * forwarding, engine) with the htsim comparison's scenario as defaults, and {@link
 * fabriclab.cli.SimulateCommand} runs it in a JVM profile chosen for its size and prints
 * its figures.
 */
package fabriclab.cli;
