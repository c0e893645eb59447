package fabriclab.validation;

import fabriclab.Parameters;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.fabric.Time;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcDynamicThreshold;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.workload.FlowSizeDistribution;
import fabriclab.workload.GeneratedFlows;
import fabriclab.workload.IdealFct;
import fabriclab.workload.IncastMix;
import fabriclab.workload.PoissonTraffic;

/**
 * HPCC's ns-3 evaluation of DCQCN with a window ("DCQCN+w") under the standard workloads, as far as this simulator
 * can express it, so that the published FCT-slowdown curves (dataset {@code hpcc-fct-slowdown-30pct}) can be set beside
 * ours. The settings are those of Li et al., "HPCC: High Precision Congestion Control" (SIGCOMM 2019, section 5.1) and
 * of the authors' simulation scripts (repository alibaba-edu/High-Precision-Congestion-Control, commit 9f4be2a9:
 * {@code simulation/run.py}, {@code mix/fat.txt}) and results page (hpcc-group.github.io, {@code results.md}):
 * <ul>
 *   <li><b>Fabric.</b> HPCC: a three-tier fat tree of 320 servers, 16 per ToR (20 ToRs), every ToR with four 400 Gb/s
 *       links to the aggregation layer and the aggregation to 16 cores, 1 us per link, 32 MB of buffer per switch.
 *       Here: a two-tier leaf-spine of the same hosts and the same leaf capacity, 20 leaves of 16 hosts at
 *       100 Gb/s and one 400 Gb/s link from each leaf to each of 4 spines (1:1), 1 us per link, 32 MB per switch.
 *       A flow between pods in HPCC's tree crosses 6 links, here at most 4, so the base RTT is about 8 us here and
 *       12 us there; the slowdown divides by each flow's own ideal, which takes that difference out of the
 *       uncongested part.</li>
 *   <li><b>Packets.</b> 1000 bytes of payload; 50 bytes of headers per data packet (HPCC's results page); ACKs and
 *       CNPs of 64 bytes (an Ethernet minimum frame; HPCC's page states 60), an ACK per data packet
 *       ({@code L2_ACK_INTERVAL 1}) on the data's priority ({@code ACK_HIGH_PRIO 0} for DCQCN+w).</li>
 *   <li><b>DCQCN.</b> {@link DcqcnParameters#hpccSimulation()} with R_HAI 200 Mb/s, ECN thresholds scaled with the
 *       port rate ({@link SwitchBuffer#withEcnScaledFromRate}: Kmin 400 KB, Kmax 1600 KB at 100 Gb/s and four times
 *       that at 400 Gb/s, Pmax 0.2).</li>
 *   <li><b>Window.</b> W_max = the fabric's largest base RTT times the host rate (their {@code GLOBAL_T 1}), scaled
 *       with the current rate ({@code VAR_WIN 1}): {@link RoceTransport.Window}.</li>
 *   <li><b>PFC.</b> Dynamic thresholds, alpha = 1/8 of the free buffer (HPCC's host-facing ports; its faster ports get a
 *       larger alpha, which one alpha per switch here cannot give), 3 KB of hysteresis (its resume offset); headroom
 *       3 x rate x delay of the fastest link (150 KB at 400 Gb/s, 1 us).</li>
 *   <li><b>Workload.</b> Poisson arrivals of flows between random host pairs at {@code load} of every host link over the
 *       arrival window ({@link PoissonTraffic}), sizes from the published distribution; every flow runs to completion.
 *       HPCC runs for seconds of simulated time; here the window is a parameter (a few milliseconds) and the seeds give
 *       the spread.</li>
 * </ul>
 * What the two simulators share and do not is listed in notebook 14 with the comparison.
 *
 * @param workload {@code websearch} or {@code fb-hadoop}
 * @param load offered load of each host link, in (0, 1]
 * @param durationPs the arrival window, ps, in [1 us, 1 s]
 * @param seed the seed of the flows, the hashes and the marking draws
 */
