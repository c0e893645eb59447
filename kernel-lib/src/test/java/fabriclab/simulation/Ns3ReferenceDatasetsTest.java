package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.Dataset;
import fabriclab.datasets.Datasets;
import fabriclab.datasets.Provenance;
import fabriclab.validation.Ns3Scenarios;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.Table;

/**
 * The committed ns-3 outputs ({@code datasets/published/ns3-*.csv}, read by notebook 14 and by
 * {@code fabriclab.validation.Ns3Comparison}, so that a notebook needs no C++ toolchain) are what ns-3 gives now: this
 * test runs the ns-3 programs of {@link Ns3DifferentialTest} and {@link Ns3EcnDifferentialTest} on every case of
 * {@link Ns3Scenarios}, writes the three datasets into a temporary directory and requires the committed CSV files to
 * be byte-identical, and each committed provenance to name the git blob of the program as it is now. Every figure is
 * deterministic in ns-3 (the incasts have no randomness; RED draws from ns-3's default seed and run, 1 and 1, with the
 * streams assigned in the same order every run), so no tolerance is needed, and none is given: a difference means
 * that ns-3, the program or the cases changed, and the datasets must be written again.
 *
 * <p>To write them: {@code mvn -q -pl kernel-lib test -Dtest=Ns3ReferenceDatasetsTest -Dfabriclab.ns3.write=true}
 * (the provenance records the ns-3 version, the Debian package version, the program's path, git blob and the last
 * commit that changed it, and the command line). Fails, never skips, when ns-3 is missing, as the differential tests do.
 */
class Ns3ReferenceDatasetsTest {
    private static final Path DATASETS = Path.of("..", "datasets");
    private static final Path INCAST_SOURCE = Path.of("src/test/ns3/fabriclab-incast.cc");
    private static final Path RED_SOURCE = Path.of("src/test/ns3/fabriclab-red.cc");
    private static final Path LEAFSPINE_SOURCE = Path.of("src/test/ns3/fabriclab-leafspine.cc");

    @Test
    void committedNs3DatasetsEqualWhatNs3GivesNow(@TempDir Path tmp) throws Exception {
        List<Dataset> now = List.of(incast(), heldQueue(), step(), permutation());
        boolean write = Boolean.getBoolean("fabriclab.ns3.write");
        for (Dataset d : now) {
            Path fresh = Datasets.write(write ? DATASETS : tmp, d);
            Path committed = DATASETS.resolve("published").resolve(d.name() + ".csv");
            assertTrue(Files.isRegularFile(committed), "no committed " + committed + ": write it with -Dfabriclab.ns3.write=true");
            assertEquals(Files.readString(fresh), Files.readString(committed), d.name() + ": ns-3 now gives other figures than"
                    + " the committed dataset; if ns-3 or the program changed on purpose, write it again"
                    + " (-Dfabriclab.ns3.write=true) and say why in the commit");
            Provenance p = Datasets.readProvenance(DATASETS.resolve("published").resolve(d.name() + ".json"));
            String blob = blob(d.name().equals(Ns3Scenarios.INCAST_DATASET) ? INCAST_SOURCE
                    : d.name().equals(Ns3Scenarios.PERMUTATION_DATASET) ? LEAFSPINE_SOURCE : RED_SOURCE);
            assertTrue(p.location().contains(blob), d.name() + ": the committed provenance does not name the program's"
                    + " current git blob " + blob + ": write it again");
        }
    }

