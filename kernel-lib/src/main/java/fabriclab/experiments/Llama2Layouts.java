package fabriclab.experiments;

import fabriclab.Parameters;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Provenance;
import fabriclab.datasets.SeedRange;
import fabriclab.experiments.Llama2Fabric.Case;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.sweep.Columns;
import fabriclab.training.Accelerator;
import fabriclab.training.ParallelLayout;
import fabriclab.training.ParallelLayout.Placement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import tech.tablesaw.api.Table;

/**
 * The layouts 002's text allows for its Llama2-13B run, and whether any of them gives table 1's level and gain
 * together (on {@link Llama2Training}'s fabric, timed by the leaf-spine bound).
 *
 * <p>What 002 states (section 3.2): 32 GPU cards with one 200G port each, Llama2-13B, the same model and topology on
 * both fabrics, leaf uplinks failed in two rows. What it leaves open, and the axis each becomes here:
 * <ul>
 *   <li>the accelerator ({@link Accelerator#candidates()}), and its compute efficiency, from the model-FLOPs
 *       utilisations published for large training runs ({@link #EFFICIENCIES}: {@link #MFU_GPT3},
 *       {@link Llama2Training#llama2PretrainingMfu()}, {@link #MFU_MEGASCALE});</li>
 *   <li>the rank order: Megatron-LM's tensor-first order (a TP group inside an 8-GPU server) or data-first (a TP
 *       group of degree above 1 with {@code TP DP > 8} spans servers: tensor parallelism across servers,
 *       {@link Placement});</li>
 *   <li>TP 1, 2, 4, 8 (TP must divide Llama2-13B's 40 heads and the 32 GPUs), PP 1, 2, 4, 8 (PP must divide its 40
 *       layers), ZeRO 0, 1, 3 (3 only without stages), DP = 32 / (TP PP);</li>
 *   <li>micro-batches per iteration: samples per micro-batch b = 1, 2, 4 ({@code m = B / (DP b)}, at most
 *       {@link Llama2Training#MAX_MICRO_BATCHES}, as {@link Llama2Training#layouts} caps it); the global batch B;</li>
 *   <li>the pipeline schedule: 1F1B only. GPipe has the same bubble, {@code (PP-1)/(m+PP-1)} of the iteration, and the
 *       interleaved schedule a smaller one (Narayanan et al. SC'21 section 2.2), so neither gives a slower iteration
 *       than 1F1B at the same layout, and the slowest layouts are all here;</li>
 *   <li>the sequence length stays Llama 2's 4096: a shorter one lowers both the FLOPs and the TP bytes per sample, so
 *       it only raises samples/s.</li>
 * </ul>
 */
public final class Llama2Layouts {
    private Llama2Layouts() {
    }

    /**
     * GPT-3 175B's model-FLOPs utilisation on V100s, the lowest of the large runs Chowdhery et al. 2022 (PaLM,
     * table 3) compare: 21.3%.
     */
    public static final double MFU_GPT3 = 0.213;
    /**
     * MegaScale's model-FLOPs utilisation training a 175B model on 12,288 GPUs (Jiang et al., NSDI 2024, abstract;
     * 002's reference [2]): 55.2%.
     */
    public static final double MFU_MEGASCALE = 0.552;
    /** The compute efficiencies of the sweep: {@link #MFU_GPT3}, Llama 2 13B's own (0.421), {@link #MFU_MEGASCALE}. */
    public static final List<Double> EFFICIENCIES = List.of(MFU_GPT3, Llama2Training.llama2PretrainingMfu(), MFU_MEGASCALE);
    /** Samples per micro-batch of the sweep. */
    public static final List<Integer> MICRO_BATCH_SIZES = List.of(1, 2, 4);
    /** PP degrees of the sweep (they divide Llama2-13B's 40 layers and the 32 GPUs). */
    public static final List<Integer> PIPELINE_DEGREES = List.of(1, 2, 4, 8);
    /** TP degrees of the sweep (they divide Llama2-13B's 40 heads and the 32 GPUs). */
    public static final List<Integer> TENSOR_DEGREES = List.of(1, 2, 4, 8);

