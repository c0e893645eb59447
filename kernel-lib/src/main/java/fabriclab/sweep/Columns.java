package fabriclab.sweep;

import fabriclab.Parameters;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * The table form of a sweep's results: an ordered list of named columns, each with its unit and the
 * function that reads its value from one result. {@link #table} gives one row per result, in the
 * order of the results; {@link #units} gives the unit of every column, as a dataset's provenance
 * records them.
 *
 * <pre>{@code
 * static final Columns<Run> COLUMNS = Columns.<Run>of()
 *         .stringColumn("fabric", "", r -> r.fabric().name())
 *         .doubleColumn("jct_us", "us", Run::jctUs);
 * Table t = COLUMNS.table("jct", runs);
 * }</pre>
 *
 * Immutable: each method that adds a column returns a new instance.
 *
 * @param <R> the result type
 */
public final class Columns<R> {
    private record Spec<R>(String name, String unit, Function<List<? extends R>, Column<?>> build) {
    }

    private final List<Spec<R>> specs;

    private Columns(List<Spec<R>> specs) {
        this.specs = specs;
    }

    /** No columns yet. */
    public static <R> Columns<R> of() {
        return new Columns<>(List.of());
    }

    /** Adds a text column. */
    public Columns<R> stringColumn(String name, String unit, Function<? super R, String> value) {
        Parameters.notNull("value", value);
        return with(name, unit, rows -> {
            StringColumn c = StringColumn.create(name);
            rows.forEach(r -> c.append(value.apply(r)));
            return c;
        });
    }

    /** Adds a column of doubles. */
    public Columns<R> doubleColumn(String name, String unit, ToDoubleFunction<? super R> value) {
        Parameters.notNull("value", value);
        return with(name, unit, rows -> {
            DoubleColumn c = DoubleColumn.create(name);
            rows.forEach(r -> c.append(value.applyAsDouble(r)));
            return c;
        });
    }

    /** Adds a column of ints. */
    public Columns<R> intColumn(String name, String unit, ToIntFunction<? super R> value) {
        Parameters.notNull("value", value);
        return with(name, unit, rows -> {
            IntColumn c = IntColumn.create(name);
            rows.forEach(r -> c.append(value.applyAsInt(r)));
            return c;
        });
    }

    /** Adds a column of longs. */
    public Columns<R> longColumn(String name, String unit, ToLongFunction<? super R> value) {
        Parameters.notNull("value", value);
        return with(name, unit, rows -> {
            LongColumn c = LongColumn.create(name);
            rows.forEach(r -> c.append(value.applyAsLong(r)));
            return c;
        });
    }

    /** Adds a column of booleans. */
    public Columns<R> booleanColumn(String name, String unit, Predicate<? super R> value) {
        Parameters.notNull("value", value);
        return with(name, unit, rows -> {
            BooleanColumn c = BooleanColumn.create(name);
            rows.forEach(r -> c.append(value.test(r)));
            return c;
        });
    }

    private Columns<R> with(String name, String unit, Function<List<? extends R>, Column<?>> build) {
        Parameters.notBlank("name", name);
        Parameters.notNull("unit", unit);
        for (Spec<R> s : specs) {
            if (s.name().equals(name)) {
                throw new IllegalArgumentException("name must differ from the existing columns " + names() + ", got \"" + name + "\"");
            }
        }
        List<Spec<R>> more = new ArrayList<>(specs);
        more.add(new Spec<>(name, unit, build));
        return new Columns<>(List.copyOf(more));
    }

    /** Column names, in order. */
    public List<String> names() {
        return specs.stream().map(Spec::name).toList();
    }

    /** Unit of every column (empty for text and dimensionless columns), in column order; unmodifiable. */
    public Map<String, String> units() {
        Map<String, String> units = new LinkedHashMap<>();
        for (Spec<R> s : specs) {
            units.put(s.name(), s.unit());
        }
        return Collections.unmodifiableMap(units);
    }

    /**
     * The results as a table named {@code name}: one row per result, in order.
     *
     * @param name table name, not blank
     * @param results the results, not null, no null element
     */
    public Table table(String name, List<? extends R> results) {
        Parameters.notBlank("name", name);
        Parameters.notNull("results", results);
        if (specs.isEmpty()) {
            throw new IllegalStateException("a table needs at least one column; add one with doubleColumn, stringColumn, ...");
        }
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i) == null) {
                throw new IllegalArgumentException("results[" + i + "] must not be null");
            }
        }
        Table t = Table.create(name);
        for (Spec<R> s : specs) {
            t.addColumns(s.build().apply(results));
        }
        return t;
    }
}
