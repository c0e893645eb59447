package fabriclab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The {@code .ipynb} files in {@code notebooks/} are the notebooks' only source, stored as a reader should
 * meet them: nbformat 4.5 JSON (UTF-8, unique cell ids), the kernelspec of this kernel, executed by
 * {@code ./reproduce} with their outputs (every code cell run once, in order; no error outputs; no run
 * timings). That the outputs are the code's is checked by {@link JupyterIT}, which executes each notebook
 * afresh and compares. No script in {@code tools/} or {@code bin/} writes notebooks, so no second copy of their
 * text can drift from them. Fast and without Jupyter: it runs in {@code mvn test}; the full nbformat schema
 * is checked under Jupyter by {@code test_notebook_files.py} ({@link JupyterIT}).
 */
class NotebookFilesTest {
    static final Path ROOT = Path.of(System.getProperty("fabriclab.root", "..")).toAbsolutePath().normalize();
    static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    /** nbformat 4.5's rule for a cell id. */
    static final Pattern CELL_ID = Pattern.compile("[a-zA-Z0-9_-]{1,64}");
    /** What a script that writes notebooks calls: nbformat's writer or builders, jupytext. */
    static final List<String> NOTEBOOK_WRITERS = List.of("nbformat.write", "nbformat.v4", "new_notebook", "jupytext");

    static List<Path> notebooks() throws IOException {
        try (Stream<Path> s = Files.list(ROOT.resolve("notebooks"))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".ipynb")).sorted().collect(Collectors.toList());
        }
    }

    @Test
    void theNotebooksAreFound() throws IOException {
        assertTrue(notebooks().size() >= 1, "no notebooks in " + ROOT.resolve("notebooks"));
    }

    @TestFactory
    Stream<DynamicTest> everyNotebookIsStoredAsItsOnlySource() throws IOException {
        JsonNode kernelJson = JSON.readTree(ROOT.resolve("kernel/src/kernelspec/kernel.json").toFile());
        return notebooks().stream().map(nb -> DynamicTest.dynamicTest(nb.getFileName().toString(), () -> check(nb, kernelJson)));
    }

    static void check(Path path, JsonNode kernelJson) throws IOException {
        String name = path.getFileName().toString();
        byte[] bytes = Files.readAllBytes(path);
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
        } catch (CharacterCodingException e) {
            fail(name + " is not UTF-8: " + e);
        }
        JsonNode nb;
        try {
            nb = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new AssertionError(name + " is not valid JSON: " + e.getMessage(), e);
        }
        assertTrue(nb != null && nb.isObject(), name + ": the top level must be a JSON object");
        assertEquals(4, nb.path("nbformat").asInt(-1), name + ": nbformat");
        assertTrue(nb.path("nbformat_minor").asInt(-1) >= 5, name + ": nbformat_minor must be >= 5 (cell ids), got "
                + nb.path("nbformat_minor"));
        JsonNode spec = nb.path("metadata").path("kernelspec");
        assertEquals("fabriclab", spec.path("name").asText(null), name + ": metadata.kernelspec.name");
        assertEquals(kernelJson.path("display_name").asText(), spec.path("display_name").asText(null),
                name + ": metadata.kernelspec.display_name (as in kernel.json)");
        assertEquals(kernelJson.path("language").asText(), spec.path("language").asText(null),
                name + ": metadata.kernelspec.language (as in kernel.json)");

        JsonNode cells = nb.path("cells");
        assertTrue(cells.isArray() && cells.size() > 0, name + ": cells must be a non-empty array");
        Set<String> ids = new HashSet<>();
        List<String> problems = new ArrayList<>();
        int codeCells = 0;
        for (int i = 0; i < cells.size(); i++) {
            JsonNode cell = cells.get(i);
            String where = name + " cell " + i;
            String type = cell.path("cell_type").asText("");
            if (!Set.of("markdown", "code", "raw").contains(type)) {
                problems.add(where + ": cell_type must be markdown, code or raw, got " + cell.path("cell_type"));
            }
            String id = cell.path("id").asText("");
            if (!CELL_ID.matcher(id).matches()) {
                problems.add(where + ": id must match " + CELL_ID + ", got " + cell.path("id"));
            } else if (!ids.add(id)) {
                problems.add(where + ": duplicate cell id " + id);
            }
            JsonNode source = cell.path("source");
            boolean sourceOk = source.isTextual()
                    || (source.isArray() && StreamSupport.stream(source.spliterator(), false).allMatch(JsonNode::isTextual));
            if (!sourceOk) {
                problems.add(where + ": source must be a string or a list of strings");
            }
            if (type.equals("code")) {
                codeCells++;
                if (!cell.path("outputs").isArray()) {
                    problems.add(where + ": outputs must be an array");
                }
                for (JsonNode o : cell.path("outputs")) {
                    if (o.path("output_type").asText().equals("error")) {
                        problems.add(where + ": stored with an error output (" + o.path("ename").asText() + ")");
                    }
                }
                if (cell.path("execution_count").asInt(-1) != codeCells) {
                    problems.add(where + ": execution_count must be " + codeCells + " (every code cell run once, in order, "
                            + "by ./reproduce), got " + cell.path("execution_count"));
                }
                if (cell.path("metadata").has("execution")) {
                    problems.add(where + ": metadata.execution (run timings) must not be stored");
                }
            } else if (cell.has("outputs") || cell.has("execution_count")) {
                problems.add(where + ": a " + type + " cell has outputs or execution_count");
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void noScriptGeneratesNotebooks() throws IOException {
        List<String> writers = new ArrayList<>();
        for (String dir : List.of("tools", "bin")) {
            Path d = ROOT.resolve(dir);
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> s = Files.walk(d)) {
                for (Path f : s.filter(Files::isRegularFile).sorted().collect(Collectors.toList())) {
                    String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
                    for (String w : NOTEBOOK_WRITERS) {
                        if (text.contains(w)) {
                            writers.add(ROOT.relativize(f) + " uses " + w);
                        }
                    }
                }
            }
        }
        assertTrue(writers.isEmpty(), "notebooks/*.ipynb are the only source of the notebooks; these scripts write "
                + "notebooks (edit the .ipynb instead and delete them):\n" + String.join("\n", writers));
    }
}