    private static Dataset incast() throws Exception {
        Table t = Table.create(Ns3Scenarios.INCAST_DATASET);
        String[] cols = {"senders", "bytes_per_sender", "wire_bytes", "rate_bps", "delay_ps", "buffer_bytes", "tie_order",
            "drops", "peak_bytes", "last_delivery_ps", "delivered_bytes"};
        for (String c : cols) {
            t.addColumns(LongColumn.create(c));
        }
        for (Ns3Scenarios.DropTailIncast c : Ns3Scenarios.INCASTS) {
            for (int tie : new int[] {1, 0, 2}) {
                Ns3DifferentialTest.Ns3Run r = Ns3DifferentialTest.runNs3(c.senders(), c.bytesPerSender(),
                        Ns3Scenarios.WIRE_BYTES, c.rateBitsPerSecond(), c.delayPs(), c.bufferBytes(), tie, 1);
                long[] v = {c.senders(), c.bytesPerSender(), Ns3Scenarios.WIRE_BYTES, c.rateBitsPerSecond(), c.delayPs(),
                    c.bufferBytes(), tie, r.drops(), r.peakBytes(), r.lastPs(), r.deliveredBytes()};
                for (int i = 0; i < cols.length; i++) {
                    t.longColumn(cols[i]).append(v[i]);
                }
            }
        }
        Map<String, String> units = units(cols);
        units.put("tie_order", "1: a transmission's end runs before arrivals at the same instant (as ours in scheduling"
                + " order), 0: ns-3's own order, 2: the engines' one order of simultaneous events (CanonicalOrder, run seed 1)");
        units.put("drops", "packets");
        units.put("last_delivery_ps", "ps: time the last packet reached the receiver");
        units.put("peak_bytes", "bytes: peak occupancy of the receiver's port, counted as ours (admitted minus fully transmitted)");
        return new Dataset(provenance(Ns3Scenarios.INCAST_DATASET,
                "ns-3 3.37: drop-tail incasts on one switch (drops, peak occupancy, last delivery), the cases of Ns3Scenarios.INCASTS",
                INCAST_SOURCE, "ns3-point-to-point ns3-network ns3-core",
                "fabriclab-incast SENDERS BYTES_PER_SENDER WIRE_BYTES RATE_BPS DELAY_PS BUFFER_BYTES TIE_ORDER 1 (the row's columns; 1: the run seed)",
                units), t);
    }

    private static Dataset heldQueue() throws Exception {
        Table t = Table.create(Ns3Scenarios.HELD_QUEUE_DATASET);
        String[] cols = {"kmin_bytes", "kmax_bytes", "pmax", "held_occupancy_bytes", "held_packets", "delivered_packets",
            "marked_packets", "drops", "peak_bytes", "occupancy_min_bytes", "occupancy_max_bytes", "mismatches"};
        for (String c : cols) {
            t.addColumns(c.equals("pmax") ? DoubleColumn.create(c) : LongColumn.create(c));
        }
        long packetPs = Ns3Scenarios.WIRE_BYTES * 8L * 1_000_000_000_000L / Ns3Scenarios.HELD_RATE;
        long start = Ns3Scenarios.BUILD_PACKETS * packetPs - packetPs / 2;
        for (Ns3Scenarios.HeldQueue c : Ns3Scenarios.HELD_QUEUES) {
            Ns3EcnDifferentialTest.Ns3EcnRun r = Ns3EcnDifferentialTest.runNs3(Ns3Scenarios.HELD_RATE, 1_000_000L,
                    200L * Ns3Scenarios.WIRE_BYTES, c.kMinBytes(), c.kMaxBytes(), c.pMax(), 1,
                    List.of("0:" + Ns3Scenarios.BUILD_PACKETS, "0:" + Ns3Scenarios.BUILD_PACKETS,
                            start + ":" + Ns3Scenarios.HELD_PACKETS));
            long[] f = r.flows()[2];
            t.longColumn("kmin_bytes").append(c.kMinBytes());
            t.longColumn("kmax_bytes").append(c.kMaxBytes());
            t.doubleColumn("pmax").append(c.pMax());
            long[] v = {Ns3Scenarios.HeldQueue.heldOccupancyBytes(), Ns3Scenarios.HELD_PACKETS, f[0], f[1], r.drops(),
                r.peakBytes(), f[2], f[3], r.mismatches()};
            for (int i = 0; i < v.length; i++) {
                t.longColumn(cols[3 + i]).append(v[i]);
            }
        }
        Map<String, String> units = units(cols);
        units.put("pmax", "probability at Kmax");
        units.put("delivered_packets", "packets of the held flow (sender 2) delivered");
        units.put("marked_packets", "packets of the held flow delivered with an ECN mark (CE)");
        units.put("drops", "packets");
        units.put("mismatches", "arrivals at which ns-3's queue disc length and our way of counting disagreed (expected 0)");
        units.put("occupancy_min_bytes", "bytes: least occupancy a held-flow packet found, counted as ours");
        units.put("occupancy_max_bytes", "bytes: largest occupancy a held-flow packet found, counted as ours");
        return new Dataset(provenance(Ns3Scenarios.HELD_QUEUE_DATASET,
                "ns-3 3.37 RedQueueDisc: marking at a queue held at 41 kB, the cases of Ns3Scenarios.HELD_QUEUES",
                RED_SOURCE, "ns3-traffic-control ns3-internet ns3-point-to-point ns3-network ns3-core",
                "fabriclab-red 1000 100000000000 1000000 200000 KMIN KMAX PMAX 1 0:40 0:40 " + start + ":20000 (the row's"
                        + " thresholds; flows as START_PS:PACKETS)", units), t);
    }

