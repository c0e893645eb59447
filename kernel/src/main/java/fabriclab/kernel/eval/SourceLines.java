package fabriclab.kernel.eval;

/** Positions in a cell's source text: the line of a character, the blank characters a text starts with. */
final class SourceLines {
    private SourceLines() {
    }

    /** How many whitespace characters {@code s} starts with. */
    static int leadingBlank(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** 1-based line of character {@code offset} in {@code code}. */
    static int lineOf(String code, int offset) {
        int line = 1;
        for (int i = 0; i < Math.min(offset, code.length()); i++) {
            if (code.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}