    /**
     * The layouts for a global batch B: placement x TP x PP x ZeRO x samples per micro-batch (see the class comment),
     * distinct layouts only, in that order. A data-first layout is listed only when it differs from the tensor-first
     * one (TP above 1 and DP above 1).
     *
     * @param globalBatch B, a multiple of 32, at least 32
     */
    public static List<ParallelLayout> layouts(int globalBatch) {
        Parameters.atLeast("globalBatch", globalBatch, Llama2Training.GPUS);
        if (globalBatch % Llama2Training.GPUS != 0) {
            throw new IllegalArgumentException("globalBatch must be a multiple of " + Llama2Training.GPUS + ", got " + globalBatch);
        }
        Set<ParallelLayout> out = new LinkedHashSet<>();
        for (Placement placement : Placement.values()) {
            for (int tp : TENSOR_DEGREES) {
                for (int pp : PIPELINE_DEGREES) {
                    if (tp * pp > Llama2Training.GPUS) {
                        continue;
                    }
                    int dp = Llama2Training.GPUS / (tp * pp);
                    if (placement == Placement.DATA_FIRST && (tp == 1 || dp == 1)) {
                        continue;
                    }
                    for (int zero : new int[] {0, 1, 3}) {
                        if (zero == 3 && pp > 1) {
                            continue;
                        }
                        for (int b : MICRO_BATCH_SIZES) {
                            int perRank = globalBatch / dp;
                            if (perRank % b != 0) {
                                continue;
                            }
                            int m = Math.min(perRank / b, Llama2Training.MAX_MICRO_BATCHES);
                            out.add(ParallelLayout.of(Llama2Training.GPUS, Llama2Training.GPUS_PER_SERVER, tp, pp, zero, m, placement));
                        }
                    }
                }
            }
        }
        return List.copyOf(out);
    }

    /**
     * True when the layout's TP groups span servers (tensor parallelism on the fabric).
     *
     * @param layout the layout, not null
     */
    public static boolean tensorAcrossServers(ParallelLayout layout) {
        Parameters.notNull("layout", layout);
        return layout.tensorParallel() > 1 && !layout.insideOneServer(layout.tensorGroups(0)[0]);
    }

    /**
     * The single-job points of the sweep, RoCE and GSE: fabric x batch x layout ({@link #layouts}) x accelerator x
     * efficiency, in that order.
     *
     * @param batches global batches, each a multiple of 32, no null element
     * @param accelerators the accelerators, no null element
     * @param efficiencies compute efficiencies, each in (0, 1], no null element
     */
    public static List<Llama2Training.Configuration> singleJobGrid(List<Integer> batches, List<Accelerator> accelerators,
            List<Double> efficiencies) {
        Parameters.noNullElements("batches", batches);
        Parameters.noNullElements("accelerators", accelerators);
        Parameters.noNullElements("efficiencies", efficiencies);
        for (int i = 0; i < efficiencies.size(); i++) {
            Parameters.inHalfOpenRange("efficiencies[" + i + "]", efficiencies.get(i), 0, 1);
        }
        List<Llama2Training.Configuration> points = new ArrayList<>();
        for (RoceOrGse f : RoceOrGse.values()) {
            for (int b : batches) {
                for (ParallelLayout l : layouts(b)) {
                    for (Accelerator a : accelerators) {
                        for (double e : efficiencies) {
                            points.add(new Llama2Training.Configuration(Case.SINGLE_JOB, f, l, b, a, e));
                        }
                    }
                }
            }
        }
        return points;
    }

    /**
     * What 002's table 1 asks of a point of one row: its RoCE level within {@code levelTolerance} (as a fraction) of
     * the published RoCE samples/s, and its GSE gain within [{@code gainLowPercent}, {@code gainHighPercent}].
     *
     * @param roceSamplesPerSecond the published RoCE level [samples/s], positive
     * @param levelTolerance relative tolerance of the level, in (0, 1]
     * @param gainLowPercent the lowest gain that counts [%], finite
     * @param gainHighPercent the highest gain that counts [%], at least gainLowPercent
     */
    public record Target(double roceSamplesPerSecond, double levelTolerance, double gainLowPercent, double gainHighPercent) {
        /** Validates. */
        public Target {
            Parameters.positive("roceSamplesPerSecond", Parameters.finite("roceSamplesPerSecond", roceSamplesPerSecond));
            Parameters.inHalfOpenRange("levelTolerance", levelTolerance, 0, 1);
            Parameters.finite("gainLowPercent", gainLowPercent);
            Parameters.finite("gainHighPercent", gainHighPercent);
            if (gainHighPercent < gainLowPercent) {
                throw new IllegalArgumentException("gainHighPercent must be at least gainLowPercent = " + gainLowPercent + ", got "
                        + gainHighPercent);
            }
        }

