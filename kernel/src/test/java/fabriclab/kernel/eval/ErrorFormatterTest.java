package fabriclab.kernel.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Stack traces of cell code: repeated cycles collapsed, long traces cut, JShell's wrapper names removed. */
class ErrorFormatterTest {
    @Test
    void recursionIsWrittenOnceWithItsCount() {
        List<String> frames = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            frames.add("at f (cell 1, line 1)");
        }
        frames.add("at cell 2, line 1");
        assertEquals(List.of("at f (cell 1, line 1)", "\t[the frame above repeated 999 more times]", "at cell 2, line 1"),
                ErrorFormatter.collapseRepeats(frames));
    }

    @Test
    void mutualRecursionIsACycleOfTwo() {
        List<String> frames = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            frames.add("at even");
            frames.add("at odd");
        }
        assertEquals(List.of("at even", "at odd", "\t[the 2 frames above repeated 9 more times]"), ErrorFormatter.collapseRepeats(frames));
    }

    @Test
    void longTracesAreCut() {
        List<String> frames = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            frames.add("at m" + i);
        }
        List<String> out = ErrorFormatter.collapseRepeats(frames);
        assertEquals(ErrorFormatter.MAX_FRAMES + 1, out.size());
        assertEquals("\t... 60 more", out.get(out.size() - 1));
    }

    @Test
    void replWrapperNamesAreRemoved() {
        assertEquals("Cannot invoke \"String.length()\" because \"sn\" is null",
                ErrorFormatter.withoutReplNames("Cannot invoke \"String.length()\" because \"REPL.$JShell$18.sn\" is null"));
        assertEquals("class Foo cannot be cast to class Bar",
                ErrorFormatter.withoutReplNames("class REPL.$JShell$12$Foo cannot be cast to class REPL.$JShell$13$Bar"));
    }
}
