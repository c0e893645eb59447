package fabriclab.experiments;

import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.ctcc.CtccTransport;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.fabric.Time;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.EcnMarking;
import fabriclab.Parameters;
import fabriclab.congestion.RttControlParameters;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.fabric.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The incast experiment of seed 001 (Che et al., CTCC, ICT &amp; Policy 2024) in the packet simulator:
 * {@code senders} servers with {@code qpsPerSender} queue pairs each write to one receiver through
 * one switch, all ports at {@code rateBitsPerSecond}; a stream of {@code probes} small flows in the same direction
 * (probe k from sender k mod senders, one packet of {@code probeBytes}, starting at {@code probeAtPs + k
 * probeIntervalPs}) measures the small-flow latency as 001 reports it, a mean over many small flows ("平均值"):
 * the mean of the probes' completion times. Published (001): DCQCN with PFC keeps the switch queue above 10 MB, sends 97.98 Gb/s in
 * total and gives the small flow 1154.77 us; CTCC without PFC peaks at 1.22 MB, 90.70 Gb/s, no
 * loss, 20.31 us.
 *
 * <p>Assumptions (001 gives none of these): 1000-byte packets with no header overhead, 1 us links,
 * a 32 MB shared buffer of which one queue may hold at most 16 MB (so that ACKs, NACKs, CNPs and
 * probe replies on other queues are never starved of buffer), PFC (when on) with XOFF 1 MB / XON 0.9 MB per ingress port (the values of
 * the fluid model in notebook 03), headroom 100 KB, pause time 65535 quanta; data on priority 1,
 * CNPs and probe replies on priority 0; every queue pair has more data than it can send in the run
 * (the run is cut at {@code durationPs}, so the result is marked partial by design). Throughput and
 * mean queue are measured over the second half of the run, after the start-up transient.
 *
 * @param senders number of sending servers, at least 1
 * @param qpsPerSender queue pairs per sender, 1 to {@link FlowSpec#MAX_QUEUE_PAIRS}
 * @param rateBitsPerSecond port rate [bit/s]
 * @param durationPs simulated time [ps]
 * @param probeAtPs start of the first small flow [ps], below durationPs
 * @param probeBytes size of each small flow [bytes], 1 to 1000 (one packet)
 * @param probes small flows, 1 to {@link #MAX_PROBES}; the last starts before {@code durationPs}
 * @param probeIntervalPs time between the starts of consecutive small flows [ps], at least 1
 */
public record IncastDcqcnVsCtcc(int senders, int qpsPerSender, long rateBitsPerSecond, long durationPs, long probeAtPs,
        int probeBytes, int probes, long probeIntervalPs) {
    /** The most small flows a run takes. */
    public static final int MAX_PROBES = 10_000;

    /** Validates. */
    public IncastDcqcnVsCtcc {
        Parameters.atLeast("senders", senders, 1);
        Parameters.inRange("qpsPerSender", qpsPerSender, 1, FlowSpec.MAX_QUEUE_PAIRS);
        Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
        Parameters.atLeast("durationPs", durationPs, Time.US);
        Parameters.inRange("probeAtPs", probeAtPs, 0L, durationPs - 1);
        Parameters.inRange("probeBytes", probeBytes, 1, 1000);
        Parameters.inRange("probes", probes, 1, MAX_PROBES);
        Parameters.atLeast("probeIntervalPs", probeIntervalPs, 1L);
        if ((durationPs - 1 - probeAtPs) / probeIntervalPs < probes - 1) {
            throw new IllegalArgumentException("probes must all start before durationPs = " + durationPs + " ps: at most "
                    + ((durationPs - 1 - probeAtPs) / probeIntervalPs + 1) + " probes every probeIntervalPs = "
                    + probeIntervalPs + " ps from probeAtPs = " + probeAtPs + " ps, got " + probes);
        }
    }

    /** One small flow at {@code probeAtPs} (its completion time is the small-flow latency). */
    public IncastDcqcnVsCtcc(int senders, int qpsPerSender, long rateBitsPerSecond, long durationPs, long probeAtPs,
            int probeBytes) {
        this(senders, qpsPerSender, rateBitsPerSecond, durationPs, probeAtPs, probeBytes, 1, 1);
    }

    /**
     * 001's setting: 7 senders x 1000 QPs at 100G; 4 ms simulated; 20 small flows of one 1000-byte packet, one every
     * 25 us from 2 ms (after the start-up transient; the last at 2.475 ms, so that a latency of up to 1.5 ms still
     * completes in the run). The number and spacing are this project's choice: 001 says only that the
     * latency is a mean.
     */
    public static IncastDcqcnVsCtcc paper() {
        return new IncastDcqcnVsCtcc(7, 1000, 100_000_000_000L, 4 * Time.MS, 2 * Time.MS, 1000, 20, 25 * Time.US);
    }

    /**
     * What one run measured.
     *
     * @param transport the transport, not null
     * @param pfc whether PFC was on
     * @param maxQueueBytes largest occupancy of the receiver's switch port [bytes]
     * @param meanQueueBytes mean occupancy over the second half [bytes], finite, not negative
     * @param throughputBitsPerSecond data wire bits per second leaving the bottleneck port over the second half, finite,
     *        not negative
     * @param droppedPackets data packets dropped
     * @param pausesSent PFC PAUSE frames sent by the switch
     * @param smallFlowLatencyUs mean completion time of the small flows that finished [us], -1 if none did; finite
     * @param queueSamplesBytes occupancy of the bottleneck port every {@code samplePeriodPs}, not null
     * @param samplePeriodPs sampling period [ps]
     * @param result the full simulator result, not null
     * @param smallFlowSwitchQueueUs mean time the finished small flows' data waited in the switch's egress queue [us],
     *        -1 if none finished; the rest of their latency is the wait at the sending NIC (behind the sender's queue
     *        pairs and PFC pauses) plus serialization and propagation
     * @param smallFlowLatenciesUs each small flow's completion time [us], in start order, -1 for one that did not
     *        finish; not null, finite
     * @param queuePairRatesBitsPerSecond each data queue pair's rate at the bottleneck over the second half [bit/s]
     *        (data wire bits it sent out of the receiver's switch port then, over the half's length), in queue-pair
     *        order (sender-major); not null, finite, not negative; they sum to {@code throughputBitsPerSecond} less
     *        the small flows' share
     */
    public record Result(String transport, boolean pfc, long maxQueueBytes, double meanQueueBytes, double throughputBitsPerSecond,
            long droppedPackets, long pausesSent, double smallFlowLatencyUs, long[] queueSamplesBytes,
            long samplePeriodPs, SimulationResult result, double smallFlowSwitchQueueUs, double[] smallFlowLatenciesUs,
            double[] queuePairRatesBitsPerSecond) {
        /**
         * Validates: transport, queue samples and result present; mean queue and throughput finite and not
         * negative; the two small-flow times finite (-1 for none).
         */
        public Result {
            Parameters.notNull("transport", transport);
            Parameters.nonNegative("meanQueueBytes", meanQueueBytes);
            Parameters.nonNegative("throughputBitsPerSecond", throughputBitsPerSecond);
            Parameters.finite("smallFlowLatencyUs", smallFlowLatencyUs);
            Parameters.notNull("queueSamplesBytes", queueSamplesBytes);
            Parameters.notNull("result", result);
            Parameters.finite("smallFlowSwitchQueueUs", smallFlowSwitchQueueUs);
            Parameters.finiteElements("smallFlowLatenciesUs", smallFlowLatenciesUs);
            Parameters.finiteElements("queuePairRatesBitsPerSecond", queuePairRatesBitsPerSecond);
            for (int i = 0; i < queuePairRatesBitsPerSecond.length; i++) {
                Parameters.nonNegative("queuePairRatesBitsPerSecond[" + i + "]", queuePairRatesBitsPerSecond[i]);
            }
        }

        /**
         * The spread of the data queue pairs' rates over the second half: quantiles by the nearest rank of the sorted
         * rates, and Jain's fairness index {@code (sum x)^2 / (n sum x^2)} (1 when every queue pair gets the same rate,
         * 1/n when one gets everything; 1 when none sent).
         */
        public QueuePairRates queuePairRates() {
            double[] x = queuePairRatesBitsPerSecond.clone();
            java.util.Arrays.sort(x);
            int n = x.length;
            double sum = 0, sumSq = 0;
            long idle = 0;
            for (double v : x) {
                sum += v;
                sumSq += v * v;
                if (v == 0) {
                    idle++;
                }
            }
            java.util.function.DoubleUnaryOperator q = f -> n == 0 ? 0 : x[Math.max(0, Math.min(n - 1, (int) Math.ceil(f * n) - 1))];
            return new QueuePairRates(n, n == 0 ? 0 : sum / n, q.applyAsDouble(0), q.applyAsDouble(0.01), q.applyAsDouble(0.5),
                    q.applyAsDouble(0.99), q.applyAsDouble(1), sumSq == 0 ? 1 : sum * sum / (n * sumSq), idle);
        }

        /**
         * Mean latency of the small flows not spent in the switch queue nor on the wire [us]: mean latency minus mean
         * switch queueing minus 2 x (serialization + propagation) of one packet of {@code probeBytes} on 1 us links at
         * {@code rateBitsPerSecond}; -1 if no small flow finished.
         *
         * @param probeBytes the probe packet's size, in [0, 2^20] bytes
         * @param rateBitsPerSecond the link rate, at least 1 bit/s
         */
        public double smallFlowSenderWaitUs(int probeBytes, long rateBitsPerSecond) {
            Parameters.inRange("probeBytes", probeBytes, 0, 1 << 20);
            Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
            if (smallFlowLatencyUs < 0 || smallFlowSwitchQueueUs < 0) {
                return -1;
            }
            return smallFlowLatencyUs - smallFlowSwitchQueueUs - 2 * (Time.toMicros(Time.serializationPs(probeBytes, rateBitsPerSecond)) + 1.0);
        }
    }

    /**
     * Rates of the data queue pairs at the bottleneck over the second half of a run [bit/s].
     *
     * @param queuePairs number of data queue pairs
     * @param mean mean rate (the fair share when the bottleneck is busy with data only)
     * @param min lowest rate
     * @param p1 1st percentile (nearest rank)
     * @param median median (nearest rank)
     * @param p99 99th percentile (nearest rank)
     * @param max highest rate
     * @param jainIndex Jain's fairness index, in [1/n, 1]
     * @param idle queue pairs that sent nothing out of the bottleneck in the second half
     */
    public record QueuePairRates(int queuePairs, double mean, double min, double p1, double median, double p99, double max,
            double jainIndex, long idle) {
        /** Validates: counts not negative, idle at most the count, rates finite, not negative and ordered, index in [0, 1]. */
        public QueuePairRates {
            Parameters.atLeast("queuePairs", queuePairs, 0);
            Parameters.inRange("idle", idle, 0L, queuePairs);
            double[] q = {min, p1, median, p99, max};
            String[] names = {"min", "p1", "median", "p99", "max"};
            for (int i = 0; i < q.length; i++) {
                Parameters.nonNegative(names[i], Parameters.finite(names[i], q[i]));
                if (i > 0 && q[i] < q[i - 1]) {
                    throw new IllegalArgumentException(names[i] + " must be at least " + names[i - 1] + " = " + q[i - 1] + ", got " + q[i]);
                }
            }
            Parameters.nonNegative("mean", Parameters.finite("mean", mean));
            double slack = 1e-9 * Math.max(1, max); // a mean summed in floating point may pass its bounds by rounding
            Parameters.inRange("mean", mean, min - slack, max + slack); // a mean lies between its set's least and most
            Parameters.inRange("jainIndex", Parameters.finite("jainIndex", jainIndex), 0.0, 1.0 + 1e-12);
        }
    }

    /**
     * The flows: flow s from sender s on {@code qpsPerSender} queue pairs of 10^9 bytes each, queue pair q from UDP
     * source port 1024 + q (mod 65536); the small flow, from port 65535, is the last one (flow {@code senders}).
     */
    public List<FlowSpec> flows() {
        List<FlowSpec> flows = new ArrayList<>();
        long bytes = 1_000_000_000L;
        for (int s = 0; s < senders; s++) {
            flows.add(new FlowSpec(s, senders, bytes * qpsPerSender, 0, 1, 1024, qpsPerSender));
        }
        for (int k = 0; k < probes; k++) {
            flows.add(new FlowSpec(k % senders, senders, probeBytes, probeAtPs + k * probeIntervalPs, 1, 65535 - k % 64512));
        }
        return flows;
    }

    /**
     * Runs the experiment.
     *
     * @param transport e.g. {@code RoceTransport.dcqcn(DcqcnParameters.zhu2015())} or {@code CtccTransport.of(RttControlParameters.ctcc())}
     * @param pfcOn PFC on the switch
     * @param seed seed of WRED marking
     * @param sink progress
     */
    public Result run(TransportModel transport, boolean pfcOn, long seed, ProgressSink sink) {
        Parameters.notNull("transport", transport);
        Parameters.notNull("sink", sink);
        EcnMarking wred = transport instanceof RoceTransport r && r.dcqcn() != null ? r.dcqcn().marking() : EcnMarking.OFF;
        long sample = Time.US;
        SimulationConfig c = new SimulationConfig(1000, 0, 2, new SwitchBuffer(32_000_000, 16_000_000, wred),
                Forwarding.ecmp(fabriclab.loadbalancing.hash.HashFunction.CRC32, 0), seed, sample,
                (int) (durationPs / sample) + 1);
        Scenario scenario = Scenario.builder(Topology.singleSwitch(senders + 1, rateBitsPerSecond, Time.US), c).flows(flows())
                .transport(transport).pfc(pfcOn ? new Pfc(1_000_000, 900_000, 100_000, 65535) : null).build();
        long half = durationPs / 2;
        long[] secondHalfBits = new long[1];
        long[] smallQueuePs = new long[probes];
        int receiver = senders;
        int firstProbe = scenario.firstQueuePair(senders); // the trace names queue pairs; each probe has one
        long[] queuePairBits = new long[firstProbe];        // data queue pairs are 0 .. firstProbe - 1
        Simulator sim = new Simulator(scenario, (sw, port, flow, data, wire, delay, t) -> {
            if (data && t >= half && port == receiver) {
                secondHalfBits[0] += 8L * wire;
                if (flow < firstProbe) {
                    queuePairBits[flow] += 8L * wire;
                }
            }
            if (data && flow >= firstProbe) {
                smallQueuePs[flow - firstProbe] += delay;
            }
        });
        SimulationResult r = sim.run(durationPs, sink);
        SimulationResult.QueueTrace q = r.queues().stream().filter(x -> x.peerNode() == receiver).findFirst().orElseThrow();
        long[] s = q.occupancyBytes();
        double mean = Arrays.stream(s, Math.min(s.length, s.length / 2), s.length).average().orElse(0);
        double[] latencies = new double[probes];
        double latencySum = 0;
        double queueSum = 0;
        int finished = 0;
        for (int k = 0; k < probes; k++) {
            SimulationResult.FlowRecord small = r.flows().get(senders + k);
            latencies[k] = small.completed() ? Time.toMicros(small.completionTimePs()) : -1;
            if (small.completed()) {
                finished++;
                latencySum += latencies[k];
                queueSum += Time.toMicros(smallQueuePs[k]);
            }
        }
        double halfS = Time.toSeconds(durationPs - half);
        double[] rates = new double[firstProbe];
        for (int i = 0; i < firstProbe; i++) {
            rates[i] = queuePairBits[i] / halfS;
        }
        return new Result(transport.getClass().getSimpleName(), pfcOn, q.peakBytes(), mean,
                secondHalfBits[0] / halfS, r.droppedPackets(), r.pausesSent(),
                finished == 0 ? -1 : latencySum / finished, s, sample, r, finished == 0 ? -1 : queueSum / finished,
                latencies, rates);
    }

    /**
     * One setting of CTCC's unstated parameters (001 gives none): the probe interval, the rate each
     * queue pair starts at, and the target RTT; the rest as {@link RttControlParameters#ctcc()}.
     *
     * @param probeIntervalS time between probes of a source-destination pair [s], positive
     * @param initialRateFraction starting rate of each queue pair over line rate, in (0, 1]
     * @param targetRttS target RTT [s], positive
     */
    public record CtccSetting(double probeIntervalS, double initialRateFraction, double targetRttS) {
        /** Validates. */
        public CtccSetting {
            Parameters.positive("probeIntervalS", probeIntervalS);
            Parameters.inHalfOpenRange("initialRateFraction", initialRateFraction, 0.0, 1.0);
            Parameters.positive("targetRttS", targetRttS);
        }

        /** This project's defaults: probe every 10 us, start at line rate, target 15 us. */
        public static CtccSetting defaults() {
            return new CtccSetting(10e-6, 1.0, 15e-6);
        }

        /** The transport. */
        public CtccTransport transport() {
            return CtccTransport.of(RttControlParameters.ctcc().withProbeInterval(probeIntervalS).withTargetRtt(targetRttS))
                    .withInitialRateFraction(initialRateFraction);
        }
    }

    /**
     * The start-up sweep of notebook 07: from {@link CtccSetting#defaults()}, one parameter at a time:
     * probe interval 2, 5, 20 us; initial rate 1/10, 1/100 and 1/7000 of line rate (the last is the fair
     * share of 7 x 1000 queue pairs); target RTT 8, 30, 60 us.
     */
    public static List<CtccSetting> ctccStartupSettings() {
        CtccSetting d = CtccSetting.defaults();
        List<CtccSetting> list = new ArrayList<>();
        list.add(d);
        for (double p : new double[] {2e-6, 5e-6, 20e-6}) {
            list.add(new CtccSetting(p, d.initialRateFraction(), d.targetRttS()));
        }
        for (double f : new double[] {0.1, 0.01, 1.0 / 7000}) {
            list.add(new CtccSetting(d.probeIntervalS(), f, d.targetRttS()));
        }
        for (double t : new double[] {8e-6, 30e-6, 60e-6}) {
            list.add(new CtccSetting(d.probeIntervalS(), d.initialRateFraction(), t));
        }
        return list;
    }

    /**
     * Runs CTCC without PFC at each setting, on {@code threads} threads with a progress bar; results in
     * setting order (each run depends only on its setting and {@code seed}).
     *
     * @param settings the settings, no null element
     * @param seed the seed
     * @param threads worker threads, at least 1
     * @param sink where the progress bar goes
     * @throws InterruptedException if interrupted
     */
    public List<Result> ctccSweep(List<CtccSetting> settings, long seed, int threads, ProgressSink sink) throws InterruptedException {
        Parameters.noNullElements("settings", settings);
        return fabriclab.sweep.Sweep.run("001 incast, CTCC start-up (" + settings.size() + " runs)", settings,
                c -> run(c.transport(), false, seed, Progress.silent()), threads, sink);
    }

    /**
     * Runs {@code transport} once per seed (the seed draws the switch's WRED marks; nothing else in this experiment is
     * random), on {@code threads} threads with a progress bar; results in seed order.
     *
     * @param transport the transport
     * @param pfcOn PFC on the switch
     * @param seeds the seeds, 1 to 100 of them
     * @param threads worker threads, at least 1
     * @param sink where the progress bar goes
     * @throws InterruptedException if interrupted
     */
    public List<Result> seedRuns(TransportModel transport, boolean pfcOn, long[] seeds, int threads, ProgressSink sink)
            throws InterruptedException {
        Parameters.notNull("transport", transport);
        Parameters.notNull("seeds", seeds);
        Parameters.inRange("seeds.length", seeds.length, 1, 100);
        List<Long> list = Arrays.stream(seeds).boxed().toList();
        return fabriclab.sweep.Sweep.run("001 incast, " + seeds.length + " seeds", list,
                seed -> run(transport, pfcOn, seed, Progress.silent()), threads, sink);
    }
}
