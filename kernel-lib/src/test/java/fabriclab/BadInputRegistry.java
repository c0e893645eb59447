package fabriclab;

import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.IntToDoubleFunction;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * What {@link BadInputContractTest} cannot find by itself: valid values of types reflection cannot
 * build, valid starting calls for entry points its search does not find, and the few calls allowed to
 * answer a bad value otherwise than the contract says, each with its reason.
 */
final class BadInputRegistry {
    private BadInputRegistry() {
    }

    /** Packages that read and write files or draw charts; their bad input is tested in their own tests. */
    static final Set<String> EXCLUDED_PACKAGES = Set.of("fabriclab.datasets", "fabriclab.notebook",
            "fabriclab.project", "fabriclab.sweep");

    /** Entry points not fuzzed, with the reason. */
    static final Map<String, String> SKIPPED = Map.of(
            "fabriclab.Parameters#inRange(String,double,double,double)", "the checks themselves: their bounds are constants of the caller",
            "fabriclab.Parameters#inRange(String,long,long,long)", "the checks themselves",
            "fabriclab.Parameters#inRange(String,int,int,int)", "the checks themselves",
            "fabriclab.Parameters#inHalfOpenRange(String,double,double,double)", "the checks themselves",
            "fabriclab.Parameters#atLeast(String,long,long)", "the checks themselves",
            "fabriclab.Parameters#atLeast(String,int,int)", "the checks themselves",
            "fabriclab.Parameters#positive(String,double)", "the checks themselves",
            "fabriclab.Parameters#nonNegative(String,double)", "the checks themselves",
            "fabriclab.Parameters#finite(String,double)", "the checks themselves",
            "fabriclab.Parameters#notNull(String,Object)", "the checks themselves");
    // Parameters#notBlank is fuzzed: its name and value are both the caller's.

    /** Calls ("id parameter=bad value") allowed to break the contract, with the reason. */
    static final Map<String, String> ALLOWED = Map.of();

    /**
     * Calls that still break the contract, one "id parameter=bad value" a line in
     * {@code bad-input-known-failures.txt} (the test fails when one is fixed and still listed, so the
     * list only shrinks). target/bad-input-failures.txt, written by each run, is the list to copy.
     */
    static Set<String> knownFailures() throws java.io.IOException {
        try (var in = BadInputRegistry.class.getResourceAsStream("bad-input-known-failures.txt")) {
            if (in == null) {
                return Set.of();
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).collect(java.util.stream.Collectors.toSet());
        }
    }

    /** How many entry points may lack a valid starting call. */
    static final int MAX_NOT_FUZZED = 1000;

    static List<BadInputContractTest.Recipe> samples(Class<?> type) {
        if (type == ProgressSink.class) {
            return List.of(constant(Progress.silent(), "Progress.silent()"));
        }
        if (type == IntToDoubleFunction.class) {
            return List.of(constant((IntToDoubleFunction) i -> 1.0, "i -> 1.0"));
        }
        if (type == DoubleFunction.class) {
            return List.of(constant((DoubleFunction<Double>) x -> x, "x -> x"));
        }
        if (type == Function.class) {
            return List.of(constant(Function.identity(), "identity"));
        }
        if (type == ToDoubleFunction.class) {
            return List.of(constant((ToDoubleFunction<Object>) x -> 1.0, "x -> 1.0"));
        }
        if (type == ToIntFunction.class) {
            return List.of(constant((ToIntFunction<Object>) x -> 1, "x -> 1"));
        }
        if (type == ToLongFunction.class) {
            return List.of(constant((ToLongFunction<Object>) x -> 1L, "x -> 1"));
        }
        if (type == Predicate.class) {
            return List.of(constant((Predicate<Object>) x -> true, "x -> true"));
        }
        return null;
    }

    /** A registered valid starting call for an entry point, or null to search for one. */
    static BadInputContractTest.Call baseline(String id) {
        return null;
    }

    private static BadInputContractTest.Recipe constant(Object value, String describe) {
        return new BadInputContractTest.Constant(value, describe);
    }
}
