package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import fabriclab.progress.Progress;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The stream of small flows of the 001 incast: its mean is the mean of its flows, each bounded below by two hops. */
class IncastDcqcnVsCtccProbesTest {
    static final long G100 = 100_000_000_000L;

    @Test
    void theSmallFlowLatencyIsTheMeanOverTheStream() {
        IncastDcqcnVsCtcc e = new IncastDcqcnVsCtcc(2, 3, G100, 300 * Time.US, 100 * Time.US, 1000, 4, 10 * Time.US);
        assertEquals(6, e.flows().stream().limit(2).mapToInt(f -> f.queuePairs()).sum()); // 2 senders x 3 QPs
        assertEquals(6, e.flows().size()); // 2 senders + 4 small flows
        IncastDcqcnVsCtcc.Result r = e.run(RoceTransport.noCongestionControl(), true, 1, Progress.silent());
        double[] l = r.smallFlowLatenciesUs();
        assertEquals(4, l.length);
        // one 1000-byte packet over two 1 us links at 100G: at least 2 x (0.08 + 1) us, whatever it waits for
        for (double x : l) {
            assertTrue(x >= 2.16 - 1e-9, Arrays.toString(l));
        }
        assertEquals(Arrays.stream(l).average().orElseThrow(), r.smallFlowLatencyUs(), 1e-9);
        // the senders take turns: small flow k comes from sender k mod 2
        for (int k = 0; k < 4; k++) {
            assertEquals(k % 2, e.flows().get(2 + k).source());
            assertEquals(100 * Time.US + k * 10 * Time.US, e.flows().get(2 + k).startPs());
        }
    }

    @Test
    void everySmallFlowMustStartWithinTheRun() {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> new IncastDcqcnVsCtcc(2, 3, G100, 300 * Time.US, 100 * Time.US, 1000, 21, 10 * Time.US));
        assertTrue(x.getMessage().contains("probes") && x.getMessage().contains("21") && x.getMessage().contains("at most 20"),
                x.getMessage());
    }
}
