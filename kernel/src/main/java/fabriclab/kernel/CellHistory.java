package fabriclab.kernel;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The cells this kernel ran with {@code store_history}, for Jupyter's {@code history_request}: the
 * input of each and the plain-text form of its result. One session per kernel process, numbered
 * {@link #SESSION} (0 in a request also means this session, as in IPython).
 *
 * <p>Thread-safe.
 */
final class CellHistory {
    /** The session number of this kernel's cells. */
    static final int SESSION = 1;

    /** One cell: its execution count, input and output (text/plain of its result, or null). */
    record Entry(int session, int line, String input, String output) {
    }

    private final List<Entry> entries = new ArrayList<>();

    synchronized void add(int line, String input) {
        entries.add(new Entry(SESSION, line, input, null));
    }

    /** Records the text of the result of cell {@code line}. */
    synchronized void setOutput(int line, String output) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            Entry e = entries.get(i);
            if (e.line() == line) {
                entries.set(i, new Entry(e.session(), e.line(), e.input(), output));
                return;
            }
        }
    }

    /** The last {@code n} cells (all when {@code n <= 0}). */
    synchronized List<Entry> tail(int n) {
        int from = n <= 0 ? 0 : Math.max(0, entries.size() - n);
        return List.copyOf(entries.subList(from, entries.size()));
    }

    /** Cells {@code start <= line < stop} of {@code session} ({@code stop <= 0}: to the end). */
    synchronized List<Entry> range(int session, int start, int stop) {
        List<Entry> out = new ArrayList<>();
        if (session != SESSION && session != 0) {
            return out;
        }
        for (Entry e : entries) {
            if (e.line() >= start && (stop <= 0 || e.line() < stop)) {
                out.add(e);
            }
        }
        return out;
    }

    /** The last {@code n} cells (all when {@code n <= 0}) whose input matches a glob ({@code *}, {@code ?}). */
    synchronized List<Entry> search(String glob, int n, boolean unique) {
        Pattern p = globPattern(glob == null || glob.isEmpty() ? "*" : glob);
        List<Entry> matched = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = entries.size() - 1; i >= 0; i--) {
            Entry e = entries.get(i);
            if (p.matcher(e.input()).matches() && (!unique || seen.add(e.input()))) {
                matched.add(0, e);
                if (n > 0 && matched.size() == n) {
                    break;
                }
            }
        }
        return matched;
    }

    private static Pattern globPattern(String glob) {
        StringBuilder b = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> b.append(".*");
                case '?' -> b.append('.');
                default -> b.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(b.toString(), Pattern.DOTALL);
    }
}
