package fabriclab.datasets;

import fabriclab.Parameters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tech.tablesaw.api.Table;
import tech.tablesaw.api.NumericColumn;

/**
 * The per-seed values behind each canonical prediction, read back from the model datasets the notebooks saved
 * beside their comparisons. Nothing is simulated again: each value is recomputed from the saved runs the way the
 * notebook computes the row, and a range is returned only when the runs reproduce the row's reported value (so a
 * stale dataset or a renamed row gives no range instead of a wrong one).
 *
 * <ul>
 * <li>{@code 08-jct}: RoCE/GSE of the mean JCT over the 8 jobs, RoCE and GSE paired per seed (GSE on the same
 * uplinks, algorithm, speedup and seed), from {@code jct-gse-vs-roce-seeds}; the configuration is the one whose
 * median over seeds is the row's value. The 000 testbed leaves its settings unstated, so the range also holds the
 * runs of {@code jct-gse-vs-roce-axes} at the row's speedup and collective (each unstated setting varied from the
 * documented defaults, one seed).</li>
 * <li>{@code 09-llama2}: samples/s per seed from {@code llama2-training}; a level is the median over seeds, a
 * gain GSE over RoCE and a change a scenario over the single job per seed the ratio of that seed's runs, the row
 * either the ratio of the medians or the median of the per-seed ratios (the two differ when both fabrics vary over
 * the seeds). The configuration (layout, batch, accelerator, efficiency) is the one that
 * reproduces the row's value.</li>
 * <li>{@code 07-packet-sim}: the row's note states its seeds as {@link #seedNote} writes them, "seeds a-b: all v" (the
 * same value on every seed) or "seeds a-b: v_a; ...; v_b" (seed by seed); a row that restates another quantity of the
 * comparison takes that row's seeds when they are all the same.</li>
 * <li>{@code 02-pktc} and {@code 12-in-network}: closed forms with no seed; the range is the row's value.</li>
 * </ul>
 */
public final class SeedRanges {
    /** Comparisons whose canonical predictions are closed forms without a seed, and why. */
    public static final Map<String, String> CLOSED_FORMS = Map.of(
            "02-pktc", "closed form (exact reorder share at g -> 0): no seed",
            "12-in-network", "closed form of the assumed N, message mix and host overhead: no seed");

    private static final Pattern ALL_SEEDS = Pattern.compile("seeds (\\d+)-(\\d+): all (-?[0-9][0-9,]*(?:\\.[0-9]+)?)");
    private static final String NUMBER = "-?[0-9]+(?:\\.[0-9]+)?";
    private static final Pattern EACH_SEED = Pattern.compile("seeds (\\d+)-(\\d+): (" + NUMBER + "(?:; " + NUMBER + ")+)");
    private static final double SAME = 1e-9;

    private SeedRanges() {
    }

    /**
     * A resolver of per-seed values for the entries of the comparisons under {@code root}: empty for a row no saved
     * run reproduces. Datasets are read once, when first needed.
     *
     * @param root a datasets directory (with model/)
     */
    public static Function<Scorecard.Entry, Optional<SeedRange>> fromDatasets(Path root) {
        Parameters.notNull("root", root);
        Map<String, Optional<Table>> tables = new HashMap<>();
        Function<String, Optional<Table>> table = name -> tables.computeIfAbsent(name,
                n -> Datasets.list(root).contains(n) ? Optional.of(Datasets.load(root, n).table()) : Optional.empty());
        Map<String, List<Scorecard.Entry>> byComparison = new HashMap<>();
        return e -> {
            ComparisonRow r = e.row();
            String closed = CLOSED_FORMS.get(e.comparison());
            if (closed != null) {
                return Optional.of(new SeedRange(closed, List.of("closed form"), List.of(r.model())));
            }
            return switch (e.comparison()) {
                case "08-jct" -> table.apply("jct-gse-vs-roce-seeds").flatMap(s -> jct(r, s, table.apply("jct-gse-vs-roce-axes")));
                case "09-llama2" -> table.apply("llama2-training").flatMap(t -> llama2(r, t));
                case "07-packet-sim" -> {
                    Optional<SeedRange> own = fromNote(r);
                    if (own.isPresent() || r.sameQuantityAs().isEmpty()) {
                        yield own;
                    }
                    List<Scorecard.Entry> all = byComparison.computeIfAbsent(e.comparison(), c -> Scorecard.entries(root).stream()
                            .filter(o -> o.comparison().equals(c)).toList());
                    yield all.stream().filter(o -> o.row().quantity().equals(r.sameQuantityAs()) && o.row().source().equals(r.source())
                                    && o.row().kind() == r.kind() && o.row().canonical() == r.canonical())
                            .findFirst().flatMap(o -> fromNote(o.row()))
                            .filter(s -> s.min() == s.max())
                            .map(s -> new SeedRange(s.basis() + ", restated", s.labels(),
                                    s.values().stream().map(v -> r.model()).toList()));
                }
                default -> Optional.empty();
            };
        };
    }

