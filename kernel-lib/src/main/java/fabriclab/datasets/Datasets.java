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
        Parameters.notNull("root", root);
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
        Path draft = dir.resolve("." + provenance.name() + ".csv.draft");
        try {
            Files.createDirectories(dir);
            table.write().csv(CsvWriteOptions.builder(draft.toFile()).build());
            String problem;
            try {
                problem = readsBackAs(table, readCsv(draft, provenance.name()));
            } catch (RuntimeException e) {
                problem = e.getMessage().replace(draft.toString(), "its CSV");
            }
            if (problem != null) {
                Files.delete(draft);
                throw new IllegalArgumentException("table cannot be written as a dataset that load reads back equal: "
                        + problem);
            }
            Files.move(draft, csv, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write dataset " + csv, e);
        }
        writeProvenance(dir, provenance);
        return csv;
    }

    /**
     * How {@code back}, read from the CSV written of {@code table}, differs from it, or null: the same columns in
     * order and the same rows, each cell the same value (a number exactly, negative zero included; a missing value
     * missing; a text as written, or the number it spells when the reader took the column for numbers).
     */
    static String readsBackAs(Table table, Table back) {
        if (!table.columnNames().equals(back.columnNames())) {
            return "its columns " + table.columnNames() + " read back as " + back.columnNames();
        }
        if (table.rowCount() != back.rowCount()) {
            return table.rowCount() + " rows read back as " + back.rowCount() + (table.columnCount() == 1
                    ? " (a missing value of a one-column table is a blank line, which the CSV reader skips)" : "");
        }
        for (int c = 0; c < table.columnCount(); c++) {
            tech.tablesaw.columns.Column<?> a = table.column(c);
            tech.tablesaw.columns.Column<?> b = back.column(c);
            for (int i = 0; i < table.rowCount(); i++) {
                if (!sameCell(a, b, i)) {
                    return "column \"" + a.name() + "\", row " + (i + 1) + ": " + cell(a, i) + " reads back as "
                            + cell(b, i);
                }
            }
        }
        return null;
    }

    private static String cell(tech.tablesaw.columns.Column<?> c, int i) {
        return c.isMissing(i) ? "a missing value" : "\"" + c.getString(i) + "\" (" + c.type().name() + ")";
    }

    private static boolean sameCell(tech.tablesaw.columns.Column<?> a, tech.tablesaw.columns.Column<?> b, int i) {
        boolean textA = a instanceof tech.tablesaw.api.StringColumn;
        boolean textB = b instanceof tech.tablesaw.api.StringColumn;
        if (a.isMissing(i) || b.isMissing(i)) {
            return a.isMissing(i) && b.isMissing(i);
        }
        if (a instanceof tech.tablesaw.api.NumericColumn<?> na && b instanceof tech.tablesaw.api.NumericColumn<?> nb) {
            return sameNumber(number(na, i), number(nb, i));
        }
        if (textA && b instanceof tech.tablesaw.api.NumericColumn<?> nb) {
            String s = ((tech.tablesaw.api.StringColumn) a).get(i).strip();
            if (!DECIMAL.matcher(s).matches()) {
                return false;
            }
            Object read = number(nb, i);
            return sameNumber(read instanceof Double ? (Object) Double.parseDouble(s) : new java.math.BigDecimal(s), read);
        }
        if (textA && textB) {
            return ((tech.tablesaw.api.StringColumn) a).get(i).equals(((tech.tablesaw.api.StringColumn) b).get(i));
        }
        return a.getString(i).equals(b.getString(i));
    }

    /** A cell of a numeric column: a {@code Double} for floating columns, a {@code Long} for integer ones. */
    private static Object number(tech.tablesaw.api.NumericColumn<?> c, int i) {
        if (c instanceof tech.tablesaw.api.DoubleColumn || c instanceof tech.tablesaw.api.FloatColumn) {
            return c.getDouble(i);
        }
        return ((Number) c.get(i)).longValue();
    }

    private static boolean negativeZero(Object n) {
        return n instanceof Double d && Double.doubleToRawLongBits(d) == Double.doubleToRawLongBits(-0.0);
    }

    private static boolean sameNumber(Object x, Object y) {
        if (negativeZero(x) != negativeZero(y)) {
            return false;
        }
        java.math.BigDecimal a = exact(x);
        java.math.BigDecimal b = exact(y);
        return a != null && b != null && a.compareTo(b) == 0;
    }

    private static java.math.BigDecimal exact(Object n) {
        if (n instanceof java.math.BigDecimal d) {
            return d;
        }
        if (n instanceof Double d) {
            return Double.isFinite(d) ? new java.math.BigDecimal(d) : null;
        }
        return java.math.BigDecimal.valueOf((Long) n);
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
        Parameters.notNull("json", json);
        if (!Files.isRegularFile(json)) {
            throw new IllegalStateException("dataset has no provenance file " + json);
        }
        String problem = Parameters.inputFileProblem(json, MAX_PROVENANCE_BYTES);
        if (problem != null) {
            throw new IllegalArgumentException("json " + problem);
        }
        try {
            return JSON.readValue(Parameters.readInputText("json", json, MAX_PROVENANCE_BYTES), Provenance.class);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read provenance " + json + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a dataset's CSV: a header line and at least one row, and no column that mixes numbers with
     * text (tablesaw would silently turn a numeric column holding one stray word into a text column).
     */
    private static Table readCsv(Path csv, String name) {
        String text = Parameters.readInputText("name", csv, MAX_CSV_BYTES);
        List<String> lines = text.lines().toList();
        if (lines.stream().allMatch(String::isBlank)) {
            throw new IllegalStateException(csv + " is empty: a dataset needs a header line and at least one row");
        }
        if (lines.stream().filter(l -> !l.isBlank()).count() < 2) {
            throw new IllegalStateException(csv + " has a header line but no rows");
        }
        checkFields(csv, lines);
        Table t;
        try {
            t = Table.read().csv(CsvReadOptions.builder(new java.io.StringReader(text)).tableName(name)
                    .maxCharsPerColumn(MAX_FIELD_CHARS).build()); // the text checked above, not the file read again
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

    /** The largest dataset CSV {@link #load} reads: 256 MiB. */
    public static final long MAX_CSV_BYTES = 256L << 20;
    /** The largest provenance file {@link #readProvenance} reads: 1 MiB. */
    public static final long MAX_PROVENANCE_BYTES = 1L << 20;

    /** The longest field of a dataset's CSV, in characters (the CSV reader's limit, set to this). */
    public static final int MAX_FIELD_CHARS = 4096;

    /** A decimal number as written in a dataset: optional sign, digits with an optional point, optional exponent. */
    private static final java.util.regex.Pattern DECIMAL =
            java.util.regex.Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    /** A number with thousands separators ("1,000"), which a reader would silently take for 1000. */
    private static final java.util.regex.Pattern GROUPED = java.util.regex.Pattern.compile("[+-]?\\d{1,3}(,\\d{3})+(\\.\\d*)?");

    /**
     * Refuses a CSV whose fields a reader would not take exactly as written, naming the line and column: a NUL
     * byte (dropped by the CSV reader), a number in Java's float syntax but not in decimal ("NaN", "Infinity", "1d",
     * "0x1p3"), a number with thousands separators ("1,000"), a decimal number beyond a double's range ("1e400")
     * or one that is not zero but underflows to zero ("1e-400"); a field longer than {@link #MAX_FIELD_CHARS}; a
     * quoted field not closed before the end of the file; a record with more or fewer fields than the header. Fields
     * are split as CSV: commas, double quotes around a field ("" inside them for one quote), line breaks inside quotes
     * kept in the field; blank lines are skipped.
     */
    private static void checkFields(Path csv, List<String> lines) {
        List<String> header = null;
        int line = 0;
        while (line < lines.size()) {
            int first = line + 1; // 1-based line of the record
            List<String> fields = new ArrayList<>();
            StringBuilder f = new StringBuilder();
            boolean quoted = false;
            String text = lines.get(line++);
            int i = 0;
            while (true) {
                if (f.length() > MAX_FIELD_CHARS) {
                    throw new IllegalStateException(csv + ": line " + first + ", column " + columnName(header, fields.size())
                            + ": a field longer than " + MAX_FIELD_CHARS + " characters, the most a field may hold");
                }
                if (i == text.length()) {
                    if (quoted && line < lines.size()) { // a line break inside quotes
                        f.append('\n');
                        text = lines.get(line++);
                        i = 0;
                        continue;
                    }
                    if (quoted) {
                        throw new IllegalStateException(csv + ": line " + first + ", column "
                                + columnName(header, fields.size()) + ": a quoted field is not closed before the end of the file");
                    }
                    fields.add(f.toString());
                    break;
                }
                char c = text.charAt(i++);
                if (quoted) {
                    if (c == '"' && i < text.length() && text.charAt(i) == '"') {
                        f.append('"');
                        i++;
                    } else if (c == '"') {
                        quoted = false;
                    } else {
                        f.append(c);
                    }
                } else if (c == '"') {
                    quoted = true;
                } else if (c == ',') {
                    fields.add(f.toString());
                    f.setLength(0);
                } else {
                    f.append(c);
                }
            }
            if (fields.size() == 1 && fields.get(0).isBlank() && first == line) {
                continue; // a blank line (the reader skips it)
            }
            if (header == null) {
                header = fields;
            }
            for (int k = 0; k < fields.size(); k++) {
                String problem = fieldProblem(fields.get(k));
                if (problem != null) {
                    throw new IllegalStateException(csv + ": line " + first + ", column " + columnName(header, k) + ": "
                            + problem);
                }
            }
            if (fields.size() != header.size()) {
                throw new IllegalStateException(csv + ": line " + first + ": " + fields.size() + (fields.size() == 1
                        ? " field" : " fields") + ", but the header has " + header.size());
            }
        }
    }

    /** Column {@code k} by its header's name, or by its number (1-based) beyond the header or in the header itself. */
    private static String columnName(List<String> header, int k) {
        return header != null && k < header.size() ? "\"" + header.get(k) + "\"" : "#" + (k + 1);
    }

    /** Why {@code field} would not be read as written (see {@link #checkFields}), or null. */
    private static String fieldProblem(String field) {
        if (field.indexOf('\0') >= 0) {
            return "holds a NUL byte (the CSV reader would drop it)";
        }
        String v = field.strip();
        if (GROUPED.matcher(v).matches()) {
            return "\"" + v + "\" has thousands separators; write the number without them (" + v.replace(",", "") + ")";
        }
        if (v.indexOf(',') >= 0 && DECIMAL.matcher(v.replace(",", "")).matches()) {
            return "\"" + v + "\" is a number with a comma, which is read in no locale (neither a decimal comma nor a"
                    + " separator); write it with a decimal point and no separators, e.g. " + v.replace(',', '.')
                    + " or " + v.replace(",", "");
        }
        if (DECIMAL.matcher(v).matches()) {
            double d = Double.parseDouble(v);
            if (Double.isInfinite(d)) {
                return "\"" + v + "\" is beyond the range of a double (at most about 1.8e308 in magnitude)";
            }
            String mantissa = v.split("[eE]")[0];
            if (d == 0 && mantissa.chars().anyMatch(ch -> ch >= '1' && ch <= '9')) {
                return "\"" + v + "\" is not zero but underflows to 0 as a double (the smallest is about 4.9e-324)";
            }
            return null;
        }
        try {
            Double.parseDouble(v);
        } catch (NumberFormatException e) {
            return null; // text
        }
        return "\"" + v + "\" is not a decimal number as written (no NaN, Infinity, hex or type suffix; leave a missing"
                + " value empty)";
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
