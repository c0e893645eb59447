package fabriclab.notebook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.project.ProjectPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

class ReportIndexTest {
    static final String PNG_A = Base64.getEncoder().encodeToString("first figure".getBytes(StandardCharsets.US_ASCII));
    static final String PNG_B = Base64.getEncoder().encodeToString("tagged figure".getBytes(StandardCharsets.US_ASCII));

    static String notebook(String heading, String question, boolean tagSecond) {
        return """
                {"cells": [
                 {"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["# %s\\n", "\\n", "**Question.** %s\\n", "\\n", "More text."]},
                 {"cell_type": "code", "id": "b", "metadata": {}, "execution_count": 1, "source": "x",
                  "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"image/png": "%s\\n", "text/plain": "chart"}}]},
                 {"cell_type": "code", "id": "c", "metadata": {"tags": [%s]}, "execution_count": 2, "source": "y",
                  "outputs": [{"output_type": "execute_result", "execution_count": 2, "metadata": {}, "data": {"image/png": "%s", "text/plain": "chart"}}]}
                ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
                """.formatted(heading, question, PNG_A, tagSecond ? "\"main-figure\"" : "", PNG_B);
    }

    @Test
    void thePageHasEveryNotebookItsQuestionItsMainFigureAndTheScorecardSummary(@TempDir Path dir) throws Exception {
        Path nbs = Files.createDirectories(dir.resolve("notebooks"));
        Files.writeString(nbs.resolve("01-ecmp-x.ipynb"), notebook("01 ECMP <hashing>", "How **large** is `max/mean`?", true));
        Files.writeString(nbs.resolve("99-other.ipynb"), notebook("99 Other", "Which *one*?", false));
        Path out = dir.resolve("reports/index.html");
        ReportIndex.write(nbs, ProjectPaths.datasets(), out);
        String html = Files.readString(out);

        assertTrue(html.contains("href=\"01-ecmp-x.html\">01 ECMP &lt;hashing&gt;</a>"), "link to the report, title escaped");
        assertTrue(html.contains("href=\"99-other.html\""));
        assertTrue(html.contains("How <b>large</b> is <code>max/mean</code>?"));
        assertTrue(html.contains("Which <i>one</i>?"));
        // 01: the tagged cell's figure; 99: no tag, so the last figure
        assertTrue(html.contains("alt=\"main figure of 01 ECMP &lt;hashing&gt;\" src=\"data:image/png;base64," + PNG_B + "\""));
        assertTrue(html.contains("alt=\"main figure of 99 Other\" src=\"data:image/png;base64," + PNG_B + "\""));
        assertFalse(html.contains("file:"), "no link to this machine's files");
        assertTrue(html.contains("id=\"scorecard-summary\""));

        // the summary counts what the comparison datasets say, recounted here from their CSV columns
        long counted = 0;
        long hits = 0;
        try (var files = Files.list(ProjectPaths.datasets().resolve("model"))) {
            for (Path csv : files.filter(f -> f.getFileName().toString().matches("comparison-.*\\.csv")).toList()) {
                Table t = Table.read().csv(csv.toFile());
                for (int i = 0; i < t.rowCount(); i++) {
                    boolean canonical = t.column("canonical").getString(i).equals("true") || t.column("canonical").getString(i).equals("yes");
                    if (canonical && t.column("kind").getString(i).equals("prediction")) {
                        counted++;
                        String met = t.column("meets_target").getString(i);
                        hits += met.equals("yes") || met.equals("true") ? 1 : 0;
                    }
                }
            }
        }
        assertTrue(counted > 0);
        // by the reported value alone, as the CSV says; by the hit rule (every seed) at most as many
        assertTrue(html.contains("(" + hits + " of " + counted + " by the reported value alone)"), "summary of " + hits + "/" + counted);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<b>Scorecard.</b> (\\d+) of (\\d+) canonical predictions").matcher(html);
        assertTrue(m.find(), "summary line");
        assertEquals(counted, Long.parseLong(m.group(2)));
        assertTrue(Long.parseLong(m.group(1)) <= hits, "the hit rule is never looser than the reported value's");
    }

    @Test
    void questionParagraphAndNumbers() {
        assertEquals("Why? Because.", ReportIndex.questionParagraph("# T\n\n**Question.** Why?\nBecause.\n\nNext."));
        assertEquals("", ReportIndex.questionParagraph("# T\n\nNo question here."));
        assertEquals("3.5", ReportIndex.number(3.5));
        assertEquals("1.156", ReportIndex.number(1.1561728541748912));
        assertEquals("1155", ReportIndex.number(1154.77));
        assertEquals("12.35", ReportIndex.number(12.345678));
        assertEquals("0.01234", ReportIndex.number(0.01234));
        assertEquals("1.000e+10", ReportIndex.number(1e10));
        assertEquals("-2", ReportIndex.number(-2.0));
    }

    @Test
    void badArgumentsAreNamed(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReportIndex.write(dir.resolve("missing"), ProjectPaths.datasets(), dir.resolve("i.html")));
        assertTrue(e.getMessage().contains("notebooks"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ReportIndex.main(new String[] {"a"}));
    }
}
