package fabriclab.cli;

import fabriclab.Parameters;
import fabriclab.scenarios.ScenarioSettings;
import fabriclab.simulation.TieOrder;
import java.util.List;

/**
 * One run of {@code bin/simulate} as its command line asks for it, read once by {@link SimulateOptions#parse}: the
 * scenario's settings, how to run it and what to write.
 *
 * @param settings the scenario's settings
 * @param threads 0 for the sequential engine, else the threads of the parallel engine
 * @param tieOrder the sequential engine's order of simultaneous events (the parallel engine applies
 *     {@link TieOrder#CANONICAL} only)
 * @param timeLimitPs simulated time after which the run stops, ps, or {@code Long.MAX_VALUE} for none
 * @param jit {@code auto}, {@code short} or {@code long}: the JVM profile ({@link SimulateCommand})
 * @param quiet whether to leave out progress lines on standard error
 * @param flowsFile where to write one CSV line per flow, or null
 * @param fctFile where to write the completion times in HPCC's fct.txt layout, or null
 * @param args the command line that gives this run, every option that applies written out (a re-started JVM gets
 *     the run this way)
 */
public record SimulateRun(ScenarioSettings settings, int threads, TieOrder tieOrder, long timeLimitPs, String jit,
        boolean quiet, String flowsFile, String fctFile, List<String> args) {
    /** Validates: the settings, the profile and the command line given, at least 0 threads. */
    public SimulateRun {
        Parameters.notNull("settings", settings);
        Parameters.atLeast("threads", threads, 0);
        Parameters.notNull("tieOrder", tieOrder);
        Parameters.atLeast("timeLimitPs", timeLimitPs, 1L);
        Parameters.notNull("jit", jit);
        args = List.copyOf(Parameters.noNullElements("args", args));
    }

    @Override
    public String toString() {
        return String.join(" ", args);
    }
}