    private static Dataset step() throws Exception {
        Table t = Table.create(Ns3Scenarios.STEP_DATASET);
        String[] cols = {"senders", "bytes_per_sender", "rate_bps", "delay_ps", "buffer_bytes", "threshold_bytes", "drops",
            "delivered_packets", "marked_packets"};
        for (String c : cols) {
            t.addColumns(LongColumn.create(c));
        }
        for (Ns3Scenarios.StepMarking s : Ns3Scenarios.STEPS) {
            Ns3Scenarios.DropTailIncast c = s.incast();
            List<String> flows = new ArrayList<>();
            for (int i = 0; i < c.senders(); i++) {
                flows.add("0:" + c.bytesPerSender() / Ns3Scenarios.WIRE_BYTES);
            }
            Ns3EcnDifferentialTest.Ns3EcnRun r = Ns3EcnDifferentialTest.runNs3(c.rateBitsPerSecond(), c.delayPs(),
                    c.bufferBytes(), s.thresholdBytes(), s.thresholdBytes(), 1.0, 1, flows);
            long[] v = {c.senders(), c.bytesPerSender(), c.rateBitsPerSecond(), c.delayPs(), c.bufferBytes(),
                s.thresholdBytes(), r.drops(), r.delivered(), r.marked()};
            for (int i = 0; i < cols.length; i++) {
                t.longColumn(cols[i]).append(v[i]);
            }
        }
        Map<String, String> units = units(cols);
        units.put("drops", "packets");
        units.put("delivered_packets", "packets");
        units.put("marked_packets", "packets delivered with an ECN mark (CE)");
        return new Dataset(provenance(Ns3Scenarios.STEP_DATASET,
                "ns-3 3.37 RedQueueDisc with one threshold (Kmin = Kmax = K, DCTCP style): marks in the drop-tail incasts,"
                        + " the cases of Ns3Scenarios.STEPS", RED_SOURCE,
                "ns3-traffic-control ns3-internet ns3-point-to-point ns3-network ns3-core",
                "fabriclab-red 1000 RATE_BPS DELAY_PS BUFFER_BYTES K K 1.0 1 0:P ... (one 0:P per sender, P = bytes_per_sender / 1000)",
                units), t);
    }

