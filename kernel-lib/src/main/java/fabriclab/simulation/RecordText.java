package fabriclab.simulation;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;

/**
 * The text of a record's implicit {@code toString} ({@code Name[a=1, b=x]}: the class's simple name, then each
 * component's name, {@code =} and {@link String#valueOf} of its value, separated by {@code ", "}, in brackets), built
 * by reflection, nested records likewise.
 *
 * <p>Why: the implicit {@code toString} of a record is linked at its first call by {@code
 * java.lang.runtime.ObjectMethods}, which spins method-handle classes for it; in a one-shot {@code bin/simulate} run
 * that is about a tenth of the whole process's CPU (the transport model, a record of records, is named in every
 * {@link SimulationResult}; measured in {@code BENCH-RESULTS.md}, section {@code bin/simulate}). Reflection reads the
 * same components without it. The text is the implicit one's only for records that keep the implicit {@code
 * toString}; {@code RecordTextTest} checks it against {@code toString} for every transport model {@code bin/simulate}
 * builds.
 */
final class RecordText {
    private RecordText() {
    }

    /**
     * The implicit record text of {@code value} if it is a record whose components can be read, else {@link
     * String#valueOf}{@code (value)}.
     */
    static String of(Object value) {
        if (!(value instanceof Record r)) {
            return String.valueOf(value);
        }
        Class<?> type = r.getClass();
        RecordComponent[] components = type.getRecordComponents();
        StringBuilder b = new StringBuilder(type.getSimpleName()).append('[');
        try {
            for (int i = 0; i < components.length; i++) {
                var accessor = components[i].getAccessor();
                if (!accessor.trySetAccessible()) {
                    return String.valueOf(value);
                }
                b.append(i == 0 ? "" : ", ").append(components[i].getName()).append('=').append(of(accessor.invoke(r)));
            }
        } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
            return String.valueOf(value);
        }
        return b.append(']').toString();
    }
}
