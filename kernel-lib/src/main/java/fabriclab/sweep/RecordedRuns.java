package fabriclab.sweep;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import fabriclab.Parameters;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The runs of one sweep as written to {@code datasets/runs/}: its label, task, points and results, so that a later
 * execution of the same sweep can compute a subset of the runs again, compare them with these, and take the others
 * from here ({@link SweepRuns}). The file is JSON Lines, readable and diffable: a first line naming the sweep, then
 * one line per run with its index, point, result type and result, every record written by its fields (components) in
 * declaration order, maps by sorted key, doubles in their shortest exact form, so a run's line is the same bytes
 * whenever its result is the same value, and the same sweep recorded twice gives the same file.
 *
 * <p>The file's name is the label's words followed by the first 12 hex digits of a SHA-256 over the label, the task
 * class and the points' JSON: a sweep whose label, task or points change has another name, and its old record is
 * not found (no result of another configuration can be replayed). Writing checks that every result reads back to the
 * same JSON, so a result type JSON cannot hold fails when the sweep is recorded, not when it is checked.
 *
 * @param label the sweep's label
 * @param task the task class's name
 * @param points each run's point as JSON, in run order
 * @param types each run's result class name
 * @param results each run's result as JSON, in run order
 */
public record RecordedRuns(String label, String task, List<String> points, List<String> types, List<String> results) {
    /** The directory of records under a datasets directory. */
    public static final String DIRECTORY = "runs";
    /** The largest record read (bytes): beyond it the file is refused, not loaded. */
    public static final long MAX_BYTES = 256L << 20;

    private static final ObjectMapper JSON = JsonMapper.builder()
            .visibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
            .build();

    /** Validates: every list of one length, nothing null. */
    public RecordedRuns {
        Parameters.notBlank("label", label);
        Parameters.notBlank("task", task);
        Parameters.noNullElements("points", points);
        Parameters.noNullElements("types", types);
        Parameters.noNullElements("results", results);
        if (types.size() != points.size() || results.size() != points.size()) {
            throw new IllegalArgumentException("points, types and results must have one length, got " + points.size() + ", "
                    + types.size() + " and " + results.size());
        }
        points = List.copyOf(points);
        types = List.copyOf(types);
        results = List.copyOf(results);
    }

    /** Number of runs. */
    public int size() {
        return points.size();
    }

