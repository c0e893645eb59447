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
}
