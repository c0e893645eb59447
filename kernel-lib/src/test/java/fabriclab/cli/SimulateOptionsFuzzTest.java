package fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every option of {@code bin/simulate} against bad values: for each option of {@link SimulateOptions#ALL},
 * in each context that makes it apply (the defaults, each transport, each workload), each value of {@link #BAD} is
 * given. The command must either refuse it with an {@link IllegalArgumentException} whose message names the option
 * as written and the value, or accept it; an accepted value must then build its scenario or be refused the same way
 * (naming some option). Values no option may accept: NaN, infinities, numbers beyond a long, Java's float and hex
 * syntax. No other exception type, and nothing hangs: parsing and building run in milliseconds here.
 */
class SimulateOptionsFuzzTest {
    /** Values every numeric option must handle: invalid syntax, out of any range, or edge cases. */
    static final List<String> BAD = List.of("NaN", "Infinity", "-Infinity", "1e999", "-1", "0", "", " ", "abc", "1.5.3",
            "0x10", "1d", "9223372036854775808", "-9223372036854775809", "1e-300", "--hosts", "1,5");
    /** Of {@link #BAD}, those no option may accept. */
    static final List<String> NEVER = List.of("NaN", "Infinity", "-Infinity", "1e999", "abc", "1.5.3", "0x10", "1d",
            "9223372036854775808", "-9223372036854775809", "", " ");
    /** Contexts that make each option apply somewhere. */
    static final List<List<String>> CONTEXTS = List.of(List.of(), List.of("--transport", "dcqcn"),
            List.of("--transport", "ctcc"), List.of("--transport", "gse"), List.of("--workload", "incast"),
            List.of("--workload", "ring-allreduce", "--hosts", "16", "--hosts-per-leaf", "4", "--ranks", "4"),
            List.of("--forwarding", "spray"),
            List.of("--workload", "websearch", "--hosts", "16", "--hosts-per-leaf", "4", "--duration", "200us"));

    @Test
    void everyOptionRefusesBadValuesByNameOrBuildsItsScenario() {
        List<String> broken = new ArrayList<>();
        int calls = 0;
        for (Option<?> option : SimulateOptions.ALL) {
            for (List<String> context : CONTEXTS) {
                if (context.contains(option.name)) {
                    continue;
                }
                for (String value : BAD) {
                    List<String> args = new ArrayList<>(context);
                    args.add(option.name);
                    args.add(value);
                    calls++;
                    String problem = check(option.name, value, args);
                    if (problem != null) {
                        broken.add(String.join(" ", args) + " -> " + problem);
                    }
                }
            }
        }
        if (!broken.isEmpty()) {
            fail(broken.size() + " of " + calls + " command lines break the bad-input contract:\n" + String.join("\n", broken));
        }
        assertTrue(calls > 1000, "calls " + calls);
    }

    /** What is wrong with how {@code args} was handled, or null. */
    private static String check(String name, String value, List<String> args) {
        SimulateRun o;
        try {
            o = SimulateOptions.parse(args);
        } catch (IllegalArgumentException e) {
            String m = String.valueOf(e.getMessage());
            if (!m.contains(value.isBlank() ? name : value) && !m.contains(name)) {
                return "message names neither the option nor the value: " + m;
            }
            return null;
        } catch (RuntimeException e) {
            return "threw " + e;
        }
        if (NEVER.contains(value) && !name.equals("--flows") && !name.equals("--fct")) { // (a file may be named anything)
            return "accepted " + (value.isEmpty() ? "the empty string" : "'" + value + "'");
        }
        try {
            o.settings().scenario();
        } catch (IllegalArgumentException e) {
            if (!String.valueOf(e.getMessage()).contains("--") && !String.valueOf(e.getMessage()).contains(name)) {
                return "accepted, then the scenario failed without naming an option: " + e.getMessage();
            }
        } catch (RuntimeException e) {
            return "accepted, then building the scenario threw " + e;
        }
        return null;
    }

    /** Values drawn for the options of a combination: valid ones of every kind, edges, and bad ones. */
    static final List<String> POOL = List.of("0", "1", "2", "3", "4", "16", "64", "4096", "65536", "1048576", "-1",
            "1ps", "1ns", "1us", "100us", "1ms", "1s", "100s", "1B", "1064", "2KB", "64KB", "16MB", "1TB", "1G", "100G",
            "0.001", "0.5", "1.0", "off", "default", "20000,10000", "1064,1064", "spray", "spray-random", "ecmp", "gse",
            "ctcc", "dcqcn", "line-rate", "roce", "websearch", "fb-hadoop", "cdf", "incast", "permutation",
            "hd-allreduce", "ring-allreduce", "short", "long", "NaN", "abc", "", "/dev/zero", "/tmp", "1,5", "2,5");

    /** Values that make sense for each option, so that combinations reach the scenario and the run, not only parsing. */
    static final java.util.Map<String, List<String>> VALID = java.util.Map.ofEntries(
            java.util.Map.entry("--workload", List.of("permutation", "incast", "ring-allreduce", "hd-allreduce", "websearch",
                    "fb-hadoop")),
            java.util.Map.entry("--hosts", List.of("16", "32", "64")), java.util.Map.entry("--hosts-per-leaf", List.of("4", "8", "16")),
            java.util.Map.entry("--spines", List.of("1", "2", "8")), java.util.Map.entry("--parallel-links", List.of("1", "2")),
            java.util.Map.entry("--rate", List.of("25G", "100G", "400G")), java.util.Map.entry("--delay", List.of("500ns", "1us", "10us")),
            java.util.Map.entry("--flow-bytes", List.of("1KB", "100KB", "2MB")), java.util.Map.entry("--senders", List.of("2", "8")),
            java.util.Map.entry("--ranks", List.of("4", "8")), java.util.Map.entry("--qps", List.of("1", "4", "64")),
            java.util.Map.entry("--load", List.of("0.1", "0.5", "1")), java.util.Map.entry("--flow-count", List.of("1", "10", "100")),
            java.util.Map.entry("--duration", List.of("1ns", "10us", "200us")),
            java.util.Map.entry("--incast-senders", List.of("0", "2")), java.util.Map.entry("--incast-bytes", List.of("8KB")),
            java.util.Map.entry("--incast-period", List.of("10us", "100us")), java.util.Map.entry("--seed", List.of("1", "-5")),
            java.util.Map.entry("--transport", List.of("roce", "dcqcn", "line-rate", "ctcc", "gse")),
            java.util.Map.entry("--ack-every", List.of("1", "16")), java.util.Map.entry("--ack-timeout-exponent", List.of("8", "20")),
            java.util.Map.entry("--retry-count", List.of("0", "7")), java.util.Map.entry("--message-bytes", List.of("4KB", "1MB")),
            java.util.Map.entry("--ack-delay", List.of("1us")), java.util.Map.entry("--forwarding", List.of("ecmp", "spray", "spray-random")),
            java.util.Map.entry("--ecmp-seed", List.of("3")), java.util.Map.entry("--pfc", List.of("off", "default", "20000,10000")),
            java.util.Map.entry("--buffer", List.of("2KB", "64KB", "1MB", "16MB")), java.util.Map.entry("--mtu", List.of("1000", "4096")),
            java.util.Map.entry("--header", List.of("0", "64")), java.util.Map.entry("--threads", List.of("0", "1", "2")),
            java.util.Map.entry("--time-limit", List.of("10us")), java.util.Map.entry("--jit", List.of("short")));

    /**
     * Combinations of options, not one at a time: pairs and triples of distinct options drawn with a seed, each with a
     * value that makes sense for it ({@link #VALID}) or, one time in four, from {@link #POOL}. Each command line must be refused naming an option, or build its scenario, or (when
     * it is small: at most 2^14 queue pairs and hosts, no {@code --time-limit} drawn) run through {@link SimulateCommand} to a 2 us time limit and
     * end with status 0, 1 only for a stall the watchdog explains, or 2 naming an option. Prints its counts.
     */
    @Test
    void pairsAndTriplesOfOptionsAreRefusedByNameOrRunWithASeed() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(48);
        List<String> broken = new ArrayList<>();
        int combinations = 0;
        int refused = 0;
        int built = 0;
        int ran = 0;
        List<Option<?>> options = new ArrayList<>(SimulateOptions.ALL);
        options.removeIf(o -> o.name.equals("--quiet") || o.name.equals("--flows") || o.name.equals("--fct"));
        for (int k = 0; k < 1200; k++) {
            int n = 2 + r.nextInt(2);
            List<String> args = new ArrayList<>();
            java.util.Set<String> names = new java.util.HashSet<>();
            while (names.size() < n) {
                Option<?> o = options.get(r.nextInt(options.size()));
                if (names.add(o.name)) {
                    List<String> valid = VALID.getOrDefault(o.name, POOL);
                    args.add(o.name);
                    args.add(r.nextInt(4) == 0 ? POOL.get(r.nextInt(POOL.size())) : valid.get(r.nextInt(valid.size())));
                }
            }
            combinations++;
            SimulateRun o;
            try {
                o = SimulateOptions.parse(args);
            } catch (IllegalArgumentException e) {
                refused++;
                String m = String.valueOf(e.getMessage());
                if (names.stream().noneMatch(m::contains)) {
                    broken.add(String.join(" ", args) + " -> refused naming none of its options: " + m);
                }
                continue;
            } catch (RuntimeException e) {
                broken.add(String.join(" ", args) + " -> threw " + e);
                continue;
            }
            long queuePairs = (long) o.settings().fabric().hosts() * o.settings().traffic().queuePairs();
            if (queuePairs > (1 << 14) || o.settings().fabric().hosts() > (1 << 14) || names.contains("--time-limit")) {
                try {
                    o.settings().scenario();
                    built++;
                } catch (IllegalArgumentException e) {
                    refused++;
                    if (!String.valueOf(e.getMessage()).contains("--")) {
                        broken.add(String.join(" ", args) + " -> scenario failed without naming an option: " + e.getMessage());
                    }
                } catch (RuntimeException | OutOfMemoryError e) {
                    broken.add(String.join(" ", args) + " -> building the scenario threw " + e);
                }
                continue;
            }
            List<String> cmd = new ArrayList<>(args);
            cmd.addAll(List.of("--quiet", "--jit", "short"));
            if (!names.contains("--time-limit")) {
                cmd.addAll(List.of("--time-limit", "2us"));
            }
            Object[] res = SimulateCommandTest.run(cmd.toArray(String[]::new));
            int status = (Integer) res[0];
            String err = (String) res[2];
            ran++;
            if (status == 2 && !err.startsWith("simulate: --") && names.stream().noneMatch(err::contains)) {
                broken.add(String.join(" ", cmd) + " -> exit 2 naming none of its options: " + err);
            } else if (status == 1 && !err.startsWith("simulate: the run stopped: ")) {
                broken.add(String.join(" ", cmd) + " -> exit 1: " + err);
            } else if (status != 0 && status != 1 && status != 2) {
                broken.add(String.join(" ", cmd) + " -> exit " + status);
            }
        }
        System.out.println("bin/simulate option combinations: " + combinations + " (pairs and triples, seed 48): "
                + refused + " refused naming an option, " + built + " built, " + ran + " run; " + broken.size()
                + " broke the contract");
        if (!broken.isEmpty()) {
            fail(broken.size() + " of " + combinations + " combinations break the bad-input contract:\n"
                    + String.join("\n", broken));
        }
    }
}
