package fabriclab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The project's Markdown documents (README.md, BENCH-RESULTS.md, docs/*.md) hold together: every relative link
 * names a file of the checkout and every {@code #fragment} a heading of that file (GitHub's anchor of a heading:
 * lower case, characters other than letters, digits, spaces, hyphens and underscores dropped, spaces as hyphens,
 * a repeated anchor numbered {@code -1}, {@code -2}, ...); README's first screen (its first
 * {@value #FIRST_SCREEN_LINES} lines) gives the two commands, {@code ./reproduce} and {@code mvn verify}, and CI
 * runs exactly that test command; every {@code bin/} and top-level command README names exists and is
 * executable; README stays a page a newcomer reads in minutes (at most {@value #README_MAX_LINES} lines), the
 * details living in docs/. Fast and without Jupyter: it runs in {@code mvn test}.
 */
class DocumentationTest {
    static final Path ROOT = NotebookFilesTest.ROOT;
    /** The lines a terminal or a rendered page shows before the reader scrolls. */
    static final int FIRST_SCREEN_LINES = 50;
    static final int README_MAX_LINES = 200;
    static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    static final Pattern COMMAND = Pattern.compile("(?<![\\w./-])(bin/[\\w.-]+|\\./[\\w-]+)");

    static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("BENCH-RESULTS.md")));
        try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
            docs.addAll(s.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().collect(Collectors.toList()));
        }
        return docs;
    }

    /** The lines of a Markdown file outside fenced code blocks. */
    static List<String> proseLines(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced) {
                out.add(line);
            }
        }
        return out;
    }

    /** GitHub's anchors of a Markdown file's headings. */
    static Set<String> anchors(Path file) throws IOException {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : proseLines(file)) {
            Matcher m = HEADING.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String slug = m.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum);
            anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return anchors;
    }

    @Test
    void everyRelativeLinkNamesAFileAndAHeadingOfIt() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path doc : documents()) {
            for (String line : proseLines(doc)) {
                Matcher m = LINK.matcher(line);
                while (m.find()) {
                    String link = m.group(1);
                    if (link.matches("[a-z]+:.*")) {
                        continue;
                    }
                    int hash = link.indexOf('#');
                    String file = hash < 0 ? link : link.substring(0, hash);
                    Path target = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
                    String where = ROOT.relativize(doc) + ": " + link;
                    if (!Files.exists(target)) {
                        broken.add(where + " (no such file)");
                    } else if (hash >= 0 && !anchors(target).contains(link.substring(hash + 1))) {
                        broken.add(where + " (no such heading; headings: " + anchors(target) + ")");
                    }
                }
            }
        }
        assertEquals(List.of(), broken, "links that lead nowhere");
    }

    @Test
    void readmeFirstScreenGivesTheTwoCommandsAndCiRunsTheTestCommand() throws IOException {
        List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
        List<String> firstScreen = readme.subList(0, Math.min(FIRST_SCREEN_LINES, readme.size()));
        assertTrue(firstScreen.contains("./reproduce"), "README's first screen has no line \"./reproduce\"");
        assertTrue(firstScreen.contains("mvn verify"), "README's first screen has no line \"mvn verify\"");
        List<String> ci = Files.readAllLines(ROOT.resolve(".ci/run"));
        assertTrue(ci.contains("mvn verify"), ".ci/run does not run README's test command, a line \"mvn verify\"");
        assertTrue(readme.size() <= README_MAX_LINES, "README.md has " + readme.size() + " lines, more than "
                + README_MAX_LINES + ": move the details to docs/ and link them");
    }

    @Test
    void everyCommandReadmeNamesExists() throws IOException {
        List<String> missing = new ArrayList<>();
        Set<String> named = new HashSet<>();
        for (String line : Files.readAllLines(ROOT.resolve("README.md"))) {
            Matcher m = COMMAND.matcher(line);
            while (m.find()) {
                named.add(m.group(1));
            }
        }
        for (String command : named) {
            Path file = ROOT.resolve(command);
            boolean sourced = command.endsWith(".sh");
            if (!Files.isRegularFile(file) || !(sourced || Files.isExecutable(file))) {
                missing.add(command);
            }
        }
        assertTrue(named.contains("./reproduce"), "README names no ./reproduce");
        assertEquals(List.of(), missing, "commands README names that are not executable files of the checkout");
    }
}
