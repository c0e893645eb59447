package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import fabriclab.cli.SimulateOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RecordText}: the implicit {@code toString} of records, without {@code ObjectMethods}. */
class RecordTextTest {
    record Inner(double x, String s, int[] none) {
    }

    record Outer(Inner inner, List<Inner> list, Object nothing, long n, boolean b, char c, float f) {
    }

    /** Records of records, lists, nulls and every primitive kind: the text the JDK's implicit toString gives. */
    @Test
    void sameTextAsTheImplicitToString() {
        Inner a = new Inner(0.1 + 0.2, "a, b]", null);
        Outer o = new Outer(a, List.of(a, new Inner(-0.0, null, null)), null, Long.MIN_VALUE, true, 'q', 1e-7f);
        assertEquals(o.toString(), RecordText.of(o));
        assertEquals(a.toString(), RecordText.of(a));
        assertEquals("null", RecordText.of(null));
        assertEquals("x", RecordText.of("x"));
    }

    /** Every transport model bin/simulate builds names itself in a result as its toString would. */
    @Test
    void everyTransportOfTheCommandHasTheSameText() {
        List<List<String>> runs = new ArrayList<>();
        for (String t : List.of("roce", "dcqcn", "line-rate", "ctcc", "gse", "hpcc", "dctcp", "timely", "swift", "uec")) {
            runs.add(List.of("--hosts", "32", "--transport", t));
        }
        runs.add(List.of("--hosts", "32", "--transport", "uec", "--uec-spraying", "oblivious", "--uec-trimming", "off"));
        runs.add(List.of("--hosts", "32", "--forwarding", "adaptive", "--placement", "out-of-order"));
        runs.add(List.of("--workload", "incast"));
        for (List<String> args : runs) {
            Scenario s = SimulateOptions.parse(args).settings().scenario();
            assertEquals(s.transport().toString(), RecordText.of(s.transport()), args.toString());
        }
    }
}
