package fabriclab;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.function.Executable;

/** Assertions that a call refuses its arguments with an {@link IllegalArgumentException} that says what was wrong. */
public final class TestArguments {
    /** How long a call may take to refuse its arguments: a refusal comes before any work. */
    public static final Duration QUICK = Duration.ofSeconds(10);

    private TestArguments() {
    }

    /** Fails unless {@code call} throws an IllegalArgumentException whose message holds every one of {@code parts}. */
    public static void refused(Executable call, String... parts) {
        String m = assertThrows(IllegalArgumentException.class, call).getMessage();
        for (String p : parts) {
            assertTrue(m.contains(p), "\"" + p + "\" in: " + m);
        }
    }

    /**
     * Fails unless {@code call} throws, within {@link #QUICK}, an IllegalArgumentException whose message names
     * {@code parameter} as a whole word.
     */
    public static void rejects(String parameter, Executable call) {
        IllegalArgumentException e = assertTimeoutPreemptively(QUICK,
                () -> assertThrows(IllegalArgumentException.class, call, "should reject, naming " + parameter));
        assertTrue(e.getMessage().matches("(?s).*(?<![A-Za-z0-9_])" + Pattern.quote(parameter) + "(?![A-Za-z0-9_]).*"),
                "message should name " + parameter + ": " + e.getMessage());
    }
}
