package fabriclab.sweep;

import java.util.Locale;

/**
 * Whether a sweep's runs are all computed, or a subset of them is recomputed and checked against runs recorded
 * earlier ({@link RecordedRuns}). One setting: the system property {@value #PROPERTY}, else the environment variable
 * {@value #ENV}:
 * <ul>
 *   <li>{@code run} (the default, also when unset or blank): every run is computed; nothing is read or written;</li>
 *   <li>{@code record}: every run is computed and the sweep's points and results are written to
 *       {@code datasets/runs/} ({@code ./reproduce} records every notebook's sweeps this way);</li>
 *   <li>{@code check:N} ({@code check} alone is {@code check:}{@value #DEFAULT_CHECK_EVERY}): about one run in N
 *       of each sweep ({@link #computes}; run 0 always) is computed and must equal the recorded one field for field;
 *       the others are taken from the record, which must be of the same sweep (same label, task and points). A run
 *       that differs, or a sweep with no record, fails the sweep. {@code check:1} recomputes every run and compares
 *       all of them. CI checks the heavy notebooks this way: what they show is computed from runs that were all
 *       computed by {@code ./reproduce}, and about a quarter of them are computed again.</li>
 * </ul>
 *
 * @param mode what the sweep does
 * @param checkEvery in {@link Mode#CHECK}, one run in how many is computed again (1: all); 1 otherwise
 */
public record SweepRuns(Mode mode, int checkEvery) {
    /** System property of the setting. */
    public static final String PROPERTY = "fabriclab.sweep.runs";
    /** Environment variable of the setting (used when the property is unset). */
    public static final String ENV = "FABRICLAB_SWEEP_RUNS";
    /** {@code check} without a number: one run in four is computed again. */
    public static final int DEFAULT_CHECK_EVERY = 4;
    /** The largest N {@code check:N} accepts. */
    public static final int MAX_CHECK_EVERY = 1_000_000;

    /** What a sweep does with recorded runs. */
    public enum Mode {
        /** Computes every run; reads and writes no record. */
        RUN,
        /** Computes every run and writes the record. */
        RECORD,
        /** Computes every {@code checkEvery}-th run, compares it with the record, takes the rest from the record. */
        CHECK
    }

    /** Validates: mode present; one run in 1 to {@link #MAX_CHECK_EVERY}, and 1 unless checking. */
    public SweepRuns {
        if (mode == null) {
            throw new IllegalArgumentException("mode must not be null (allowed: RUN, RECORD, CHECK)");
        }
        if (checkEvery < 1 || checkEvery > MAX_CHECK_EVERY) {
            throw new IllegalArgumentException("checkEvery must be in [1, " + MAX_CHECK_EVERY + "], got " + checkEvery);
        }
        if (mode != Mode.CHECK && checkEvery != 1) {
            throw new IllegalArgumentException("checkEvery must be 1 unless mode is CHECK, got " + checkEvery + " with " + mode);
        }
    }

    /** Every run computed, no record (the default). */
    public static final SweepRuns RUN = new SweepRuns(Mode.RUN, 1);
    /** Every run computed and recorded. */
    public static final SweepRuns RECORD = new SweepRuns(Mode.RECORD, 1);

    /** One run in {@code every} ({@link #computes}) computed and checked against the record, the rest replayed. */
    public static SweepRuns check(int every) {
        return new SweepRuns(Mode.CHECK, every);
    }

    /** The setting from {@value #PROPERTY}, else {@value #ENV}; {@link #RUN} when neither is set. */
    public static SweepRuns configured() {
        String v = System.getProperty(PROPERTY);
        if (v != null && !v.isBlank()) {
            return parse(PROPERTY, v);
        }
        v = System.getenv(ENV);
        return v == null || v.isBlank() ? RUN : parse(ENV, v);
    }

    /**
     * Parses {@code run}, {@code record}, {@code check} or {@code check:N}.
     *
     * @param name the setting's name as the user wrote it, for the message
     * @param value the value
     * @throws IllegalArgumentException naming {@code name}, the value and what is allowed
     */
    public static SweepRuns parse(String name, String value) {
        String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        switch (v) {
            case "run":
                return RUN;
            case "record":
                return RECORD;
            case "check":
                return check(DEFAULT_CHECK_EVERY);
            default:
                break;
        }
        if (v.startsWith("check:")) {
            String n = v.substring("check:".length());
            try {
                int every = Integer.parseInt(n);
                if (every >= 1 && every <= MAX_CHECK_EVERY) {
                    return check(every);
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException(name + " must be run, record, check or check:N with N in [1, " + MAX_CHECK_EVERY
                + "], got \"" + value + "\"");
    }

    /**
     * Whether run {@code index} of a sweep is computed: always, except in {@link Mode#CHECK}, where one run in
     * {@code checkEvery} is, chosen by a fixed hash of the index (MurmurHash3's 32-bit finaliser) rather than a stride,
     * so that the runs computed cover every level of a sweep's factors (fabrics, seeds, sizes...) whatever their
     * periods in the point list; a stride of 4 over points that alternate RoCE and GSE would compute RoCE runs only.
     * Run 0 is always computed (its hash is 0). The same runs are chosen on every machine and at every execution.
     */
    public boolean computes(int index) {
        if (mode != Mode.CHECK || checkEvery == 1) {
            return true;
        }
        int h = index * 0x9E3779B9; // spread consecutive indices before mixing
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return Integer.remainderUnsigned(h, checkEvery) == 0;
    }

    @Override
    public String toString() {
        return mode == Mode.CHECK ? "check:" + checkEvery : mode.name().toLowerCase(Locale.ROOT);
    }
}
