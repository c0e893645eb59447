package fabriclab.kernel.eval;

/**
 * Help on a name (inspect, Shift-Tab): its signature(s) and Javadoc, or a variable's type.
 *
 * @param plain the help as plain text
 * @param markdown the help as Markdown (signatures in Java code blocks)
 */
public record Help(String plain, String markdown) {
}
