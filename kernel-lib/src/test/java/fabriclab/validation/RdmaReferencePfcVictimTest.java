package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.Datasets;
import fabriclab.fabric.Time;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * Our simulator against the RDMA reference (HPCC's ns-3 model as aliyun/ns-3-alibabacloud carries it) on the PFC victim
 * scenario of {@link RdmaReferencePfcVictim} (an incast across a spine and a victim flow sharing its upstream links),
 * with DCQCN+PFC and with PFC alone, read from the committed dataset {@code rdma-ns3-pfc-victim}.
 *
 * <p>What is asserted, and the tolerance's reason:
 * <ul>
 *   <li>Every flow completes, nothing is dropped: exactly, in both.</li>
 *   <li>The victim's FCT, the incast's makespan and mean FCT: within the reference's own spread of FCT over the
 *       incast's flows, (max - min) / max (14.4% with DCQCN, 6.1% with PFC alone): three flows with the same bytes and
 *       demand whose completion the marking draws and the PAUSE order decide.</li>
 *   <li>Pause propagation: in both, leaf 12 pauses the spine, the spine pauses leaf 11, and leaf 11 pauses the victim's
 *       source, whose receiver is never congested; no switch pauses the victim's or the incast's receiver.</li>
 *   <li>PAUSE frames per switch port with PFC alone: within the same relative spread (each PAUSE/RESUME cycle is a
 *       stretch of the run, so the count scales with the time the run lasts). With DCQCN, not asserted beyond presence:
 *       ours sends more (a known difference, see below).</li>
 *   <li>Peak of each data queue that PFC holds (leaf 11's uplink, leaf 12's port to the receiver, the spine's port to
 *       leaf 12): within the threshold offset of the ingress counters that feed it (ours pauses 4 KiB + 5 x 512 B
 *       earlier per counter, {@link RdmaReferenceIncast}: 2, 3 and 1 counters) plus the reference's 1-us sampling
 *       (12.5 KB at 100 Gb/s).</li>
 * </ul>
 *
 * <p>Where the two disagree: with DCQCN ours sends more PAUSE frames per port (2 to 5 against 1 to 3), as in the
 * single-switch incasts of {@link RdmaReferenceIncastTest}; the mechanisms are the same modelling differences named
 * there (the threshold offset, marking at enqueue, a cut on the first CNP, CNP pacing at the receiver). The victim's FCT
 * agrees within 0.2% with DCQCN and 1.7% with PFC alone.
 */
class RdmaReferencePfcVictimTest {
    private static final String NAME = "rdma-ns3-pfc-victim";
    /** The reference's (switch, interface) of each port that matters, and the node it leads to. */
    private static final Map<String, Integer> PEER = new java.util.TreeMap<>(Map.of("11:1", 0, "11:2", 1, "11:5", 13, "12:1", 4, "12:2", 5,
            "12:3", 6, "12:4", 7, "12:5", 13, "13:1", 11, "13:2", 12));

    private static long value(Table t, String id, String quantity, long node, long port) {
        for (Row r : t) {
            if (r.getString("scenario").equals(id) && r.getString("quantity").equals(quantity) && r.getInt("node") == node
                    && r.getInt("port") == port) {
                return (long) r.getNumber("value");
            }
        }
        return 0; // the tool writes only ports with frames or bytes
    }

    private static SimulationResult.PortPfc pfc(SimulationResult r, int node, int peer) {
        return r.pfc().stream().filter(p -> p.node() == node && p.peerNode() == peer).findFirst().orElseThrow();
    }

    private static long fctNs(SimulationResult.FlowRecord f) {
        return (f.acknowledgedPs() - f.startedPs()) / Time.NS;
    }

    @Test
    void theDatasetIsConsistentWithItself() {
        Table t = Datasets.load(NAME).table();
        for (String id : new String[] {"hol_dcqcn", "hol_pfc"}) {
            long sent = 0;
            long received = 0;
            for (Row r : t) {
                if (r.getString("scenario").equals(id)) {
                    sent += r.getString("quantity").equals("pause_sent") ? (long) r.getNumber("value") : 0;
                    received += r.getString("quantity").equals("pause_received") ? (long) r.getNumber("value") : 0;
                }
            }
            assertEquals(sent, received, id + ": every PAUSE sent is received");
            // the victim alone would finish near its standalone FCT; PFC makes it wait
            assertTrue(value(t, id, "fct_ns", 1, -1) > 2 * value(t, id, "standalone_fct_ns", 1, -1), id);
        }
    }

    @Test
    void oursAgreesWithTheReference() {
        Table t = Datasets.load(NAME).table();
        StringBuilder report = new StringBuilder("run        quantity                         reference         ours    tolerance\n");
        for (boolean dcqcn : new boolean[] {true, false}) {
            String id = dcqcn ? "hol_dcqcn" : "hol_pfc";
            SimulationResult r = new Simulator(new RdmaReferencePfcVictim(dcqcn).scenario()).run();
            assertTrue(r.allCompleted(), id);
            assertEquals(4 * RdmaReferencePfcVictim.BYTES_PER_FLOW, r.deliveredBytes(), id);
            assertEquals(0, r.droppedPackets(), id);
            for (int sw = 11; sw <= 13; sw++) {
                assertEquals(0, value(t, id, "drops", sw, -1), id);
            }
            long[] refIncast = RdmaReferencePfcVictim.INCAST_SENDERS.stream().mapToLong(s -> value(t, id, "fct_ns", s, -1)).toArray();
            long refMax = Arrays.stream(refIncast).max().orElseThrow();
            double spread = (double) (refMax - Arrays.stream(refIncast).min().orElseThrow()) / refMax;
            long[] ours = new long[4];
            for (int i = 0; i < 4; i++) {
                ours[i] = fctNs(r.flows().get(i));
            }
            long oursVictim = ours[RdmaReferencePfcVictim.VICTIM_FLOW];
            long refVictim = value(t, id, "fct_ns", RdmaReferencePfcVictim.VICTIM_SOURCE, -1);
            long oursMax = Math.max(ours[0], Math.max(ours[2], ours[3]));
            double oursMean = (ours[0] + ours[2] + ours[3]) / 3.0;
            double refMean = Arrays.stream(refIncast).average().orElseThrow();
            line(report, id, "victim FCT [ns]", refVictim, oursVictim, spread);
            line(report, id, "victim throughput [Gb/s]", 8e6 / refVictim, 8e6 / oursVictim, spread);
            line(report, id, "incast makespan [ns]", refMax, oursMax, spread);
            line(report, id, "incast mean FCT [ns]", refMean, oursMean, spread);
            assertTrue(Math.abs(oursVictim - refVictim) <= spread * refVictim, id + ": victim " + oursVictim + " vs " + refVictim);
            assertTrue(Math.abs(oursMax - refMax) <= spread * refMax, id + ": makespan " + oursMax + " vs " + refMax);
            assertTrue(Math.abs(oursMean - refMean) <= spread * refMean, id + ": mean " + oursMean + " vs " + refMean);
            // PFC per port
            for (Map.Entry<String, Integer> e : PEER.entrySet()) {
                int node = Integer.parseInt(e.getKey().split(":")[0]);
                int port = Integer.parseInt(e.getKey().split(":")[1]);
                long ref = value(t, id, "pause_sent", node, port);
                SimulationResult.PortPfc p = pfc(r, node, e.getValue());
                line(report, id, "PAUSE sent " + node + "->" + e.getValue(), ref, p.pausesSent(), dcqcn ? Double.NaN : spread);
                assertEquals(p.pausesSent(), p.xonSent(), id + ": every PAUSE ended by an XON");
                if (ref == 0 || p.pausesSent() == 0) {
                    assertEquals(0, ref, id + " " + e);
                    assertEquals(0, p.pausesSent(), id + " " + e);
                } else if (!dcqcn) {
                    assertTrue(Math.abs(p.pausesSent() - ref) <= spread * ref, id + " " + e + ": " + p.pausesSent() + " vs " + ref);
                }
            }
            // propagation: leaf 12 pauses the spine, the spine pauses leaf 11, leaf 11 pauses the victim's source
            for (int[] hop : new int[][] {{12, 13}, {13, 11}, {11, RdmaReferencePfcVictim.VICTIM_SOURCE}}) {
                assertTrue(pfc(r, hop[0], hop[1]).pausesSent() > 0, id + ": ours " + hop[0] + " pauses " + hop[1]);
            }
            assertTrue(value(t, id, "pause_sent", 12, 5) > 0 && value(t, id, "pause_sent", 13, 1) > 0
                    && value(t, id, "pause_sent", 11, 2) > 0, id + ": the reference propagates");
            // queue peaks
            int[][] queues = {{11, 5, 2}, {12, 3, 3}, {13, 2, 1}}; // switch, interface, ingress counters feeding it
            for (int[] q : queues) {
                int peer = PEER.get(q[0] + ":" + q[1]);
                long ref = value(t, id, "peak_queue_bytes", q[0], q[1]);
                SimulationResult.QueueTrace trace = r.queues().stream()
                        .filter(x -> x.switchIndex() == q[0] - RdmaReferencePfcVictim.HOSTS && x.peerNode() == peer).findFirst()
                        .orElseThrow();
                double tolerance = q[2] * (RdmaReferenceIncast.RESERVE_BYTES + RdmaReferencePfcVictim.SWITCH_PORTS * 512.0) + 12_500;
                line(report, id, "peak queue " + q[0] + "->" + peer + " [B]", ref, trace.peakBytes(), tolerance);
                assertTrue(Math.abs(trace.peakBytes() - ref) <= tolerance, id + ": peak " + trace.peakBytes() + " vs " + ref);
            }
        }
        System.out.print(report);
    }

    private static void line(StringBuilder sb, String id, String quantity, double reference, double ours, double tolerance) {
        sb.append(String.format(Locale.ROOT, "%-10s %-30s %12.1f %12.1f   %s%n", id, quantity, reference, ours,
                Double.isNaN(tolerance) ? "-" : tolerance <= 1 ? String.format(Locale.ROOT, "%.1f%%", 100 * tolerance)
                        : String.format(Locale.ROOT, "%.0f", tolerance)));
    }
}
