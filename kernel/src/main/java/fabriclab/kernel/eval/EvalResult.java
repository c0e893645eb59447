package fabriclab.kernel.eval;

import java.util.Optional;

/**
 * What a cell produced.
 *
 * @param value the object the last snippet evaluated to, when it was an expression with a non-null
 *     value (empty for statements, declarations and void calls)
 * @param hasValue whether {@link #value} is meaningful
 */
public record EvalResult(Object value, boolean hasValue) {
    /** A cell with nothing to display. */
    public static final EvalResult NONE = new EvalResult(null, false);

    /** The value, if any. */
    public Optional<Object> valueIfAny() {
        return hasValue ? Optional.ofNullable(value) : Optional.empty();
    }
}