        /** True when the pair's RoCE samples/s is within the tolerance of the level. */
        public boolean levelMet(Llama2Training.Gain g) {
            Parameters.notNull("g", g);
            return Math.abs(g.roce().samplesPerSecond() / roceSamplesPerSecond - 1) <= levelTolerance;
        }

        /** True when the pair's gain is in the band. */
        public boolean gainMet(Llama2Training.Gain g) {
            Parameters.notNull("g", g);
            return g.gainPercent() >= gainLowPercent && g.gainPercent() <= gainHighPercent;
        }
    }

    /**
     * The sweep's verdict for one group of pairs (e.g. one placement): counts, and the nearest each side comes to the
     * other (NaN-free: {@code -1} when a side has no point).
     *
     * @param group the group's name
     * @param pairs RoCE/GSE pairs in the group
     * @param levelMet pairs whose RoCE level meets the target
     * @param gainMet pairs whose gain is in the band
     * @param both pairs meeting both
     * @param maxGainAtLevelPercent the largest gain among the pairs that meet the level [%], -1 when none
     * @param minLevelRatioInBand the smallest RoCE level over the published one among the pairs whose gain is in the
     *        band, -1 when none
     * @param minRoceSamplesPerSecond the slowest RoCE level of the group [samples/s]
     * @param maxGainPercent the largest gain of the group [%]
     */
    public record Verdict(String group, int pairs, int levelMet, int gainMet, int both, double maxGainAtLevelPercent,
            double minLevelRatioInBand, double minRoceSamplesPerSecond, double maxGainPercent) {
        /** Validates: a name, at least one pair, counts from 0 to {@code pairs}, every number finite. */
        public Verdict {
            Parameters.notBlank("group", group);
            Parameters.atLeast("pairs", pairs, 1);
            Parameters.inRange("levelMet", levelMet, 0, pairs);
            Parameters.inRange("gainMet", gainMet, 0, pairs);
            Parameters.inRange("both", both, 0, Math.min(levelMet, gainMet));
            Parameters.finite("maxGainAtLevelPercent", maxGainAtLevelPercent);
            Parameters.finite("minLevelRatioInBand", minLevelRatioInBand);
            Parameters.nonNegative("minRoceSamplesPerSecond", Parameters.finite("minRoceSamplesPerSecond", minRoceSamplesPerSecond));
            Parameters.finite("maxGainPercent", maxGainPercent);
        }
    }