    /** The JSON of {@code value} as this class writes it (records by their fields, maps by sorted key). */
    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON for a record of runs: "
                    + e.getOriginalMessage(), e);
        }
    }

    /**
     * The record of {@code plan}'s runs with {@code results} (element i for point i), each checked to read back to the
     * same JSON.
     *
     * @throws IllegalArgumentException if the sizes differ, or a point or result cannot be written as JSON and read back
     */
    public static <P extends Serializable, R extends Serializable> RecordedRuns of(SweepPlan<P, R> plan, List<R> results) {
        Parameters.notNull("plan", plan);
        Parameters.noNullElements("results", results);
        if (results.size() != plan.size()) {
            throw new IllegalArgumentException("results must have one element per point of sweep \"" + plan.label() + "\" ("
                    + plan.size() + "), got " + results.size());
        }
        List<String> types = new ArrayList<>();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            R r = results.get(i);
            String text = json(r);
            Object back = read(r.getClass(), text, plan.label(), i);
            String again = json(back);
            if (!again.equals(text) || !sameValue(r, back)) {
                throw new IllegalArgumentException("sweep \"" + plan.label() + "\", run " + i + ": its result does not read back "
                        + "from JSON to the same value (a field of an interface or a general type is read back as another"
                        + " class), so it cannot be recorded (written " + abbreviate(text) + ", read back "
                        + abbreviate(again) + " as " + describe(back) + ")");
            }
            types.add(r.getClass().getName());
            out.add(text);
        }
        return new RecordedRuns(plan.label(), plan.task().getName(), pointsJson(plan), types, out);
    }

    /** The file name of {@code plan}'s record: the label's words and a hash of label, task and points. */
    public static String fileName(SweepPlan<?, ?> plan) {
        Parameters.notNull("plan", plan);
        return fileName(plan.label(), plan.task().getName(), pointsJson(plan));
    }

    /** Each point of {@code plan} as JSON, in run order. */
    private static List<String> pointsJson(SweepPlan<?, ?> plan) {
        List<String> points = new ArrayList<>();
        for (Object p : plan.parameters()) {
            points.add(json(p));
        }
        return points;
    }

    private static String fileName(String label, String task, List<String> points) {
        String words = label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        if (words.length() > 60) {
            words = words.substring(0, 60).replaceAll("-$", "");
        }
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
        sha.update((label + "\n" + task + "\n").getBytes(StandardCharsets.UTF_8));
        for (String p : points) {
            sha.update((p + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return (words.isEmpty() ? "sweep" : words) + "-" + HexFormat.of().formatHex(sha.digest()).substring(0, 12) + ".jsonl";
    }

    /** This record's file name ({@link #fileName(SweepPlan)} of its sweep). */
    public String fileName() {
        return fileName(label, task, points);
    }

    /**
     * Writes this record to {@code directory/}{@link #fileName()} (the directory created if missing); the same record
     * gives the same bytes.
     *
     * @return the file written
     */
    public Path write(Path directory) {
        Parameters.notNull("directory", directory);
        StringBuilder b = new StringBuilder();
        ObjectNode head = JSON.createObjectNode();
        head.put("sweep", label);
        head.put("task", task);
        head.put("runs", size());
        head.put("format", "fabriclab recorded runs 1: this line, then one line per run {run, point, type, result}");
        b.append(head).append('\n');
        for (int i = 0; i < size(); i++) {
            b.append("{\"run\":").append(i).append(",\"point\":").append(points.get(i)).append(",\"type\":")
                    .append(json(types.get(i))).append(",\"result\":").append(results.get(i)).append("}\n");
        }
        Path f = directory.resolve(fileName());
        try {
            Files.createDirectories(directory);
            Files.writeString(f, b.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the record of sweep \"" + label + "\" to " + f, e);
        }
        return f;
    }

    /**
     * The record of {@code plan} in {@code directory}: the file {@link #fileName(SweepPlan)}, which must hold the same
     * label, task and points.
     *
     * @throws IllegalStateException if there is no such file (the message says how to record it) or it holds another
     *     sweep or is malformed
     */
    public static RecordedRuns read(Path directory, SweepPlan<?, ?> plan) {
        Parameters.notNull("directory", directory);
        Parameters.notNull("plan", plan);
        List<String> points = pointsJson(plan);
        Path f = directory.resolve(fileName(plan.label(), plan.task().getName(), points));
        if (!Files.isRegularFile(f)) {
            throw new IllegalStateException("sweep \"" + plan.label() + "\" has no recorded runs (" + f + "): with "
                    + SweepRuns.ENV + "=check its runs are checked against a record that " + SweepRuns.ENV + "=record writes;"
                    + " run ./reproduce on the notebook that runs this sweep, and commit datasets/" + DIRECTORY + "/");
        }
        String problem = Parameters.inputFileProblem(f, MAX_BYTES);
        if (problem != null) {
            throw new IllegalStateException("the record of sweep \"" + plan.label() + "\": " + problem);
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f, e);
        }
        RecordedRuns rec = parse(f, lines);
        if (!rec.label.equals(plan.label()) || !rec.task.equals(plan.task().getName()) || !rec.points.equals(points)) {
            throw new IllegalStateException(f + " holds another sweep than \"" + plan.label() + "\" (its label, task or points"
                    + " differ): run ./reproduce on the notebook that runs this sweep");
        }
        return rec;
    }

    private static RecordedRuns parse(Path f, List<String> lines) {
        try {
            if (lines.isEmpty()) {
                throw new IllegalStateException(f + " is empty, not a record of runs");
            }
            JsonNode head = JSON.readTree(lines.get(0));
            int n = head.path("runs").asInt(-1);
            if (!head.hasNonNull("sweep") || !head.hasNonNull("task") || n < 0 || lines.size() != n + 1) {
                throw new IllegalStateException(f + " is not a record of runs: its first line must name the sweep, task and"
                        + " number of runs, followed by one line per run (" + (lines.size() - 1) + " lines follow)");
            }
            List<String> points = new ArrayList<>();
            List<String> types = new ArrayList<>();
            List<String> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                JsonNode run = JSON.readTree(lines.get(i + 1));
                if (run.path("run").asInt(-1) != i || !run.has("point") || !run.path("type").isTextual() || !run.has("result")) {
                    throw new IllegalStateException(f + ", line " + (i + 2) + ": expected run " + i + " with its point, type and"
                            + " result");
                }
                points.add(JSON.writeValueAsString(run.get("point")));
                types.add(run.get("type").asText());
                results.add(JSON.writeValueAsString(run.get("result")));
            }
            return new RecordedRuns(head.get("sweep").asText(), head.get("task").asText(), points, types, results);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(f + " is not a record of runs: " + e.getOriginalMessage(), e);
        }
    }

    /** Run {@code index}'s recorded result, read back as its type. */
    public Object value(int index) {
        Parameters.inRange("index", index, 0, size() - 1);
        return read(types.get(index), results.get(index), label, index);
    }

    /** The recorded results in run order, each read back as its type. */
    public List<Object> values() {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < size(); i++) {
            out.add(value(i));
        }
        return Collections.unmodifiableList(out);
    }

    private static Object read(String type, String text, String label, int index) {
        Class<?> c;
        try {
            c = Class.forName(type, false, RecordedRuns.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("sweep \"" + label + "\", run " + index + ": its result type " + type
                    + " is not on the classpath", e);
        }
        return read(c, text, label, index);
    }

    private static Object read(Class<?> c, String text, String label, int index) {
        try {
            return JSON.readValue(text, c);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("sweep \"" + label + "\", run " + index + ": its result cannot be read back as "
                    + c.getName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Whether {@code a} and {@code b} are the same value of the same classes throughout: records component by
     * component, arrays, lists and maps element by element, anything else by its class and {@code equals} (so a
     * record's array component compares by contents, and a value read back as another class than it was written
     * differs).
     */
    static boolean sameValue(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof List<?> || a instanceof java.util.Map<?, ?>) {
            return sameElements(a, b); // any implementation: a list read back is an ArrayList, a map a LinkedHashMap
        }
        if (a.getClass() != b.getClass()) {
            return false;
        }
        Class<?> c = a.getClass();
        if (c.isRecord()) {
            for (java.lang.reflect.RecordComponent rc : c.getRecordComponents()) {
                try {
                    java.lang.reflect.Method m = rc.getAccessor();
                    m.setAccessible(true);
                    if (!sameValue(m.invoke(a), m.invoke(b))) {
                        return false;
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return false;
                }
            }
            return true;
        }
        if (c.isArray()) {
            int n = java.lang.reflect.Array.getLength(a);
            if (n != java.lang.reflect.Array.getLength(b)) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (!sameValue(java.lang.reflect.Array.get(a, i), java.lang.reflect.Array.get(b, i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    private static boolean sameElements(Object a, Object b) {
        if (a instanceof List<?> la) {
            if (!(b instanceof List<?> lb)) {
                return false;
            }
            if (la.size() != lb.size()) {
                return false;
            }
            for (int i = 0; i < la.size(); i++) {
                if (!sameValue(la.get(i), lb.get(i))) {
                    return false;
                }
            }
            return true;
        }
        java.util.Map<?, ?> ma = (java.util.Map<?, ?>) a;
        if (!(b instanceof java.util.Map<?, ?> mb) || ma.size() != mb.size()) {
            return false;
        }
        for (java.util.Map.Entry<?, ?> e : ma.entrySet()) {
            if (!mb.containsKey(e.getKey()) || !sameValue(e.getValue(), mb.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getName();
    }

    /** {@code text}, cut to 300 characters for a message. */
    static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "... (" + text.length() + " characters)";
    }

    /**
     * Where two JSON texts of a run first differ: the character position and 60 characters of each around it, for a
     * message; null if they are equal.
     */
    static String firstDifference(String recorded, String fresh) {
        if (recorded.equals(fresh)) {
            return null;
        }
        int i = 0;
        int n = Math.min(recorded.length(), fresh.length());
        while (i < n && recorded.charAt(i) == fresh.charAt(i)) {
            i++;
        }
        int from = Math.max(0, i - 60);
        return "at character " + i + ": recorded ..." + recorded.substring(from, Math.min(recorded.length(), i + 60))
                + "... computed ..." + fresh.substring(from, Math.min(fresh.length(), i + 60)) + "...";
    }
}