    /**
     * The note that states a row's value on seeds {@code firstSeed} to {@code firstSeed + perSeed.length - 1}, as
     * {@link #fromDatasets} reads it back for {@code 07-packet-sim}: "seeds a-b: all v" when every value prints the same
     * in {@code format}, else "seeds a-b: v_a; ...; v_b", seed by seed.
     *
     * @param firstSeed the first seed, at least 0
     * @param perSeed the values, seed by seed, at least one, finite
     * @param format a {@link String#format} pattern for one value, such as {@code "%.1f"} (no grouping separators)
     */
    public static String seedNote(long firstSeed, double[] perSeed, String format) {
        Parameters.atLeast("firstSeed", firstSeed, 0L);
        Parameters.notNull("perSeed", perSeed);
        if (perSeed.length == 0) {
            throw new IllegalArgumentException("perSeed must hold at least one value, got none");
        }
        Parameters.notBlank("format", format);
        List<String> printed = new ArrayList<>();
        for (int i = 0; i < perSeed.length; i++) {
            Parameters.finite("perSeed[" + i + "]", perSeed[i]);
            String v = String.format(java.util.Locale.ROOT, format, perSeed[i]);
            if (!v.matches(NUMBER)) {
                throw new IllegalArgumentException("format must print a plain number (digits, an optional sign and"
                        + " decimals), got \"" + format + "\", which prints " + perSeed[i] + " as \"" + v + "\"");
            }
            printed.add(v);
        }
        String seeds = "seeds " + firstSeed + "-" + (firstSeed + perSeed.length - 1) + ": ";
        return printed.stream().distinct().count() == 1 ? seeds + "all " + printed.get(0) : seeds + String.join("; ", printed);
    }

    /**
     * The range a note states as "seeds a-b: all v" (the row's value on every seed a to b, when v is the row's value
     * at the note's precision) or "seeds a-b: v_a; ...; v_b" (one value per seed, one of them the row's value at the
     * note's precision, which stands for it exactly).
     */
    static Optional<SeedRange> fromNote(ComparisonRow r) {
        Matcher each = EACH_SEED.matcher(r.note());
        if (each.find()) {
            int from = Integer.parseInt(each.group(1)), to = Integer.parseInt(each.group(2));
            String[] stated = each.group(3).split("; ");
            if (to - from + 1 != stated.length) {
                return Optional.empty();
            }
            List<String> labels = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            boolean found = false;
            for (int i = 0; i < stated.length; i++) {
                labels.add("seed " + (from + i));
                boolean own = !found && statesAtPrecision(stated[i], r.model());
                found |= own;
                values.add(own ? r.model() : Double.parseDouble(stated[i]));
            }
            return found ? Optional.of(new SeedRange("seeds " + from + "-" + to + ", seed by seed (the row's note)", labels,
                    values)) : Optional.empty();
        }
        Matcher m = ALL_SEEDS.matcher(r.note());
        if (!m.find()) {
            return Optional.empty();
        }
        int from = Integer.parseInt(m.group(1)), to = Integer.parseInt(m.group(2));
        if (to < from || !statesAtPrecision(m.group(3).replace(",", ""), r.model())) {
            return Optional.empty();
        }
        List<String> labels = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (int s = from; s <= to; s++) {
            labels.add("seed " + s);
            values.add(r.model());
        }
        return Optional.of(new SeedRange("seeds " + from + "-" + to + ", every seed the same value (the row's note)", labels, values));
    }

