package fabriclab.datasets;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import fabriclab.Parameters;
import fabriclab.project.ProjectPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvReadOptions;
import tech.tablesaw.io.csv.CsvWriteOptions;

/**
 * Reads and writes the project's datasets.
 *
 * <p>Layout: {@code datasets/published/NAME.csv} holds numbers copied from a paper and
 * {@code datasets/model/NAME.csv} numbers computed by fabriclab; each CSV has a {@code NAME.json}
 * {@link Provenance} beside it. Both directories are searched, published first.
 */
public final class Datasets {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private Datasets() {
    }

    /** Loads {@code NAME} from the project's {@code datasets/} directory. */
    public static Dataset load(String name) {
        return load(ProjectPaths.datasets(), name);
    }

    /** Loads {@code NAME} from {@code root/published} or {@code root/model}. */
    public static Dataset load(Path root, String name) {
        checkName(name);
        Parameters.notNull("root", root);
        for (String kind : List.of("published", "model")) {
            Path csv = root.resolve(kind).resolve(name + ".csv");
            if (Files.isRegularFile(csv)) {
                checkInside(root, csv);
                checkInside(root, root.resolve(kind).resolve(name + ".json"));
                Provenance p = readProvenance(root.resolve(kind).resolve(name + ".json"));
                if (!p.name().equals(name)) {
                    throw new IllegalStateException(csv + ": provenance names \"" + p.name() + "\", expected \"" + name + "\"");
                }
                if (!p.kind().equals(kind)) {
                    throw new IllegalStateException(csv + ": provenance kind \"" + p.kind() + "\" but file is under " + kind + "/");
                }
                Table t = readCsv(csv, name);
                for (String c : t.columnNames()) {
                    if (!p.columns().containsKey(c)) {
                        throw new IllegalStateException(csv + ": column \"" + c + "\" has no unit in the provenance's columns");
                    }
                }
                return new Dataset(p, t);
            }
        }
        throw new IllegalArgumentException("no dataset named \"" + name + "\" in " + root + "; available: " + list(root));
    }

    /** The table of {@code NAME} (shortcut for {@code load(name).table()}). */
    public static Table table(String name) {
        return load(name).table();
    }

    /** Names of all datasets in the project. */
    public static List<String> list() {
        return list(ProjectPaths.datasets());
    }

