package fabriclab.datasets;

import fabriclab.Parameters;

/**
 * One row of a paper-vs-model comparison: a published quantity, what the model gives for it, and what
 * kind of comparison that is.
 *
 * <p>A published quantity is identified by its {@code source} (the seed file its number comes from, e.g.
 * {@code "001_e14cd0b2fa98c259.txt"}, or an outside reference for a validation) and its {@code quantity}
 * name; notebooks that compare the same published number use the same pair. Exactly one row per
 * published quantity is {@code canonical} (the notebook that models it best); the others are
 * {@link ComparisonKind#SUPERSEDED superseded} or {@link ComparisonKind#WHAT_IF what-if} rows. The
 * scorecard counts a row only when it is a canonical {@link ComparisonKind#PREDICTION prediction}.
 *
 * <p>Three optional statements qualify a row. {@code sameQuantityAs} names the quantity of another row of
 * the same source, kind and comparison that this row restates in other terms (a utilisation in % is the
 * throughput over the line rate): the scorecard counts the two as one physical quantity
 * ({@link #quantityKey()}). {@code trivialValue} is a value the model reaches by construction (the line
 * rate for a throughput, 1 for a ratio of two fabrics, 0 for a loss): the row is {@linkplain #trivial()
 * trivial} when that value meets the target, since then any model that gives it passes. {@code
 * toleranceReason} says why the target has the tolerance it has ({@link #toleranceReasonOrDefault()}
 * supplies the reason of the default tolerances).
 *
 * @param source seed file (or outside reference) the published number comes from; not blank
 * @param quantity the published quantity, named as in the paper; not blank
 * @param unit unit of the published and model values ("" for a pure number)
 * @param kind what the row is (see {@link ComparisonKind})
 * @param basis for a calibrated row the published number the constant was set from, for a validation
 *     the outside reference, for a what-if the setting that differs from the paper's, for a superseded
 *     row the comparison (notebook) that holds the canonical row, e.g. {@code "07-packet-sim"}; required
 *     for those kinds, may be "" for the others
 * @param canonical whether this is the published quantity's one canonical row; a what-if or a calibrated row may
 *     be either (a calibrated row that is not canonical is a fit of a quantity whose canonical row predicts it
 *     elsewhere), a superseded row never is, the other kinds always are
 * @param target the published number as the paper states it
 * @param model the model's value, in {@code unit}; finite
 * @param note why the values differ, or what the model assumes ("" for none)
 * @param sameQuantityAs the quantity name of the row this one restates, "" for none; never this row's own
 *     quantity
 * @param trivialValue the value the model reaches by construction, in {@code unit}; NaN for none, otherwise
 *     finite
 * @param toleranceReason why the target's tolerance is what it is; "" for the default reason
 */
