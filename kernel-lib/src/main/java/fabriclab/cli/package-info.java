/**
 * The packet simulator as a command-line program ({@code bin/simulate}), the top of kernel-lib: nothing uses it.
 * {@link fabriclab.cli.SimulateOptions} reads a command line once into a {@link fabriclab.cli.SimulateRun} (the
 * scenario's {@link fabriclab.scenarios.ScenarioSettings}, the engine and the outputs), with the htsim comparison's
 * scenario as defaults; {@link fabriclab.cli.HeapCheck} refuses a run too large for the heap, {@link fabriclab.cli.JvmProfile} chooses the JVM; and
 * {@link fabriclab.cli.SimulateCommand} builds its scenario, runs it in a JVM profile chosen for its size and prints
 * its figures.
 */
package fabriclab.cli;
