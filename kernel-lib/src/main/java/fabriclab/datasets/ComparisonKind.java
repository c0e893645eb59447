package fabriclab.datasets;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a paper-vs-model row is, and so whether the scorecard may count it.
 *
 * <p>Only a {@link #PREDICTION} says something about the model: no published number of that experiment
 * went into it. The other kinds are shown beside the predictions and never counted: a calibrated row
 * matches because a constant was set from a published number, a definition is true by construction, a
 * validation checks the model against an outside reference (not a seed paper's number), a what-if runs a
 * different setting from the paper's, and a superseded row is a cruder model of a quantity that a later
 * notebook models better.
 *
 * <p>Each kind except prediction and definition needs a {@linkplain ComparisonRow#basis() basis}: the
 * published number a calibrated constant came from, the outside reference of a validation, the setting
 * of a what-if, or the notebook that holds the canonical row of a superseded one.
 */
public enum ComparisonKind {
    /** No published number of this experiment went into the model. Counted. */
    PREDICTION("prediction", false),
    /** A constant of the model was set from a published number (the basis says which). Not counted. */
    CALIBRATED("calibrated", true),
    /** True by construction (a unit conversion, a standard's definition). Not counted. */
    DEFINITION("definition", false),
    /** Compared with an outside reference that is not a seed paper's number (the basis names it). Not counted. */
    VALIDATION("validation", true),
    /** A different setting from the paper's (the basis states it). Not counted. */
    WHAT_IF("what-if", true),
    /** A cruder model of a quantity a later notebook models better (the basis names that notebook). Not counted. */
    SUPERSEDED("superseded", true);

    private final String label;
    private final boolean needsBasis;

    ComparisonKind(String label, boolean needsBasis) {
        this.label = label;
        this.needsBasis = needsBasis;
    }

    /** The label written in the {@code kind} column ("prediction", "what-if", ...). */
    public String label() {
        return label;
    }

    /** Whether a row of this kind must state its basis (see the class comment). */
    public boolean needsBasis() {
        return needsBasis;
    }

    /** Whether the scorecard's headline count may include a row of this kind: predictions only. */
    public boolean counted() {
        return this == PREDICTION;
    }

    /**
     * The kind whose {@link #label()} is {@code label}.
     *
     * @throws IllegalArgumentException naming the label and the allowed ones when it is unknown or null
     */
    public static ComparisonKind fromLabel(String label) {
        for (ComparisonKind k : values()) {
            if (k.label.equals(label)) {
                return k;
            }
        }
        throw new IllegalArgumentException("kind must be one of "
                + Arrays.stream(values()).map(ComparisonKind::label).collect(Collectors.joining(", "))
                + ", got " + (label == null ? "null" : "\"" + label + "\""));
    }
}
