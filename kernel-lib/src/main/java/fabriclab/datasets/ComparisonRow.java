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
 * @param source seed file (or outside reference) the published number comes from; not blank
 * @param quantity the published quantity, named as in the paper; not blank
 * @param unit unit of the published and model values ("" for a pure number)
 * @param kind what the row is (see {@link ComparisonKind})
 * @param basis for a calibrated row the published number the constant was set from, for a validation
 *     the outside reference, for a what-if the setting that differs from the paper's, for a superseded
 *     row the comparison (notebook) that holds the canonical row, e.g. {@code "07-packet-sim"}; required
 *     for those kinds, may be "" for the others
 * @param canonical whether this is the published quantity's one canonical row; only a what-if may be
 *     either, a superseded row never is, the other kinds always are
 * @param target the published number as the paper states it
 * @param model the model's value, in {@code unit}; finite
 * @param note why the values differ, or what the model assumes ("" for none)
 */
public record ComparisonRow(String source, String quantity, String unit, ComparisonKind kind, String basis,
        boolean canonical, Target target, double model, String note) {
    /** Validates every field as described on the record; a null note becomes "". */
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
        if (kind != ComparisonKind.SUPERSEDED && kind != ComparisonKind.WHAT_IF && !canonical) {
            throw new IllegalArgumentException("canonical must be true for a " + kind.label() + " row (\"" + quantity
                    + "\"): mark the other rows of this quantity superseded or what-if");
        }
        Parameters.notNull("target", target);
        Parameters.finite("model", model);
        note = note == null ? "" : note;
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