    /** Names of all datasets under {@code root}, sorted. */
    public static List<String> list(Path root) {
        TreeSet<String> names = new TreeSet<>();
        for (String kind : List.of("published", "model")) {
            Path dir = root.resolve(kind);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> s = Files.list(dir)) {
                s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".csv"))
                        .forEach(f -> names.add(f.substring(0, f.length() - 4)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new ArrayList<>(names);
    }

    /**
     * Writes a model result to {@code datasets/model/NAME.csv} with its provenance (kind "model").
     * The output is deterministic: the same table gives the same bytes.
     */
    public static Path writeModel(Table table, Provenance provenance) {
        return write(ProjectPaths.datasets(), table, provenance);
    }

    /**
     * Writes a model result to {@code datasets/model/NAME.csv} with its provenance (kind "model"); the
     * name is the provenance's. Deterministic: the same dataset gives the same bytes. Returns the CSV path.
     */
    public static Path writeModel(Dataset dataset) {
        Parameters.notNull("dataset", dataset);
        return writeModel(dataset.table(), dataset.provenance());
    }

    /**
     * Writes {@code root/KIND/NAME.csv} and {@code NAME.json} (KIND and NAME from the dataset's
     * provenance) into the datasets directory {@code root}, which the caller chooses; returns the CSV path.
     */
    public static Path write(Path root, Dataset dataset) {
        Parameters.notNull("dataset", dataset);
        return write(root, dataset.table(), dataset.provenance());
    }

    /** Writes {@code root/KIND/NAME.csv} and {@code NAME.json}; returns the CSV path. */
    public static Path write(Path root, Table table, Provenance provenance) {
        Parameters.notNull("root", root);
        Parameters.notNull("table", table);
        Parameters.notNull("provenance", provenance);
        checkName(provenance.name());
        for (String c : table.columnNames()) {
            if (!provenance.columns().containsKey(c)) {
                throw new IllegalArgumentException("provenance.columns has no unit for column \"" + c + "\"");
            }
        }
        Path dir = root.resolve(provenance.kind());
        Path csv = dir.resolve(provenance.name() + ".csv");
        try {
            Files.createDirectories(dir);
            table.write().csv(CsvWriteOptions.builder(csv.toFile()).build());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write dataset " + csv, e);
        }
        writeProvenance(dir, provenance);
        return csv;
    }

    /**
     * Writes {@code dir/NAME.json}, the provenance record alone, as {@link #write} does beside its CSV (for
     * tables stored in another format, e.g. Parquet); deterministic. Returns the JSON path.
     */
    public static Path writeProvenance(Path dir, Provenance provenance) {
        Parameters.notNull("dir", dir);
        Parameters.notNull("provenance", provenance);
        checkName(provenance.name());
        Path json = dir.resolve(provenance.name() + ".json");
        try {
            Files.createDirectories(dir);
            Files.writeString(json, JSON.writeValueAsString(provenance) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write provenance " + json, e);
        }
        return json;
    }

    /** Reads a provenance record. */
    public static Provenance readProvenance(Path json) {
        if (!Files.isRegularFile(json)) {
            throw new IllegalStateException("dataset has no provenance file " + json);
        }
        try {
            return JSON.readValue(json.toFile(), Provenance.class);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read provenance " + json + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a dataset's CSV: a header line and at least one row, and no column that mixes numbers with
     * text (tablesaw would silently turn a numeric column holding one stray word into a text column).
     */
    private static Table readCsv(Path csv, String name) {
        List<String> lines;
        try {
            lines = Files.readAllLines(csv, java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + csv, e);
        }
        if (lines.stream().allMatch(String::isBlank)) {
            throw new IllegalStateException(csv + " is empty: a dataset needs a header line and at least one row");
        }
        if (lines.stream().filter(l -> !l.isBlank()).count() < 2) {
            throw new IllegalStateException(csv + " has a header line but no rows");
        }
        Table t;
        try {
            t = Table.read().csv(CsvReadOptions.builder(csv.toFile()).tableName(name).build());
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot read " + csv + ": " + e.getMessage(), e);
        }
        for (tech.tablesaw.columns.Column<?> c : t.columns()) {
            if (!(c instanceof tech.tablesaw.api.StringColumn s)) {
                continue;
            }
            int numbers = 0;
            int firstText = -1;
            for (int i = 0; i < s.size(); i++) {
                String v = s.get(i).strip();
                if (v.isEmpty()) {
                    continue;
                }
                try {
                    Double.parseDouble(v);
                    numbers++;
                } catch (NumberFormatException e) {
                    if (firstText < 0) {
                        firstText = i;
                    }
                }
            }
            if (numbers > 0 && firstText >= 0) {
                throw new IllegalStateException(csv + ": column \"" + c.name() + "\" mixes numbers with text, row "
                        + (firstText + 1) + " holds \"" + s.get(firstText) + "\" (a numeric column must hold numbers only)");
            }
        }
        return t;
    }

    /** Rejects a dataset file that is, or links to, a file outside {@code root} (a symlink out of datasets/). */
    private static void checkInside(Path root, Path file) {
        if (!Files.exists(file)) {
            return; // readProvenance names a missing file
        }
        try {
            Path realRoot = root.toRealPath();
            Path real = file.toRealPath();
            if (!real.startsWith(realRoot)) {
                throw new IllegalStateException(file + " resolves to " + real + ", outside the datasets directory " + realRoot
                        + " (a dataset file must not link out of it)");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve " + file, e);
        }
    }

    private static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("dataset name must match " + NAME.pattern() + ", got " + name);
        }
    }
}