    private static Dataset permutation() throws Exception {
        Table t = Table.create(Ns3Scenarios.PERMUTATION_DATASET);
        String[] cols = {"spines", "seed", "flow", "source", "destination", "spine", "fct_ps"};
        for (String c : cols) {
            t.addColumns(LongColumn.create(c));
        }
        for (Ns3Scenarios.LeafSpinePermutation c : Ns3Scenarios.PERMUTATIONS) {
            List<fabriclab.simulation.config.FlowSpec> flows = c.scenario().flows();
            List<String> cmd = new ArrayList<>(List.of(Ns3DifferentialTest.ns3Program(LEAFSPINE_SOURCE,
                    List.of("ns3-point-to-point", "ns3-network", "ns3-core")).toString(),
                    "" + Ns3Scenarios.PERMUTATION_LEAVES, "" + Ns3Scenarios.PERMUTATION_HOSTS_PER_LEAF, "" + c.spines(),
                    "" + Ns3Scenarios.WIRE_BYTES, "" + Ns3Scenarios.PERMUTATION_RATE, "1000000",
                    "" + Ns3Scenarios.PERMUTATION_BYTES, "1", "1", "" + c.seed()));
            for (fabriclab.simulation.config.FlowSpec f : flows) {
                cmd.add(f.source() + ":" + f.destination());
            }
            for (String line : Ns3DifferentialTest.run(cmd, 120)) {
                String[] p = line.split(",");
                if (!p[0].equals("flow")) {
                    continue;
                }
                int f = Integer.parseInt(p[1]);
                long[] v = {c.spines(), c.seed(), f, flows.get(f).source(), flows.get(f).destination(), Long.parseLong(p[2]),
                    Long.parseLong(p[3])};
                for (int i = 0; i < cols.length; i++) {
                    t.longColumn(cols[i]).append(v[i]);
                }
            }
        }
        Map<String, String> units = units(cols);
        units.put("flow", "flow index in Scenario.permutation's order");
        units.put("source", "host");
        units.put("destination", "host");
        units.put("spine", "the spine ns-3 picked for the flow (uniformly at random), -1 within one leaf");
        units.put("fct_ps", "ps: the flow's completion time, its last packet's arrival (every flow starts at 0)");
        return new Dataset(provenance(Ns3Scenarios.PERMUTATION_DATASET,
                "ns-3 3.37: leaf-spine permutations of line-rate flows, completion time per flow, the cases of"
                        + " Ns3Scenarios.PERMUTATIONS", LEAFSPINE_SOURCE, "ns3-point-to-point ns3-network ns3-core",
                "fabriclab-leafspine 4 4 SPINES 1000 100000000000 1000000 100000 1 1 SEED SRC:DST ... (one SRC:DST per flow"
                        + " of Scenario.permutation for the seed, in flow order)", units), t);
    }

    private static Map<String, String> units(String[] cols) {
        Map<String, String> u = new LinkedHashMap<>();
        for (String c : cols) {
            u.put(c, c.endsWith("_bytes") ? "bytes" : c.endsWith("_ps") ? "ps" : c.endsWith("_bps") ? "bit/s"
                    : c.endsWith("_packets") ? "packets" : "");
        }
        return u;
    }

    private static Provenance provenance(String name, String title, Path source, String modules, String command,
            Map<String, String> units) throws Exception {
        String version = Ns3DifferentialTest.run(List.of("pkg-config", "--modversion", "ns3-core"), 30).get(0).trim();
        String debian;
        try {
            debian = Ns3DifferentialTest.run(List.of("dpkg-query", "-W", "-f=${Version}", "libns3-dev"), 30).get(0).trim();
        } catch (java.io.IOException | AssertionError e) {
            debian = "unknown (no dpkg)";
        }
        String path = "kernel-lib/" + source.toString().replace('\\', '/');
        String commit;
        try {
            List<String> out = Ns3DifferentialTest.run(List.of("git", "log", "-1", "--format=%H", "--", source.toString()), 30);
            commit = out.isEmpty() ? "not committed" : out.get(0).trim();
        } catch (java.io.IOException | AssertionError e) {
            commit = "unknown (no git)";
        }
        return new Provenance(name, title, "published",
                new Provenance.Paper("outside reference (not a seed paper)", "the ns-3 project",
                        "ns-3 network simulator, release " + version, "nsnam.org; Debian package libns3-dev " + debian, null),
                "output of our ns-3 program " + path + " (git blob " + blob(source) + ", last changed in commit " + commit
                        + "), compiled with g++ -O1 -std=c++17 against ns-3 " + version + " (pkg-config " + modules
                        + "), run once per row as: " + command,
                units, "Written by Ns3ReferenceDatasetsTest (mvn -q -pl kernel-lib test -Dtest=Ns3ReferenceDatasetsTest"
                        + " -Dfabriclab.ns3.write=true); without the property the test reruns ns-3 and requires this CSV"
                        + " byte for byte. Not a paper's numbers: ns-3's output for scenarios of ours, as an outside"
                        + " reference for the packet simulator (fabriclab.validation.Ns3Comparison).");
    }

    /** The git blob id of {@code file} as it is now (SHA-1 of "blob LENGTH\0" and the bytes), without git. */
    static String blob(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        MessageDigest md = MessageDigest.getInstance("SHA-1");
        md.update(("blob " + bytes.length + "\0").getBytes(StandardCharsets.US_ASCII));
        md.update(bytes);
        return HexFormat.of().formatHex(md.digest());
    }
}
