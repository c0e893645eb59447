package fabriclab.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One option of a command line, declared once: its name as the user writes it, the {@link Kind} of its value
 * (grammar, range, how it is written back), its default (possibly another one for some values of another option),
 * the values of other options it applies with, its checks against the other options, and its help text. Reading a
 * command line ({@link Values#parse}), validating it ({@link Values#validate}), the usage text ({@link #usage}) and
 * the command line that stands for parsed values ({@link Values#toArgs}) all come from the declarations.
 *
 * <p>An option is declared as a constant with {@link #of} and the methods that return a copy with one more fact
 * ({@link #byDefault}, {@link #onlyWith}, {@link #check}, {@link #help}).
 *
 * @param <T> the type of its value
 */
final class Option<T> {

    /** What an option's value is: how it is read and checked against its own range, and written back. */
    interface Kind<T> {
        /** The value's placeholder in the usage text: {@code N}, {@code S}, {@code a|b|c}; empty for a flag. */
        String metavar();

        /**
         * Reads {@code text}.
         *
         * @param option the option as written on the command line, for messages
         * @param values the other options (for a kind whose reading depends on them)
         * @throws IllegalArgumentException naming {@code option}, {@code text} and what is accepted
         */
        T parse(String option, String text, Values values);

        /**
         * {@code value} (null: no value) as the command line writes it, read back to an equal value; or null to leave
         * the option out.
         */
        String show(T value);

        /** The accepted values for the usage text, beyond the placeholder: "in [2, 64]"; empty if none to add. */
        default String range() {
            return "";
        }

        /** Whether the option takes no value (it is given or not). */
        default boolean flag() {
            return false;
        }
    }

    /** How a {@link Kind} reads a text: as {@link Kind#parse}. */
    @FunctionalInterface
    interface Reader<T> {
        T parse(String option, String text, Values values);
    }

    /** A kind made of its parts (the kinds below). */
    private record Parts<T>(String metavar, Reader<T> reader, java.util.function.Function<T, String> writer, String range,
            boolean flag) implements Kind<T> {
        @Override
        public T parse(String option, String text, Values values) {
            return reader.parse(option, text, values);
        }

        @Override
        public String show(T value) {
            return writer.apply(value);
        }
    }

    /** A whole number in {@code [lo, hi]} written in {@code quantity}'s grammar; usage placeholder {@code metavar}. */
    static Kind<Long> number(Quantity quantity, String metavar, long lo, long hi) {
        return new Parts<>(metavar, (option, text, values) -> quantity.parse(option, text, lo, hi),
                value -> value == null ? null : quantity.show(value), quantity.range(lo, hi), false);
    }

    /**
     * A decimal fraction in {@code (lo, hi]} written as digits with an optional decimal point ({@code 0.3}, {@code .5},
     * {@code 1}): no exponent, sign, NaN, infinity or type suffix.
     */
    static Kind<Double> fraction(String metavar, double lo, double hi) {
        java.util.regex.Pattern syntax = java.util.regex.Pattern.compile("[0-9]{1,9}(\\.[0-9]{0,9})?|\\.[0-9]{1,9}");
        return new Parts<>(metavar, (option, text, values) -> {
            if (!syntax.matcher(text).matches()) {
                throw new IllegalArgumentException(option + " must be a decimal number such as 0.3 (digits and a point, at"
                        + " most 9 of each), got " + quote(text));
            }
            double v = Double.parseDouble(text);
            if (!(v > lo && v <= hi)) {
                throw new IllegalArgumentException(option + " must be in (" + plain(lo) + ", " + plain(hi) + "], got "
                        + quote(text));
            }
            return v;
        }, value -> value == null ? null : plain(value), "in (" + plain(lo) + ", " + plain(hi) + "]", false);
    }

    /** {@code v} in plain decimal notation (no exponent), read back to the same double. */
    private static String plain(double v) {
        return java.math.BigDecimal.valueOf(v).toPlainString();
    }

    /** One of {@code choices}, written exactly. */
    static Kind<String> choice(List<String> choices) {
        return choice(choices, c -> c);
    }

    /** One of {@code choices}, each written as its {@code name}. */
    static <E> Kind<E> choice(List<E> choices, java.util.function.Function<E, String> name) {
        List<String> names = choices.stream().map(name).toList();
        return new Parts<>(String.join("|", names), (option, text, values) -> {
            int i = names.indexOf(text);
            if (i < 0) {
                throw new IllegalArgumentException(option + " must be one of " + String.join(", ", names) + ", got "
                        + quote(text));
            }
            return choices.get(i);
        }, value -> value == null ? null : name.apply(value), "", false);
    }

    /** Any text (a file name); checks belong to the option. */
    static Kind<String> text(String metavar) {
        return new Parts<>(metavar, (option, text, values) -> text, value -> value, "", false);
    }

    /** A flag: true when given (written as its name alone), false when not (left out). */
    static Kind<Boolean> flag() {
        return new Parts<>("", (option, text, values) -> Boolean.valueOf(text), value -> value ? "" : null, "", true);
    }

    /** The option applies only when {@code option} has one of {@code values}. */
    record Condition<V>(Option<V> option, List<V> values) {
        /** The values as the command line writes them: {@code a|b}. */
        String shown() {
            return option.shown(values);
        }
    }

    /** The default {@code text} when {@code option} has one of {@code values}. */
    private record Case<V>(Option<V> option, List<V> values, String text) {
    }

    /** A check of an option's value against the other options. */
    @FunctionalInterface
    interface Check<T> {
        /**
         * What {@code value} breaks, written to follow the option's name ("must be a multiple of --hosts-per-leaf =
         * 16"), or null if nothing.
         */
        String broken(Values values, T value);
    }

    /** The option as written on the command line, {@code --name}. */
    final String name;
    final Kind<T> kind;
    /** The default's text (read by {@link #kind}), or null for no value. */
    private final String defaultText;
    /** Other defaults for some values of other options, the first that matches taken. */
    private final List<Case<?>> cases;
    private final List<Condition<?>> conditions;
    private final List<Check<T>> checks;
    private final String help;

    private Option(String name, Kind<T> kind, String defaultText, List<Case<?>> cases, List<Condition<?>> conditions,
            List<Check<T>> checks, String help) {
        this.name = name;
        this.kind = kind;
        this.defaultText = defaultText;
        this.cases = List.copyOf(cases);
        this.conditions = List.copyOf(conditions);
        this.checks = List.copyOf(checks);
        this.help = help;
    }

    /** An option {@code name} of {@code kind}, with no default, applying always, unchecked beyond its kind. */
    static <T> Option<T> of(String name, Kind<T> kind) {
        return new Option<>(name, kind, null, List.of(), List.of(), List.of(), "");
    }

    /** This option with the default {@code text} (read by the kind, as if given). */
    Option<T> byDefault(String text) {
        return new Option<>(name, kind, text, cases, conditions, checks, help);
    }

    /** This option with the default {@code value}, as its kind writes it. */
    Option<T> byDefaultValue(T value) {
        return byDefault(kind.show(value));
    }

    /** This option with the default {@code text} when {@code option} is one of {@code values}. */
    <V> Option<T> byDefault(Option<V> option, List<V> values, String text) {
        return new Option<>(name, kind, defaultText, plus(cases, new Case<>(option, values, text)), conditions, checks, help);
    }

    /** This option, applying only when {@code option} is one of {@code values} (given otherwise, it is an error). */
    <V> Option<T> onlyWith(Option<V> option, List<V> values) {
        return new Option<>(name, kind, defaultText, cases, plus(conditions, new Condition<>(option, values)), checks, help);
    }

    /** {@code values} as the command line writes them, joined by {@code |}. */
    private String shown(List<T> values) {
        return String.join("|", values.stream().map(kind::show).toList());
    }

    /** This option with one more check against the other options. */
    Option<T> check(Check<T> check) {
        return new Option<>(name, kind, defaultText, cases, conditions, plus(checks, check), help);
    }

    /** This option with its help text. */
    Option<T> help(String text) {
        return new Option<>(name, kind, defaultText, cases, conditions, checks, text);
    }

    private static <E> List<E> plus(List<E> list, E e) {
        List<E> r = new ArrayList<>(list);
        r.add(e);
        return r;
    }

    /** The default's text given the other options, or null. */
    private String defaultText(Values values) {
        for (Case<?> c : cases) {
            if (c.values.contains(values.get(c.option))) {
                return c.text;
            }
        }
        return defaultText;
    }

    /** The usage lines of this option: name, placeholder, help, range, default and where it applies. */
    private String usage(int column, int width) {
        StringBuilder text = new StringBuilder(help);
        if (!kind.range().isEmpty()) {
            text.append(text.length() > 0 ? "; " : "").append(kind.range());
        }
        if (!kind.flag()) {
            StringBuilder d = new StringBuilder(defaultText == null ? "none" : defaultText);
            for (Case<?> c : cases) {
                d.append("; ").append(c.option.name).append(' ').append(shownValues(c)).append(": ").append(c.text);
            }
            text.append(" [").append(d).append(']');
        }
        for (int i = 0; i < conditions.size(); i++) { // (kept on one line: no-break spaces until wrapped)
            Condition<?> c = conditions.get(i);
            text.append(i == 0 ? "; only\u00a0with\u00a0" : " and\u00a0").append(c.option.name).append('\u00a0')
                    .append(c.shown());
        }
        String head = "  " + name + (kind.metavar().isEmpty() ? "" : " " + kind.metavar());
        return wrap(head, text.toString(), column, width).replace('\u00a0', ' ');
    }

    private static <V> String shownValues(Case<V> c) {
        return c.option.shown(c.values);
    }

    /** {@code head} and {@code text} wrapped at {@code width}, the text starting at {@code column} on every line. */
    static String wrap(String head, String text, int column, int width) {
        StringBuilder out = new StringBuilder(head);
        int lineStart = 0;
        if (head.length() + 2 > column) {
            out.append("  ");
        } else {
            out.append(" ".repeat(column - head.length()));
        }
        for (String word : text.split(" ")) {
            int lineLength = out.length() - lineStart;
            if (lineLength + word.length() + 1 > width && lineLength > column) {
                out.setLength(out.length() - 1); // the blank before the word
                out.append('\n');
                lineStart = out.length();
                out.append(" ".repeat(column));
            }
            out.append(word).append(' ');
        }
        out.setLength(out.length() - 1);
        return out.toString();
    }

    /** The usage text's width. */
    static final int WIDTH = 118;

    /** The usage text: {@code header}, each of {@code options}, {@code footer}. */
    static String usage(String header, List<Option<?>> options, String footer) {
        List<String> lines = new ArrayList<>();
        lines.add(header);
        for (Option<?> o : options) {
            lines.add(o.usage(34, WIDTH));
        }
        lines.add(footer);
        return String.join("\n", lines);
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }

    /**
     * The values of a command line: each option's text as given, or its default, read on first use (so a default or
     * a kind may depend on other options in any order of declaration).
     */
    static final class Values {
        private final List<Option<?>> options;
        private final Map<Option<?>, String> given;
        private final Map<Option<?>, Object> read = new HashMap<>();
        private final Set<Option<?>> reading = new HashSet<>();

        private Values(List<Option<?>> options, Map<Option<?>, String> given) {
            this.options = options;
            this.given = given;
        }

        /**
         * Reads {@code --name value} pairs and flags of {@code options}; nothing is read or checked yet beyond the
         * names ({@link #validate}).
         *
         * @throws IllegalArgumentException naming an unknown option, one given twice or one without its value
         */
        static Values parse(List<String> args, List<Option<?>> options) {
            Map<String, Option<?>> byName = new LinkedHashMap<>();
            for (Option<?> o : options) {
                byName.put(o.name, o);
            }
            Map<Option<?>, String> given = new HashMap<>();
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                Option<?> o = byName.get(a);
                if (o == null) {
                    throw new IllegalArgumentException("unknown option " + quote(a) + "; the options are "
                            + String.join(", ", byName.keySet()) + " (--help prints them with their defaults)");
                }
                String text;
                if (o.kind.flag()) {
                    text = "true";
                } else if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(a + " needs a value");
                } else {
                    text = args.get(++i);
                }
                if (given.put(o, text) != null) {
                    throw new IllegalArgumentException(a + " is given twice");
                }
            }
            return new Values(options, given);
        }

        /** The value of {@code o}: read from the command line, else its default (null if it has none). */
        @SuppressWarnings("unchecked")
        <T> T get(Option<T> o) {
            if (read.containsKey(o)) {
                return (T) read.get(o);
            }
            if (!reading.add(o)) {
                throw new IllegalStateException("the default of " + o.name + " depends on itself");
            }
            String text = given.containsKey(o) ? given.get(o) : o.defaultText(this);
            T v = text == null ? null : o.kind.parse(o.name, text, this);
            reading.remove(o);
            read.put(o, v);
            return v;
        }

        /** The text given for {@code o} on the command line, or null when it takes its default. */
        String given(Option<?> o) {
            return given.get(o);
        }

        /** The first condition of {@code o}, or of an option a condition names, that these values break; or null. */
        Condition<?> unmet(Option<?> o) {
            for (Condition<?> c : o.conditions) {
                Condition<?> deeper = unmet(c.option);
                if (deeper != null) {
                    return deeper;
                }
                if (!c.values.contains(get(c.option))) {
                    return c;
                }
            }
            return null;
        }

        /**
         * Checks every option in order: one given where it does not apply is an error naming the option and what it
         * does not apply to; every option that applies is read and checked against the others.
         *
         * @throws IllegalArgumentException naming the first option that fails, its value and what is accepted
         */
        void validate() {
            for (Option<?> o : options) {
                Condition<?> c = unmet(o);
                if (c == null) {
                    check(o);
                } else if (given.containsKey(o)) {
                    throw new IllegalArgumentException(o.name + " does not apply to " + c.option.name + " "
                            + shownValue(c.option) + ": it applies only with " + c.option.name + " " + c.shown());
                }
            }
        }

        /** The value of {@code o} as the command line writes it. */
        private <T> String shownValue(Option<T> o) {
            return o.kind.show(get(o));
        }

        private <T> void check(Option<T> o) {
            T v = get(o);
            for (Check<T> c : o.checks) {
                String broken = c.broken(this, v);
                if (broken != null) {
                    throw new IllegalArgumentException(o.name + " " + broken + ", got " + written(o));
                }
            }
        }

        /** The text of {@code o} as the user wrote it, or its default's marked as such. */
        private String written(Option<?> o) {
            String t = given.get(o);
            if (t == null) {
                String d = o.defaultText(this);
                return (d == null ? "none" : d) + " (its default)";
            }
            return t.isBlank() || !t.equals(t.strip()) ? quote(t) : t;
        }

        /**
         * The command line of these values: every option that applies with its value written by its kind (flags
         * that are set by their name alone), so that {@link #parse} of it gives the same values.
         */
        List<String> toArgs() {
            List<String> args = new ArrayList<>();
            for (Option<?> o : options) {
                if (unmet(o) == null) {
                    add(args, o);
                }
            }
            return args;
        }

        private <T> void add(List<String> args, Option<T> o) {
            T v = get(o);
            String text = o.kind.show(v);
            if (text != null) {
                args.add(o.name);
                if (!o.kind.flag()) {
                    args.add(text);
                }
            }
        }
    }
}