public record HpccEvaluation(String workload, double load, long durationPs, long seed) {
    /** Hosts of the fabric (HPCC's 320 servers). */
    public static final int HOSTS = 320;
    /** Hosts per leaf (HPCC's 16 per ToR). */
    public static final int HOSTS_PER_LEAF = 16;
    /** Spines: four 400 Gb/s uplinks per leaf, as HPCC's ToRs have. */
    public static final int SPINES = 4;
    /** Host link rate, bit/s. */
    public static final long HOST_RATE = 100_000_000_000L;
    /** Leaf-spine link rate, bit/s. */
    public static final long UPLINK_RATE = 400_000_000_000L;
    /** Propagation delay of every link, ps. */
    public static final long DELAY_PS = Time.US;
    /** Shared buffer per switch, bytes (HPCC's 32 MB at 100 Gb/s hosts). */
    public static final long BUFFER_BYTES = 32_000_000L;
    /** Payload per packet, bytes. */
    public static final int MTU_BYTES = 1000;
    /** Headers per data packet, bytes. */
    public static final int HEADER_BYTES = 50;
    /** R_HAI of HPCC's DCQCN at 100 Gb/s, bit/s. */
    public static final double HYPER_INCREASE_BPS = 200e6;

    /** Validates as stated on the record. */
    public HpccEvaluation {
        Parameters.notNull("workload", workload);
        if (!FlowSizeDistribution.PUBLISHED.contains(workload)) {
            throw new IllegalArgumentException("workload must be one of " + FlowSizeDistribution.PUBLISHED + ", got \""
                    + workload + "\"");
        }
        Parameters.inHalfOpenRange("load", load, 0, 1);
        Parameters.inRange("durationPs", durationPs, Time.US, Time.S);
    }

    /** The leaf-spine ({@link #HOSTS} hosts, {@link #SPINES} spines, one 400 Gb/s link per leaf-spine pair). */
    public static LeafSpine fabric() {
        return new LeafSpine(HOSTS, 1, HOSTS / HOSTS_PER_LEAF, SPINES, HOST_RATE, UPLINK_RATE, 1, DELAY_PS, DELAY_PS);
    }

    /**
     * The largest base RTT of the fabric, ps: a data packet ({@link #MTU_BYTES} + {@link #HEADER_BYTES}) stored and
     * forwarded over the four links of a path between leaves and its 64-byte ACK back, with every link's delay.
     */
    public static long maxBaseRttPs() {
        int data = MTU_BYTES + HEADER_BYTES;
        long oneWayDelays = 4 * DELAY_PS;
        long dataSerialization = 2 * Time.serializationPs(data, HOST_RATE) + 2 * Time.serializationPs(data, UPLINK_RATE);
        long ackSerialization = 2 * Time.serializationPs(64, HOST_RATE) + 2 * Time.serializationPs(64, UPLINK_RATE);
        return 2 * oneWayDelays + dataSerialization + ackSerialization;
    }

    /** W_max of DCQCN+w: {@link #maxBaseRttPs} times the host rate, bytes (rounded down). */
    public static long windowBytes() {
        return (long) Math.floor(maxBaseRttPs() * 1e-12 * HOST_RATE / 8);
    }

    /** The transport: RoCE with HPCC's DCQCN, its R_HAI, an ACK per packet and the rate-scaled window. */
    public static RoceTransport dcqcnWithWindow() {
        return RoceTransport.dcqcn(DcqcnParameters.hpccSimulation()).withHyperIncrease(HYPER_INCREASE_BPS)
                .withReliableConnection(ReliableConnection.defaults().withAckEvery(1))
                .withWindow(new RoceTransport.Window(windowBytes(), true));
    }

    /** The flows of this run (Poisson arrivals over the window, drawn from {@link #seed}). */
    public GeneratedFlows flows() {
        return new PoissonTraffic(FlowSizeDistribution.published(workload), HOSTS, HOST_RATE, load, durationPs, 0,
                IncastMix.off(), seed).generate();
    }

