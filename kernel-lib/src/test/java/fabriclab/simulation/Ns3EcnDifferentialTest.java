package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Time;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ECN marking of the packet simulator against ns-3 3.37's {@code RedQueueDisc}:
 * the marking fraction at a queue held at a known occupancy, and the marks of a step threshold packet by packet. The
 * ns-3 side is our program {@code src/test/ns3/fabriclab-red.cc}, compiled and cached as in
 * {@link Ns3DifferentialTest} (whose helper this test uses); the test fails, never skips, when ns-3 is missing.
 *
 * <h2>How each side marks</h2>
 * Ours: at a data packet's admission to an egress queue, on the queue's instantaneous occupancy q just before the
 * packet joins (bytes admitted and not yet fully transmitted, the packet in transmission included), with probability
 * p(q) of {@link EcnMarking} (0 up to Kmin, linear to Pmax at Kmax, 1 above), one independent draw of the switch's
 * {@code SplittableRandom} (from the run's seed, 1 here) per packet; drop-tail admission is decided first, so only
 * admitted packets are marked. ns-3: RED in the traffic-control layer of the switch's port, on the queue disc's
 * length n in packets at the arrival, then an independent uniform draw against
 * p_a = p_b / (1 - count p_b) (1 once count p_b reaches 1), count being the packets since the last mark
 * (1 for the first after it), p_b = (n - MinTh) / (MaxTh - MinTh) / LInterm; every packet at or above MaxTh is marked.
 *
 * <h2>Modelling differences and how they are neutralised</h2>
 * <ul>
 * <li><b>Average queue</b>: QW = 1, so RED's average is n at each arrival; Gentle off, so p_b is the plain ramp;
 * UseHardDrop off, so RED marks instead of dropping above MaxTh; Wait off (its default on spaces marks further);
 * packet mode with equal packets (W = 1000 wire bytes), so byte-mode scaling does not apply.
 * <li><b>Where the occupancy is counted</b>: in ns-3 a packet admitted to the port is in the queue disc, in the
 * device queue (1 packet: flow control holds the queue disc while it is full) or in transmission. Whenever the queue
 * disc holds a packet, q = (n + 2) W. The program therefore sets MinTh = Kmin/W - 2, MaxTh = Kmax/W - 2,
 * LInterm = 1/Pmax, the queue disc's limit at buffer/W - 2 packets (ours admits iff q + W &lt;= buffer), and for a
 * step (Kmin = Kmax = K, ours marks iff q &gt; K) MinTh = MaxTh = K/W - 1. It counts occupancy our way (admitted
 * minus fully transmitted) and checks the relation at every arrival (the mismatch count, asserted 0). The only
 * point where the curves differ is q = Kmax (ns-3 marks all, ours with Pmax): no run holds the queue there.
 * <li><b>Count-based spacing</b>: RED has no switch for it, so it is not neutralised but derived. With
 * p_a(k) = p_b / (1 - k p_b) for the k-th packet after a mark, P(gap &gt; k) = prod_{j&lt;=k} (1 - (j+1) p_b) / (1 - j
 * p_b) = (1 - (k+1) p_b) / (1 - p_b): the gap G between marks is uniform, P(G = k) = p_b / (1 - p_b) for k = 1 ..
 * M - 1, with the rest, (1 - M p_b) / (1 - p_b), at M = floor(1 / p_b). The long-run fraction is 1 / E[G] (about
 * 2 p_b for small p_b: twice ours at the same p), the count of marks in L packets has variance about L Var[G] /
 * E[G]^3 (renewal). Ours marks by independent draws: fraction p, binomial variance p (1 - p) / L. Each side is
 * compared with its own closed form on the same held occupancy and the same curve, and the two with each other by
 * mapping ns-3's fraction back through 1 / E[G] to the p_b it implies.
 * <li><b>Headers</b>: ns-3's packets carry a 20-byte IPv4 header (ECN codepoint ECT(0)) and PPP's 2 bytes, the
 * payload sized so that each is W bytes on the wire (ours: MTU W, headerBytes 0).
 * <li><b>Simultaneous events</b>: ns-3's switch defers each arrival until the transmission ending at the same instant
 * and the refill of the device queue have run (tieOrder 1), as ours orders them (see {@link Ns3DifferentialTest}).
 * </ul>
 *
 * <h2>Scenario 1: a held queue (marking fraction against the curve)</h2>
 * Three senders into one switch port, all links of one rate R (100 Gb/s) and delay (1 us), packet time s = 8 W / R,
 * no congestion control. Senders 0 and 1 send K = 40 packets each from time 0: two arrivals and one departure per
 * packet time build the queue to K + 1 packets. Sender 2 sends L = 20,000 packets from (K - 1/2) s: its packets arrive
 * half a packet time after each departure (no ties), one per packet time, so every one of them finds the queue at
 * exactly q = (K + 1) W = 41 kB (ns-3: n = 39, checked per packet), and the queue stays there; no drop. The fraction
 * compared is flow 2's delivered marked packets over L. Runs put 41 kB at 1/4, 1/2 and 3/4 of the ramp with
 * Pmax = 0.2 (p = 0.05, 0.1, 0.15), and at 1/2 with Pmax = 0.6 (p = 0.3, where RED's spacing is far from
 * independent draws).
 * <p>Tolerances: ours within 4.5 binomial standard deviations sqrt(p (1 - p) / L) of p (p = 0.05: +-0.0069); ns-3's
 * count within 4.5 renewal standard deviations sqrt(L Var[G] / E[G]^3) plus one mark (where the gap in progress when
 * flow 2 starts is cut) of L / E[G]; the p_b implied by ns-3's fraction and our fraction within 4.5 combined standard
 * deviations (ns-3's propagated through the slope of 1 / E[G]). Both runs are seeded, so the figures are fixed;
 * 4.5 sigma keeps the test from failing when a seed, the library or the ns-3 build changes the draws. Exactly: no
 * drops, the peak occupancy (K + 2) W on both sides, flow 2's occupancy seen by every packet on the ns-3 side.
 *
 * <h2>Scenario 2: a step threshold (DCTCP style), packet by packet</h2>
 * The drop-tail incasts of {@link Ns3DifferentialTest} with Kmin = Kmax = K: every admitted packet that finds more
 * than K bytes is marked, none other, with no randomness on either side. Compared exactly: drops, delivered packets,
 * delivered marked packets. Per flow (sorted), the marked packets within 2 in sum (which sender of a tied batch gets
 * the admitted packet differs, as the delivered bytes do there).
 * <p>Measured (ns-3 3.37-2 of Debian 12, seed 1 in ours, ns-3's default run): held at 41 kB, marked fractions ours
 * 0.0510 / 0.1030 / 0.1538 / 0.3063 against p = 0.05 / 0.1 / 0.15 / 0.3 (+0.7 to +2.0 sigma, the same draws shifted
 * along the curve, so not independent), ns-3 0.1021 / 0.2028 / 0.3006 / 0.5843 against its closed form
 * 0.1000 / 0.2000 / 0.2982 / 0.5833, implying p_b = 0.0511 / 0.1016 / 0.1512 / 0.3004; occupancy 41 kB at every
 * packet of the held flow, no mismatch. Step: equal marks (276, 457, 283), drops and deliveries, and equal sorted
 * per-flow marks in all three incasts. The seven ns-3 runs take about 3 s, the program about 6 s to build once
 * (cached in target/ns3).
 */
class Ns3EcnDifferentialTest {
    private static final int WIRE = 1000;
    private static final Path SOURCE = Path.of("src/test/ns3/fabriclab-red.cc");
    private static final List<String> MODULES = List.of("ns3-traffic-control", "ns3-internet", "ns3-point-to-point",
            "ns3-network", "ns3-core");
    private static final double SIGMAS = 4.5;

    @ParameterizedTest(name = "held at 41 kB, Kmin {0} B, Kmax {1} B, Pmax {2}")
    @CsvSource({
        "21000, 101000, 0.2",
        "21000, 61000, 0.2",
        "11000, 51000, 0.2",
        "21000, 61000, 0.6",
    })
    void markingFractionAtAHeldQueue(long kMin, long kMax, double pMax) throws Exception {
        long rate = 100_000_000_000L;
        long delayPs = Time.US;
        int build = 40;
        int held = 20_000;
        long buffer = 200L * WIRE;
        long packetPs = WIRE * 8L * Time.S / rate;
        long heldStartPs = build * packetPs - packetPs / 2;
        long q = (build + 1L) * WIRE;
        EcnMarking curve = new EcnMarking(kMin, kMax, pMax);
        double p = curve.probability(q);
        assertTrue(p > 0 && p < pMax, "the held occupancy must be inside the ramp: p = " + p);

        SimulationConfig cfg = SimulationConfig.builder().mtuBytes(WIRE).headerBytes(0)
                .buffer(SwitchBuffer.shared(buffer).withEcnMarking(curve)).build();
        Incast topo = Incast.of(3, WIRE, rate);
        int rx = topo.receiver();
        SimulationResult ours = new Simulator(Scenario.builder(topo.topology(delayPs), cfg).name("held queue")
                .flow(FlowSpec.of(0, rx, (long) build * WIRE, 0))
                .flow(FlowSpec.of(1, rx, (long) build * WIRE, 0))
                .flow(FlowSpec.of(2, rx, (long) held * WIRE, heldStartPs))
                .tieOrder(TieOrder.SCHEDULING).build()).run(); // ns-3's own order
        SimulationResult.QueueTrace port = receiverPort(ours, rx);
        SimulationResult.FlowRecord ourHeld = ours.flows().get(2);

        Ns3EcnRun ns3 = runNs3(rate, delayPs, buffer, kMin, kMax, pMax, 1, List.of("0:" + build, "0:" + build, heldStartPs + ":" + held));
        long[] ns3Held = ns3.flows[2];

        double oursFraction = ourHeld.ecnMarkedPackets() / (double) held;
        double ns3Fraction = ns3Held[1] / (double) held;
        double[] gap = redGap(p);
        double ns3Expected = 1 / gap[0];
        double oursSigma = Math.sqrt(p * (1 - p) / held);
        double ns3CountSigma = Math.sqrt(held * gap[1] / Math.pow(gap[0], 3));
        double ns3ImpliedP = impliedP(ns3Fraction);
        double slope = (1 / redGap(p * 1.001)[0] - 1 / redGap(p * 0.999)[0]) / (0.002 * p);
        double ns3PSigma = ns3CountSigma / held / slope;
        String both = String.format(Locale.ROOT, "held at %d B: curve p = %.4f; ours %d of %d marked = %.4f "
                + "(sigma %.4f); ns-3 %d = %.4f, its closed form 1/E[G] = %.4f (sigma %.4f), implied p_b %.4f; "
                + "peak ours %d B, ns-3 %d B; ns-3 occupancy seen by the held flow %d..%d B, queue disc %d..%d packets,"
                + " mapping mismatches %d", q, p, ourHeld.ecnMarkedPackets(), held, oursFraction, oursSigma,
                ns3Held[1], ns3Fraction, ns3Expected, ns3CountSigma / held, ns3ImpliedP, port.peakBytes(),
                ns3.peakBytes, ns3Held[2], ns3Held[3], ns3Held[4], ns3Held[5], ns3.mismatches);
        System.out.println("ns-3 ECN differential, " + both);

        // the held queue: exact on both sides
        assertEquals(0, ours.droppedPackets(), both);
        assertEquals(0, ns3.drops, both);
        assertEquals(held * (long) WIRE, ourHeld.deliveredBytes(), both);
        assertEquals(held, ns3Held[0], both);
        assertEquals(q + WIRE, port.peakBytes(), "ours: peak " + both);
        assertEquals(q + WIRE, ns3.peakBytes, "ns-3: peak " + both);
        assertEquals(0, ns3.mismatches, "ns-3: occupancy and queue disc out of step: " + both);
        assertEquals(q, ns3Held[2], "ns-3: held occupancy " + both);
        assertEquals(q, ns3Held[3], "ns-3: held occupancy " + both);
        assertEquals(q / WIRE - 2, ns3Held[4], "ns-3: held queue disc " + both);
        assertEquals(q / WIRE - 2, ns3Held[5], "ns-3: held queue disc " + both);

        // each against its closed form on the curve, and the two against each other
        assertTrue(Math.abs(oursFraction - p) <= SIGMAS * oursSigma, "ours against the curve: " + both);
        assertTrue(Math.abs(ns3Held[1] - held * ns3Expected) <= SIGMAS * ns3CountSigma + 1,
                "ns-3 against RED's closed form: " + both);
        assertTrue(Math.abs(ns3ImpliedP - oursFraction) <= SIGMAS * Math.hypot(oursSigma, ns3PSigma),
                "ns-3's implied p_b against ours: " + both);
    }

    @ParameterizedTest(name = "step at {5} B: {0} senders x {1} B, {2} bit/s, {3} ps, buffer {4} B")
    @CsvSource({
        "8, 100000, 100000000000, 1000000, 200000, 20000",
        "32, 50000, 100000000000, 500000, 512000, 100000",
        "8, 64000, 25000000000, 2000000, 1000000, 200000",
    })
    void stepMarksAgreeExactly(int senders, long bytes, long rate, long delayPs, long buffer, long k) throws Exception {
        SimulationConfig cfg = SimulationConfig.builder().mtuBytes(WIRE).headerBytes(0)
                .buffer(SwitchBuffer.shared(buffer).withEcnMarking(new EcnMarking(k, k, 1.0))).build();
        Incast in = Incast.of(senders, bytes, rate);
        SimulationResult ours = new Simulator(Scenario.incast(in, delayPs, cfg).withTieOrder(TieOrder.SCHEDULING)).run();
        List<String> flows = new ArrayList<>();
        for (int i = 0; i < senders; i++) {
            flows.add("0:" + bytes / WIRE);
        }
        Ns3EcnRun ns3 = runNs3(rate, delayPs, buffer, k, k, 1.0, 1, flows);

        long oursMarked = ours.flows().stream().mapToLong(SimulationResult.FlowRecord::ecnMarkedPackets).sum();
        long[] oursPerFlow = ours.flows().stream().mapToLong(SimulationResult.FlowRecord::ecnMarkedPackets).sorted().toArray();
        long[] ns3PerFlow = Arrays.stream(ns3.flows).mapToLong(f -> f[1]).sorted().toArray();
        String both = "ours: drops " + ours.droppedPackets() + ", delivered " + ours.deliveredBytes() / WIRE
                + " packets, marked " + oursMarked + " (queue " + receiverPort(ours, in.receiver()).ecnMarks()
                + "); ns-3: " + ns3 + "; marked per flow, sorted: ours " + Arrays.toString(oursPerFlow) + ", ns-3 "
                + Arrays.toString(ns3PerFlow);
        System.out.println("ns-3 ECN differential, step at " + k + " B, " + senders + " x " + bytes + " B: " + both);

        assertEquals(0, ns3.mismatches, "ns-3: occupancy and queue disc out of step: " + both);
        assertEquals(ns3.drops, ours.droppedPackets(), "drops: " + both);
        assertEquals(ns3.delivered, ours.deliveredBytes() / WIRE, "delivered: " + both);
        assertEquals(ns3.marked, oursMarked, "marked: " + both);
        assertTrue(oursMarked > 0, "no packet marked: " + both);
        long diff = 0;
        for (int i = 0; i < senders; i++) {
            diff += Math.abs(oursPerFlow[i] - ns3PerFlow[i]);
        }
        assertTrue(diff <= 2, "per-flow marks (sorted) differ by " + diff + ": " + both);
    }

    private static SimulationResult.QueueTrace receiverPort(SimulationResult r, int receiver) {
        return r.queues().stream().filter(t -> t.peerNode() == receiver).findFirst().orElseThrow();
    }

    /**
     * Mean and variance of the gap G between RED's marks (packets from one mark to the next, that one included) at a
     * fixed p_b, with count-based spacing and Wait off: P(G = k) = p_b / (1 - p_b) for k = 1 .. M - 1, the rest at
     * M = floor(1 / p_b).
     */
    static double[] redGap(double pb) {
        if (pb >= 1) {
            return new double[] {1, 0};
        }
        int m = (int) Math.floor(1 / pb);
        double each = pb / (1 - pb);
        double mean = 0;
        double square = 0;
        for (int k = 1; k < m; k++) {
            mean += k * each;
            square += (double) k * k * each;
        }
        double last = Math.max(0, 1 - (m - 1) * each);
        mean += m * last;
        square += (double) m * m * last;
        return new double[] {mean, square - mean * mean};
    }

    /** The p_b at which RED's long-run marking fraction 1 / E[G] is {@code fraction} (bisection; 1/E[G] rises with p_b). */
    static double impliedP(double fraction) {
        double lo = 1e-9;
        double hi = 1;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (1 / redGap(mid)[0] < fraction) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** What the ns-3 program printed; per flow: delivered, delivered marked, min/max occupancy, min/max queue disc, last. */
    record Ns3EcnRun(long drops, long delivered, long marked, long redMarks, long peakBytes, long mismatches,
            long[][] flows) {
        @Override
        public String toString() {
            return "drops " + drops + ", delivered " + delivered + " packets, marked " + marked + " (RED marked "
                    + redMarks + "), peak " + peakBytes + " B";
        }
    }

    /** Runs the ns-3 program on flows given as {@code startPs:packets}. */
    static Ns3EcnRun runNs3(long rate, long delayPs, long buffer, long kMin, long kMax, double pMax, int tieOrder,
            List<String> flows) throws Exception {
        Path exe = Ns3DifferentialTest.ns3Program(SOURCE, MODULES);
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), "" + WIRE, "" + rate, "" + delayPs,
                "" + buffer, "" + kMin, "" + kMax, "" + pMax, "" + tieOrder));
        cmd.addAll(flows);
        return parse(Ns3DifferentialTest.run(cmd, 120), flows.size());
    }

    private static Ns3EcnRun parse(List<String> out, int n) {
        long[] summary = null;
        long[][] perFlow = new long[n][];
        for (String line : out) {
            String[] f = line.split(",");
            if (f[0].equals("summary")) {
                summary = Arrays.stream(f, 1, f.length).mapToLong(Long::parseLong).toArray();
            } else if (f[0].equals("flow")) {
                perFlow[Integer.parseInt(f[1])] = Arrays.stream(f, 2, f.length).mapToLong(Long::parseLong).toArray();
            }
        }
        if (summary == null) {
            fail("the ns-3 program printed no summary: " + out);
        }
        return new Ns3EcnRun(summary[0], summary[1], summary[2], summary[3], summary[4], summary[5], perFlow);
    }
}
