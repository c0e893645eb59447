package fabriclab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Text in a notebook never states a number its outputs do not show. For every notebook, every number written in a
 * markdown cell must be found, at the precision the prose gives it, among the numbers of that notebook's code cells
 * (sources and {@code text/*} outputs) or of the CSV and JSON files under {@code datasets/} (published and model), or
 * be listed in {@link #ALLOWED} with a reason. A sentence whose model result went stale when a notebook was rerun then
 * fails here, in {@code mvn test}, without Jupyter.
 *
 * <p><b>What counts as a number of the prose.</b> Decimal numbers in the markdown text, with thousands separators
 * ({@code 52,120} is 52120), each end of a range ({@code 1.00–1.70}, {@code 40-58%}) on its own, signs ignored (a
 * dash is as often a range as a minus). Not checked, because they are not quantities or are too common to be evidence:
 * <ul>
 *   <li>LaTeX math ({@code $...$}, {@code $$...$$}): formulas and their constants, the derivation itself;</li>
 *   <li>inline code and fenced code: API names, parameters and literals, checked by the compiler, not by readers;</li>
 *   <li>link targets, URLs, HTML tags and HTML comments (the claims of {@link NotebookClaimsTest});</li>
 *   <li>heading and list numbering; numbers after figure, table, section, notebook, seed, equation and the like
 *       ({@code figure 11}, {@code sections 3.2 and 4.1}); numbers with a leading zero ({@code 000}, {@code 03}:
 *       paper and notebook ids); years (1950-2039); IEEE 802 standard numbers;</li>
 *   <li>numbers that are part of an identifier: a letter or underscore touches them on the left or right
 *       ({@code H800}, {@code 400G}, {@code bf16}, {@code 0x1234}), or a hyphen joins them to a word on the left
 *       ({@code CRC-32}, {@code Llama2-13B}); a factor ({@code 3.5x}, {@code 2.2×}) is still a number;</li>
 *   <li>integers from 0 to 20, unless they are percentages.</li>
 * </ul>
 *
 * <p><b>When a number is found.</b> A prose number with d decimals matches a number c of the notebook or the datasets
 * when c rounds to it at d decimals (3.47 matches 3.473084), also after a change of unit by 1000 either way (1.15 ms
 * matches 1154.77 us, 6.4 GB matches 6400 MB; prose and outputs often use neighbouring units). A percentage p% matches
 * c = p, a fraction c = p/100 or a ratio's change c = 1 ± p/100 (16% matches 1.16, 10% matches 0.90), and no change
 * of unit. An integer with trailing zeros after "about", "~" or "≈" may be rounded to its last non-zero digit (about
 * 52,000 matches 52120). The check is that the number is shown somewhere, not that it is shown in the column the
 * sentence means: a stale number that happens to equal another output passes, so the reader's eye is still needed.
 *
 * <p>An allowlist entry names the notebook, the number as written and why no output shows it (a derivation stated in
 * the sentence itself, or a published value that no dataset holds). An entry that no longer matches any prose number
 * fails the test, so the list cannot outlive the sentences it excuses.
 */
class NotebookProseTest {
    /** A number a notebook's prose may state although no output or dataset shows it, and why. */
    record Allowed(String notebook, String number, String reason) {
    }

    static final List<Allowed> ALLOWED = List.of(
            new Allowed("01", "4791", "RoCEv2's UDP destination port (IANA), a protocol constant"),
            new Allowed("03", "570", "one 1000-byte packet at the 14 Mb/s fair share, derived in the sentence"),
            new Allowed("04", "570", "one 1000-byte packet at the 14 Mb/s fair share, derived in the sentence"),
            new Allowed("04", "600", "7 NICs at 100G into one 100G port, derived in the sentence"),
            new Allowed("06", "641", "Cisco's PFC white paper: cable term for 100 m of fibre, an outside reference"),
            new Allowed("07", "4791", "RoCEv2's UDP destination port (IANA), a protocol constant"),
            new Allowed("08", "4.29", "HCCL's default local ACK timeout (4.096 us x 2^20), a published setting"),
            new Allowed("08", "32,767", "NVIDIA's firmware default byte counter (RPG_BYTE_RESET, mlxconfig), a published"
                    + " setting cited in the settings table; DcqcnParameters.nvidiaConnectX() holds it, no output prints it"),
            new Allowed("08", "32767", "the same firmware default as mlxconfig lists it, in the table's citation"),
            new Allowed("08", "640", "RoCE runs of GseVsRoceTestbed.Grid.FULL (2 x 4 x 2 x 5 x 4 x 2), which the notebook does not run"),
            new Allowed("09", "280", "Ascend 910B peak TFLOP/s, lowest variant as reported; no dataset holds it"),
            new Allowed("09", "376", "Ascend 910B peak TFLOP/s, highest variant as reported; no dataset holds it"),
            new Allowed("11", "171", "record size 150 + 21 bytes, derived in cell 2")
    );

    /** Words after which a number is a reference, not a quantity: "figure 11", "sections 3.2 and 4.1". */
    static final Pattern REFERENCE = Pattern.compile("(?i)(?:\\b(?:fig(?:ure)?s?\\.?|tables?|sections?|§|notebooks?|seeds?"
            + "|eq(?:uation)?s?\\.?|appendix|annex|chapters?|steps?|items?|issues?|version|cells?|rfc|pages?|pp?\\.|"
            + "papers?|phase|stage)\\s*|§\\s*)(?:\\d[\\d.]*\\s*(?:,|and|or|to|–|-)\\s*)*$");
    /** "about", "~", "≈": an integer's trailing zeros may be rounding. */
    static final Pattern APPROXIMATE = Pattern.compile("(?i)(?:~|≈|\\babout|\\baround|\\broughly|\\bapproximately|\\bnearly)\\s*$");
    static final Pattern PROSE_NUMBER = Pattern.compile("(?<![\\p{L}\\p{N}_.,])(\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.(\\d+))?");
    /** After the number: a percentage, or the first end of a percentage range ("40-58%", "30 to 60 %"). */
    static final Pattern PERCENT_AFTER = Pattern.compile("^(?:\\s?%|\\s*(?:–|-|to)\\s*\\d[\\d,.]*\\s?%)");
    static final Pattern CORPUS_NUMBER = Pattern.compile("\\d[\\d_]*(?:\\.\\d+)?(?:[eE][-+]?\\d+)?");
    static final Pattern GROUPED = Pattern.compile("(?<![\\d,])\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?(?![\\d,])");
    static final Pattern MATH_BLOCK = Pattern.compile("\\$\\$.*?\\$\\$", Pattern.DOTALL);
    static final Pattern MATH_INLINE = Pattern.compile("\\$[^$\\n]+\\$");
    static final Pattern FENCED_CODE = Pattern.compile("```.*?```", Pattern.DOTALL);
    static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
    /** HTML comments, among them the machine-checked claims of {@link NotebookClaimsTest}, which test themselves. */
    static final Pattern HTML_COMMENT = Pattern.compile("<!--.*?-->", Pattern.DOTALL);
    static final Pattern LINK_TARGET = Pattern.compile("\\]\\([^)]*\\)|https?://\\S+|<[^>\\n]+>");
    static final Pattern STANDARD = Pattern.compile("\\b802\\.\\d+[A-Za-z]*");
    static final Pattern NUMBERING = Pattern.compile("(?m)^(\\s*(?:#{1,6}\\s+|[-*+]\\s+)?)\\d+(?:\\.\\d+)*[.)](?=\\s)");

    /** {@code -Dfabriclab.prose.verbose=true} lists every number checked and how it was found. */
    static final boolean VERBOSE = Boolean.getBoolean("fabriclab.prose.verbose");
    static double[] datasetNumbers;

    /** One number of the prose with where it stands. */
    record ProseNumber(int cell, String text, double value, int decimals, boolean percent, boolean approximate,
            String sentence) {
    }

    @TestFactory
    Stream<DynamicTest> everyNumberInTheProseIsShownByTheOutputsOrDatasets() throws IOException {
        datasetNumbers = datasetCorpus();
        Set<Allowed> used = new HashSet<>();
        List<DynamicTest> tests = new ArrayList<>();
        for (Path nb : NotebookFilesTest.notebooks()) {
            tests.add(DynamicTest.dynamicTest(nb.getFileName().toString(), () -> check(nb, used)));
        }
        tests.add(DynamicTest.dynamicTest("every allowlist entry is used", () -> {
            List<String> unused = ALLOWED.stream().filter(a -> !used.contains(a))
                    .map(a -> a.notebook() + " " + a.number() + " (" + a.reason() + ")").collect(Collectors.toList());
            assertTrue(unused.isEmpty(), "allowlist entries whose number the prose no longer states (remove them):\n"
                    + String.join("\n", unused));
        }));
        return tests.stream();
    }

    static void check(Path path, Set<Allowed> used) throws IOException {
        String name = path.getFileName().toString();
        JsonNode cells = NotebookFilesTest.JSON.readTree(path.toFile()).path("cells");
        StringBuilder code = new StringBuilder();
        for (JsonNode cell : cells) {
            if (cell.path("cell_type").asText().equals("code")) {
                code.append(text(cell.path("source"))).append('\n');
                for (JsonNode o : cell.path("outputs")) {
                    code.append(text(o.path("text"))).append('\n');
                    for (Iterator<Map.Entry<String, JsonNode>> it = o.path("data").fields(); it.hasNext();) {
                        Map.Entry<String, JsonNode> e = it.next();
                        if (e.getKey().startsWith("text/")) {
                            code.append(text(e.getValue())).append('\n');
                        }
                    }
                }
            }
        }
        double[] notebookNumbers = corpus(code.toString(), true);
        int checked = 0, inNotebook = 0, inDatasets = 0, scaled = 0, allowed = 0;
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            JsonNode cell = cells.get(i);
            if (!cell.path("cell_type").asText().equals("markdown")) {
                continue;
            }
            for (ProseNumber p : proseNumbers(i, text(cell.path("source")))) {
                checked++;
                // an entry stays needed while the prose states its number, even when some dataset happens to hold it
                ALLOWED.stream().filter(x -> name.startsWith(x.notebook() + "-") && x.number().equals(p.text()))
                        .findFirst().ifPresent(used::add);
                Match m = found(p, notebookNumbers);
                if (m == Match.NONE) {
                    m = found(p, datasetNumbers);
                    if (m != Match.NONE) {
                        inDatasets++;
                    }
                } else {
                    inNotebook++;
                }
                if (m == Match.UNIT_CHANGE) {
                    scaled++;
                }
                if (VERBOSE) {
                    System.out.printf(Locale.ROOT, "  %s cell %d: %s%s%s -> %s%n", name, i, p.approximate() ? "~" : "",
                            p.text(), p.percent() ? "%" : "", m);
                }
                if (m == Match.NONE) {
                    Allowed a = ALLOWED.stream().filter(x -> name.startsWith(x.notebook() + "-") && x.number().equals(p.text()))
                            .findFirst().orElse(null);
                    if (a != null) {
                        used.add(a);
                        allowed++;
                    } else {
                        problems.add(name + " cell " + i + ": " + p.text() + (p.percent() ? "%" : "")
                                + " is in no output, code cell or dataset: \"" + p.sentence() + "\"");
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%s: %d numbers checked, %d in the notebook, %d in datasets (%d of both after a change "
                + "of unit), %d allowlisted, %d not found%n", name, checked, inNotebook, inDatasets, scaled, allowed, problems.size());
        assertTrue(problems.isEmpty(), problems.size() + " number(s) of the prose not shown by any output:\n"
                + String.join("\n", problems));
    }

    /** The numbers of one markdown cell that the test checks (see the class comment for what is left out). */
    static List<ProseNumber> proseNumbers(int cell, String markdown) {
        String t = blank(HTML_COMMENT, markdown);
        t = blank(FENCED_CODE, t);
        t = blank(MATH_BLOCK, t);
        t = blank(MATH_INLINE, t);
        t = blank(INLINE_CODE, t);
        t = blank(LINK_TARGET, t);
        t = blank(STANDARD, t);
        Matcher numbering = NUMBERING.matcher(t);
        StringBuilder sb = new StringBuilder();
        while (numbering.find()) {
            numbering.appendReplacement(sb, Matcher.quoteReplacement(numbering.group(1)
                    + " ".repeat(numbering.end() - numbering.start() - numbering.group(1).length())));
        }
        numbering.appendTail(sb);
        t = sb.toString();
        List<ProseNumber> out = new ArrayList<>();
        Matcher m = PROSE_NUMBER.matcher(t);
        while (m.find()) {
            String intPart = m.group(1), frac = m.group(2);
            int end = m.end();
            char after = end < t.length() ? t.charAt(end) : ' ';
            char after2 = end + 1 < t.length() ? t.charAt(end + 1) : ' ';
            int start = m.start();
            char before = start > 0 ? t.charAt(start - 1) : ' ';
            char before2 = start > 1 ? t.charAt(start - 2) : ' ';
            boolean factor = (after == 'x' || after == '×') && !Character.isLetterOrDigit(after2);
            if ((Character.isLetter(after) && !factor) || after == '_'
                    || (before == '-' && Character.isLetter(before2))) {
                continue; // part of an identifier: H800, 400G, CRC-32, Llama2-13B
            }
            if (intPart.length() > 1 && intPart.startsWith("0")) {
                continue; // an id: paper 000, notebook 03
            }
            String digits = intPart.replace(",", "");
            double value = Double.parseDouble(digits + (frac == null ? "" : "." + frac));
            boolean percent = PERCENT_AFTER.matcher(t.substring(end, Math.min(t.length(), end + 20))).find();
            if (frac == null && value <= 20 && !percent) {
                continue; // small integer
            }
            if (frac == null && !intPart.contains(",") && value >= 1950 && value <= 2039) {
                continue; // a year
            }
            String left = t.substring(Math.max(0, start - 60), start);
            if (REFERENCE.matcher(left).find()) {
                continue; // figure 11, section 3.2, notebook 07
            }
            boolean approximate = frac == null && APPROXIMATE.matcher(left).find();
            out.add(new ProseNumber(cell, m.group(), value, frac == null ? 0 : frac.length(), percent, approximate,
                    sentence(markdown, t, start, end)));
        }
        return out;
    }

    /** How a prose number is found in a corpus: not at all, as written, after a change of unit, as a fraction or ratio. */
    enum Match { NONE, AS_WRITTEN, UNIT_CHANGE, PERCENT_FORM }

    /** Whether and how a number of the corpus (sorted absolute values) shows the prose number (see the class comment). */
    static Match found(ProseNumber p, double[] corpus) {
        double half = 0.5 * Math.pow(10, -p.decimals()) * (1 + 1e-9);
        if (p.approximate() && p.decimals() == 0) {
            long v = (long) p.value();
            long unit = 1;
            while (v > 0 && v % (unit * 10) == 0) {
                unit *= 10;
            }
            half = Math.max(half, 0.5 * unit * (1 + 1e-9));
        }
        double lo = p.value() - half, hi = p.value() + half;
        if (any(corpus, lo, hi)) {
            return Match.AS_WRITTEN;
        }
        if (p.percent()) {
            return any(corpus, lo / 100, hi / 100) || any(corpus, 1 + lo / 100, 1 + hi / 100)
                    || any(corpus, 1 - hi / 100, 1 - lo / 100) ? Match.PERCENT_FORM : Match.NONE;
        }
        return any(corpus, lo / 1e3, hi / 1e3) || any(corpus, lo * 1e3, hi * 1e3) ? Match.UNIT_CHANGE : Match.NONE;
    }

    static boolean any(double[] sorted, double lo, double hi) {
        int i = Arrays.binarySearch(sorted, lo);
        if (i < 0) {
            i = -i - 1;
        }
        return i < sorted.length && sorted[i] <= hi;
    }

    /** The numbers of a text of code, outputs or data: sorted absolute values, underscores of Java literals removed. */
    static double[] corpus(String text, boolean grouped) {
        List<Double> values = new ArrayList<>();
        Matcher m = CORPUS_NUMBER.matcher(text);
        while (m.find()) {
            try {
                values.add(Double.parseDouble(m.group().replace("_", "")));
            } catch (NumberFormatException e) {
                // "1_" and the like: not a number
            }
        }
        if (grouped) {
            Matcher g = GROUPED.matcher(text);
            while (g.find()) {
                values.add(Double.parseDouble(g.group().replace(",", "")));
            }
        }
        return values.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).sorted().toArray();
    }

    static double[] datasetCorpus() throws IOException {
        StringBuilder all = new StringBuilder();
        for (String dir : List.of("datasets/published", "datasets/model")) {
            try (Stream<Path> s = Files.list(NotebookFilesTest.ROOT.resolve(dir))) {
                for (Path f : s.filter(p -> p.toString().endsWith(".csv") || p.toString().endsWith(".json")).sorted()
                        .collect(Collectors.toList())) {
                    all.append(Files.readString(f, StandardCharsets.UTF_8)).append('\n');
                }
            }
        }
        return corpus(all.toString(), false);
    }

    @Test
    void identifiersReferencesAndMathAreNotQuantities() {
        String md = "## 2. Results\n1. In 2024 paper 001 (figure 11, table 1, sections 3.2 and 4.1; notebook 07) ran Llama2-13B\n"
                + "on H800 and A100 over 400G and 1x400G with CRC-32 (seed 0x1234), `kMin = 5000`, $q = 12345$, per 802.3,\n"
                + "$$H = 3840$$ and [a link](https://example.org/123456).";
        assertEquals(List.of(), proseNumbers(0, md).stream().map(ProseNumber::text).collect(Collectors.toList()));
    }

    @Test
    void separatorsRangesPercentagesAndFactorsAreRead() {
        List<ProseNumber> ps = proseNumbers(0, "52,120 packets, 1.00–1.70, 40-58% and a 3.5x gain (about 52,000).");
        assertEquals(List.of("52,120", "1.00", "1.70", "40", "58", "3.5", "52,000"),
                ps.stream().map(ProseNumber::text).collect(Collectors.toList()));
        assertEquals(List.of(false, false, false, true, true, false, false),
                ps.stream().map(ProseNumber::percent).collect(Collectors.toList()));
        assertTrue(ps.get(6).approximate());
        assertEquals(52120, ps.get(0).value());
    }

    @Test
    void aNumberMatchesAtThePrecisionOfTheProse() {
        double[] corpus = corpus("3.473084 1.16 52_120 1154.77 0.902813", true);
        assertEquals(Match.AS_WRITTEN, found(prose("3.47"), corpus));
        assertEquals(Match.AS_WRITTEN, found(prose("3.5"), corpus));
        assertEquals(Match.NONE, found(prose("3.48"), corpus));
        assertEquals(Match.AS_WRITTEN, found(prose("52,120 drops"), corpus));
        assertEquals(Match.NONE, found(prose("52,000 drops"), corpus));
        assertEquals(Match.AS_WRITTEN, found(prose("about 52,000 drops"), corpus));
        assertEquals(Match.UNIT_CHANGE, found(prose("1.15 ms"), corpus));
        assertEquals(Match.PERCENT_FORM, found(prose("16% more"), corpus));
        assertEquals(Match.PERCENT_FORM, found(prose("10% less"), corpus));
        assertEquals(Match.NONE, found(prose("1.5% less"), corpus));
    }

    static ProseNumber prose(String markdown) {
        List<ProseNumber> ps = proseNumbers(0, markdown);
        assertEquals(1, ps.size(), markdown);
        return ps.get(0);
    }

    @Test
    void theDatasetsAreRead() throws IOException {
        assertTrue(datasetCorpus().length > 1000, "few numbers in datasets/published and datasets/model");
    }

    static String text(JsonNode source) {
        if (source.isArray()) {
            StringBuilder sb = new StringBuilder();
            source.forEach(s -> sb.append(s.asText()));
            return sb.toString();
        }
        return source.isTextual() ? source.asText() : "";
    }

    /** Replaces every match by spaces of its length, so positions and word boundaries stay. */
    static String blank(Pattern p, String s) {
        Matcher m = p.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(m.group().replaceAll("[^\\n]", " ")));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** The sentence around [start, end) of the cleaned text t, taken from the original (same positions), on one line. */
    static String sentence(String original, String t, int start, int end) {
        int a = start, b = end;
        while (a > 0 && !(sentenceEnd(t, a - 1) || (t.charAt(a - 1) == '\n' && a > 1 && t.charAt(a - 2) == '\n'))) {
            a--;
        }
        while (b < t.length() && !sentenceEnd(t, b) && !(t.charAt(b) == '\n' && b + 1 < t.length() && t.charAt(b + 1) == '\n')) {
            b++;
        }
        return original.substring(a, Math.min(t.length(), b + 1)).replaceAll("\\s+", " ").trim();
    }

    static boolean sentenceEnd(String t, int i) {
        char c = t.charAt(i);
        return (c == '.' || c == '!' || c == '?') && (i + 1 >= t.length() || Character.isWhitespace(t.charAt(i + 1)))
                && !(i > 0 && Character.isDigit(t.charAt(i - 1)) && i + 1 < t.length() && Character.isDigit(t.charAt(i + 1)));
    }
}
