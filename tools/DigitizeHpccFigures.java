import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Reads the FCT-slowdown curves of six figures published by the HPCC authors (the 30%-load WebSearch and FB Hadoop
 * figures of {@code results.md} in the repository hpcc-group/hpcc-group.github.io) and writes them as one CSV, the
 * dataset {@code datasets/published/hpcc-fct-slowdown-30pct.csv}.
 *
 * <p>Run: {@code java tools/DigitizeHpccFigures.java <git-dir of hpcc-group.github.io> <out.csv>}. Each figure is read
 * with {@code git --git-dir=DIR show COMMIT:PATH} at a fixed commit, so the output depends on the commit only; the
 * same input gives the same bytes.
 *
 * <p>How a figure is read:
 * <ol>
 * <li>Axes. The y axis is the block of columns, in the left fifth of the image, with the most axis-grey pixels; the x
 * axis is the block of rows, in the lower third, with the most pixels that are axis-grey or within 80 of a curve's colour (curves
 * near slowdown 1 are drawn over it). The tick marks are short grey bars on the inner side of
 * each axis: a row (column) is part of a y (x) tick when at least a third of the pixels of a strip 28 pixels long just inside
 * the axis are grey (a third, because curves drawn over a tick hide part of it);
 * a tick's position is the middle of its run of rows (columns). The lowest y tick is the middle of the x axis line,
 * the first x tick the middle of the y axis line (curves near slowdown 1 are drawn over the x axis, so its ticks are
 * not searched for on the line itself).</li>
 * <li>Calibration. The y tick values (read off the tick labels by eye, per figure, below) are fitted as
 * {@code row = a + b log10(value)} by least squares; the x ticks, eleven at every 10% of flows, as
 * {@code column = c + d fraction}. The program stops when the number of ticks found differs from the number of labels
 * or when a tick lies more than {@link #MAX_TICK_RESIDUAL_PX} pixels off its fit.</li>
 * <li>Points. Each curve has one point per analysis step: step k (0..99) covers the flows ranked k% to (k+1)% by size
 * and is drawn at the fraction (k+1)/100 of the x axis. A pixel belongs to a curve when its colour lies within
 * {@link #COLOUR_TOLERANCE} (Euclidean distance in RGB) of the curve's colour; only rows inside the plot (from just
 * above the top y tick down to just below the x axis) count, which leaves out the legend above the plot. The
 * point's row is the median of the rows of the curve's pixels in the columns within {@link #BAND_HALF_WIDTH} of the
 * point's column. A step with no such pixel (a gap of a dashed or dotted line, or a stretch hidden under a curve drawn
 * later) takes the row interpolated linearly between the nearest steps before and after it that have pixels, and is
 * marked {@code interpolated}; a gap at either end of a curve is read as described below.</li>
 * <li>Slowdown. The row is converted with the fitted log axis. One pixel of row is a factor
 * {@code 10^(1/|b|)} in slowdown: the column {@code one_pixel} gives that change at the value read.</li>
 * </ol>
 * The program also checks that the figures have one point per 1% of flows: on the solid HPCC-PINT line, the bend
 * (second difference of the line's row) at the step columns is compared with the bend half-way between them (see
 * {@link #checkStepCount}).
 *
 * <p>Where a curve has no pixels in the band (a gap of a dashed or dotted line, or a stretch hidden under a curve
 * drawn later; curves are drawn in legend order, DCTCP last) the column {@code reading} says how the row was found:
 * {@code pixels} (read in the band), {@code interpolated} (between the nearest found steps on either side; then
 * {@code interpolated} is true), {@code nearest_column} (a gap at an end of the curve: the nearest column within half
 * a step towards the curve's inside that holds its pixels) or {@code under_curves} (a gap at an end with no such
 * column: the median row of the curves drawn after it in the band, which hide it).
 */
public final class DigitizeHpccFigures {
    /** The largest distance, in pixels, of a tick from the fitted axis. */
    static final double MAX_TICK_RESIDUAL_PX = 1.5;
    /**
     * Colour distance (Euclidean, RGB 0..255) within which a pixel belongs to a curve: tight enough that the
     * anti-aliased edge of the orange line (orange blended with white, at least about 40 from yellow) is not taken for
     * the yellow one.
     */
    static final double COLOUR_TOLERANCE = 30;
    /** Half width, in columns, of the band read around a point's column. */
    static final int BAND_HALF_WIDTH = 2;
    /** Steps per curve: one per 1% of flows. */
    static final int STEPS = 100;

    /** A curve: its name in the dataset, its label in the legend, its colour. */
    record Curve(String scheme, String label, int rgb) {
    }

    /** The five curves as the legend labels them (label, then its line sample). */
    static final List<Curve> CURVES = List.of(
            new Curve("hpcc_pint", "HPCC-PINT (purple, solid)", 0x9400d3),
            new Curve("hpcc_int", "HPCC-INT (green, dashed)", 0x009e73),
            new Curve("dcqcn_w", "DCQCN+w (light blue, dotted)", 0x56b4e9),
            new Curve("timely_w", "TIMELY+w (orange, dash-dot)", 0xe69f00),
            new Curve("dctcp", "DCTCP (yellow, dash-dot-dot)", 0xf0e442));

    /** A figure: where it is, what it shows, and its y tick labels from top to bottom (read off the image). */
    record Figure(String workload, int percentile, String commit, String path, double[] yTickValues) {
    }

    private static final String WB_COMMIT = "ebb86bc5bb7d678cc83a95a6a0a75bc49c9ec9c9";
    private static final String FB_COMMIT = "9492ad8103649bc8da8df32d350560f8c402014a";
    /** WebSearch figures: ticks at 10, 9, ..., 2 and the x axis at 1 (labels 10, 8, 6, 5, 4, 3, 2, 1). */
    private static final double[] WB_TICKS = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    /** FB Hadoop figures: ticks at 8, 7, ..., 2 and the x axis at 1 (labels 8, 6, 5, 4, 3, 2, 1). */
    private static final double[] FB_TICKS = {8, 7, 6, 5, 4, 3, 2, 1};

    static final List<Figure> FIGURES = List.of(
            new Figure("websearch", 50, WB_COMMIT, "figs/fct_wb30_50pct.png", WB_TICKS),
            new Figure("websearch", 95, WB_COMMIT, "figs/fct_wb30_95pct.png", WB_TICKS),
            new Figure("websearch", 99, WB_COMMIT, "figs/fct_wb30_99pct.png", WB_TICKS),
            new Figure("fb_hadoop", 50, FB_COMMIT, "figs/fct_fb30_50pct.png", FB_TICKS),
            new Figure("fb_hadoop", 95, FB_COMMIT, "figs/fct_fb30_95pct.png", FB_TICKS),
            new Figure("fb_hadoop", 99, FB_COMMIT, "figs/fct_fb30_99pct.png", FB_TICKS));

    private DigitizeHpccFigures() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: java tools/DigitizeHpccFigures.java <git-dir of hpcc-group.github.io> <out.csv>");
            System.exit(2);
        }
        Path gitDir = Path.of(args[0]);
        StringBuilder csv = new StringBuilder(
                "workload,percentile,scheme,step,flows_from_pct,flows_to_pct,slowdown,interpolated,reading,y_pixel,one_pixel\n");
        for (Figure f : FIGURES) {
            BufferedImage img = ImageIO.read(new ByteArrayInputStream(gitShow(gitDir, f.commit() + ":" + f.path())));
            if (img == null) {
                throw new IllegalStateException(f.path() + " at " + f.commit() + " is not an image ImageIO can read");
            }
            read(img, f, csv);
        }
        Files.writeString(Path.of(args[1]), csv.toString(), StandardCharsets.UTF_8);
    }

    /** Reads one figure and appends its 5 x 100 rows to {@code csv}; reports the calibration on standard error. */
    static void read(BufferedImage img, Figure f, StringBuilder csv) {
        int w = img.getWidth();
        int h = img.getHeight();
        boolean[][] grey = new boolean[w][h];
        for (int x = 0; x < w; x++) {
            for (int y = 0; y < h; y++) {
                grey[x][y] = isAxisGrey(img.getRGB(x, y));
            }
        }
        int[] yAxis = strongestBlock(w, h, grey, true, 0, w / 5);        // columns of the y axis line
        boolean[][] greyOrCurve = new boolean[w][h]; // curves near slowdown 1 are drawn over the x axis line
        for (int x = 0; x < w; x++) {
            for (int y = 0; y < h; y++) {
                int p = img.getRGB(x, y);
                greyOrCurve[x][y] = grey[x][y] || CURVES.stream().anyMatch(c -> distance(p, c.rgb()) <= 80);
            }
        }
        int[] xAxis = strongestBlock(h, w, greyOrCurve, false, h * 2 / 3, h); // rows of the x axis line
        // y ticks: rows where a third of a strip of columns just right of the y axis is grey
        List<Double> yTicks = new ArrayList<>();
        int stripFrom = yAxis[1] + 3;
        int stripTo = yAxis[1] + 30;
        int run = -1;
        for (int y = 0; y < xAxis[0]; y++) {
            boolean tick = false;
            if (y < xAxis[0] - 1) {
                int n = 0;
                for (int x = stripFrom; x <= stripTo; x++) {
                    n += grey[x][y] ? 1 : 0;
                }
                tick = n * 3 >= stripTo - stripFrom + 1;
            }
            if (tick && run < 0) {
                run = y;
            } else if (!tick && run >= 0) {
                yTicks.add((run + y - 1) / 2.0);
                run = -1;
            }
        }
        yTicks.add((xAxis[0] + xAxis[1]) / 2.0);
        // x ticks: columns where a third of a strip of rows just above the x axis is grey
        List<Double> xTicks = new ArrayList<>();
        xTicks.add((yAxis[0] + yAxis[1]) / 2.0);
        stripFrom = xAxis[0] - 30;
        stripTo = xAxis[0] - 3;
        run = -1;
        for (int x = yAxis[1] + 2; x <= w; x++) {
            boolean tick = false;
            if (x < w) {
                int n = 0;
                for (int y = stripFrom; y <= stripTo; y++) {
                    n += grey[x][y] ? 1 : 0;
                }
                tick = n * 3 >= stripTo - stripFrom + 1;
            }
            if (tick && run < 0) {
                run = x;
            } else if (!tick && run >= 0) {
                xTicks.add((run + x - 1) / 2.0);
                run = -1;
            }
        }
        String name = f.workload() + " p" + f.percentile();
        double[] yLog = Arrays.stream(f.yTickValues()).map(Math::log10).toArray();
        double[] yFit = fit(name + " y ticks", yLog, yTicks);
        double[] xFrac = new double[11];
        for (int i = 0; i < xFrac.length; i++) {
            xFrac[i] = i / 10.0;
        }
        double[] xFit = fit(name + " x ticks", xFrac, xTicks);
        double pixelFactor = Math.pow(10, 1 / Math.abs(yFit[1]));
        System.err.printf(Locale.ROOT, "%s (%s): y axis columns %d-%d, x axis rows %d-%d; y ticks %s -> row = %.2f %+.2f log10(s)"
                        + " (max residual %.2f px); x ticks %s -> column = %.2f %+.2f fraction (max residual %.2f px);"
                        + " one pixel = x%.5f in slowdown (%.3f at the top of the axis)%n",
                name, f.path(), yAxis[0], yAxis[1], xAxis[0], xAxis[1], yTicks, yFit[0], yFit[1], yFit[2], xTicks, xFit[0],
                xFit[1], xFit[2], pixelFactor, f.yTickValues()[0] * (pixelFactor - 1));

        int top = (int) Math.floor(yTicks.get(0)) - 12;      // plot rows: just above the top tick ...
        int bottom = (int) Math.ceil(yTicks.get(yTicks.size() - 1)) + 12; // ... to just below the x axis
        checkStepCount(img, name, xFit, top, bottom);
        for (int ci = 0; ci < CURVES.size(); ci++) {
            Curve c = CURVES.get(ci);
            double[] row = new double[STEPS];
            boolean[] found = new boolean[STEPS];
            String[] how = new String[STEPS];
            for (int k = 0; k < STEPS; k++) {
                List<Integer> rows = bandRows(img, stepColumn(xFit, k), List.of(c), top, bottom);
                if (!rows.isEmpty()) {
                    row[k] = median(rows);
                    found[k] = true;
                    how[k] = "pixels";
                }
            }
            int interpolated = 0;
            int fromCover = 0;
            for (int k = 0; k < STEPS; k++) {
                if (found[k]) {
                    continue;
                }
                int before = k - 1;
                while (before >= 0 && !found[before]) {
                    before--;
                }
                int after = k + 1;
                while (after < STEPS && !found[after]) {
                    after++;
                }
                if (before >= 0 && after < STEPS) {
                    row[k] = row[before] + (row[after] - row[before]) * (k - before) / (after - before);
                    how[k] = "interpolated";
                    interpolated++;
                    continue;
                }
                // a gap at an end of the curve: first the nearest column, within half a step towards the curve's
                // inside, that holds the curve's pixels; else the curves drawn after it (legend order), which hide it
                int inward = before < 0 ? 1 : -1;
                int col = stepColumn(xFit, k);
                List<Integer> rows = List.of();
                for (int dx = BAND_HALF_WIDTH + 1; dx <= xFit[1] / STEPS / 2 && rows.isEmpty(); dx++) {
                    rows = columnRows(img, col + inward * dx, List.of(c), top, bottom);
                }
                if (!rows.isEmpty()) {
                    how[k] = "nearest_column";
                } else {
                    rows = bandRows(img, col, CURVES.subList(ci + 1, CURVES.size()), top, bottom);
                    how[k] = "under_curves";
                }
                if (rows.isEmpty()) {
                    throw new IllegalStateException(name + " " + c.scheme() + ": no pixels at step " + k + ", no found point"
                            + " on " + (before < 0 ? "its left" : "its right") + ", none within half a step and no curve drawn"
                            + " over it there");
                }
                row[k] = median(rows);
                fromCover++;
            }
            for (int k = 0; k < STEPS; k++) {
                double s = Math.pow(10, (row[k] - yFit[0]) / yFit[1]);
                csv.append(String.format(Locale.ROOT, "%s,%d,%s,%d,%d,%d,%.3f,%s,%s,%.1f,%.4f%n", f.workload(),
                        f.percentile(), c.scheme(), k, k, k + 1, s, how[k].equals("interpolated"), how[k], row[k], s * (pixelFactor - 1)));
            }
            System.err.printf(Locale.ROOT, "  %-9s %3d points read, %3d interpolated, %d at an end read nearby or under later curves%n",
                    c.scheme(), STEPS - interpolated - fromCover, interpolated, fromCover);
        }
    }

    /** The column of step k: the fraction (k+1)/100 of the x axis. */
    private static int stepColumn(double[] xFit, int k) {
        return (int) Math.round(xFit[0] + xFit[1] * (k + 1) / STEPS);
    }

    /** Rows of the pixels in column {@code x} whose colour is near one of the curves'. */
    private static List<Integer> columnRows(BufferedImage img, int x, List<Curve> curves, int top, int bottom) {
        List<Integer> rows = new ArrayList<>();
        if (x >= 0 && x < img.getWidth()) {
            for (int y = top; y <= bottom; y++) {
                int p = img.getRGB(x, y);
                if (curves.stream().anyMatch(c -> near(p, c.rgb()))) {
                    rows.add(y);
                }
            }
        }
        return rows;
    }

    /** Rows of the pixels, in the band of columns around {@code col}, whose colour is near one of the curves'. */
    private static List<Integer> bandRows(BufferedImage img, int col, List<Curve> curves, int top, int bottom) {
        List<Integer> rows = new ArrayList<>();
        for (int x = Math.max(0, col - BAND_HALF_WIDTH); x <= Math.min(img.getWidth() - 1, col + BAND_HALF_WIDTH); x++) {
            for (int y = top; y <= bottom; y++) {
                int p = img.getRGB(x, y);
                if (curves.stream().anyMatch(c -> near(p, c.rgb()))) {
                    rows.add(y);
                }
            }
        }
        return rows;
    }
    /**
     * Checks that the solid HPCC-PINT line bends at the columns of the 100 steps: the mean absolute second difference
     * of its row (over 4 columns on either side) at the step columns must be at least twice that half-way between them
     * when it exceeds 1.2 pixels (a flatter line, as in the FB Hadoop figures, tells nothing and is only reported).
     * With fewer steps (e.g. 20, one per 5%) most step columns would lie on straight segments and the ratio would be
     * near 1.
     */
    private static void checkStepCount(BufferedImage img, String name, double[] xFit, int top, int bottom) {
        int rgb = CURVES.get(0).rgb();
        double atSteps = 0;
        double between = 0;
        int n = 0;
        for (int k = 1; k < STEPS - 1; k++) {
            double x = xFit[0] + xFit[1] * (k + 1) / STEPS;
            double half = xFit[1] / STEPS / 2;
            double b1 = bend(img, (int) Math.round(x), rgb, top, bottom);
            double b2 = bend(img, (int) Math.round(x + half), rgb, top, bottom);
            if (!Double.isNaN(b1) && !Double.isNaN(b2)) {
                atSteps += b1;
                between += b2;
                n++;
            }
        }
        System.err.printf(Locale.ROOT, "  step check on hpcc_pint: mean bend %.2f px at the step columns, %.2f px between"
                + " them (%d steps)%n", atSteps / n, between / n, n);
        // only a line that bends by more than a pixel on average tells step columns from others
        if (atSteps / n > 1.2 && atSteps < 2 * between) {
            throw new IllegalStateException(name + ": the HPCC-PINT line does not bend at the columns of "
                    + STEPS + " steps");
        }
    }

    /** |r(x-4) + r(x+4) - 2 r(x)| of the curve's middle row r per column, or NaN where a column has none. */
    private static double bend(BufferedImage img, int x, int rgb, int top, int bottom) {
        double l = columnRow(img, x - 4, rgb, top, bottom);
        double m = columnRow(img, x, rgb, top, bottom);
        double r = columnRow(img, x + 4, rgb, top, bottom);
        return Math.abs(l + r - 2 * m);
    }

    private static double columnRow(BufferedImage img, int x, int rgb, int top, int bottom) {
        List<Integer> rows = new ArrayList<>();
        for (int y = top; y <= bottom; y++) {
            if (near(img.getRGB(x, y), rgb)) {
                rows.add(y);
            }
        }
        return rows.isEmpty() ? Double.NaN : median(rows);
    }

    /**
     * Least-squares fit {@code position = p0 + p1 value}; returns {p0, p1, largest residual in pixels}. Fails when the
     * number of ticks found differs from the number of values or a residual exceeds {@link #MAX_TICK_RESIDUAL_PX}.
     */
    static double[] fit(String what, double[] values, List<Double> positions) {
        if (positions.size() != values.length) {
            throw new IllegalStateException(what + ": found " + positions.size() + " ticks at " + positions + ", expected "
                    + values.length);
        }
        int n = values.length;
        double mv = Arrays.stream(values).average().orElseThrow();
        double mp = positions.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < n; i++) {
            sxy += (values[i] - mv) * (positions.get(i) - mp);
            sxx += (values[i] - mv) * (values[i] - mv);
        }
        double p1 = sxy / sxx;
        double p0 = mp - p1 * mv;
        double worst = 0;
        for (int i = 0; i < n; i++) {
            worst = Math.max(worst, Math.abs(positions.get(i) - (p0 + p1 * values[i])));
        }
        if (worst > MAX_TICK_RESIDUAL_PX) {
            throw new IllegalStateException(what + ": a tick lies " + worst + " px off the fitted axis; ticks " + positions);
        }
        return new double[] {p0, p1, worst};
    }

    /**
     * The block of adjacent lines (columns when {@code columns}, else rows) between {@code from} and {@code to} holding
     * the most grey pixels: every line with at least 90% of the best line's count, adjacent to the best. Returns
     * {first, last}.
     */
    private static int[] strongestBlock(int lines, int length, boolean[][] grey, boolean columns, int from, int to) {
        int[] count = new int[lines];
        for (int i = from; i < to; i++) {
            for (int j = 0; j < length; j++) {
                count[i] += (columns ? grey[i][j] : grey[j][i]) ? 1 : 0;
            }
        }
        int best = from;
        for (int i = from; i < to; i++) {
            if (count[i] > count[best]) {
                best = i;
            }
        }
        int first = best;
        while (first > from && count[first - 1] >= 0.9 * count[best]) {
            first--;
        }
        int last = best;
        while (last < to - 1 && count[last + 1] >= 0.9 * count[best]) {
            last++;
        }
        return new int[] {first, last};
    }

    /** The axes' grey (#808080), allowing for slight shading: channels equal within 8 and within 40 of 128. */
    static boolean isAxisGrey(int argb) {
        int r = (argb >> 16) & 255;
        int g = (argb >> 8) & 255;
        int b = argb & 255;
        return Math.abs(r - 128) < 40 && Math.abs(g - 128) < 40 && Math.abs(b - 128) < 40 && Math.abs(r - g) < 8
                && Math.abs(g - b) < 8;
    }

    /** Whether an opaque pixel lies within {@link #COLOUR_TOLERANCE} of {@code rgb}. */
    static boolean near(int argb, int rgb) {
        return distance(argb, rgb) <= COLOUR_TOLERANCE;
    }

    /** Euclidean RGB distance of an opaque pixel from {@code rgb}; infinite for a (mostly) transparent pixel. */
    static double distance(int argb, int rgb) {
        if ((argb >>> 24) < 128) {
            return Double.POSITIVE_INFINITY;
        }
        int dr = ((argb >> 16) & 255) - ((rgb >> 16) & 255);
        int dg = ((argb >> 8) & 255) - ((rgb >> 8) & 255);
        int db = (argb & 255) - (rgb & 255);
        return Math.sqrt(dr * dr + dg * dg + db * db);
    }

    /** Median of integers (mean of the two middle values for an even count). */
    static double median(List<Integer> v) {
        int[] a = v.stream().mapToInt(Integer::intValue).sorted().toArray();
        int m = a.length / 2;
        return a.length % 2 == 1 ? a[m] : (a[m - 1] + a[m]) / 2.0;
    }

    /** The bytes of {@code git --git-dir=DIR show OBJECT}. */
    static byte[] gitShow(Path gitDir, String object) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("git", "--git-dir=" + gitDir, "show", object).redirectErrorStream(false).start();
        byte[] out;
        try (InputStream in = p.getInputStream()) {
            out = in.readAllBytes();
        }
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("git show " + object + " in " + gitDir + " failed: " + err.strip());
        }
        return out;
    }
}
