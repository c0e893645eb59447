package fabriclab.congestion;

import fabriclab.Parameters;

/**
 * A class of identical flows in the fluid models: {@code multiplicity} flows that start together
 * and see the same feedback, so they stay identical and are integrated once (the symmetric
 * aggregation that makes 7,000 queue pairs as cheap as one). Heterogeneous start times are
 * separate classes.
 *
 * @param label name used in trajectory column names (letters, digits, '-', '_')
 * @param multiplicity number of flows N in the class, {@code >= 1}
 * @param startS start time [s], {@code >= 0}; before it the class sends nothing
 */
public record FlowClass(String label, int multiplicity, double startS) {
    /** Validates the fields. */
    public FlowClass {
        Parameters.notBlank("label", label);
        if (!label.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("label must match [A-Za-z0-9_-]+, got \"" + label + "\"");
        }
        Parameters.atLeast("multiplicity", multiplicity, 1);
        Parameters.nonNegative("startS", startS);
    }

    /** {@code n} flows starting at time 0, labelled "flows". */
    public static FlowClass of(int n) {
        return new FlowClass("flows", n, 0.0);
    }
}
