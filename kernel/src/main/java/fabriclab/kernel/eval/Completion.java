package fabriclab.kernel.eval;

import java.util.List;

/**
 * Completion candidates for code at a cursor, and the text they replace.
 *
 * @param options the candidates, each the text that replaces the range
 * @param start the first character the candidates replace
 * @param end the character after the last one they replace (the cursor)
 */
public record Completion(List<String> options, int start, int end) {
}
