package fabriclab.kernel.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JavadocTextTest {
    static final String DOC = """
            Sends a {@code PAUSE} when the counter reaches
            XOFF (counter &ge; {@link #xoff}):
            <ul>
              <li>{@link #pausesAt pause} <b>now</b>;</li>
              <li>a {@code List<String>} of &lt;names&gt;.</li>
            </ul>
            <p>Second paragraph, see <a href="https://example.org">the paper</a>.
            <pre>
            int x = 1;
            </pre>
            @param xoff the threshold [bytes], {@code > 0}
            @param xon the other one
            @return the frame
            @throws IllegalArgumentException when xon &gt; xoff
            """;

    @Test
    void markdownHasNoRawTagsAndKeepsTheStructure() {
        assertEquals("""
                Sends a `PAUSE` when the counter reaches XOFF (counter \u2265 `xoff`):

                - pause **now**;
                - a `List<String>` of <names>.

                Second paragraph, see the paper.

                ```java
                int x = 1;
                ```

                **Parameters:**
                - `xoff` the threshold [bytes], `> 0`
                - `xon` the other one

                **Returns:** the frame

                **Throws:**
                - `IllegalArgumentException` when xon > xoff""", JavadocText.markdown(DOC));
    }

    @Test
    void plainTextHasTheSameLayoutWithoutMarks() {
        assertEquals("""
                Sends a PAUSE when the counter reaches XOFF (counter \u2265 xoff):

                - pause now;
                - a List<String> of <names>.

                Second paragraph, see the paper.

                    int x = 1;

                Parameters:
                - xoff the threshold [bytes], > 0
                - xon the other one

                Returns: the frame

                Throws:
                - IllegalArgumentException when xon > xoff""", JavadocText.plain(DOC));
    }
}
