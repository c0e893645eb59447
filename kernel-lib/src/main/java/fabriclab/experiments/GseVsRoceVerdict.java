package fabriclab.experiments;

import fabriclab.Parameters;
import fabriclab.datasets.ComparisonRow;
import fabriclab.datasets.Datasets;
import fabriclab.datasets.Scorecard;
import fabriclab.datasets.SeedRange;
import fabriclab.datasets.SeedRanges;
import fabriclab.datasets.Target;
import fabriclab.experiments.testbed.Duan2024Testbed;
import fabriclab.project.ProjectPaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * 000's verdict (GSE vs RoCE job completion time) in one sentence, produced from the data the scorecard reads and by
 * its rule, so that notebook 08's verdict and notebook 10's card cannot disagree.
 *
 * <p>The rule is the scorecard's ({@link Scorecard#meetsPaper}, {@link Target#met}): a value meets 000's band when it
 * lies within the band with its tolerance (15% outside either end), and a configuration run over seeds meets it only
 * when every seed does ({@link Scorecard#HIT_SHARE}). The data: the canonical rows of {@code comparison-08-jct} with
 * their seed ranges ({@link SeedRanges}); the 4 x 100G member configurations of {@code jct-gse-vs-roce-seeds} (PFC
 * alone, Zhu et al.'s DCQCN, NVIDIA's DCQCN; RoCE and GSE paired per seed); and the marking x recovery runs of
 * {@code jct-gse-vs-roce-dcqcn-axes} (one seed).
 *
 * <p>The NVIDIA setting of the canonical runs ({@link Duan2024Testbed.Dcqcn#NVIDIA_CONNECTX}) clamps the target rate
 * at every rate cut, where NVIDIA's firmware documents {@code clamp_tgt_rate} 0; the sentence states that setting as an
 * open axis ({@link Duan2024Testbed.Recovery#NVIDIA} is the documented one).
 */
public final class GseVsRoceVerdict {
    /** The comparison holding 000's canonical rows. */
    public static final String COMPARISON = "08-jct";

    private GseVsRoceVerdict() {
    }

    /**
     * One configuration of the 4 x 100G members against 000's band.
     *
     * @param collective "AlltoAll" or "AllReduce (H-D_R)"
     * @param setting the RoCE setting in words
     * @param range RoCE/GSE per seed
     * @param band 000's band for the collective, with its tolerance
     */
    public record Setting(String collective, String setting, SeedRange range, Target band) {
        /** Validates: no field null or blank. */
        public Setting {
            Parameters.notBlank("collective", collective);
            Parameters.notBlank("setting", setting);
            Parameters.notNull("range", range);
            Parameters.notNull("band", band);
        }

        /** The median over seeds. */
        public double median() {
            List<Double> v = new ArrayList<>(range.values());
            v.sort(Double::compare);
            int n = v.size();
            return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
        }

        /** Whether the median meets the band (the rule applied to the reported value alone). */
        public boolean medianMeets() {
            return band.met(median());
        }

        /** Whether every seed meets the band: the scorecard's rule. */
        public boolean everySeedMeets() {
            return range.meets(band, Scorecard.HIT_SHARE);
        }
    }

    /** {@link #members(Path)} of the project's datasets. */
    public static List<Setting> members() {
        return members(ProjectPaths.datasets());
    }

    /**
     * The member configurations of {@code jct-gse-vs-roce-seeds} at 1.5:1 (4 x 100G, one QP, alpha 1; DCQCN off, Zhu
     * et al.'s, NVIDIA's), AlltoAll at once then H-D_R, in the order PFC alone, Zhu, NVIDIA.
     *
     * @param root a datasets directory
     */
    public static List<Setting> members(Path root) {
        Parameters.notNull("root", root);
        Table t = Datasets.load(root, "jct-gse-vs-roce-seeds").table();
        List<Setting> out = new ArrayList<>();
        for (String[] alg : algorithms()) {
            Target band = band(root, alg[1]);
            for (Duan2024Testbed.Dcqcn d : List.of(Duan2024Testbed.Dcqcn.OFF, Duan2024Testbed.Dcqcn.ZHU_2015,
                    Duan2024Testbed.Dcqcn.NVIDIA_CONNECTX)) {
                Map<String, Double> bySeed = ratios(t, alg[0], r -> text(t, "uplinks", r).equals("breakout_4x100g")
                        && text(t, "queue_pairs", r).equals("1 kept") && text(t, "pfc", r).equals("alpha 1")
                        && text(t, "dcqcn", r).equals(d.name().toLowerCase(Locale.ROOT)));
                if (!bySeed.isEmpty()) {
                    out.add(new Setting(alg[1].equals("AlltoAll") ? "AlltoAll" : "AllReduce (H-D_R)", words(d),
                            range(bySeed), band));
                }
            }
        }
        return out;
    }

    /** {@link #markingRecovery(Path)} of the project's datasets. */
    public static List<Setting> markingRecovery() {
        return markingRecovery(ProjectPaths.datasets());
    }

    /**
     * The marking x recovery runs of {@code jct-gse-vs-roce-dcqcn-axes} on the members at 1.5:1, one setting per
     * (collective, marking, recovery) in the dataset's order, each over the seeds it holds.
     *
     * @param root a datasets directory
     */
    public static List<Setting> markingRecovery(Path root) {
        Parameters.notNull("root", root);
        Table t = Datasets.load(root, "jct-gse-vs-roce-dcqcn-axes").table();
        List<Setting> out = new ArrayList<>();
        for (String[] alg : algorithms()) {
            Target band = band(root, alg[1]);
            Map<String, List<Integer>> settings = new LinkedHashMap<>();
            for (int r = 0; r < t.rowCount(); r++) {
                if (text(t, "fabric", r).equals("roce") && text(t, "algorithm", r).equals(alg[0])) {
                    settings.computeIfAbsent(text(t, "marking", r) + "|" + text(t, "recovery", r), k -> new ArrayList<>()).add(r);
                }
            }
            for (String key : settings.keySet()) {
                String[] mr = key.split("\\|");
                Map<String, Double> bySeed = ratios(t, alg[0], r -> text(t, "marking", r).equals(mr[0])
                        && text(t, "recovery", r).equals(mr[1]));
                out.add(new Setting(alg[1].equals("AlltoAll") ? "AlltoAll" : "AllReduce (H-D_R)",
                        Duan2024Testbed.Marking.valueOf(mr[0].toUpperCase(Locale.ROOT)).label() + " / "
                                + Duan2024Testbed.Recovery.valueOf(mr[1].toUpperCase(Locale.ROOT)).label(),
                        range(bySeed), band));
            }
        }
        return out;
    }

    /** {@link #table(Path)} of the project's datasets. */
    public static Table table() {
        return table(ProjectPaths.datasets());
    }

    /**
     * Every setting of {@link #members(Path)} and {@link #markingRecovery(Path)} against 000's band by the scorecard's
     * rule: collective, uplinks and setting, seeds, median, min, max, band (with tolerance), seeds within it, whether
     * the median meets it and whether every seed does.
     */
    public static Table table(Path root) {
        Parameters.notNull("root", root);
        StringColumn collective = StringColumn.create("collective"), setting = StringColumn.create("setting");
        IntColumn seeds = IntColumn.create("seeds"), inside = IntColumn.create("seeds_within_band");
        DoubleColumn median = DoubleColumn.create("median"), min = DoubleColumn.create("min"), max = DoubleColumn.create("max");
        StringColumn band = StringColumn.create("band"), medianMeets = StringColumn.create("median_meets");
        StringColumn every = StringColumn.create("every_seed_meets");
        List<Setting> all = new ArrayList<>(members(root));
        List<Setting> axes = markingRecovery(root);
        for (Setting s : all) {
            add(s, "4x100G, " + s.setting() + " (seeds table)", collective, setting, seeds, median, min, max, band, inside,
                    medianMeets, every);
        }
        for (Setting s : axes) {
            add(s, "4x100G, marking / recovery " + s.setting(), collective, setting, seeds, median, min, max, band, inside,
                    medianMeets, every);
        }
        for (DoubleColumn c : List.of(median, min, max)) {
            c.setPrintFormatter(new tech.tablesaw.columns.numbers.NumberColumnFormatter(
                    new java.text.DecimalFormat("0.00", java.text.DecimalFormatSymbols.getInstance(Locale.ROOT))));
        }
        return Table.create("000 on 4x100G members by the scorecard's rule (band with its 15% tolerance; every seed)",
                collective, setting, seeds, median, min, max, band, inside, medianMeets, every);
    }

    private static void add(Setting s, String label, StringColumn collective, StringColumn setting, IntColumn seeds,
            DoubleColumn median, DoubleColumn min, DoubleColumn max, StringColumn band, IntColumn inside,
            StringColumn medianMeets, StringColumn every) {
        collective.append(s.collective());
        setting.append(label);
        seeds.append(s.range().values().size());
        median.append(s.median());
        min.append(s.range().min());
        max.append(s.range().max());
        band.append(s.band().describe());
        inside.append(s.range().inside(s.band()));
        medianMeets.append(s.medianMeets() ? "yes" : "no");
        every.append(s.everySeedMeets() ? "yes" : "no");
    }

    /** {@link #sentence(Path)} of the project's datasets. */
    public static String sentence() {
        return sentence(ProjectPaths.datasets());
    }

    /**
     * 000's verdict in words, from the canonical rows of {@code comparison-08-jct} with their seed ranges and from
     * {@link #members(Path)} and {@link #markingRecovery(Path)}, by the scorecard's rule. Numbers at two decimals.
     *
     * @param root a datasets directory
     */
    public static String sentence(Path root) {
        Parameters.notNull("root", root);
        Function<Scorecard.Entry, Optional<SeedRange>> ranges = SeedRanges.fromDatasets(root);
        List<Scorecard.Entry> canonical = Scorecard.entries(root).stream()
                .filter(e -> e.comparison().equals(COMPARISON) && Scorecard.counted(e)).toList();
        long met = canonical.stream().filter(e -> Scorecard.meetsPaper(e, ranges)).count();
        StringBuilder b = new StringBuilder();
        b.append("By the scorecard's rule (a value meets 000's band when it lies within the band or 15% outside an end; a")
                .append(" configuration run over seeds meets it only when every seed does), ");
        b.append("on one 400G link per leaf-spine pair (000's plainer reading, the canonical predictions) the documented")
                .append(" defaults meet the band in ").append(met).append(" of ").append(canonical.size()).append(" cases (");
        List<String> parts = new ArrayList<>();
        for (Scorecard.Entry e : canonical) {
            ComparisonRow r = e.row();
            String q = r.quantity().replace("RoCE/GSE JCT ratio, ", "").replace(" 512 MB, speedup", " at");
            parts.add(q + " " + ranges.apply(e).map(s -> range(s) + ", " + s.inside(r.target()) + " of "
                    + s.values().size() + " values within").orElse("no seed range"));
        }
        b.append(String.join("; ", parts)).append(", over seeds and the testbed axes). ");
        List<Setting> members = members(root);
        b.append("On 4 x 100G members hashed per flow (the breakout reading, what-ifs not counted) at 1.5:1, over seeds: ");
        List<String> m = new ArrayList<>();
        for (Setting s : members) {
            m.add(s.collective() + " with " + s.setting() + " median " + two(s.median()) + " (" + range(s.range()) + ", "
                    + s.range().inside(s.band()) + " of " + s.range().values().size() + " seeds within "
                    + two(low(s.band())) + "-" + two(high(s.band())) + ")" + (s.everySeedMeets() ? ": meets the band"
                    : s.medianMeets() ? ": the median meets the band, not every seed" : ""));
        }
        b.append(String.join("; ", m)).append(". ");
        List<String> both = new ArrayList<>();
        for (Setting a : members) {
            for (Setting c : members) {
                if (a.collective().equals("AlltoAll") && !c.collective().equals("AlltoAll") && a.setting().equals(c.setting())
                        && a.everySeedMeets() && c.everySeedMeets()) {
                    both.add(a.setting());
                }
            }
        }
        List<String> medianOnly = members.stream().filter(s -> s.medianMeets() && !s.everySeedMeets())
                .map(s -> s.collective() + " with " + s.setting()).toList();
        b.append(both.isEmpty() ? "No member configuration meets the band for both collectives in every seed"
                : "Both collectives meet the band in every seed with " + String.join(", ", both));
        if (!medianOnly.isEmpty()) {
            b.append("; by the median alone it is met also by ").append(String.join(" and ", medianOnly));
        }
        b.append(". ");
        List<Setting> axes = markingRecovery(root);
        Map<String, List<Setting>> byCollective = axes.stream().collect(Collectors.groupingBy(Setting::collective,
                LinkedHashMap::new, Collectors.toList()));
        List<String> ax = new ArrayList<>();
        byCollective.forEach((c, list) -> ax.add(c + " in " + list.stream().filter(Setting::everySeedMeets).count() + " of "
                + list.size()));
        List<String> axesBoth = new ArrayList<>();
        List<Setting> a2a = byCollective.getOrDefault("AlltoAll", List.of());
        for (Setting a : a2a) {
            for (Setting c : axes) {
                if (!c.collective().equals("AlltoAll") && c.setting().equals(a.setting()) && a.everySeedMeets() && c.everySeedMeets()) {
                    axesBoth.add(a.setting() + " (" + two(a.median()) + " and " + two(c.median()) + ")");
                }
            }
        }
        int axisSeeds = axes.stream().mapToInt(s -> s.range().values().size()).max().orElse(0);
        b.append("Over switch marking x NIC recovery on the members (").append(axisSeeds == 1 ? "one seed" : axisSeeds + " seeds")
                .append(") the band is met by ").append(String.join(" and ", ax)).append(" settings, by both collectives in ")
                .append(axesBoth.isEmpty() ? "none" : String.join(", ", axesBoth)).append(". ");
        b.append("Open axis: the NVIDIA DCQCN setting of the canonical and member runs clamps the target rate at every")
                .append(" rate cut, where NVIDIA documents clamp_tgt_rate 0 (recovery \"")
                .append(Duan2024Testbed.Recovery.NVIDIA.label()).append("\" above); it is kept at its present value here.");
        return b.toString();
    }

    private static List<String[]> algorithms() {
        return List.of(new String[] {"all_to_all_at_once", "AlltoAll"}, new String[] {"halving_doubling_all_reduce", "AllReduce"});
    }

    /** 000's band for the collective, as the canonical row at 1.5:1 of {@link #COMPARISON} states it. */
    private static Target band(Path root, String collective) {
        return Scorecard.entries(root).stream()
                .filter(e -> e.comparison().equals(COMPARISON) && e.row().canonical()
                        && e.row().quantity().contains(collective + " ") && e.row().quantity().contains("1.5:1"))
                .findFirst().map(e -> e.row().target())
                .orElseThrow(() -> new IllegalStateException("comparison-" + COMPARISON + " has no canonical " + collective
                        + " row at 1.5:1 under " + root));
    }

    /** RoCE/GSE of the mean JCT per seed, for the RoCE rows of {@code algorithm} that {@code roce} accepts. */
    private static Map<String, Double> ratios(Table t, String algorithm, java.util.function.IntPredicate roce) {
        Map<String, Double> gse = new LinkedHashMap<>();
        for (int r = 0; r < t.rowCount(); r++) {
            if (text(t, "fabric", r).equals("gse") && text(t, "algorithm", r).equals(algorithm)
                    && text(t, "uplinks", r).equals("breakout_4x100g") && number(t, "speedup", r) == 1.5) {
                gse.put(text(t, "seed", r), number(t, "mean_jct_us", r));
            }
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (int r = 0; r < t.rowCount(); r++) {
            if (text(t, "fabric", r).equals("roce") && text(t, "algorithm", r).equals(algorithm) && number(t, "speedup", r) == 1.5
                    && roce.test(r) && gse.containsKey(text(t, "seed", r))) {
                out.put(text(t, "seed", r), number(t, "mean_jct_us", r) / gse.get(text(t, "seed", r)));
            }
        }
        return out;
    }

    private static SeedRange range(Map<String, Double> bySeed) {
        return new SeedRange("seeds " + String.join(",", bySeed.keySet()) + ", RoCE and GSE paired per seed",
                bySeed.keySet().stream().map(s -> "seed " + s).toList(), new ArrayList<>(bySeed.values()));
    }

    private static String words(Duan2024Testbed.Dcqcn d) {
        return switch (d) {
            case OFF -> "PFC alone (no DCQCN)";
            case ZHU_2015 -> "Zhu et al.'s DCQCN";
            case NVIDIA_CONNECTX -> "NVIDIA's DCQCN (target rate clamped)";
        };
    }

    private static String range(SeedRange s) {
        return s.min() == s.max() ? two(s.min()) : two(s.min()) + "-" + two(s.max());
    }

    private static double low(Target t) {
        return t.published() - t.tolerance() * Math.abs(t.published());
    }

    private static double high(Target t) {
        return t.publishedHigh() + t.tolerance() * Math.abs(t.publishedHigh());
    }

    private static String two(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String text(Table t, String column, int row) {
        return t.column(column).getString(row);
    }

    private static double number(Table t, String column, int row) {
        return ((NumericColumn<?>) t.column(column)).getDouble(row);
    }
}
