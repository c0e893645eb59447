package fabriclab.simulation.trace;

import fabriclab.Parameters;
import java.io.Serializable;
import java.util.Arrays;
import java.util.TreeMap;
import java.util.function.ObjLongConsumer;

/**
 * The positive counters of one simulation run, an immutable value read by {@link Counter}: {@link #get} gives a
 * counter's count, 0 for a counter the run did not count. The counters are kept in the order of their names
 * ({@link Counter#name()}, compared as strings), the order in which {@link #forEach} visits them and
 * {@code bin/simulate} prints them. A counter is identified by its name: two {@link Counter} constants of one name
 * read the same count.
 */
public final class Counters implements Serializable {
    private static final long serialVersionUID = 1L;

    /** No counter counted. */
    public static final Counters NONE = new Counters(new String[0], new long[0]);

    /** Names in increasing order; {@code values[i]} is the count of {@code names[i]}, positive. */
    private final String[] names;
    private final long[] values;

    private Counters(String[] names, long[] values) {
        this.names = names;
        this.values = values;
    }

    /** An empty builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** The count of {@code counter} (not null) in this run; 0 if the run did not count it. */
    public long get(Counter counter) {
        int i = Arrays.binarySearch(names, Parameters.notNull("counter", counter).name());
        return i < 0 ? 0 : values[i];
    }

    /** Number of counters with a positive count. */
    public int size() {
        return names.length;
    }

    /** Whether no counter counted anything. */
    public boolean isEmpty() {
        return names.length == 0;
    }

    /** Calls {@code action} (not null) with each counter's name and count, in the order of the names. */
    public void forEach(ObjLongConsumer<String> action) {
        Parameters.notNull("action", action);
        for (int i = 0; i < names.length; i++) {
            action.accept(names[i], values[i]);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Counters c && Arrays.equals(names, c.names) && Arrays.equals(values, c.values);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(names) + Arrays.hashCode(values);
    }

    /** The counters as {@code {name=count, ...}} in the order of the names. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < names.length; i++) {
            b.append(i == 0 ? "" : ", ").append(names[i]).append('=').append(values[i]);
        }
        return b.append('}').toString();
    }

    /** Collects the counts of a run; {@link #build} gives the value. Not thread-safe. */
    public static final class Builder {
        private final TreeMap<String, Long> counts = new TreeMap<>();

        private Builder() {
        }

        /**
         * Sets {@code counter}'s (not null) count to {@code value} if it is positive (a later call for the same counter
         * replaces it); a count of 0 or less is not kept.
         *
         * @return this builder
         */
        public Builder put(Counter counter, long value) {
            Parameters.notNull("counter", counter);
            if (value > 0) {
                counts.put(counter.name(), value);
            }
            return this;
        }

        /** The counters collected so far. */
        public Counters build() {
            String[] n = new String[counts.size()];
            long[] v = new long[n.length];
            int i = 0;
            for (var e : counts.entrySet()) {
                n[i] = e.getKey();
                v[i++] = e.getValue();
            }
            return n.length == 0 ? NONE : new Counters(n, v);
        }
    }
}
