package fabriclab.datasets;

import fabriclab.Parameters;
import java.util.List;
import java.util.Optional;

/**
 * How each comparison row's model value was obtained, whatever kind its notebook gave it. A value chosen so that
 * the row matches its published number (a share set so that a reduction equals the paper's, a configuration
 * picked because it gives the paper's gain) is {@link Origin#FITTED}: the scorecard counts it as calibrated, never
 * as a prediction or a what-if. A value computed at a setting that was fitted to <em>another</em> published number
 * is {@link Origin#AT_A_FITTED_SETTING}: it keeps its kind, and the card names the fit it rests on. Every other
 * value is {@link Origin#UNFITTED}.
 *
 * <p>The fits are listed in {@link #FITS}, each with the comparison, the row (quantity and a phrase of its basis
 * or note) and the published number it was fitted to; a {@link ComparisonKind#CALIBRATED} row is fitted by its
 * kind. {@link #unmatched(List)} lists the entries of {@link #FITS} no row matches, so a renamed row cannot drop
 * its fit silently.
 */
public final class Calibrations {
    private Calibrations() {
    }

    /** How a row's value was obtained. */
    public enum Origin {
        /** Nothing was chosen to match a published number. */
        UNFITTED("unfitted"),
        /** Computed at a setting that was fitted to another published number (the fit is named). */
        AT_A_FITTED_SETTING("at a fitted setting"),
        /** Chosen so that this row matches its published number: calibrated. */
        FITTED("fitted (calibrated)");

        private final String label;

        Origin(String label) {
            this.label = label;
        }

        /** The label the card prints. */
        public String label() {
            return label;
        }
    }

    /**
     * One known fit.
     *
     * @param comparison the comparison (dataset name without "comparison-")
     * @param quantity the row's quantity, or "" for every row of the comparison that contains {@code phrase}
     * @param phrase a phrase of the row's basis or note that marks the fitted setting
     * @param origin {@link Origin#FITTED} or {@link Origin#AT_A_FITTED_SETTING}
     * @param fittedTo the published number the setting was chosen to give, and what was chosen
     */
    public record Fit(String comparison, String quantity, String phrase, Origin origin, String fittedTo) {
        /** Validates: comparison, phrase and fittedTo not blank, quantity not null, origin not {@link Origin#UNFITTED}. */
        public Fit {
            Parameters.notBlank("comparison", comparison);
            Parameters.notNull("quantity", quantity);
            Parameters.notBlank("phrase", phrase);
            Parameters.notNull("origin", origin);
            if (origin == Origin.UNFITTED) {
                throw new IllegalArgumentException("origin must be FITTED or AT_A_FITTED_SETTING, got UNFITTED");
            }
            Parameters.notBlank("fittedTo", fittedTo);
        }

        /** Whether this fit is the one of {@code e}. */
        public boolean matches(Scorecard.Entry e) {
            return e.comparison().equals(comparison) && (quantity.isEmpty() || e.row().quantity().equals(quantity))
                    && (e.row().basis().contains(phrase) || e.row().note().contains(phrase));
        }
    }

    private static final String ROW1 = "002 table 1, single job: gain 47% and then the RoCE level 2.66 samples/s chose the"
            + " layout, batch, accelerator and efficiency";
    private static final String SHARE = "003's 12% reduction vs RoCEv2: the AllReduce share c of the RoCEv2 run was solved"
            + " for it";

    /**
     * The fits found by going through every comparison row's basis and note and the provenance of the published
     * datasets. A fitted row listed before an at-a-fitted-setting row of the same comparison wins.
     */
    public static final List<Fit> FITS = List.of(
            // 09: the packet-simulator point was picked among the layouts whose gain lies near 47%, then the RoCE level
            // nearest 2.66: row 1's gain and RoCE level are fitted; its GSE level is RoCE x (1 + gain), set by the two
            new Fit("09-llama2", "GSE gain, single job", "the point calibrated on this row", Origin.FITTED, ROW1),
            new Fit("09-llama2", "RoCE, single job", "the point calibrated on this row", Origin.FITTED, ROW1),
            new Fit("09-llama2", "GSE, single job", "the point calibrated on this row", Origin.FITTED,
                    ROW1 + " (the GSE level is the RoCE level times 1 + the gain, both fitted)"),
            // 09: the changes against row 1 and the spine what-ifs are computed at that point
            new Fit("09-llama2", "", "calibrated on row 1", Origin.AT_A_FITTED_SETTING, ROW1),
            new Fit("09-llama2", "", "row-1 point", Origin.AT_A_FITTED_SETTING, ROW1),
            // 12: c solved so that the reduction is 003's 12%; the InfiniBand difference is computed at that c
            new Fit("12-in-network", "OpenFOAM cavity job time reduction, in-network vs RoCEv2", "chosen so that the reduction",
                    Origin.FITTED, SHARE),
            new Fit("12-in-network", "", "chosen so that the reduction", Origin.AT_A_FITTED_SETTING, SHARE));

    /** How {@code e}'s value was obtained: its fit in {@link #FITS}, fitted for a calibrated row, else unfitted. */
    public static Origin origin(Scorecard.Entry e) {
        Parameters.notNull("e", e);
        if (e.row().kind() == ComparisonKind.CALIBRATED) {
            return Origin.FITTED;
        }
        return fit(e).map(Fit::origin).orElse(Origin.UNFITTED);
    }

    /** The first fit of {@link #FITS} that matches {@code e}; for a calibrated row without one, empty. */
    public static Optional<Fit> fit(Scorecard.Entry e) {
        Parameters.notNull("e", e);
        return FITS.stream().filter(f -> f.matches(e)).findFirst();
    }

    /** What {@code e}'s value was fitted to, or rests on: the fit's statement, a calibrated row's basis, or "". */
    public static String fittedTo(Scorecard.Entry e) {
        Optional<Fit> f = fit(e);
        if (f.isPresent()) {
            return f.get().fittedTo();
        }
        return e.row().kind() == ComparisonKind.CALIBRATED ? e.row().basis() : "";
    }

    /** The entries of {@link #FITS} that no row of {@code entries} matches (stale after a row was renamed). */
    public static List<Fit> unmatched(List<Scorecard.Entry> entries) {
        Parameters.notNull("entries", entries);
        return FITS.stream().filter(f -> entries.stream().noneMatch(f::matches)).toList();
    }
}
