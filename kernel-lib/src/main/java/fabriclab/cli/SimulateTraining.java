package fabriclab.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The training run of {@code bin/simulate}'s class-data sharing archive: a handful of small runs of {@link
 * SimulateCommand} in one JVM, so that the JVM started with {@code -XX:ArchiveClassesAtExit} writes, at its exit, the
 * classes (parsed, verified and linked) and the lambda classes that the command's runs load.
 *
 * <p>Why: a one-shot run of a second spends a sixth of its CPU loading, verifying and linking the command's classes
 * and spinning its lambdas; a JVM that maps them from the archive skips that work (figures: {@code BENCH-RESULTS.md},
 * section {@code bin/simulate}). The archive only changes how classes get into the JVM, never what runs: the outputs
 * of a run are byte-identical with and without it. {@code bin/simulate} makes the archive the first time it runs a
 * build (one per set of jars and JDK, under {@code kernel/target/simulate-cds/}) and starts every later run with it;
 * {@code FABRICLAB_SIMULATE_CDS=off} runs without one.
 *
 * <p>The runs ({@link #RUNS}) cover the command's main paths: the default RoCE+PFC incast to completion with its
 * per-flow file (the short runs the archive is for), then every transport, forwarding and workload kind on a small
 * leaf-spine stopped after a few microseconds, so that their classes are archived too. Output is thrown away.
 */
final class SimulateTraining {
    /** The command lines of the training, each run to its end in this JVM ({@code --flows} is added to the first). */
    static final List<List<String>> RUNS = List.of(
            List.of("--workload", "incast", "--quiet"),
            List.of("--hosts", "32", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--transport", "dcqcn", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--transport", "line-rate", "--pfc", "off", "--forwarding", "spray", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--transport", "ctcc", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--transport", "gse", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--transport", "hpcc", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--transport", "dctcp", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--transport", "timely", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--transport", "swift", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--transport", "uec", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--forwarding", "adaptive", "--placement", "out-of-order", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--workload", "ring-allreduce", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--workload", "websearch", "--flow-count", "50", "--time-limit", "20us", "--quiet"),
            List.of("--hosts", "32", "--time-limit", "20us", "--threads", "2", "--quiet"));

    private SimulateTraining() {
    }

    /**
     * Runs {@link #RUNS} through {@link SimulateCommand#run}, output discarded; exits with status 1 (and the failing
     * command line on standard error) if any run does not end with status 0, which {@code bin/simulate} takes as "no
     * archive". Takes no arguments.
     *
     * @param args none
     * @throws IOException if the temporary per-flow file cannot be made or removed
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 0) {
            System.err.println("SimulateTraining takes no arguments, got " + args.length);
            System.exit(2);
        }
        System.exit(train(System.err));
    }

    /** Runs the training; returns 0, or 1 after naming on {@code err} the first command line that failed. */
    static int train(PrintStream err) throws IOException {
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
        Path flows = Files.createTempFile("fabriclab-training", ".csv");
        try {
            for (int i = 0; i < RUNS.size(); i++) {
                List<String> args = new ArrayList<>(RUNS.get(i));
                if (i == 0) {
                    args.addAll(List.of("--flows", flows.toString()));
                }
                int status = SimulateCommand.run(args, discard, discard);
                if (status != 0) {
                    err.println("SimulateTraining: status " + status + " from " + String.join(" ", args));
                    return 1;
                }
            }
            return 0;
        } finally {
            Files.deleteIfExists(flows);
        }
    }
}
