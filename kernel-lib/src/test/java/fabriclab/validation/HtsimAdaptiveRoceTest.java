package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tech.tablesaw.api.Table;

/**
 * csg-htsim's RoCE runs with ECMP and adaptive routing ({@code htsim-adaptive-roce}, written by
 * {@code tools/HtsimAdaptiveRuns.java}) against bounds derived from the scenario, and our RoCE with adaptive routing
 * ({@link HtsimAdaptiveRoce}) against them: seeds 1 to 10 of ours against the reference's 10, our median of every row
 * within the reference's own seed spread (its min..max widened by half its width, at least one packet, on each side). Rows
 * listed as misses are asserted to miss, so that a change that brings them in (or pushes a passing row out) is noticed.
 */
class HtsimAdaptiveRoceTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize(); // tests run in kernel-lib/
    /** One data packet on the wire at 100 Gb/s [ns]: 4160 B x 8 / 100 Gb/s. */
    static final double PACKET_NS = 332.8;
    /** An ACK's serialization at 100 Gb/s [ns]: 64 B. */
    static final double ACK_NS = 5.12;

    private static final Map<String, List<SimulationResult>> OURS = new HashMap<>();

    private static synchronized List<SimulationResult> ours(HtsimAdaptiveRoce s) {
        return OURS.computeIfAbsent(s.scenario() + "/" + s.strategy(), k -> {
            List<SimulationResult> out = new ArrayList<>();
            for (long seed = 1; seed <= 10; seed++) {
                out.add(new Simulator(s.scenario(seed)).run());
            }
            return out;
        });
    }

    /**
     * The committed runs: all 60 present; every completed run's summary agrees with its flows; every flow's FCT at least
     * its packets' serialization, the store-and-forward of the last one over three more links, four links of
     * propagation out and an ACK's four links back; an incast's last completion at least all its packets through the
     * receiver's port; with ECMP (one path per flow, so nothing overtakes) nothing is gone back over.
     */
    @Test
    void theCommittedRunsAreCompleteAndWithinTheScenariosBounds() {
        Table t = HtsimAdaptiveRoce.reference();
        for (String scenario : HtsimAdaptiveRoce.SCENARIOS) {
            boolean incast = scenario.equals("incast8");
            int flows = incast ? 8 : 32;
            int packets = incast ? 256 : 512;
            double floor = (packets + 3) * PACKET_NS + 4 * 1000 + 4 * (1000 + ACK_NS);
            for (String strategy : HtsimAdaptiveRoce.STRATEGIES) {
                for (int seed = 1; seed <= 10; seed++) {
                    Table run = t.where(t.stringColumn("scenario").isEqualTo(scenario)
                            .and(t.stringColumn("strategy").isEqualTo(strategy)).and(t.intColumn("seed").isEqualTo(seed)));
                    String key = scenario + " " + strategy + " " + seed;
                    Map<String, Long> q = new HashMap<>();
                    List<Long> fct = new ArrayList<>();
                    for (int i = 0; i < run.rowCount(); i++) {
                        long v = run.numberColumn("value").getDouble(i) > 0 ? (long) run.numberColumn("value").getDouble(i) : 0;
                        if (run.stringColumn("quantity").get(i).equals("fct_ns")) {
                            fct.add(v);
                            assertTrue(v >= floor, key + ": FCT " + v + " ns below " + floor);
                        } else {
                            q.put(run.stringColumn("quantity").get(i), v);
                        }
                    }
                    assertTrue(q.containsKey("aborted"), key + ": missing");
                    assertEquals(fct.size(), q.get("flows"), key);
                    if (q.get("aborted") == 1) {
                        assertEquals("permutation32 ar_packet 2", key, "the one run the reference aborted");
                        continue;
                    }
                    assertEquals(flows, fct.size(), key);
                    long[] s = fct.stream().mapToLong(Long::longValue).sorted().toArray();
                    long sum = Arrays.stream(s).sum();
                    assertEquals(s[0], q.get("fct_min_ns"), key);
                    assertEquals((2 * sum + flows) / (2L * flows), q.get("fct_mean_ns"), key);
                    assertEquals(s[(int) Math.ceil(0.5 * flows) - 1], q.get("fct_p50_ns"), key);
                    assertEquals(s[(int) Math.ceil(0.99 * flows) - 1], q.get("fct_p99_ns"), key);
                    assertEquals(s[flows - 1], q.get("fct_max_ns"), key);
                    long bytes = (long) flows * packets * 4096;
                    assertEquals(Math.round(bytes * 8e9 / s[flows - 1]), q.get("goodput_bps"), 1, key);
                    if (incast) {
                        assertTrue(s[flows - 1] >= flows * packets * PACKET_NS, key + ": the receiver's port bounds it");
                    }
                    if (strategy.equals("ecmp")) {
                        assertEquals(0, q.get("rtx_bytes"), key + ": one path per flow, nothing overtakes");
                    }
                }
            }
        }
    }

    /**
     * Every row passes unless {@link HtsimAdaptiveRoce#knownMiss} names the modelling difference behind its miss; those
     * are asserted to miss. Rows: mean FCT, last completion, bytes resent.
     */
    @ParameterizedTest
    @CsvSource({"permutation32, ecmp", "permutation32, ar_flowlet", "permutation32, ar_packet", "incast8, ecmp",
            "incast8, ar_flowlet", "incast8, ar_packet"})
    void withinTheReferencesSeedSpreadOrAKnownMiss(String scenario, String strategy) {
        HtsimAdaptiveRoce s = new HtsimAdaptiveRoce(scenario, strategy);
        List<HtsimAdaptiveRoce.Row> rows = s.rows(ours(s), HtsimAdaptiveRoce.reference());
        assertEquals(3, rows.size());
        for (HtsimAdaptiveRoce.Row r : rows) {
            boolean known = !s.knownMiss(r.quantity()).isEmpty();
            assertEquals(!known, r.pass(), scenario + " " + strategy + ": " + r);
        }
    }

    /**
     * The mechanisms both simulators show on the incast, beyond their seed spreads: with ECMP the last flow ends when
     * the receiver's port has sent every packet (the closed form, within one packet) and nothing is resent; adaptive
     * routing under PFC sends one flow's packets over uplinks whose queues differ, the in-order receiver discards what
     * overtakes, and go-back-N resends: more per packet than per flowlet, and every adaptive run ends later than ECMP's.
     */
    @Test
    void bothShowReorderingTurnedIntoGoBackNByAdaptiveRoutingOnTheIncast() {
        Table t = HtsimAdaptiveRoce.reference();
        HtsimAdaptiveRoce ecmp = new HtsimAdaptiveRoce("incast8", "ecmp");
        HtsimAdaptiveRoce flowlet = new HtsimAdaptiveRoce("incast8", "ar_flowlet");
        HtsimAdaptiveRoce packet = new HtsimAdaptiveRoce("incast8", "ar_packet");
        // closed form: the first packet's three links to the receiver's port (each a serialization and 1 us), the
        // 8 x 256 packets through that port, the last one's last link and the ACK's four links back
        double closedUs = (3 * (PACKET_NS + 1000) + 8 * 256 * PACKET_NS + 1000 + 4 * (1000 + ACK_NS)) / 1000;
        for (double v : ecmp.referenceValues(t, "fct_max_ns")) {
            assertEquals(closedUs, v / 1000, 3 * PACKET_NS / 1000, "reference");
        }
        for (SimulationResult r : ours(ecmp)) {
            assertEquals(closedUs, ecmp.values(r).lastCompletionUs(), 3 * PACKET_NS / 1000, "ours");
            assertEquals(0, r.retransmittedBytes());
        }
        double refFlowlet = Arrays.stream(flowlet.referenceValues(t, "rtx_bytes")).min().orElseThrow();
        double refPacket = Arrays.stream(packet.referenceValues(t, "rtx_bytes")).min().orElseThrow();
        assertTrue(refFlowlet > 0 && refPacket > Arrays.stream(flowlet.referenceValues(t, "rtx_bytes")).max().orElseThrow());
        double ourFlowlet = ours(flowlet).stream().mapToDouble(r -> flowlet.values(r).resentBytes()).max().orElseThrow();
        double ourPacket = ours(packet).stream().mapToDouble(r -> packet.values(r).resentBytes()).min().orElseThrow();
        assertTrue(ourFlowlet > 0 && ourPacket > ourFlowlet, ourFlowlet + " " + ourPacket);
        double refEcmpLast = Arrays.stream(ecmp.referenceValues(t, "fct_max_ns")).max().orElseThrow() / 1000;
        assertTrue(Arrays.stream(flowlet.referenceValues(t, "fct_max_ns")).min().orElseThrow() / 1000 > refEcmpLast);
        for (SimulationResult r : ours(flowlet)) {
            assertTrue(flowlet.values(r).lastCompletionUs() > closedUs + PACKET_NS / 1000);
        }
    }

    /**
     * Where adaptive routing is asked to balance a permutation that ECMP hashes unevenly, ours delivers every flow at
     * the closed form of one flow per uplink at every seed, with nothing resent: the balanced load the issue names. The
     * closed form: a flow's 512 packets, three more store-and-forwards and four links; its receiver's port also carries
     * the 512 ACKs of the flow that receiver sends (64 B each, 1.5% more than line rate), so the last packet arrives up
     * to 512 ACK serializations (2.6 us) later. The last ACK then crosses four links back. The reference does not
     * balance (its misses, {@link HtsimAdaptiveRoce}); its fastest flow over its seeds ends within the same closed form.
     */
    @Test
    void oursBalancesThePermutationToTheClosedForm() {
        double deliveredUs = ((512 + 3) * PACKET_NS + 4 * 1000) / 1000;
        double ackedUs = deliveredUs + 4 * (1000 + ACK_NS) / 1000;
        double ackedLatestUs = ackedUs + (512 * ACK_NS + PACKET_NS) / 1000;
        double referenceLeast = Arrays.stream(new HtsimAdaptiveRoce("permutation32", "ar_flowlet")
                .referenceValues(HtsimAdaptiveRoce.reference(), "fct_min_ns")).min().orElseThrow() / 1000;
        assertTrue(referenceLeast >= ackedUs && referenceLeast <= ackedLatestUs, "reference " + referenceLeast);
        for (String strategy : List.of("ar_flowlet", "ar_packet")) {
            HtsimAdaptiveRoce s = new HtsimAdaptiveRoce("permutation32", strategy);
            for (SimulationResult r : ours(s)) {
                for (SimulationResult.FlowRecord f : r.flows()) {
                    double d = f.lastDeliveryPs() / 1e6;
                    assertTrue(d >= deliveredUs && d <= deliveredUs + (512 * ACK_NS + PACKET_NS) / 1000, strategy + " " + d);
                }
                assertEquals(0, r.retransmittedBytes(), strategy);
                double last = s.values(r).lastCompletionUs();
                assertTrue(last >= ackedUs && last <= ackedLatestUs, strategy + " " + last);
            }
        }
    }

    @Test
    void badArgumentsAreRefusedNamingTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new HtsimAdaptiveRoce("incast9", "ecmp"));
        assertTrue(e.getMessage().contains("scenario"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new HtsimAdaptiveRoce("incast8", "spray"));
        assertTrue(e.getMessage().contains("strategy"), e.getMessage());
        HtsimAdaptiveRoce s = new HtsimAdaptiveRoce("incast8", "ecmp");
        e = assertThrows(IllegalArgumentException.class, () -> s.referenceValues(HtsimAdaptiveRoce.reference(), "nope"));
        assertTrue(e.getMessage().contains("nope"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.rows(List.of(), HtsimAdaptiveRoce.reference()));
        SimulationResult other = ours(new HtsimAdaptiveRoce("permutation32", "ecmp")).get(0);
        e = assertThrows(IllegalArgumentException.class, () -> s.rows(List.of(other), HtsimAdaptiveRoce.reference()));
        assertTrue(e.getMessage().contains("ours[0]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> s.scenario(0));
        assertTrue(e.getMessage().contains("seed"), e.getMessage());
        assertFalse(new HtsimAdaptiveRoce.Row("q", "us", 1, 2, 2, 3, 3, 0.5, 2.5, "").pass());
        assertTrue(new HtsimAdaptiveRoce.Row("q", "us", 1, 2, 2, 2, 9, 0.5, 2.5, "").pass());
        e = assertThrows(IllegalArgumentException.class, () -> new HtsimAdaptiveRoce.Row("q", "us", 1, 2, 3, 2, 4, 0, 3, ""));
        assertTrue(e.getMessage().contains("oursMedian"), e.getMessage());
    }

    /**
     * Where a built csg-htsim is at hand ({@code -Dfabriclab.csg.htsim=DIR}, else {@code /work/refs/csg-htsim}), the
     * tool reruns it and regenerates the committed CSV byte for byte.
     */
    @Test
    void theToolReproducesTheCommittedCsvByteForByte() throws Exception {
        String configured = System.getProperty("fabriclab.csg.htsim");
        Path tree = Path.of(configured == null || configured.isBlank() ? "/work/refs/csg-htsim" : configured);
        Assumptions.assumeTrue(Files.isExecutable(tree.resolve("sim/datacenter/htsim_roce")), "no built htsim_roce at "
                + tree);
        Path log = Files.createTempFile("htsim-ar-check-", ".txt");
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(javaBin.toString(), ROOT.resolve("tools/HtsimAdaptiveRuns.java").toString(),
                "--check", tree.toString()).directory(ROOT.toFile()).redirectErrorStream(true).redirectOutput(log.toFile())
                .start();
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the tool did not finish in 10 minutes");
        String out = Files.readString(log);
        Files.delete(log);
        assertEquals(0, p.exitValue(), out);
    }
}