    /**
     * The verdict over {@code pairs} against {@code target}.
     *
     * @param group the group's name, not blank
     * @param pairs the pairs, at least one, no null element
     * @param target the target
     */
    public static Verdict verdict(String group, List<Llama2Training.Gain> pairs, Target target) {
        Parameters.noNullElements("pairs", pairs);
        Parameters.notNull("target", target);
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException("pairs must hold at least one pair, got none");
        }
        int level = 0, gain = 0, both = 0;
        double maxGainAtLevel = -1, minRatioInBand = -1, minRoce = Double.MAX_VALUE, maxGain = -Double.MAX_VALUE;
        for (Llama2Training.Gain g : pairs) {
            boolean l = target.levelMet(g), b = target.gainMet(g);
            level += l ? 1 : 0;
            gain += b ? 1 : 0;
            both += l && b ? 1 : 0;
            if (l) {
                maxGainAtLevel = Math.max(maxGainAtLevel, g.gainPercent());
            }
            if (b) {
                double ratio = g.roce().samplesPerSecond() / target.roceSamplesPerSecond();
                minRatioInBand = minRatioInBand < 0 ? ratio : Math.min(minRatioInBand, ratio);
            }
            minRoce = Math.min(minRoce, g.roce().samplesPerSecond());
            maxGain = Math.max(maxGain, g.gainPercent());
        }
        return new Verdict(group, pairs.size(), level, gain, both, maxGainAtLevel, minRatioInBand, minRoce, maxGain);
    }

    /**
     * The pairs of {@code gains} nearest the target: the {@code count} with the smallest distance
     * {@code |ln(RoCE / level)| / ln(1 + levelTolerance) + distance of the gain from the band / half the band's width}
     * (0 for a point meeting both), nearest first, the first of equals in list order.
     *
     * @param gains the pairs, no null element
     * @param target the target
     * @param count how many, at least 1
     */
    public static List<Llama2Training.Gain> nearest(List<Llama2Training.Gain> gains, Target target, int count) {
        Parameters.noNullElements("gains", gains);
        Parameters.notNull("target", target);
        Parameters.atLeast("count", count, 1);
        double half = Math.max(1e-9, (target.gainHighPercent() - target.gainLowPercent()) / 2);
        double levelUnit = Math.log1p(target.levelTolerance());
        java.util.Comparator<Llama2Training.Gain> byDistance = java.util.Comparator.comparingDouble(g -> {
            double lv = Math.max(0, Math.abs(Math.log(g.roce().samplesPerSecond() / target.roceSamplesPerSecond())) - levelUnit) / levelUnit;
            double gp = g.gainPercent();
            double gd = gp < target.gainLowPercent() ? target.gainLowPercent() - gp
                    : gp > target.gainHighPercent() ? gp - target.gainHighPercent() : 0;
            return lv + gd / half;
        });
        return gains.stream().sorted(byDistance).limit(count).toList();
    }

    /** Name of the model dataset of the nearest pairs, {@code datasets/model/llama2-layouts.csv}. */
    public static final String DATASET = "llama2-layouts";

    private static final Columns<Llama2Training.Gain> COLUMNS = Columns.<Llama2Training.Gain>of()
            .stringColumn("scenario", "002 table 1 row", g -> g.roce().point().row().label())
            .stringColumn("placement", "rank order", g -> g.roce().point().layout().placement().name().toLowerCase(Locale.ROOT))
            .stringColumn("tp_across_servers", "yes or no", g -> tensorAcrossServers(g.roce().point().layout()) ? "yes" : "no")
            .intColumn("tp", "degree", g -> g.roce().point().layout().tensorParallel())
            .intColumn("pp", "degree", g -> g.roce().point().layout().pipelineParallel())
            .intColumn("dp", "degree", g -> g.roce().point().layout().dataParallel())
            .intColumn("zero", "stage", g -> g.roce().point().layout().zeroStage())
            .intColumn("micro_batches", "per iteration", g -> g.roce().point().layout().microBatches())
            .intColumn("global_batch", "samples", g -> g.roce().point().globalBatch())
            .stringColumn("accelerator", "", g -> g.roce().point().accelerator().name())
            .doubleColumn("efficiency", "fraction of peak while computing", g -> g.roce().point().efficiency())
            .doubleColumn("roce_samples_per_s", "samples/s", g -> g.roce().samplesPerSecond())
            .doubleColumn("gse_samples_per_s", "samples/s", g -> g.gse().samplesPerSecond())
            .doubleColumn("gain_percent", "%", Llama2Training.Gain::gainPercent);

    /**
     * Pairs as a table named {@code name}, one row per pair in the order given.
     *
     * @param name the table's name, not blank
     * @param pairs the pairs, no null element
     */
    public static Table table(String name, List<Llama2Training.Gain> pairs) {
        Parameters.notBlank("name", name);
        Parameters.noNullElements("pairs", pairs);
        return COLUMNS.table(name, pairs);
    }

    /**
     * One configuration of the sweep run over several seeds (the packet simulator's ECMP hash seed, source ports and
     * WRED draws): its RoCE level and GSE gain per seed, and in how many seeds the level, the gain band and both meet
     * the row's target.
     *
     * @param point the RoCE configuration (row, layout, batch, accelerator, efficiency), not null
     * @param roce RoCE samples/s per seed, labelled "seed N" [samples/s], not null
     * @param gainPercent GSE gain over RoCE per seed, paired per seed [%], not null, the same seeds as {@code roce}
     * @param levelMet seeds whose RoCE level meets the target
     * @param gainMet seeds whose gain is in the band
     * @param both seeds meeting both
     */
    public record SeedVerdict(Llama2Training.Configuration point, SeedRange roce, SeedRange gainPercent, int levelMet, int gainMet,
            int both) {
        /** Validates: every field present, the two ranges over the same seeds, counts from 0 to the seeds. */
        public SeedVerdict {
            Parameters.notNull("point", point);
            Parameters.notNull("roce", roce);
            Parameters.notNull("gainPercent", gainPercent);
            if (!roce.labels().equals(gainPercent.labels())) {
                throw new IllegalArgumentException("gainPercent must be over the seeds of roce " + roce.labels() + ", got "
                        + gainPercent.labels());
            }
            int n = roce.values().size();
            Parameters.inRange("levelMet", levelMet, 0, n);
            Parameters.inRange("gainMet", gainMet, 0, n);
            Parameters.inRange("both", both, 0, Math.min(levelMet, gainMet));
        }

        /** How many seeds. */
        public int seeds() {
            return roce.values().size();
        }
    }

    /**
     * Each configuration over the seeds of {@code bySeed}, against its row's target: the configurations in the order
     * of the smallest seed's pairs; a configuration is listed only when every seed has it.
     *
     * @param bySeed the pairs of each seed (at least one seed, no null element), e.g. one sweep per seed
     * @param targets the target of each row of 002 table 1, not null; it must give a target for every row present
     */
    public static List<SeedVerdict> overSeeds(Map<Long, List<Llama2Training.Gain>> bySeed, Function<Case, Target> targets) {
        Parameters.notNull("bySeed", bySeed);
        Parameters.notNull("targets", targets);
        if (bySeed.isEmpty()) {
            throw new IllegalArgumentException("bySeed must hold at least one seed, got none");
        }
        Map<Long, List<Llama2Training.Gain>> sorted = new TreeMap<>(bySeed);
        Map<Llama2Training.Configuration, List<Llama2Training.Gain>> byPoint = new LinkedHashMap<>();
        Map<Llama2Training.Configuration, List<String>> labels = new LinkedHashMap<>();
        for (Map.Entry<Long, List<Llama2Training.Gain>> e : sorted.entrySet()) {
            Parameters.noNullElements("bySeed[" + e.getKey() + "]", e.getValue());
            for (Llama2Training.Gain g : e.getValue()) {
                byPoint.computeIfAbsent(g.roce().point(), k -> new ArrayList<>()).add(g);
                labels.computeIfAbsent(g.roce().point(), k -> new ArrayList<>()).add("seed " + e.getKey());
            }
        }
        List<SeedVerdict> out = new ArrayList<>();
        for (Map.Entry<Llama2Training.Configuration, List<Llama2Training.Gain>> e : byPoint.entrySet()) {
            List<Llama2Training.Gain> gs = e.getValue();
            if (gs.size() != sorted.size()) {
                continue;
            }
            Target t = targets.apply(e.getKey().row());
            if (t == null) {
                throw new IllegalArgumentException("targets must give a target for the row \"" + e.getKey().row().label() + "\", got null");
            }
            int level = 0, gain = 0, both = 0;
            for (Llama2Training.Gain g : gs) {
                boolean l = t.levelMet(g), b = t.gainMet(g);
                level += l ? 1 : 0;
                gain += b ? 1 : 0;
                both += l && b ? 1 : 0;
            }
            String basis = "seeds " + sorted.keySet() + ", RoCE and GSE paired per seed";
            out.add(new SeedVerdict(e.getKey(), new SeedRange(basis, labels.get(e.getKey()), gs.stream().map(g -> g.roce().samplesPerSecond()).toList()),
                    new SeedRange(basis, labels.get(e.getKey()), gs.stream().map(Llama2Training.Gain::gainPercent).toList()), level, gain, both));
        }
        return out;
    }

    /**
     * The pairs of every seed as the model dataset {@link #DATASET} with its provenance: a {@code seed} column, then
     * one row per pair in the order given.
     *
     * @param bySeed the pairs of each seed, at least one seed, no null element
     * @param notes how they were chosen and made, not null
     */
    public static Dataset dataset(Map<Long, List<Llama2Training.Gain>> bySeed, String notes) {
        Parameters.notNull("bySeed", bySeed);
        Parameters.notNull("notes", notes);
        if (bySeed.isEmpty()) {
            throw new IllegalArgumentException("bySeed must hold at least one seed, got none");
        }
        Table all = null;
        for (Map.Entry<Long, List<Llama2Training.Gain>> e : new TreeMap<>(bySeed).entrySet()) {
            Parameters.noNullElements("bySeed[" + e.getKey() + "]", e.getValue());
            Table t = table(DATASET, e.getValue());
            long[] seed = new long[t.rowCount()];
            java.util.Arrays.fill(seed, e.getKey());
            t.insertColumn(0, tech.tablesaw.api.LongColumn.create("seed", seed));
            all = all == null ? t : all.append(t);
        }
        Map<String, String> units = new LinkedHashMap<>();
        units.put("seed", "");
        units.putAll(COLUMNS.units());
        return new Dataset(new Provenance(DATASET, "Llama2-13B on 32 accelerators: layouts 002's text allows, RoCE and GSE per seed",
                "model", new Provenance.Paper("002_f37e90f02f6a00b7.txt", null, null, null, null),
                "002 table 1 (model from the transformer, the layout and the fabric)", units, notes), all);
    }
}
