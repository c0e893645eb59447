package fabriclab.kernel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Machine-checked claims of notebook prose. A sentence that states a comparison, a direction or a range carries, right
 * after it, an HTML comment (invisible when the notebook is rendered) that states the same thing against a table the
 * notebook's outputs come from:
 *
 * <pre>
 * &lt;!-- claim: datasets/model/jct-gse-vs-roce-seeds.csv where algorithm=all_to_all_at_once and dcqcn=off
 *      for every seed, uplinks: mean_jct_us[fabric=roce] / mean_jct_us[fabric=gse] &gt; 1 --&gt;
 * </pre>
 *
 * <p><b>Grammar.</b>
 * <pre>
 * claim      := 'claim:' [table] ['where' conds] [quantifier] ':' assertion
 * table      := a path from the repository root to a CSV file (datasets/model/x.csv, datasets/published/y.csv)
 *             | 'output' "title"   (a table the notebook printed, found by a part of its title line)
 * conds      := cond ('and' cond)*
 * cond       := column op value        op: = != &lt; &lt;= &gt; &gt;=, ~ (the cell contains the text) and !~ (it does not)
 * value      := number | word | "quoted text"   (text, and column names, with spaces, commas or signs are quoted; a binary
 *                                            minus stands between spaces: a - b)
 * quantifier := 'for' ('every' | 'no' | INT 'of') (column (',' column)* | 'row')
 * assertion  := comparison ('and' comparison)*
 * comparison := expr op expr | expr 'within' '[' number ',' number ']'
 * expr       := term (('+' | '-') term)*;   term := factor (('*' | '/') factor)*
 * factor     := number | '-' factor | '(' expr ')' | selection | agg '(' selection ')' | 'output' '(' "regex" ')'
 * selection  := column ['[' conds ']' | '{' conds '}']
 * agg        := min | max | median | mean | sum | count
 * </pre>
 *
 * <p><b>Meaning.</b> The rows of the table that pass {@code where} form the scope. Without a quantifier the assertion is
 * evaluated once over the scope; with one, the scope is split into groups with equal values of the named columns (a
 * pairing: the same seed, the same load) and the assertion is evaluated in each ({@code row}: every row of the scope on its own): {@code every} group must satisfy it,
 * {@code no} group may, or exactly {@code INT} groups do. A bare {@code column[conds]} must select exactly one row of
 * its scope (a paired value); {@code column{conds}} selects from the whole table instead, before {@code where} and
 * grouping (a reference value every group compares with); an aggregate reduces the selected rows (median of an even count: mean of the middle two).
 * {@code output("regex")} is the number captured by the regex's first group in the first match in the notebook's text
 * outputs. {@code a = 2.34} with a literal holds when a rounds to the literal at the literal's decimals (the precision
 * the prose gives); two computed values are equal within a relative 1e-9 (floating-point rounding);
 * {@code within [a, b]} is inclusive. A claim that selects no row, several rows where one is meant,
 * names a missing column or file, or cannot be parsed does not hold: it fails loudly, naming what it could not find.
 */
final class Claims {
    private Claims() {
    }

    /** A claim's outcome: whether it holds, and the values it saw (one line per group), for the failure message. */
    record Outcome(boolean holds, String detail) {
    }

    /** A table: header and rows of strings. */
    record Table(List<String> header, List<List<String>> rows) {
        int column(String name) {
            int i = header.indexOf(name);
            if (i < 0) {
                throw new ClaimException("no column '" + name + "' (columns: " + String.join(", ", header) + ")");
            }
            return i;
        }

        Table with(List<List<String>> keep) {
            return new Table(header, keep);
        }
    }

    static final class ClaimException extends RuntimeException {
        ClaimException(String message) {
            super(message);
        }
    }

    static final Pattern CLAIM_COMMENT = Pattern.compile("<!--\\s*claim:(.*?)-->", Pattern.DOTALL);

    /** The claim texts (after "claim:") of a markdown cell, in order. */
    static List<String> claimsIn(String markdown) {
        List<String> out = new ArrayList<>();
        Matcher m = CLAIM_COMMENT.matcher(markdown);
        while (m.find()) {
            out.add(m.group(1).replaceAll("\\s+", " ").trim());
        }
        return out;
    }

