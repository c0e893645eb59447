package fabriclab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CellOutputTest {
    @Test
    void aBufferIsCutOnlyAfterAWholeUtf8Character() {
        byte[] text = "a\u00e9\u4e2d\uD83D\uDE00".getBytes(StandardCharsets.UTF_8); // 1 + 2 + 3 + 4 bytes
        assertEquals(10, text.length);
        int[] whole = {0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10};
        for (int n = 0; n <= text.length; n++) {
            assertEquals(whole[n], CellOutput.wholeCharacters(Arrays.copyOf(text, n)), "prefix of " + n + " bytes");
        }
    }
}
