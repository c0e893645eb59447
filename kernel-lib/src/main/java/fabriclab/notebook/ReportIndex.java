package fabriclab.notebook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fabriclab.Parameters;
import fabriclab.datasets.ComparisonRow;
import fabriclab.datasets.Scorecard;
import fabriclab.datasets.SeedRange;
import fabriclab.datasets.SeedRanges;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The front page of the reports: one self-contained HTML page ({@code index.html} beside the notebooks'
 * HTML reports) with the scorecard summary at the top and, for each notebook, its question, its main
 * figure and its rows of the scorecard: the predictions within tolerance, the misses with the
 * notebook's stated mechanism, and the rows of other kinds (calibrated, definition, ...) listed apart.
 * The summary counts only canonical predictions ({@link Scorecard#counted}) meeting the paper by the
 * scorecard's hit rule, every seed within the tolerance ({@link Scorecard#meetsPaper}, the seed ranges of
 * {@link SeedRanges#fromDatasets}), as the scorecard notebook does, and beside it how many meet by the reported value
 * alone ({@link ComparisonRow#meetsTarget()}).
 *
 * <p>It reads what {@code ./reproduce} leaves: the executed notebooks (their first markdown cell and
 * their figures, which are embedded as {@code data:} URIs) and the comparison datasets through
 * {@link Scorecard#entries}. Links point only to the reports beside the page (relative), so the page opens
 * from the file system and from any static web server, on a machine that has none of the project's files.
 *
 * <p>The main figure is the first PNG output of the code cell tagged {@code main-figure} (cell metadata
 * {@code tags}), else the last PNG output of the notebook.
 */
public final class ReportIndex {
    /** Cell tag that marks a notebook's main figure. */
    public static final String MAIN_FIGURE_TAG = "main-figure";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern NUMBER = Pattern.compile("^(\\d{2})-");

    /** One notebook's entry. */
    record Entry(String file, String title, String question, String figurePngBase64) {
    }

    private ReportIndex() {
    }

    /**
     * Writes the index page.
     *
     * @param notebooks directory of the executed {@code NN-name.ipynb} notebooks
     * @param datasets  datasets directory (with {@code model/comparison-*.csv})
     * @param out       the page to write (its directory holds the {@code NN-name.html} reports)
     */
    public static void write(Path notebooks, Path datasets, Path out) {
        Parameters.notNull("notebooks", notebooks);
        Parameters.notNull("datasets", datasets);
        Parameters.notNull("out", out);
        if (!Files.isDirectory(notebooks)) {
            throw new IllegalArgumentException("notebooks must be a directory, got " + notebooks);
        }
        List<Entry> entries = new ArrayList<>();
        try (Stream<Path> s = Files.list(notebooks)) {
            for (Path p : s.filter(f -> f.getFileName().toString().endsWith(".ipynb")).sorted().collect(Collectors.toList())) {
                entries.add(read(p));
            }
            List<Scorecard.Entry> card = Scorecard.entries(datasets);
            Path parent = out.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(out, html(entries, card, SeedRanges.fromDatasets(datasets)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report index " + out, e);
        }
    }

    static Entry read(Path notebook) throws IOException {
        JsonNode nb = JSON.readTree(notebook.toFile());
        String file = notebook.getFileName().toString();
        String title = file;
        String question = "";
        String figure = null;
        String lastFigure = null;
        boolean seenMarkdown = false;
        for (JsonNode cell : nb.path("cells")) {
            String type = cell.path("cell_type").asText();
            if (type.equals("markdown") && !seenMarkdown) {
                seenMarkdown = true;
                String text = source(cell);
                for (String line : text.split("\n")) {
                    if (line.startsWith("# ")) {
                        title = line.substring(2).strip();
                        break;
                    }
                }
                question = questionParagraph(text);
            }
            if (type.equals("code")) {
                boolean tagged = false;
                for (JsonNode t : cell.path("metadata").path("tags")) {
                    tagged |= t.asText().equals(MAIN_FIGURE_TAG);
                }
                for (JsonNode o : cell.path("outputs")) {
                    JsonNode png = o.path("data").path("image/png");
                    if (png.isTextual() || png.isArray()) {
                        String b64 = png.isArray() ? joined(png) : png.asText();
                        b64 = b64.replace("\n", "");
                        lastFigure = b64;
                        if (tagged && figure == null) {
                            figure = b64;
                        }
                    }
                }
            }
        }
        return new Entry(file, title, question, figure != null ? figure : lastFigure);
    }

    /** The paragraph that starts with "**Question.**", without the label; empty if there is none. */
    static String questionParagraph(String markdown) {
        for (String para : markdown.split("\n\\s*\n")) {
            String p = para.strip();
            if (p.startsWith("**Question.**")) {
                return p.substring("**Question.**".length()).strip().replace('\n', ' ');
            }
        }
        return "";
    }

    private static String source(JsonNode cell) {
        JsonNode s = cell.path("source");
        return s.isArray() ? joined(s) : s.asText();
    }

    private static String joined(JsonNode array) {
        StringBuilder b = new StringBuilder();
        array.forEach(n -> b.append(n.asText()));
        return b.toString();
    }

    static String html(List<Entry> entries, List<Scorecard.Entry> card,
            Function<Scorecard.Entry, Optional<SeedRange>> ranges) {
        List<Scorecard.Entry> predictions = new ArrayList<>();
        List<Scorecard.Entry> others = new ArrayList<>();
        for (Scorecard.Entry e : card) {
            (Scorecard.counted(e) ? predictions : others).add(e);
        }
        Predicate<Scorecard.Entry> meets = e -> Scorecard.meetsPaper(e, ranges);
        long hits = predictions.stream().filter(meets).count();
        long byValue = predictions.stream().filter(e -> e.row().meetsTarget()).count();
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>fabriclab: GSE vs RoCE, the papers' numbers beside the models'</title>\n")
                .append("<style>\n")
                .append("body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\n")
                .append("h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}\n")
                .append("table{border-collapse:collapse;font-size:.9em;margin:.6em 0}td,th{border:1px solid #ccc;padding:3px 7px;vertical-align:top}\n")
                .append("th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n")
                .append(".yes{color:#1a7f37;font-weight:bold}.no{color:#b42318;font-weight:bold}\n")
                .append(".summary{font-size:1.15em;background:#f6f8fa;border:1px solid #d0d7de;padding:.8em 1em}\n")
                .append("img{max-width:100%;border:1px solid #eee}.q{font-style:normal}\n")
                .append("</style>\n</head>\n<body>\n");
        h.append("<h1>fabriclab: GSE vs RoCE, the papers' numbers beside the models'</h1>\n");
        h.append("<p class=\"summary\" id=\"scorecard-summary\"><b>Scorecard.</b> ")
                .append(hits).append(" of ").append(predictions.size())
                .append(" canonical predictions meet the paper's number as the paper states it (a point within its tolerance, a bound, a "
                        + "band or an unsigned magnitude) on every seed (").append(byValue).append(" of ").append(predictions.size())
                .append(" by the reported value alone); ").append(others.size())
                .append(" further rows (calibrated, definition, validation, what-if, superseded) are listed with their notebooks and not counted");
        h.append(". Each notebook below has its full report (figures, equations, code and outputs).</p>\n");
        h.append("<table id=\"contents\"><tr><th>notebook</th><th>question</th><th>predictions meeting the target</th></tr>\n");
        for (Entry e : entries) {
            List<Scorecard.Entry> mine = rowsOf(predictions, e.file());
            long ok = mine.stream().filter(meets).count();
            h.append("<tr><td><a href=\"").append(escape(report(e.file()))).append("\">").append(escape(e.title()))
                    .append("</a></td><td>").append(inline(shorten(e.question(), 220))).append("</td><td class=\"n\">")
                    .append(mine.isEmpty() ? "&ndash;" : ok + " / " + mine.size()).append("</td></tr>\n");
        }
        h.append("</table>\n");
        for (Entry e : entries) {
            h.append("<section class=\"notebook\" id=\"nb-").append(escape(stem(e.file()))).append("\">\n<h2><a href=\"")
                    .append(escape(report(e.file()))).append("\">").append(escape(e.title())).append("</a></h2>\n");
            if (!e.question().isEmpty()) {
                h.append("<p class=\"q\"><b>Question.</b> ").append(inline(e.question())).append("</p>\n");
            }
            if (e.figurePngBase64() != null) {
                h.append("<p><img alt=\"main figure of ").append(escape(e.title())).append("\" src=\"data:image/png;base64,")
                        .append(e.figurePngBase64()).append("\"></p>\n");
            }
            List<Scorecard.Entry> mine = rowsOf(predictions, e.file());
            if (!mine.isEmpty()) {
                h.append("<h3>Predictions</h3>\n");
                rows(h, mine, false, meets);
            }
            List<Scorecard.Entry> rest = rowsOf(others, e.file());
            if (!rest.isEmpty()) {
                h.append("<h3>Other rows (not counted)</h3>\n");
                rows(h, rest, true, meets);
            }
        }
        h.append("<p style=\"margin-top:3em;color:#666;font-size:.85em\">Written by <code>./reproduce</code> from the executed "
                + "notebooks and <code>datasets/model/comparison-*.csv</code>. Relative difference = (model &minus; published) / "
                + "|published|.</p>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void rows(StringBuilder h, List<Scorecard.Entry> rows, boolean withKind, Predicate<Scorecard.Entry> meets) {
        h.append("<table><tr><th>source</th><th>quantity</th>").append(withKind ? "<th>kind</th>" : "")
                .append("<th>paper</th><th>model</th><th>unit</th><th>difference</th><th>met</th><th>why / mechanism</th></tr>\n");
        for (Scorecard.Entry e : rows) {
            ComparisonRow r = e.row();
            boolean met = meets.test(e);
            h.append("<tr><td>").append(escape(Scorecard.shortSource(r.source()))).append("</td><td>").append(escape(r.quantity()))
                    .append("</td>");
            if (withKind) {
                String basis = r.basis().isBlank() ? "" : " (" + r.basis() + ")";
                h.append("<td>").append(escape(r.kind().label() + basis)).append("</td>");
            }
            h.append("<td>").append(escape(r.target().describe())).append("</td><td class=\"n\">").append(number(r.model()))
                    .append("</td><td>").append(escape(r.unit())).append("</td><td class=\"n\">")
                    .append(String.format(Locale.ROOT, "%+.1f%%", 100 * r.relativeDifference())).append("</td><td class=\"")
                    .append(met ? "yes" : "no").append("\">").append(met ? "yes" : "no").append("</td><td>").append(escape(r.note()))
                    .append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static List<Scorecard.Entry> rowsOf(List<Scorecard.Entry> rows, String notebookFile) {
        Matcher m = NUMBER.matcher(notebookFile);
        if (!m.find()) {
            return List.of();
        }
        String nn = m.group(1) + "-";
        return rows.stream().filter(r -> r.comparison().startsWith(nn)).collect(Collectors.toList());
    }

    /** Four significant digits, no exponent for everyday magnitudes. */
    static String number(double v) {
        if (v == 0) {
            return "0";
        }
        double a = Math.abs(v);
        if (a >= 1e-3 && a < 1e7) {
            int decimals = Math.max(0, 3 - (int) Math.floor(Math.log10(a)));
            return new java.math.BigDecimal(v).setScale(decimals, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
        }
        return String.format(Locale.ROOT, "%.3e", v);
    }

    private static String stem(String file) {
        return file.substring(0, file.length() - ".ipynb".length());
    }

    private static String report(String file) {
        return stem(file) + ".html";
    }

    private static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, s.lastIndexOf(' ', max)) + " &hellip;";
    }

    /** Escapes HTML, then renders the markdown a question uses: **bold**, *italic*, `code`. */
    static String inline(String markdown) {
        boolean ellipsis = markdown.endsWith(" &hellip;");
        String text = ellipsis ? markdown.substring(0, markdown.length() - " &hellip;".length()) : markdown;
        String s = escape(text);
        s = s.replaceAll("`([^`]+)`", "<code>$1</code>");
        s = s.replaceAll("\\*\\*([^*]+)\\*\\*", "<b>$1</b>");
        s = s.replaceAll("(?<![\\w*])\\*([^*\\s][^*]*)\\*(?![\\w*])", "<i>$1</i>");
        return ellipsis ? s + " &hellip;" : s;
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /**
     * Writes {@code reports/index.html} of the project (or the paths given).
     *
     * @param args none, or: notebooks-dir datasets-dir out-file
     */
    public static void main(String[] args) {
        if (args.length != 0 && args.length != 3) {
            throw new IllegalArgumentException("usage: ReportIndex [NOTEBOOKS_DIR DATASETS_DIR OUT_HTML], got " + args.length + " arguments");
        }
        Path root = fabriclab.project.ProjectPaths.root();
        Path notebooks = args.length == 3 ? Path.of(args[0]) : root.resolve("notebooks");
        Path datasets = args.length == 3 ? Path.of(args[1]) : root.resolve("datasets");
        Path out = args.length == 3 ? Path.of(args[2]) : root.resolve("reports/index.html");
        write(notebooks, datasets, out);
        System.out.println("report index: " + out);
    }
}
