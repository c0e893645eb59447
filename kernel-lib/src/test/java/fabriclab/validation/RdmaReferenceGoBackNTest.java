package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.ComparisonRow;
import fabriclab.datasets.Datasets;
import fabriclab.fabric.Time;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.transport.TransportModel;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * Our simulator against the RDMA reference (HPCC's ns-3 model as aliyun/ns-3-alibabacloud carries it) on go-back-N after
 * a link goes down mid-flow ({@link RdmaReferenceGoBackN}), read from the committed dataset {@code rdma-ns3-gbn-linkdown}.
 * The loss is deterministic in both: the packets on the failed link's wire when it goes down, the same packet train in
 * both (one flow at line rate from t = 0, the same packet and link sizes).
 *
 * <p>Asserted: the reference loses 13 data packets (one link delay of packets at 100 Gb/s plus the one being received),
 * and every row of {@link RdmaReferenceComparison#goBackNRows} passes: the data packets lost and the NACKs (one)
 * exactly; the data packets resent (the reference's sends beyond the 1000 needed) within one packet per link of the
 * resent path (4), and the FCT within one packet time per link of that path (4 x 84.16 ns): where in a packet the NACK
 * reaches each store-and-forward hop shifts the restart by up to a packet there. The
 * reference also loses the 12 ACKs on the wire back; ours does not count ACKs lost on a failed link (cumulative ACKs,
 * no effect on the data). The reference's recovery (the first packet past the gap leaves for the receiver at 42.2 us,
 * the gap is filled at 50.6 us) has no counterpart in our result record and is printed only.
 */
class RdmaReferenceGoBackNTest {
    private static final String NAME = "rdma-ns3-gbn-linkdown";

    /** The sum of a dataset quantity over its rows (of {@code node}, or all for -1). */
    private static long value(Table t, String quantity, long node) {
        return RdmaReferenceComparison.goBackNValue(t, quantity, node);
    }

    @Test
    void oursAgreesWithTheReference() {
        Table t = Datasets.load(NAME).table();
        SimulationResult r = new Simulator(new RdmaReferenceGoBackN().scenario()).run();
        assertTrue(r.allCompleted());
        SimulationResult.FlowRecord f = r.flows().get(0);
        assertEquals(RdmaReferenceGoBackN.BYTES, f.deliveredBytes());
        long packets = RdmaReferenceGoBackN.BYTES / RdmaReferenceIncast.MTU_BYTES;
        long refFct = value(t, "fct_ns", 0);
        long oursFct = (f.acknowledgedPs() - f.startedPs()) / Time.NS;
        long refResent = value(t, "data_sent", 0) - packets;
        long refLost = value(t, "data_dropped", -1);
        long refNacks = value(t, "nacks", 1);
        System.out.printf(Locale.ROOT, "quantity              reference      ours%n"
                + "FCT [ns]              %9d %9d%n"
                + "goodput [Gb/s]        %9.2f %9.2f%n"
                + "data packets lost     %9d %9d%n"
                + "packets resent        %9d %9d%n"
                + "bytes resent          %9d %9d%n"
                + "NACKs                 %9d %9d%n"
                + "ACKs lost             %9d         -%n"
                + "gap seen / filled [ns] %8d / %d (reference only)%n",
                refFct, oursFct, 8e6 / refFct, 8e6 / oursFct, refLost, f.droppedPackets(), refResent,
                f.retransmittedPackets(), refResent * RdmaReferenceIncast.MTU_BYTES, f.retransmittedBytes(), refNacks,
                r.counter(TransportModel.NACKS), value(t, "ack_dropped", -1), value(t, "first_gap_ns", 3),
                value(t, "gap_filled_ns", 3));
        assertEquals(13, refLost, "one link delay of packets plus the one arriving");
        assertEquals(f.retransmittedPackets() * RdmaReferenceIncast.MTU_BYTES, f.retransmittedBytes());
        for (ComparisonRow row : RdmaReferenceComparison.goBackNRows(r, t)) {
            assertTrue(row.meetsTarget(), row.quantity() + ": " + row.model() + " against " + row.target().describe());
        }
    }

    /**
     * Where a built copy of the reference is at hand ({@code -Dfabriclab.rdma.reference=DIR}, else
     * {@code /work/refs/ns3-alibaba}), the tool reruns every scenario into a fresh directory and writes the committed
     * CSVs (incast, PFC victim, go-back-N, all-to-all, HPCC, DCTCP, TIMELY, Swift, HPCC under fabriclab's tie rule) byte
     * for byte.
     */
    @Test
    void theToolReproducesTheCommittedCsvsByteForByte(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        String configured = System.getProperty("fabriclab.rdma.reference");
        java.nio.file.Path tree = java.nio.file.Path.of(configured == null || configured.isBlank() ? "/work/refs/ns3-alibaba" : configured);
        org.junit.jupiter.api.Assumptions.assumeTrue(
                java.nio.file.Files.isExecutable(tree.resolve("simulation/build/scratch/ns3.36.1-NormalNetwork"))
                        && java.nio.file.Files.isExecutable(tree.resolve("analysis/trace_reader")), "no built reference at " + tree);
        java.nio.file.Path root = java.nio.file.Path.of("..").toAbsolutePath().normalize(); // tests run in kernel-lib/
        java.nio.file.Path javaBin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(javaBin.toString(), root.resolve("tools/RdmaReferenceRuns.java").toString(), tree.toString(),
                tmp.toString()).directory(root.toFile()).redirectErrorStream(true).redirectOutput(tmp.resolve("log.txt").toFile()).start();
        assertTrue(p.waitFor(10, java.util.concurrent.TimeUnit.MINUTES), "the tool did not finish in 10 minutes");
        assertEquals(0, p.exitValue(), java.nio.file.Files.readString(tmp.resolve("log.txt")));
        for (String name : new String[] {"rdma-ns3-dcqcn-incast", "rdma-ns3-pfc-victim", NAME, "rdma-ns3-alltoall",
                "rdma-ns3-hpcc", "rdma-ns3-dctcp", "rdma-ns3-timely", "rdma-ns3-swift", "rdma-ns3-hpcc-tie-rule",
                "rdma-ns3-dcqcn-incast-tie-rule", "rdma-ns3-pfc-victim-tie-rule", "rdma-ns3-gbn-linkdown-tie-rule",
                "rdma-ns3-alltoall-tie-rule", "rdma-ns3-dctcp-tie-rule", "rdma-ns3-timely-tie-rule", "rdma-ns3-swift-tie-rule"}) {
            org.junit.jupiter.api.Assertions.assertArrayEquals(
                    java.nio.file.Files.readAllBytes(root.resolve("datasets/published").resolve(name + ".csv")),
                    java.nio.file.Files.readAllBytes(tmp.resolve(name + ".csv")), name);
        }
    }
}