public record ComparisonRow(String source, String quantity, String unit, ComparisonKind kind, String basis,
        boolean canonical, Target target, double model, String note, String sameQuantityAs, double trivialValue,
        String toleranceReason) {
    /**
     * A row that restates no other row, declares no construction value and gives no tolerance reason.
     * Validated as the canonical constructor says.
     */
    public ComparisonRow(String source, String quantity, String unit, ComparisonKind kind, String basis,
            boolean canonical, Target target, double model, String note) {
        this(source, quantity, unit, kind, basis, canonical, target, model, note, "", Double.NaN, "");
    }

    /**
     * Validates every field as described on the record; a null note, sameQuantityAs or toleranceReason
     * becomes "".
     */
    public ComparisonRow {
        Parameters.notBlank("source", source);
        Parameters.notBlank("quantity", quantity);
        Parameters.notNull("unit", unit);
        Parameters.notNull("kind", kind);
        Parameters.notNull("basis", basis);
        if (kind.needsBasis() && basis.isBlank()) {
            throw new IllegalArgumentException("basis must say " + basisMeaning(kind) + " for a " + kind.label()
                    + " row (\"" + quantity + "\"), got \"\"");
        }
        if (kind == ComparisonKind.SUPERSEDED && canonical) {
            throw new IllegalArgumentException("canonical must be false for a superseded row (\"" + quantity + "\")");
        }
        if (kind != ComparisonKind.SUPERSEDED && kind != ComparisonKind.WHAT_IF && kind != ComparisonKind.CALIBRATED && !canonical) {
            throw new IllegalArgumentException("canonical must be true for a " + kind.label() + " row (\"" + quantity
                    + "\"): mark the other rows of this quantity superseded or what-if");
        }
        Parameters.notNull("target", target);
        Parameters.finite("model", model);
        note = note == null ? "" : note;
        sameQuantityAs = sameQuantityAs == null ? "" : sameQuantityAs.strip();
        if (sameQuantityAs.equals(quantity)) {
            throw new IllegalArgumentException("sameQuantityAs must name another row's quantity, got this row's own (\""
                    + quantity + "\")");
        }
        if (Double.isInfinite(trivialValue)) {
            throw new IllegalArgumentException("trivialValue must be finite or NaN (none) for \"" + quantity + "\", got "
                    + trivialValue);
        }
        toleranceReason = toleranceReason == null ? "" : toleranceReason.strip();
    }

    /**
     * This row as a {@link ComparisonKind#CALIBRATED} row: every field kept but the kind, and the basis where this row
     * has none, so a fit keeps its basis (what was chosen, for which published number) and its canonical flag.
     *
     * @param fittedTo the published number the value was chosen to match, the basis when this row's is blank; not null
     */
    public ComparisonRow asCalibrated(String fittedTo) {
        Parameters.notNull("fittedTo", fittedTo);
        return new ComparisonRow(source, quantity, unit, ComparisonKind.CALIBRATED, basis.isBlank() ? fittedTo : basis, canonical,
                target, model, note, sameQuantityAs, trivialValue, toleranceReason);
    }

    /** This row restating the quantity of the row named {@code quantity} (see the record's comment). */
    public ComparisonRow withSameQuantityAs(String quantity) {
        return new ComparisonRow(source, this.quantity, unit, kind, basis, canonical, target, model, note,
                Parameters.notBlank("quantity", quantity), trivialValue, toleranceReason);
    }

    /** This row with {@code value} (finite, in the row's unit) as the value the model reaches by construction. */
    public ComparisonRow withTrivialValue(double value) {
        return new ComparisonRow(source, quantity, unit, kind, basis, canonical, target, model, note, sameQuantityAs,
                Parameters.finite("value", value), toleranceReason);
    }

    /**
     * This row with the target's tolerance set to {@code tolerance} (in [0, 1]) for the stated reason.
     *
     * @param reason why this tolerance, e.g. "a throughput read from a figure"; not blank
     */
    public ComparisonRow withTolerance(double tolerance, String reason) {
        return new ComparisonRow(source, quantity, unit, kind, basis, canonical, target.withTolerance(tolerance), model,
                note, sameQuantityAs, trivialValue, Parameters.notBlank("reason", reason));
    }

    /** This row with the reason for the target's present tolerance (not blank). */
    public ComparisonRow withToleranceReason(String reason) {
        return new ComparisonRow(source, quantity, unit, kind, basis, canonical, target, model, note, sameQuantityAs,
                trivialValue, Parameters.notBlank("reason", reason));
    }

    /** Whether the row declares a value the model reaches by construction ({@code trivialValue} is not NaN). */
    public boolean hasTrivialValue() {
        return !Double.isNaN(trivialValue);
    }

    /**
     * Whether the target is met by the value the model reaches by construction: {@code trivialValue} is
     * declared and {@code target().met(trivialValue)}. A met trivial row says nothing about the mechanism.
     */
    public boolean trivial() {
        return hasTrivialValue() && target.met(trivialValue);
    }

    /**
     * The physical quantity this row compares: source and the quantity name it restates
     * ({@code sameQuantityAs}), else its own quantity name.
     */
    public String quantityKey() {
        return source + ": " + (sameQuantityAs.isEmpty() ? quantity : sameQuantityAs);
    }

    /**
     * {@code toleranceReason}, or when it is "" the reason of the target's default: "a strict bound" for a
     * bound with tolerance 0, "default 15% on a number the paper states as about" for a point, band or
     * magnitude at {@link Target#DEFAULT_TOLERANCE}, else "not stated".
     */
    public String toleranceReasonOrDefault() {
        if (!toleranceReason.isEmpty()) {
            return toleranceReason;
        }
        boolean bound = target instanceof Target.LowerBound || target instanceof Target.UpperBound;
        if (bound && target.tolerance() == 0) {
            return "a strict bound";
        }
        if (!bound && target.tolerance() == Target.DEFAULT_TOLERANCE) {
            return "default 15% on a number the paper states as about";
        }
        return "not stated";
    }

    /** {@code target().relativeDifference(model())}: 0 inside the stated target, signed distance outside it. */
    public double relativeDifference() {
        return target.relativeDifference(model);
    }

    /** Whether the model value meets the target within its tolerance. */
    public boolean meetsTarget() {
        return target.met(model);
    }

    /** Whether the scorecard's headline count includes this row: a canonical prediction. */
    public boolean counted() {
        return canonical && kind.counted();
    }

    /** The published quantity this row compares: source and quantity. */
    public String publishedQuantity() {
        return source + ": " + quantity;
    }

    private static String basisMeaning(ComparisonKind kind) {
        return switch (kind) {
            case CALIBRATED -> "which published number the constant was set from";
            case VALIDATION -> "the outside reference";
            case WHAT_IF -> "the setting that differs from the paper's";
            case SUPERSEDED -> "which comparison holds the canonical row";
            default -> "why";
        };
    }
}