    /** The scenario: {@link #fabric}, the settings above, {@link #flows}, {@link #dcqcnWithWindow}. */
    public Scenario scenario() {
        DcqcnParameters d = DcqcnParameters.hpccSimulation();
        SwitchBuffer buffer = new SwitchBuffer(BUFFER_BYTES, BUFFER_BYTES, d.marking()).withEcnScaledFromRate(HOST_RATE);
        SimulationConfig config = new SimulationConfig(MTU_BYTES, HEADER_BYTES, 1, buffer,
                Forwarding.ecmp(HashFunction.CRC32, 7), seed, 0, 0);
        long headroom = 3 * UPLINK_RATE / 8 * DELAY_PS / Time.S;
        Pfc pfc = new Pfc(BUFFER_BYTES / 8, BUFFER_BYTES / 8 - 3_000, headroom, Pfc.MAX_QUANTA);
        Topology topology = fabric().build();
        return Scenario.builder(topology, config).flows(flows().flows()).transport(dcqcnWithWindow()).pfc(pfc)
                .pfcDynamicThreshold(new PfcDynamicThreshold(1.0 / 8, 3_000))
                .name(String.format(java.util.Locale.ROOT, "HPCC's evaluation on a leaf-spine: %s at load %s, DCQCN+w, seed %d",
                        workload, load, seed))
                .build();
    }

    /**
     * One run and, per flow, its ideal completion times: to the last delivery ({@link IdealFct}: the same flow alone on
     * the empty fabric) and to the sender's receipt of the last ACK (that ideal plus the 64-byte ACK's way back,
     * {@link #ackReturnPs}), which is how HPCC's simulator defines FCT and its ideal.
     *
     * @param result the simulation's result
     * @param idealPs each flow's ideal completion time to the last delivery, ps
     * @param idealAcknowledgedPs each flow's ideal completion time to the last ACK, ps
     */
    public record Run(SimulationResult result, long[] idealPs, long[] idealAcknowledgedPs) {
        /** Validates: one ideal of each kind per flow. */
        public Run {
            Parameters.notNull("result", result);
            Parameters.notNull("idealPs", idealPs);
            Parameters.notNull("idealAcknowledgedPs", idealAcknowledgedPs);
            if (idealPs.length != result.flows().size() || idealAcknowledgedPs.length != result.flows().size()) {
                throw new IllegalArgumentException("idealPs and idealAcknowledgedPs must have one entry per flow ("
                        + result.flows().size() + "), got " + idealPs.length + " and " + idealAcknowledgedPs.length);
            }
        }

        /**
         * Flow {@code i}'s slowdown as HPCC defines it: from its start to the sender's receipt of the ACK of its last
         * byte, over {@link #idealAcknowledgedPs}; NaN when it did not complete.
         */
        public double slowdown(int i) {
            Parameters.inRange("i", i, 0, idealPs.length - 1);
            SimulationResult.FlowRecord f = result.flows().get(i);
            if (f.acknowledgedPs() < 0) {
                return Double.NaN;
            }
            return (double) (f.acknowledgedPs() - f.spec().startPs()) / idealAcknowledgedPs[i];
        }
    }

    /**
     * The way back of a 64-byte ACK from {@code destination} to {@code source} on the empty fabric, ps: each link's
     * delay and serialization, over the two host links, and the two leaf-spine links when the hosts are under
     * different leaves.
     */
    public static long ackReturnPs(int source, int destination) {
        Parameters.inRange("source", source, 0, HOSTS - 1);
        Parameters.inRange("destination", destination, 0, HOSTS - 1);
        long host = DELAY_PS + Time.serializationPs(64, HOST_RATE);
        long up = DELAY_PS + Time.serializationPs(64, UPLINK_RATE);
        return 2 * host + (source / HOSTS_PER_LEAF == destination / HOSTS_PER_LEAF ? 0 : 2 * up);
    }

    /** Runs {@link #scenario}. */
    public Run run() {
        Scenario s = scenario();
        SimulationResult r = s.simulator().run();
        long[] ideal = IdealFct.of(s.topology(), s.config(), s.flows());
        long[] acked = new long[ideal.length];
        for (int i = 0; i < ideal.length; i++) {
            acked[i] = ideal[i] + ackReturnPs(s.flows().get(i).source(), s.flows().get(i).destination());
        }
        return new Run(r, ideal, acked);
    }
}
