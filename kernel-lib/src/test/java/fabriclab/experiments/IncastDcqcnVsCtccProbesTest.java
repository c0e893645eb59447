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

    /**
     * Per-QP rates: one per data queue pair; with the bottleneck busy all the second half, they add up to the line rate
     * less the small flows' wire bits (conservation); PFC alone with identical senders shares the port evenly between
     * the senders, so each sender's QPs get half of it in all; the quantiles are the sorted rates' nearest ranks.
     */
    @Test
    void queuePairRatesAddUpToTheBottlenecksThroughput() {
        IncastDcqcnVsCtcc e = new IncastDcqcnVsCtcc(2, 3, G100, 400 * Time.US, 100 * Time.US, 1000, 4, 10 * Time.US);
        IncastDcqcnVsCtcc.Result r = e.run(RoceTransport.noCongestionControl(), true, 1, Progress.silent());
        double[] rates = r.queuePairRatesBitsPerSecond();
        assertEquals(6, rates.length);
        double half = Time.toSeconds(200 * Time.US);
        double sum = Arrays.stream(rates).sum();
        assertTrue(r.throughputBitsPerSecond() - sum >= -1e-3 && r.throughputBitsPerSecond() - sum <= 4 * 8000 / half + 1e-3,
                sum + " vs " + r.throughputBitsPerSecond());
        assertEquals(G100, r.throughputBitsPerSecond(), 0.01 * G100); // the port never idles
        double sender0 = rates[0] + rates[1] + rates[2], sender1 = rates[3] + rates[4] + rates[5];
        assertEquals(sender0, sender1, 0.05 * sum);
        IncastDcqcnVsCtcc.QueuePairRates q = r.queuePairRates();
        double[] sorted = rates.clone();
        Arrays.sort(sorted);
        assertEquals(6, q.queuePairs());
        assertEquals(sorted[0], q.min());
        assertEquals(sorted[5], q.max());
        assertEquals(sorted[2], q.median()); // nearest rank: ceil(0.5 x 6) = 3rd
        assertEquals(sum / 6, q.mean(), 1e-6);
        double sumSq = Arrays.stream(rates).map(x -> x * x).sum();
        assertEquals(sum * sum / (6 * sumSq), q.jainIndex(), 1e-12);
        assertTrue(q.jainIndex() > 1.0 / 6 && q.jainIndex() <= 1 + 1e-12);
    }
}
