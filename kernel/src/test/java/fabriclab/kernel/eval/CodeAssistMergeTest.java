package fabriclab.kernel.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * JShell's completion merged with the package names: the same answer whether or not JShell's background index
 * of the class path is ready (JShell then suggests packages itself, with a trailing dot).
 */
class CodeAssistMergeTest {
    private static final Completion NAMES = new Completion(List.of("concurrent"), 10, 14);

    @Test
    void jshellsOwnPackageSuggestionsGiveWayToThePackageNames() {
        Completion indexNotReady = CodeAssist.merge(new Completion(List.of(), 14, 14), NAMES);
        Completion indexReady = CodeAssist.merge(new Completion(List.of("concurrent."), 10, 14), NAMES);
        assertEquals(new Completion(List.of("concurrent"), 10, 14), indexNotReady);
        assertEquals(indexNotReady, indexReady);
    }

    @Test
    void classesComeFirstThenPackagesEachOnce() {
        Completion names = new Completion(List.of("aggregate", "analytic", "api"), 21, 22);
        Completion shell = new Completion(List.of("api.", "Alpha", "analytic"), 21, 22);
        assertEquals(new Completion(List.of("Alpha", "aggregate", "analytic", "api"), 21, 22), CodeAssist.merge(shell, names));
    }

    @Test
    void differentRangesKeepJShellsAnswer() {
        Completion shell = new Completion(List.of("concat("), 12, 14);
        assertEquals(shell, CodeAssist.merge(shell, NAMES));
        assertEquals(shell, CodeAssist.merge(shell, null));
    }
}