    /**
     * Evaluates one claim. {@code tables} opens a table by its path as written in the claim; {@code outputs} is the
     * notebook's text outputs for {@code output("regex")}.
     */
    static Outcome evaluate(String claim, Function<String, Table> tables, String outputs) {
        try {
            return new Parser(claim, tables, outputs).claim();
        } catch (ClaimException e) {
            return new Outcome(false, "cannot evaluate: " + e.getMessage());
        }
    }

    /**
     * A table the notebook printed: the first text output line that contains {@code title}, then a header line of
     * column names separated by a {@code |} with a space on either side, a line of dashes, and rows up to the first
     * line without a {@code |}.
     */
    static Table outputTable(String outputs, String title) {
        String[] lines = outputs.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(title) && i + 2 < lines.length && lines[i + 1].contains("|")
                    && lines[i + 2].startsWith("---")) {
                List<String> header = cells(lines[i + 1]);
                List<List<String>> rows = new ArrayList<>();
                for (int j = i + 3; j < lines.length && lines[j].contains("|"); j++) {
                    List<String> row = cells(lines[j]);
                    if (row.size() != header.size()) {
                        throw new ClaimException("output table '" + title + "': a row of " + row.size() + " cells under "
                                + header.size() + " columns");
                    }
                    rows.add(row);
                }
                return new Table(header, rows);
            }
        }
        throw new ClaimException("no output table titled '" + title + "'");
    }

    private static List<String> cells(String line) {
        List<String> out = new ArrayList<>();
        for (String c : (line + " ").split("\\s\\|(?=\\s)", -1)) { // a cell may hold "|R|": only a spaced bar separates
            out.add(c.trim());
        }
        if (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return out;
    }

    /** Reads a CSV file (RFC 4180 quoting) into a table. */
    static Table readCsv(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            List<List<String>> rows = new ArrayList<>();
            List<String> row = new ArrayList<>();
            StringBuilder cell = new StringBuilder();
            boolean quoted = false;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (quoted) {
                    if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        cell.append('"');
                        i++;
                    } else if (c == '"') {
                        quoted = false;
                    } else {
                        cell.append(c);
                    }
                } else if (c == '"') {
                    quoted = true;
                } else if (c == ',') {
                    row.add(cell.toString());
                    cell.setLength(0);
                } else if (c == '\n' || c == '\r') {
                    if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                        i++;
                    }
                    row.add(cell.toString());
                    cell.setLength(0);
                    rows.add(row);
                    row = new ArrayList<>();
                } else {
                    cell.append(c);
                }
            }
            if (cell.length() > 0 || !row.isEmpty()) {
                row.add(cell.toString());
                rows.add(row);
            }
            if (rows.isEmpty()) {
                throw new ClaimException("empty table " + file);
            }
            return new Table(rows.get(0), rows.subList(1, rows.size()));
        } catch (IOException e) {
            throw new ClaimException("cannot read " + file + ": " + e.getMessage());
        }
    }

    /** A number as the claim wrote it: its value and decimals (for "rounds to"). */
    record Value(double value, int decimals, boolean literal) {
    }

    /** Recursive-descent parser that evaluates as it goes (the grammar has no side effects). */
    private static final class Parser {
        private final String src;
        private final Function<String, Table> tables;
        private final String outputs;
        private final List<String> tokens = new ArrayList<>();
        private int pos;
        private Table scope;
        private Table whole;
        private final StringBuilder seen = new StringBuilder();

        private static final Pattern TOKEN = Pattern.compile(
                "\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|[\\w./-]+\\.csv(?![\\w.])|<=|>=|!=|!~|[<>=~:,\\[\\]{}()+*/-]|\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?(?![\\w.])"
                        + "|[^\\s<>=!~:,\\[\\]{}()+*/\"-]+)");

        Parser(String src, Function<String, Table> tables, String outputs) {
            this.src = src;
            this.tables = tables;
            this.outputs = outputs;
            Matcher m = TOKEN.matcher(src);
            int at = 0;
            while (at < src.length() && m.find(at) && m.start() == at) {
                tokens.add(m.group(1));
                at = m.end();
                while (at < src.length() && Character.isWhitespace(src.charAt(at))) {
                    at++;
                }
            }
            if (at < src.length()) {
                throw new ClaimException("cannot read the claim from '" + src.substring(at) + "'");
            }
        }

        String peek() {
            return pos < tokens.size() ? tokens.get(pos) : "";
        }

        String next() {
            if (pos >= tokens.size()) {
                throw new ClaimException("the claim ends early: '" + src + "'");
            }
            return tokens.get(pos++);
        }

        void expect(String t) {
            String n = next();
            if (!n.equals(t)) {
                throw new ClaimException("expected '" + t + "' but found '" + n + "' in '" + src + "'");
            }
        }

        boolean accept(String t) {
            if (peek().equals(t)) {
                pos++;
                return true;
            }
            return false;
        }

        Outcome claim() {
            Table table = null;
            if (peek().endsWith(".csv")) {
                table = tables.apply(next());
            } else if (peek().equals("output") && pos + 1 < tokens.size() && tokens.get(pos + 1).startsWith("\"")) {
                next();
                String title = next();
                table = outputTable(outputs, title.substring(1, title.length() - 1).replace("\\\"", "\""));
            }
            whole = table;
            if (accept("where")) {
                requireTable(table);
                table = table.with(filter(table, table.rows(), conds(table)));
            }
            String mode = null;
            int wanted = -1;
            List<String> keys = new ArrayList<>();
            if (accept("for")) {
                requireTable(table);
                String q = next();
                if (q.equals("every") || q.equals("no")) {
                    mode = q;
                } else if (q.matches("\\d+")) {
                    mode = "count";
                    wanted = Integer.parseInt(q);
                    expect("of");
                } else {
                    throw new ClaimException("expected 'every', 'no' or a count after 'for', found '" + q + "'");
                }
                do {
                    keys.add(unquote(next()));
                } while (accept(","));
            }
            expect(":");
            int assertionStart = pos;
            if (mode == null) {
                scope = table;
                boolean holds = assertion();
                end();
                return new Outcome(holds, seen.toString().trim());
            }
            if (table.rows().isEmpty()) {
                throw new ClaimException("no row passes the 'where' conditions");
            }
            Map<String, List<List<String>>> groups = new LinkedHashMap<>();
            if (keys.equals(List.of("row")) && !table.header().contains("row")) {
                for (int r = 0; r < table.rows().size(); r++) {
                    groups.put("row " + (r + 1), List.of(table.rows().get(r)));
                }
            }
            int[] keyColumns = groups.isEmpty() ? keys.stream().mapToInt(table::column).toArray() : new int[0];
            for (List<String> row : groups.isEmpty() ? table.rows() : List.<List<String>>of()) {
                String key = Arrays.stream(keyColumns).mapToObj(k -> keys.get(indexOf(keyColumns, k)) + "=" + row.get(k))
                        .collect(Collectors.joining(" "));
                groups.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
            }
            int holding = 0;
            StringBuilder detail = new StringBuilder();
            for (Map.Entry<String, List<List<String>>> g : groups.entrySet()) {
                pos = assertionStart;
                scope = table.with(g.getValue());
                seen.setLength(0);
                boolean h = assertion();
                end();
                holding += h ? 1 : 0;
                detail.append(g.getKey()).append(": ").append(h ? "holds" : "fails").append(" (")
                        .append(seen.toString().trim()).append(")\n");
            }
            boolean holds = switch (mode) {
                case "every" -> holding == groups.size();
                case "no" -> holding == 0;
                default -> holding == wanted;
            };
            return new Outcome(holds, holding + " of " + groups.size() + " groups hold\n" + detail.toString().trim());
        }

        /** A column name or value as written: "quoted" when it holds spaces, commas or signs. */
        static String unquote(String t) {
            return t.startsWith("\"") && t.endsWith("\"") && t.length() >= 2
                    ? t.substring(1, t.length() - 1).replace("\\\"", "\"") : t;
        }

        static int indexOf(int[] a, int v) {
            for (int i = 0; i < a.length; i++) {
                if (a[i] == v) {
                    return i;
                }
            }
            return -1;
        }

        void end() {
            if (pos != tokens.size()) {
                throw new ClaimException("unexpected '" + peek() + "' in '" + src + "'");
            }
        }

        static void requireTable(Table t) {
            if (t == null) {
                throw new ClaimException("'where' and 'for' need a table (a .csv path) first");
            }
        }

        /** Conditions joined by 'and', up to a token that cannot continue them (':', 'for', ']'). */
        List<String[]> conds(Table table) {
            List<String[]> out = new ArrayList<>();
            do {
                String column = unquote(next());
                table.column(column);
                String op = next();
                if (!List.of("=", "!=", "<", "<=", ">", ">=", "~", "!~").contains(op)) {
                    throw new ClaimException("expected a comparison after '" + column + "', found '" + op + "'");
                }
                String v = next();
                if (v.equals("-")) {
                    v = "-" + next();
                }
                if (v.startsWith("\"")) {
                    v = v.substring(1, v.length() - 1).replace("\\\"", "\"");
                }
                out.add(new String[] {column, op, v});
            } while (accept("and"));
            return out;
        }

        static List<List<String>> filter(Table table, List<List<String>> rows, List<String[]> conds) {
            List<List<String>> out = new ArrayList<>();
            for (List<String> row : rows) {
                boolean keep = true;
                for (String[] c : conds) {
                    keep &= test(row.get(table.column(c[0])), c[1], c[2]);
                }
                if (keep) {
                    out.add(row);
                }
            }
            return out;
        }

        static boolean test(String cell, String op, String value) {
            if (op.equals("~") || op.equals("!~")) {
                return cell.contains(value) == op.equals("~");
            }
            Double a = number(cell), b = number(value);
            int cmp;
            if (a != null && b != null) {
                cmp = Double.compare(a, b);
            } else if (op.equals("=") || op.equals("!=")) {
                cmp = cell.equals(value) ? 0 : 1;
            } else {
                throw new ClaimException("'" + cell + "' " + op + " '" + value + "' compares text by order");
            }
            return compare(cmp, op);
        }

        static boolean compare(int cmp, String op) {
            return switch (op) {
                case "=" -> cmp == 0;
                case "!=" -> cmp != 0;
                case "<" -> cmp < 0;
                case "<=" -> cmp <= 0;
                case ">" -> cmp > 0;
                case ">=" -> cmp >= 0;
                default -> throw new ClaimException("unknown comparison '" + op + "'");
            };
        }

        static Double number(String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }

        boolean assertion() {
            boolean holds = comparison();
            while (accept("and")) {
                holds &= comparison();
            }
            return holds;
        }

        boolean comparison() {
            int start = pos;
            Value a = expr();
            String text = String.join(" ", tokens.subList(start, pos));
            if (accept("within")) {
                expect("[");
                Value lo = expr();
                expect(",");
                Value hi = expr();
                expect("]");
                boolean h = a.value() >= lo.value() && a.value() <= hi.value();
                seen.append(text).append(" = ").append(fmt(a.value())).append(h ? " within " : " not within ")
                        .append('[').append(fmt(lo.value())).append(", ").append(fmt(hi.value())).append("]; ");
                return h;
            }
            String op = next();
            if (!List.of("=", "!=", "<", "<=", ">", ">=").contains(op)) {
                throw new ClaimException("expected a comparison after '" + text + "', found '" + op + "'");
            }
            int start2 = pos;
            Value b = expr();
            String text2 = String.join(" ", tokens.subList(start2, pos));
            boolean h;
            if ((op.equals("=") || op.equals("!=")) && (a.literal() || b.literal())) {
                Value lit = b.literal() ? b : a, other = b.literal() ? a : b;
                double half = 0.5 * Math.pow(10, -lit.decimals()) * (1 + 1e-9);
                h = Math.abs(other.value() - lit.value()) <= half;
                h = op.equals("=") == h;
            } else if (op.equals("=") || op.equals("!=")) {
                h = Math.abs(a.value() - b.value()) <= 1e-9 * Math.max(Math.abs(a.value()), Math.abs(b.value()));
                h = op.equals("=") == h;
            } else {
                h = compare(Double.compare(a.value(), b.value()), op);
            }
            seen.append(text).append(" = ").append(fmt(a.value())).append(' ').append(op).append(' ')
                    .append(b.literal() ? text2 : text2 + " = " + fmt(b.value())).append(h ? "" : " FALSE").append("; ");
            return h;
        }

        Value expr() {
            Value v = term();
            while (peek().equals("+") || peek().equals("-")) {
                String op = next();
                Value w = term();
                v = new Value(op.equals("+") ? v.value() + w.value() : v.value() - w.value(), 0, false);
            }
            return v;
        }

        Value term() {
            Value v = factor();
            while (peek().equals("*") || peek().equals("/")) {
                String op = next();
                Value w = factor();
                if (op.equals("/") && w.value() == 0) {
                    throw new ClaimException("division by zero in '" + src + "'");
                }
                v = new Value(op.equals("*") ? v.value() * w.value() : v.value() / w.value(), 0, false);
            }
            return v;
        }

        static final List<String> AGGREGATES = List.of("min", "max", "median", "mean", "sum", "count");

        Value factor() {
            String t = next();
            if (t.equals("-")) {
                Value v = factor();
                return new Value(-v.value(), v.decimals(), v.literal());
            }
            if (t.equals("(")) {
                Value v = expr();
                expect(")");
                return new Value(v.value(), 0, false);
            }
            if (t.matches("\\d.*")) {
                int dot = t.indexOf('.');
                int decimals = dot < 0 || t.contains("e") || t.contains("E") ? 0 : t.length() - dot - 1;
                return new Value(Double.parseDouble(t), decimals, true);
            }
            if (t.equals("output") && peek().equals("(")) {
                expect("(");
                String q = next();
                expect(")");
                if (!q.startsWith("\"")) {
                    throw new ClaimException("output(...) takes a quoted regex, found " + q);
                }
                String regex = q.substring(1, q.length() - 1).replace("\\\"", "\"");
                Matcher m = Pattern.compile(regex).matcher(outputs);
                if (!m.find() || m.groupCount() < 1 || m.group(1) == null) {
                    throw new ClaimException("no output matches " + q);
                }
                Double v = number(m.group(1).replace(",", ""));
                if (v == null) {
                    throw new ClaimException("output " + q + " captured '" + m.group(1) + "', not a number");
                }
                return new Value(v, 0, false);
            }
            if (AGGREGATES.contains(t) && peek().equals("(")) {
                expect("(");
                double[] values = selection(!t.equals("count"));
                expect(")");
                return new Value(aggregate(t, values), 0, false);
            }
            pos--;
            double[] values = selection(true);
            if (values.length != 1) {
                throw new ClaimException(String.join(" ", tokens.subList(Math.max(0, pos - 1), pos)) + ": "
                        + values.length + " rows where one is meant in '" + src + "' (add a condition or an aggregate)");
            }
            return new Value(values[0], 0, false);
        }

        /** column ['[' conds ']'] over the current scope: the column's numbers in the selected rows. */
        double[] selection(boolean numeric) {
            if (scope == null) {
                throw new ClaimException("a column needs a table (a .csv path) first");
            }
            String column = unquote(next());
            int c = scope.column(column);
            List<List<String>> rows = scope.rows();
            if (accept("[")) {
                rows = filter(scope, rows, conds(scope));
                expect("]");
            } else if (accept("{")) {
                rows = filter(whole, whole.rows(), conds(whole));
                expect("}");
            }
            double[] out = new double[rows.size()];
            for (int i = 0; i < out.length; i++) {
                Double v = numeric ? number(rows.get(i).get(c)) : Double.valueOf(0);
                if (v == null) {
                    throw new ClaimException("column " + column + " holds '" + rows.get(i).get(c) + "', not a number");
                }
                out[i] = v;
            }
            return out;
        }

        static double aggregate(String f, double[] v) {
            if (f.equals("count")) {
                return v.length;
            }
            if (v.length == 0) {
                throw new ClaimException(f + "() of no rows");
            }
            double[] s = v.clone();
            Arrays.sort(s);
            return switch (f) {
                case "min" -> s[0];
                case "max" -> s[s.length - 1];
                case "sum" -> Arrays.stream(s).sum();
                case "mean" -> Arrays.stream(s).sum() / s.length;
                default -> s.length % 2 == 1 ? s[s.length / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
            };
        }

        static String fmt(double v) {
            return String.format(Locale.ROOT, "%.6g", v);
        }
    }
}
