package fabriclab.validation;

import fabriclab.simulation.TieOrder;
import fabriclab.Parameters;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.BufferPlan;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.uec.EntropySpraying;
import fabriclab.simulation.transport.uec.UecTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Our UEC transport on the one result of the REPS paper whose number is stated in its text and whose settings its
 * artifact states: the asymmetric micro-benchmark of section 4.4 (Bonato et al., "REPS: Recycled Entropy Packet
 * Spraying for Adaptive Load Balancing and Failure Mitigation", EuroSys '26, arXiv 2407.21625; dataset
 * {@code reps-paper-asymmetric}, its JSON holds the provenance). Four hosts under one ToR each send 32 MiB to four
 * hosts of another pod at t = 0; one of the ToR's four 400 Gb/s uplinks runs at 200 Gb/s. The paper's text: oblivious
 * packet spraying (OPS) completes in 1400 us, REPS in 799 us.
 *
 * <p>The paper's settings (artifact {@code tommasobo/REPS_EuroSys_Artifact} @ b751588,
 * {@code artifact_scripts/fig_3_asymmetric_micro.py}), and ours:
 * <ul>
 *   <li>Packets: 4150 B on the wire, 64 B of header, 4086 B of payload ({@code main_uec.cpp} packet_size 4150,
 *       {@code uec.cpp} _hdr_size 64): ours the same ({@value #PAYLOAD_BYTES} + {@value #HEADER_BYTES}).</li>
 *   <li>Queues: 100 packets, 415,000 B, per egress port, trimming to 64 B headers; ECN from 20 to 80 packets,
 *       83,000 to 332,000 B: ours the same, marking at dequeue as the UEC reference simulator does
 *       ({@link UecTransport#switchBuffer}; the artifact's marking point is not checked).</li>
 *   <li>The slow uplink ({@code -failed 1}: {@code fat_tree_topology.cpp}, {@code alloc_queue} with reduced_speed,
 *       ratio 0.5): ToR 0's link to its first aggregation switch at 200 Gb/s with half the buffer (207,500 B) and
 *       half the ECN thresholds. Ours: leaf 1's link to spine 1 at 200 Gb/s ({@link Topology#withLinkRate}, both
 *       directions; the artifact slows the uplink only, the downlink carries only ACKs here), its port limited to
 *       207,500 B ({@link BufferPlan#withPortLimit(String, int, long)}) and ECN scaled with the port's rate
 *       ({@link SwitchBuffer#withEcnScaledFromRate}).</li>
 *   <li>Topology: the artifact's is a 3-tier fat tree of 128 hosts (4 hosts and 4 uplinks per ToR, 1 us per link);
 *       ours is a 2-tier leaf-spine of 128 hosts on 32 leaves of 4 under 4 spines, 400 Gb/s, 1 us per link: the
 *       same ToR with the same four uplinks, the only place the flows share links, but 4 links from host to host
 *       instead of 6 (a base RTT about 4 us shorter).</li>
 *   <li>Entropies: 65,535 ({@code -paths 65535}); ACK per 4000 B ({@code -sack_threshold 4000}, one per packet):
 *       ours the same.</li>
 *   <li>Congestion control: the paper's is a DCTCP variant ({@code -sender_cc_algo mprdma}, section 4.1), with an
 *       initial window of 151 packets; ours is NSCC at the UEC reference simulator's defaults
 *       ({@link UecTransport#defaults()}), the transport this class checks. REPS: the paper's with freezing mode
 *       ({@code -load_balancing_algo freezing}); ours recycles without freezing (nothing fails here, so freezing
 *       would act only after a timeout).</li>
 * </ul>
 *
 * <p>Closed forms at these settings ({@link #lineRateBoundUs}, {@link #aggregateBoundUs}, {@link #slowLinkBoundUs},
 * {@link #slowLinkWithTrimsUs}): 8213 packets of 4150 B per flow; a flow alone needs 681.7 us at 400 Gb/s; the four
 * flows over 3.5 links' worth of uplink at least 779.0 us, whatever the spraying; with every packet's uplink equally
 * likely (OPS) and no packet trimmed, the slow uplink carries a quarter of all packets, 1363.3 us. The paper's 799
 * and 1400 us are 2.6 % and 2.7 % above the first and the last. With T packets trimmed at the slow uplink and each
 * re-sent on a fresh entropy (a quarter of them back onto it), the slow uplink forwards in expectation
 * (32,852 + T) / 4 - T packets, and OPS can finish earlier than 1363.3 us: what ours does (below).
 *
 * <p>Rows ({@link #rows}): the completion time of each design and the ratio OPS over REPS. Tolerance: the paper gives
 * one run (seed 5) and no spread, so the only stated uncertainty is the reading of its text: 1400 given without a
 * unit digit (taken as rounded to the nearest 100 us, 1350 to 1450), 799 to the microsecond (798.5 to 799.5); the
 * ratio's band is the one those allow. Nothing is fitted. A row passes when every one of our seeds lies in its band.
 * Classification: {@code validation} for REPS's completion (in both simulators set by REPS steering the four
 * flows off the ECN-marked slow uplink until they share the 1.4 Tb/s of uplinks, the aggregate bound, a mechanism
 * both have at these settings); {@code prediction} for OPS's completion and the ratio (how many packets the slow
 * uplink trims, and so how far OPS falls below the no-trim closed form, is set by the congestion control, which is
 * not the paper's: these rows are what our NSCC predicts for the paper's scenario).
 *
 * <p>Measured (seeds 1 to 3, {@code RepsPaperAsymmetricTest}): REPS 797.2 to 802.3 us against 799 (within 0.4 %, a
 * miss of the +-0.5 us reading band by 1.3 to 3.3 us: not traced; our own seeds spread 5.1 us, ten times the band,
 * and the paper gives one seed); OPS 1103.5 to 1125.6 us against 1400 (a miss, traced): our NSCC holds the slow
 * uplink's queue at its 207,500 B limit, about 2,170 packets a run are trimmed (counted as the trimmed headers the
 * receivers got; the closed form takes them all at the slow uplink, the one port loaded beyond its rate) and re-sent
 * on fresh entropies,
 * so the slow uplink forwards about 6,580 packets instead of 8,213, and the trim-corrected closed form gives 1091 to
 * 1094 us, ours 1.1 to 2.9 % above it; the paper's 1400 us, above the no-trim form, implies its DCTCP variant trimmed
 * few or none (its trim count is not published). Isolated: with no queue limit and trimming off, ours (seed 1)
 * trims nothing and takes 1574.1 us, above the no-trim form. The ratio (1.38 to 1.41 against 1.75) follows.
 *
 * @param spraying oblivious spraying (the paper's OPS) or REPS
 */
public record RepsPaperAsymmetric(EntropySpraying spraying) {
    /** Payload per data packet, bytes (4150 - 64). */
    public static final int PAYLOAD_BYTES = 4086;
    /** Header per data packet, bytes. */
    public static final int HEADER_BYTES = 64;
    /** Egress queue per port, bytes (100 packets of 4150 B). */
    public static final long QUEUE_BYTES = 415_000;
    /** ECN marking starts here, bytes (20 packets). */
    public static final long ECN_LOW_BYTES = 83_000;
    /** Every packet marked above this, bytes (80 packets). */
    public static final long ECN_HIGH_BYTES = 332_000;
    /** Every link's rate, bit/s. */
    public static final long RATE_BPS = 400_000_000_000L;
    /** The slow uplink's rate, bit/s. */
    public static final long SLOW_RATE_BPS = RATE_BPS / 2;
    /** Bytes per flow (32 MiB). */
    public static final long FLOW_BYTES = 32L << 20;
    /** Flows (hosts 0 to 3 to hosts 64 to 67). */
    public static final int FLOWS = 4;
    /** The dataset. */
    public static final String DATASET = "reps-paper-asymmetric";

    /** Validates. */
    public RepsPaperAsymmetric {
        Parameters.notNull("spraying", spraying);
    }

    /** The dataset's name of {@link #spraying}. */
    public String loadBalancing() {
        return spraying == EntropySpraying.REPS ? "reps" : "oblivious";
    }

    /** Packets per flow: ceil(32 MiB / 4086 B) = 8213. */
    public static long packetsPerFlow() {
        return (FLOW_BYTES + PAYLOAD_BYTES - 1) / PAYLOAD_BYTES;
    }

    /** One flow alone at 400 Gb/s, us: packets x 4150 B x 8 / rate. */
    public static double lineRateBoundUs() {
        return packetsPerFlow() * (PAYLOAD_BYTES + HEADER_BYTES) * 8.0 / RATE_BPS * 1e6;
    }

    /** All four flows over three uplinks at 400 Gb/s and one at 200 Gb/s, us: 4 x line-rate bound / 3.5. */
    public static double aggregateBoundUs() {
        return FLOWS * lineRateBoundUs() * RATE_BPS / (3.0 * RATE_BPS + SLOW_RATE_BPS);
    }

    /** A quarter of all packets over the slow uplink, us: one flow's packets at 200 Gb/s. */
    public static double slowLinkBoundUs() {
        return packetsPerFlow() * (PAYLOAD_BYTES + HEADER_BYTES) * 8.0 / SLOW_RATE_BPS * 1e6;
    }

    /**
     * The slow uplink's share with trims, us: with {@code trims} packets trimmed there and each re-sent on a fresh
     * entropy, it forwards in expectation (4 x packets per flow + trims) / 4 - trims packets of 4150 B at 200 Gb/s.
     * An expectation, not a bound (which uplink each packet takes is random).
     */
    public static double slowLinkWithTrimsUs(long trims) {
        Parameters.inRange("trims", trims, 0L, FLOWS * packetsPerFlow());
        double forwarded = (FLOWS * packetsPerFlow() + trims) / 4.0 - trims;
        return forwarded * (PAYLOAD_BYTES + HEADER_BYTES) * 8.0 / SLOW_RATE_BPS * 1e6;
    }

    /** The fabric: 128 hosts on 32 leaves of 4 under 4 spines, 400 Gb/s, 1 us per link; leaf 1 to spine 1 at 200 Gb/s. */
    public static Topology fabric() {
        return new LeafSpine(128, 1, 32, 4, RATE_BPS, RATE_BPS, 1, Time.US, Time.US).build()
                .withLinkRate("leaf1", "spine1", SLOW_RATE_BPS);
    }

    /** Leaf 1's port to spine 1 (its ports are its 4 hosts', then its uplinks by spine) holds half the queue. */
    public static BufferPlan bufferPlan() {
        return BufferPlan.none().withPortLimit("leaf1", 4, QUEUE_BYTES / 2);
    }

    /** Hosts 0 to 3 (leaf 1) each send 32 MiB to host 64 + i (leaf 17) at 0. */
    public static List<FlowSpec> flows() {
        List<FlowSpec> f = new ArrayList<>();
        for (int h = 0; h < FLOWS; h++) {
            f.add(new FlowSpec(h, 64 + h, FLOW_BYTES, 0, 0, 20_000 + h));
        }
        return f;
    }

    /** NSCC at the reference simulator's defaults, {@link #spraying} over 65,535 entropies, an ACK per 4000 B, trimming. */
    public UecTransport transport() {
        return UecTransport.defaults().withSpraying(spraying).withEntropies(65_535).withAckEveryBytes(4000)
                .withTrimming(true, QUEUE_BYTES);
    }

    /** The scenario at {@code seed} (hash salt and every random draw), 1 or more. */
    public Scenario scenario(long seed) {
        Parameters.atLeast("seed", seed, 1L);
        SwitchBuffer buffer = SwitchBuffer.shared(32 * QUEUE_BYTES).withPerQueueLimit(QUEUE_BYTES)
                .withEcnMarking(new EcnMarking(ECN_LOW_BYTES, ECN_HIGH_BYTES, 1.0))
                .withEcnMarkingPoint(SwitchBuffer.MarkingPoint.DEQUEUE).withEcnScaledFromRate(RATE_BPS);
        SimulationConfig config = new SimulationConfig(PAYLOAD_BYTES, HEADER_BYTES, 1, buffer,
                Forwarding.ecmp(HashFunction.CRC32, (int) seed), seed, 0, 0, bufferPlan());
        return Scenario.builder(fabric(), config).flows(flows()).transport(transport())
                .name("REPS paper asymmetric micro-benchmark, " + loadBalancing() + ", seed " + seed).tieOrder(TieOrder.SCHEDULING).build();
    }

    /** When the last flow completed (acknowledged), us. */
    public static double completionUs(SimulationResult r) {
        Parameters.notNull("r", r);
        if (r.flows().size() != FLOWS || !r.allCompleted()) {
            throw new IllegalArgumentException("r must be a completed run of the " + FLOWS + " flows, got "
                    + r.flows().size() + " flows, all completed: " + r.allCompleted());
        }
        return r.flows().stream().mapToDouble(f -> (f.acknowledgedPs() - f.spec().startPs()) / 1e6).max().orElseThrow();
    }

    /** What a row is (class comment). */
    public enum Classification {
        /** The mechanism that sets the number is the same in both at the paper's settings. */
        VALIDATION,
        /** The number depends on a setting ours does not reproduce: our transport's prediction for the paper's scenario. */
        PREDICTION;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One compared quantity.
     *
     * @param quantity what is compared
     * @param unit its unit
     * @param paper the paper's value
     * @param low the band's lower end (the reading's)
     * @param high its upper end
     * @param oursMin our smallest over our seeds
     * @param oursMax our largest
     * @param classification validation or prediction (class comment)
     * @param note the band's rule and, for a miss, its mechanism
     */
    public record Row(String quantity, String unit, double paper, double low, double high, double oursMin,
            double oursMax, Classification classification, String note) {
        /** Validates. */
        public Row {
            Parameters.notBlank("quantity", quantity);
            Parameters.notBlank("unit", unit);
            Parameters.finite("paper", paper);
            Parameters.finite("low", low);
            Parameters.finite("high", high);
            Parameters.finite("oursMin", oursMin);
            Parameters.finite("oursMax", oursMax);
            Parameters.notNull("note", note);
            Parameters.notNull("classification", classification);
            if (low > high || oursMin > oursMax) {
                throw new IllegalArgumentException("low (" + low + ") must be at most high (" + high
                        + ") and oursMin (" + oursMin + ") at most oursMax (" + oursMax + ") in " + quantity);
            }
        }

        /** Whether every one of our seeds lies in the band. */
        public boolean pass() {
            return oursMin >= low && oursMax <= high;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s [%s], %s: ours %.4g..%.4g, paper %.4g, band %.4g..%.4g, %s (%s)",
                    quantity, unit, classification, oursMin, oursMax, paper, low, high, pass() ? "pass" : "MISS", note);
        }
    }

    /**
     * The rows from our runs: OPS's and REPS's completion time and their ratio, against the dataset's reading bands.
     *
     * @param oblivious runs of the oblivious scenario at several seeds
     * @param reps runs of the REPS scenario at the same seeds
     * @param paper the {@link #DATASET} table
     */
    public static List<Row> rows(List<SimulationResult> oblivious, List<SimulationResult> reps,
            tech.tablesaw.api.Table paper) {
        Parameters.notNull("oblivious", oblivious);
        Parameters.notNull("reps", reps);
        Parameters.notNull("paper", paper);
        if (oblivious.isEmpty() || oblivious.size() != reps.size()) {
            throw new IllegalArgumentException("oblivious and reps must hold the same number (at least 1) of runs, got "
                    + oblivious.size() + " and " + reps.size());
        }
        double[] ops = oblivious.stream().mapToDouble(RepsPaperAsymmetric::completionUs).toArray();
        double[] rep = reps.stream().mapToDouble(RepsPaperAsymmetric::completionUs).toArray();
        double[] ratio = new double[ops.length];
        for (int i = 0; i < ops.length; i++) {
            ratio[i] = ops[i] / rep[i];
        }
        double[] o = paperRow(paper, "oblivious");
        double[] r = paperRow(paper, "reps");
        String reading = "band: the reading of the paper's text";
        List<Row> rows = new ArrayList<>();
        rows.add(row("OPS completion", "us", o, ops, Classification.PREDICTION, reading, MISS_OPS));
        rows.add(row("REPS completion", "us", r, rep, Classification.VALIDATION, reading, MISS_REPS));
        rows.add(row("OPS over REPS", "ratio", new double[] {o[0] / r[0], o[1] / r[2], o[2] / r[1]}, ratio,
                Classification.PREDICTION, "band: the ratio the two readings allow", MISS_RATIO));
        return rows;
    }

    /** The mechanism named when the OPS row misses. */
    static final String MISS_OPS = "trims at the slow uplink: our NSCC holds its queue at the 207,500 B limit and"
            + " the trimmed packets are re-sent on fresh entropies, 3/4 of them onto fast uplinks, so the slow uplink"
            + " forwards fewer than a quarter of the packets (slowLinkWithTrimsUs); the paper's 1400 us, above the"
            + " no-trim closed form 1363.3 us, implies its DCTCP variant trimmed few or none";
    /** The mechanism named when the REPS row misses. */
    static final String MISS_REPS = "not traced: within 0.4 % of the paper's value, the band is the reading's"
            + " +-0.5 us while our own seeds spread about 5 us and the paper gives one seed; candidates the congestion"
            + " control (DCTCP variant against NSCC), the paper's two extra hops, its REPS freezing mode";
    /** The mechanism named when the ratio misses. */
    static final String MISS_RATIO = "follows OPS's row (trims at the slow uplink)";

    private static double[] paperRow(tech.tablesaw.api.Table t, String lb) {
        for (int i = 0; i < t.rowCount(); i++) {
            if (t.stringColumn("load_balancing").get(i).equals(lb)
                    && t.stringColumn("quantity").get(i).equals("completion_time")) {
                return new double[] {t.numberColumn("value").getDouble(i), t.numberColumn("reading_low").getDouble(i),
                        t.numberColumn("reading_high").getDouble(i)};
            }
        }
        throw new IllegalArgumentException("paper must hold the completion_time row of " + lb);
    }

    private static Row row(String q, String unit, double[] p, double[] ours, Classification cls, String reading,
            String miss) {
        double min = java.util.Arrays.stream(ours).min().orElseThrow();
        double max = java.util.Arrays.stream(ours).max().orElseThrow();
        boolean pass = min >= p[1] && max <= p[2];
        return new Row(q, unit, p[0], p[1], p[2], min, max, cls, pass ? reading : reading + "; miss: " + miss);
    }

    /** The published table. */
    public static tech.tablesaw.api.Table published() {
        return fabriclab.datasets.Datasets.load(DATASET).table();
    }
}