    private static Optional<SeedRange> jct(ComparisonRow r, Table seeds, Optional<Table> axes) {
        String q = r.quantity();
        String family = q.contains("AlltoAll") ? "all_to_all" : q.contains("AllReduce") ? "all_reduce" : null;
        Matcher sp = Pattern.compile("speedup ([0-9.]+):1").matcher(q);
        if (family == null || !sp.find()) {
            return Optional.empty();
        }
        double speedup = Double.parseDouble(sp.group(1));
        Map<String, Map<String, Double>> ratios = jctRatios(seeds, family, speedup);
        for (Map.Entry<String, Map<String, Double>> c : ratios.entrySet()) {
            List<Double> v = new ArrayList<>(c.getValue().values());
            if (close(median(v), r.model())) {
                List<String> labels = new ArrayList<>();
                List<Double> values = new ArrayList<>();
                c.getValue().forEach((seed, ratio) -> {
                    labels.add(c.getKey() + ", seed " + seed);
                    values.add(ratio);
                });
                String basis = "seeds " + String.join(",", c.getValue().keySet()) + " of " + c.getKey()
                        + " (RoCE and GSE paired per seed)";
                if (axes.isPresent()) {
                    Map<String, Map<String, Double>> ax = jctRatios(axes.get(), family, speedup);
                    int before = values.size();
                    ax.forEach((config, bySeed) -> bySeed.forEach((seed, ratio) -> {
                        String label = config + ", seed " + seed;
                        if (!labels.contains(label)) {
                            labels.add(label);
                            values.add(ratio);
                        }
                    }));
                    if (values.size() > before) {
                        basis += "; and " + (values.size() - before) + " runs over the unstated settings (testbed axes, one seed)";
                    }
                }
                return Optional.of(new SeedRange(basis, labels, values));
            }
        }
        return Optional.empty();
    }

    /** RoCE/GSE per RoCE configuration ("algorithm, uplinks, QPs, DCQCN, PFC") and seed, at one speedup and family. */
    private static Map<String, Map<String, Double>> jctRatios(Table t, String family, double speedup) {
        Map<String, Double> gse = new HashMap<>();
        for (int i = 0; i < t.rowCount(); i++) {
            if (text(t, "fabric", i).equals("gse")) {
                gse.put(String.join("|", text(t, "algorithm", i), text(t, "uplinks", i), text(t, "seed", i),
                        String.valueOf(number(t, "speedup", i))), number(t, "mean_jct_us", i));
            }
        }
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (int i = 0; i < t.rowCount(); i++) {
            String algorithm = text(t, "algorithm", i);
            if (!text(t, "fabric", i).equals("roce") || number(t, "speedup", i) != speedup || !algorithm.contains(family)) {
                continue;
            }
            Double g = gse.get(String.join("|", algorithm, text(t, "uplinks", i), text(t, "seed", i), String.valueOf(speedup)));
            if (g == null) {
                continue;
            }
            String config = String.join(", ", algorithm, text(t, "uplinks", i), text(t, "queue_pairs", i) + " QP",
                    "DCQCN " + text(t, "dcqcn", i), "PFC " + text(t, "pfc", i));
            out.computeIfAbsent(config, k -> new LinkedHashMap<>()).put(text(t, "seed", i), number(t, "mean_jct_us", i) / g);
        }
        return out;
    }

    private static final Pattern LEVEL = Pattern.compile("(RoCE|GSE), (.+)");
    private static final Pattern GAIN = Pattern.compile("GSE gain, (.+)");
    private static final Pattern CHANGE = Pattern.compile("(RoCE|GSE) change, (.+) vs (.+)");
    private static final List<String> LLAMA2_CONFIG = List.of("timing", "tp", "pp", "dp", "zero", "micro_batches",
            "global_batch", "accelerator", "efficiency");

