package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A leaf-spine permutation of line-rate flows against ns-3 3.37. The ns-3 side is
 * our program {@code src/test/ns3/fabriclab-leafspine.cc}, compiled and cached as in {@link Ns3DifferentialTest}; the
 * test fails, never skips, when ns-3 is missing.
 *
 * <h2>Scenario</h2>
 * 16 hosts on 4 leaves (4 each), S spines, one link per host-leaf and per leaf-spine pair, every link 100 Gb/s with
 * 1 us delay, 1000-byte packets on the wire (MTU 1000, no header; ns-3's packets 2 bytes short for PPP's header). The
 * traffic is {@link Scenario#permutation}'s derangement for the seed (the same flows are given to ns-3): every host
 * sends B = 100 kB to its partner from time 0 at line rate, no congestion control ({@code TransportModel.uncontrolled()}),
 * and no switch drops (ours: a 1 GiB shared buffer; ns-3: unbounded device queues), so every queue is a FIFO output
 * queue and a flow's completion time is set by the flows it shares links with. Simultaneous events run in our order in
 * ns-3 too (tieOrder 1, see {@link Ns3DifferentialTest}).
 *
 * <h2>Paths: the hashes differ</h2>
 * Ours hashes each flow's 5-tuple with CRC-32 onto a spine ({@code Forwarding.ecmp}, seeded); the ns-3 program picks
 * each flow's spine uniformly at random from ns-3's generator (seed 1, run = the seed). Both are per-flow uniform
 * choices, but not the same choices, so flows are not compared one by one:
 * <ul>
 * <li><b>One spine</b> (no choice): the paths are equal, so the runs must agree, and exactly: the packets delivered
 * and every flow's completion time, compared as sorted vectors (flows sharing a link in the same way are
 * interchangeable, and which of two packets arriving at one instant from two ports is queued first could move a
 * flow's last packet by a packet time; with the same order of simultaneous events it does not). 5 seeds.
 * <li><b>Four spines</b>, over K = 20 seeds: the mean completion time of a seed's flows and its largest, each averaged
 * over the seeds, agree within 4 standard errors of their difference (sqrt(var_ours / K + var_ns3 / K), from the
 * spread over seeds on each side). Also on both sides, exactly: the fastest flow between leaves takes 4 (s + d) +
 * (n - 1) s, a flow that shares no link, and no flow is faster (s = 8 W / R, n = B / W packets).
 * </ul>
 * Measured (ns-3 3.37-2 of Debian 12): one spine, the sorted completion times equal in all 5 seeds (10.08 us for a
 * flow alone within a leaf up to 36.24 us); four spines over 20 seeds, mean completion time ours 17.030 us (sd over
 * seeds 2.607), ns-3 16.882 us (2.438); largest ours 25.444 us (4.693), ns-3 24.244 us (4.100), 0.9 standard errors
 * apart; the fastest flow between leaves 12.240 us on both sides, the closed form. The 25 ns-3 runs take a few
 * seconds, the program about 6 s to build once (cached in target/ns3).
 */
class Ns3LeafSpineDifferentialTest {
    private static final int WIRE = 1000;
    private static final int LEAVES = 4;
    private static final int PER_LEAF = 4;
    private static final long RATE = 100_000_000_000L;
    private static final long DELAY = Time.US;
    private static final long BYTES = 100_000;
    private static final Path SOURCE = Path.of("src/test/ns3/fabriclab-leafspine.cc");
    private static final List<String> MODULES = List.of("ns3-point-to-point", "ns3-network", "ns3-core");
    private static final long PACKET_PS = WIRE * 8L * Time.S / RATE;

    /** One side's run: per-flow completion times (ps, flow order) and the packets delivered. */
    record Run(long[] fctPs, long packets) {
        long last() {
            return Arrays.stream(fctPs).max().orElseThrow();
        }

        double mean() {
            return Arrays.stream(fctPs).average().orElseThrow();
        }
    }

    @Test
    void oneSpineAgrees() throws Exception {
        for (long seed = 1; seed <= 5; seed++) {
            Scenario s = scenario(1, seed);
            Run ours = ours(s);
            Run ns3 = ns3(s, 1, seed);
            long[] o = ours.fctPs().clone();
            long[] n = ns3.fctPs().clone();
            Arrays.sort(o);
            Arrays.sort(n);
            String both = "seed " + seed + ": ours " + Arrays.toString(o) + ", ns-3 " + Arrays.toString(n);
            System.out.println("ns-3 leaf-spine, one spine, " + both);
            assertEquals(ns3.packets(), ours.packets(), both);
            assertEquals(16L * BYTES / WIRE, ours.packets(), both);
            assertEquals(ns3.last(), ours.last(), "last delivery: " + both);
            assertEquals(Arrays.toString(n), Arrays.toString(o), "sorted completion times: " + both);
        }
    }

    @Test
    void fourSpinesAgreeAsDistributionsOverSeeds() throws Exception {
        int k = 20;
        double[] oursMean = new double[k];
        double[] ns3Mean = new double[k];
        double[] oursMax = new double[k];
        double[] ns3Max = new double[k];
        long alone = 4 * (PACKET_PS + DELAY) + (BYTES / WIRE - 1) * PACKET_PS;
        long oursFastest = Long.MAX_VALUE;
        long ns3Fastest = Long.MAX_VALUE;
        for (int i = 0; i < k; i++) {
            long seed = i + 1;
            Scenario s = scenario(4, seed);
            Run ours = ours(s);
            Run ns3 = ns3(s, 4, seed);
            assertEquals(16L * BYTES / WIRE, ours.packets());
            assertEquals(16L * BYTES / WIRE, ns3.packets());
            oursMean[i] = ours.mean();
            ns3Mean[i] = ns3.mean();
            oursMax[i] = ours.last();
            ns3Max[i] = ns3.last();
            List<FlowSpec> flows = s.flows();
            for (int f = 0; f < flows.size(); f++) {
                if (flows.get(f).source() / PER_LEAF != flows.get(f).destination() / PER_LEAF) {
                    oursFastest = Math.min(oursFastest, ours.fctPs()[f]);
                    ns3Fastest = Math.min(ns3Fastest, ns3.fctPs()[f]);
                }
            }
        }
        String summary = String.format(Locale.ROOT, "over %d seeds: mean FCT ours %.3f us (sd %.3f), ns-3 %.3f us (sd %.3f);"
                + " largest FCT ours %.3f us (sd %.3f), ns-3 %.3f us (sd %.3f); fastest between leaves ours %.3f us,"
                + " ns-3 %.3f us, alone %.3f us", k, mean(oursMean) / 1e6, sd(oursMean) / 1e6, mean(ns3Mean) / 1e6,
                sd(ns3Mean) / 1e6, mean(oursMax) / 1e6, sd(oursMax) / 1e6, mean(ns3Max) / 1e6, sd(ns3Max) / 1e6,
                oursFastest / 1e6, ns3Fastest / 1e6, alone / 1e6);
        System.out.println("ns-3 leaf-spine, four spines, " + summary);
        assertEquals(alone, oursFastest, summary);
        assertEquals(alone, ns3Fastest, summary);
        assertTrue(Math.abs(mean(oursMean) - mean(ns3Mean))
                <= 4 * Math.sqrt((sd(oursMean) * sd(oursMean) + sd(ns3Mean) * sd(ns3Mean)) / k), "mean FCT: " + summary);
        assertTrue(Math.abs(mean(oursMax) - mean(ns3Max))
                <= 4 * Math.sqrt((sd(oursMax) * sd(oursMax) + sd(ns3Max) * sd(ns3Max)) / k), "largest FCT: " + summary);
    }

    static Scenario scenario(int spines, long seed) {
        LeafSpine fabric = new LeafSpine(LEAVES * PER_LEAF, 1, LEAVES, spines, RATE, RATE, 1, DELAY, DELAY);
        SimulationConfig cfg = SimulationConfig.builder().mtuBytes(WIRE).headerBytes(0)
                .buffer(SwitchBuffer.shared(1L << 30)).forwarding(Forwarding.ecmp(HashFunction.CRC32, (int) seed))
                .seed(seed).build();
        return Scenario.permutation(fabric, BYTES, seed, cfg).withTieOrder(TieOrder.SCHEDULING); // ns-3's own order
    }

    static Run ours(Scenario s) {
        SimulationResult r = new Simulator(s).run();
        assertEquals(0, r.droppedPackets(), "ours dropped");
        long[] fct = r.flows().stream().mapToLong(SimulationResult.FlowRecord::lastDeliveryPs).toArray();
        return new Run(fct, r.deliveredBytes() / WIRE);
    }

    static Run ns3(Scenario s, int spines, long seed) throws Exception {
        Path exe = Ns3DifferentialTest.ns3Program(SOURCE, MODULES);
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), "" + LEAVES, "" + PER_LEAF, "" + spines, "" + WIRE,
                "" + RATE, "" + DELAY, "" + BYTES, "1", "1", "" + seed));
        for (FlowSpec f : s.flows()) {
            assertEquals(0, f.startPs());
            cmd.add(f.source() + ":" + f.destination());
        }
        long[] fct = new long[s.flows().size()];
        long packets = -1;
        for (String line : Ns3DifferentialTest.run(cmd, 120)) {
            String[] p = line.split(",");
            if (p[0].equals("flow")) {
                fct[Integer.parseInt(p[1])] = Long.parseLong(p[3]);
            } else if (p[0].equals("summary")) {
                packets = Long.parseLong(p[2]);
            }
        }
        return new Run(fct, packets);
    }

    private static double mean(double[] v) {
        return Arrays.stream(v).average().orElseThrow();
    }

    private static double sd(double[] v) {
        double m = mean(v);
        return Math.sqrt(Arrays.stream(v).map(x -> (x - m) * (x - m)).sum() / (v.length - 1));
    }
}