    private static Optional<SeedRange> llama2(ComparisonRow r, Table t) {
        // configuration -> scenario|fabric -> seed -> samples/s
        Map<String, Map<String, Map<String, Double>>> runs = new LinkedHashMap<>();
        for (int i = 0; i < t.rowCount(); i++) {
            List<String> key = new ArrayList<>();
            for (String c : LLAMA2_CONFIG) {
                key.add(c + " " + text(t, c, i));
            }
            runs.computeIfAbsent(String.join(", ", key), k -> new LinkedHashMap<>())
                    .computeIfAbsent(text(t, "scenario", i) + "|" + text(t, "fabric", i).toLowerCase(), k -> new LinkedHashMap<>())
                    .put(text(t, "seed", i), number(t, "samples_per_s", i));
        }
        String q = r.quantity();
        Matcher change = CHANGE.matcher(q), gain = GAIN.matcher(q), level = LEVEL.matcher(q);
        String[] num, den;   // scenario|fabric of the numerator and denominator; den null for a level
        boolean percent;
        if (change.matches()) {
            String f = change.group(1).toLowerCase();
            num = new String[] {change.group(2) + "|" + f};
            den = new String[] {change.group(3) + "|" + f};
            percent = true;
        } else if (gain.matches()) {
            num = new String[] {gain.group(1) + "|gse"};
            den = new String[] {gain.group(1) + "|roce"};
            percent = true;
        } else if (level.matches()) {
            num = new String[] {level.group(2) + "|" + level.group(1).toLowerCase()};
            den = null;
            percent = false;
        } else {
            return Optional.empty();
        }
        for (Map.Entry<String, Map<String, Map<String, Double>>> c : runs.entrySet()) {
            Map<String, Double> a = c.getValue().get(num[0]);
            Map<String, Double> b = den == null ? null : c.getValue().get(den[0]);
            if (a == null || (den != null && b == null)) {
                continue;
            }
            List<String> labels = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            for (Map.Entry<String, Double> s : a.entrySet()) {
                if (den != null && !b.containsKey(s.getKey())) {
                    continue;
                }
                labels.add("seed " + s.getKey());
                values.add(percent ? 100 * (s.getValue() / b.get(s.getKey()) - 1) : s.getValue());
            }
            if (values.isEmpty()) {
                continue;
            }
            double value = percent ? 100 * (median(new ArrayList<>(a.values())) / median(new ArrayList<>(b.values())) - 1)
                    : median(new ArrayList<>(a.values()));
            boolean ratioOfMedians = close(value, r.model());
            if (!ratioOfMedians && !(percent && close(median(values), r.model()))) {
                continue;
            }
            String how = !percent ? "per seed" : "per seed the ratio of that seed's runs (the row: "
                    + (ratioOfMedians ? "the ratio of the medians)" : "the median of these)");
            return Optional.of(new SeedRange("seeds " + String.join(",", a.keySet()) + " at " + c.getKey() + "; " + how, labels, values));
        }
        return Optional.empty();
    }

    /** Whether the number {@code stated} (plain digits) is {@code value} rounded to the decimals it is written with. */
    private static boolean statesAtPrecision(String stated, double value) {
        int decimals = stated.contains(".") ? stated.length() - stated.indexOf('.') - 1 : 0;
        return Math.abs(Double.parseDouble(stated) - value) <= 0.5 * Math.pow(10, -decimals) + SAME;
    }

    private static boolean close(double a, double b) {
        return Math.abs(a - b) <= SAME * Math.max(1, Math.max(Math.abs(a), Math.abs(b)));
    }

    /** The median (the mean of the two middle values for an even count). */
    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static String text(Table t, String column, int row) {
        return t.column(column).getString(row);
    }

    private static double number(Table t, String column, int row) {
        return ((NumericColumn<?>) t.column(column)).getDouble(row);
    }
}
