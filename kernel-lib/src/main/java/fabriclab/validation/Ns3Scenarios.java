package fabriclab.validation;

import fabriclab.simulation.TieOrder;
import fabriclab.simulation.Simulator;
import fabriclab.Parameters;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Time;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import java.util.List;

/**
 * The scenarios the packet simulator shares with ns-3 3.37, as our simulator runs them. The ns-3 side is
 * two programs of ours in {@code kernel-lib/src/test/ns3/} ({@code fabriclab-incast.cc}, {@code fabriclab-red.cc});
 * their outputs for exactly these cases are the published datasets {@value #INCAST_DATASET},
 * {@value #HELD_QUEUE_DATASET} and {@value #STEP_DATASET}, written and re-checked against ns-3 by
 * {@code Ns3ReferenceDatasetsTest}. How each modelling difference between the two simulators is neutralised (wire
 * size, what the buffer holds, the order of simultaneous events, where RED counts the queue) is stated in the
 * differential tests {@code Ns3DifferentialTest} and {@code Ns3EcnDifferentialTest}.
 *
 * <p>All scenarios use {@value #WIRE_BYTES}-byte packets on the wire (MTU {@value #WIRE_BYTES}, no header), no
 * congestion control ({@code TransportModel.uncontrolled()}: a dropped packet is not resent), one output-queued switch
 * and a shared drop-tail buffer.
 */
public final class Ns3Scenarios {
    /** Bytes of every packet on the wire, both simulators. */
    public static final int WIRE_BYTES = 1000;
    /** The published dataset of ns-3's drop-tail incasts ({@link #INCASTS}, both orders of simultaneous events). */
    public static final String INCAST_DATASET = "ns3-droptail-incast";
    /** The published dataset of ns-3's RED marking at a held queue ({@link #HELD_QUEUES}). */
    public static final String HELD_QUEUE_DATASET = "ns3-red-held-queue";
    /** The published dataset of ns-3's leaf-spine permutations ({@link #PERMUTATIONS}), one row per flow. */
    public static final String PERMUTATION_DATASET = "ns3-leafspine-permutation";
    /** The published dataset of ns-3's step (single-threshold) marking in the incasts ({@link #STEPS}). */
    public static final String STEP_DATASET = "ns3-step-marking";

    private Ns3Scenarios() {
    }

    /**
     * A drop-tail incast on one switch: {@code senders} hosts each send {@code bytesPerSender} bytes from time 0 at
     * line rate to one receiver; every link has rate {@code rateBitsPerSecond} and delay {@code delayPs}; the switch
     * buffer is a drop-tail byte limit of {@code bufferBytes} (a packet counts until its last bit has left the port).
     *
     * @param senders at least 1
     * @param bytesPerSender a positive multiple of {@link #WIRE_BYTES}
     * @param rateBitsPerSecond link rate, bit/s, at least 1 Mb/s
     * @param delayPs propagation delay of every link, ps, positive
     * @param bufferBytes the switch's shared buffer, bytes, at least one packet
     */
    public record DropTailIncast(int senders, long bytesPerSender, long rateBitsPerSecond, long delayPs, long bufferBytes) {
        /** Validates as stated on the record. */
        public DropTailIncast {
            Parameters.inRange("senders", senders, 1, 4096);
            Parameters.inRange("bytesPerSender", bytesPerSender, WIRE_BYTES, 1L << 40);
            if (bytesPerSender % WIRE_BYTES != 0) {
                throw new IllegalArgumentException("bytesPerSender must be a multiple of " + WIRE_BYTES + ", got "
                        + bytesPerSender);
            }
            Parameters.inRange("rateBitsPerSecond", rateBitsPerSecond, 1_000_000L, 10_000_000_000_000L);
            Parameters.inRange("delayPs", delayPs, 1L, Time.S);
            Parameters.inRange("bufferBytes", bufferBytes, WIRE_BYTES, 1L << 40);
        }

        /** The time one packet takes on a link, ps: 8 {@link #WIRE_BYTES} / rate. */
        public long packetPs() {
            return WIRE_BYTES * 8L * Time.S / rateBitsPerSecond;
        }

        /** The incast as our simulator runs it, ECN marking on {@code marking} (null for none). */
        Scenario scenario(EcnMarking marking) {
            SwitchBuffer buffer = SwitchBuffer.shared(bufferBytes);
            SimulationConfig cfg = SimulationConfig.builder().mtuBytes(WIRE_BYTES).headerBytes(0)
                    .buffer(marking == null ? buffer : buffer.withEcnMarking(marking)).build();
            return Scenario.incast(Incast.of(senders, bytesPerSender, rateBitsPerSecond), delayPs, cfg)
                    .withTieOrder(TieOrder.SCHEDULING);
        }

        /** Runs the incast in our simulator: drops, the receiver port's peak occupancy, the last delivery, the bytes delivered. */
        public IncastFigures runOurs() {
            return runOurs(false);
        }

        /**
         * Runs it in ours, under the engines' one order of simultaneous events ({@link TieOrder#CANONICAL}, run seed
         * 1) if {@code canonical}, else in the sequential engine's scheduling order ({@link TieOrder#SCHEDULING}, ns-3's
         * own order).
         */
        public IncastFigures runOurs(boolean canonical) {
            SimulationResult r = new Simulator(scenario(null).withTieOrder(canonical ? TieOrder.CANONICAL
                    : TieOrder.SCHEDULING)).run();
            return new IncastFigures(r.droppedPackets(), receiverPort(r, senders).peakBytes(), r.lastDeliveryPs(),
                    r.deliveredBytes());
        }
    }

    /**
     * What a drop-tail incast gives.
     *
     * @param drops packets dropped at the switch
     * @param peakBytes peak occupancy of the receiver's port, bytes (admitted and not yet fully transmitted)
     * @param lastDeliveryPs time the last packet reached the receiver, ps
     * @param deliveredBytes bytes delivered to the receiver
     */
    public record IncastFigures(long drops, long peakBytes, long lastDeliveryPs, long deliveredBytes) {
    }

    /** The three incasts compared with ns-3: 8 x 100 kB into 200 kB and 32 x 50 kB into 512 kB at 100 Gb/s, 8 x 64 kB into 1 MB at 25 Gb/s. */
    public static final List<DropTailIncast> INCASTS = List.of(
            new DropTailIncast(8, 100_000, 100_000_000_000L, 1_000_000, 200_000),
            new DropTailIncast(32, 50_000, 100_000_000_000L, 500_000, 512_000),
            new DropTailIncast(8, 64_000, 25_000_000_000L, 2_000_000, 1_000_000));

    /**
     * A queue held at a known occupancy, marked on the curve of {@link EcnMarking} (Kmin, Kmax, Pmax). Three senders
     * into one switch port, every link {@value #HELD_RATE} bit/s with 1 us delay, buffer 200 kB: senders 0 and 1 send
     * {@value #BUILD_PACKETS} packets each from time 0, which builds the queue to {@value #BUILD_PACKETS} + 1 packets;
     * sender 2 sends {@value #HELD_PACKETS} packets from ({@value #BUILD_PACKETS} - 1/2) packet times on, one per
     * packet time, each finding the queue at exactly {@link #heldOccupancyBytes()} = 41 kB. The compared figure is the
     * fraction of sender 2's packets delivered marked.
     *
     * @param kMinBytes the curve's Kmin, bytes, below 41 kB
     * @param kMaxBytes the curve's Kmax, bytes, above 41 kB
     * @param pMax the curve's Pmax, in (0, 1]
     */
    public record HeldQueue(long kMinBytes, long kMaxBytes, double pMax) {
        /** Validates as stated on the record. */
        public HeldQueue {
            Parameters.inRange("kMinBytes", kMinBytes, 0L, heldOccupancyBytes() - 1);
            Parameters.inRange("kMaxBytes", kMaxBytes, heldOccupancyBytes() + 1, 1L << 30);
            Parameters.inRange("pMax", pMax, Double.MIN_NORMAL, 1.0);
        }

        /** The occupancy every packet of the held flow finds, bytes: ({@value #BUILD_PACKETS} + 1) {@link #WIRE_BYTES}. */
        public static long heldOccupancyBytes() {
            return (BUILD_PACKETS + 1L) * WIRE_BYTES;
        }

        /** The curve's marking probability at {@link #heldOccupancyBytes()}. */
        public double curveProbability() {
            return new EcnMarking(kMinBytes, kMaxBytes, pMax).probability(heldOccupancyBytes());
        }

        /**
         * Runs the held queue in our simulator with the run's seed {@code seed} (the ECN draws): the held flow's
         * packets delivered marked, its packets delivered, the drops and the port's peak occupancy.
         */
        public HeldQueueFigures runOurs(long seed) {
            long packetPs = WIRE_BYTES * 8L * Time.S / HELD_RATE;
            SimulationConfig cfg = SimulationConfig.builder().mtuBytes(WIRE_BYTES).headerBytes(0).seed(seed)
                    .buffer(SwitchBuffer.shared(200L * WIRE_BYTES).withEcnMarking(new EcnMarking(kMinBytes, kMaxBytes, pMax)))
                    .build();
            Incast topo = Incast.of(3, WIRE_BYTES, HELD_RATE);
            int rx = topo.receiver();
            SimulationResult r = new Simulator(Scenario.builder(topo.topology(Time.US), cfg).name("held queue")
                    .flow(FlowSpec.of(0, rx, (long) BUILD_PACKETS * WIRE_BYTES, 0))
                    .flow(FlowSpec.of(1, rx, (long) BUILD_PACKETS * WIRE_BYTES, 0))
                    .flow(FlowSpec.of(2, rx, (long) HELD_PACKETS * WIRE_BYTES, BUILD_PACKETS * packetPs - packetPs / 2))
                    .tieOrder(TieOrder.SCHEDULING).build()).run();
            SimulationResult.FlowRecord held = r.flows().get(2);
            return new HeldQueueFigures(held.ecnMarkedPackets(), held.deliveredBytes() / WIRE_BYTES, r.droppedPackets(),
                    receiverPort(r, rx).peakBytes());
        }
    }

    /** Link rate of the held-queue scenario, bit/s. */
    public static final long HELD_RATE = 100_000_000_000L;
    /** Packets each of the two building senders sends in the held-queue scenario. */
    public static final int BUILD_PACKETS = 40;
    /** Packets of the held flow in the held-queue scenario. */
    public static final int HELD_PACKETS = 20_000;

    /**
     * What the held queue gives.
     *
     * @param markedPackets the held flow's packets delivered with an ECN mark
     * @param deliveredPackets the held flow's packets delivered
     * @param drops packets dropped at the switch
     * @param peakBytes peak occupancy of the port, bytes
     */
    public record HeldQueueFigures(long markedPackets, long deliveredPackets, long drops, long peakBytes) {
    }

    /** The held queues compared with ns-3: 41 kB at 1/4, 1/2 and 3/4 of the ramp with Pmax 0.2, and at 1/2 with Pmax 0.6. */
    public static final List<HeldQueue> HELD_QUEUES = List.of(
            new HeldQueue(21_000, 101_000, 0.2),
            new HeldQueue(21_000, 61_000, 0.2),
            new HeldQueue(11_000, 51_000, 0.2),
            new HeldQueue(21_000, 61_000, 0.6));

    /**
     * A drop-tail incast with a step threshold (DCTCP style): every admitted packet that finds more than
     * {@code thresholdBytes} in the port is marked, none other.
     *
     * @param incast the incast
     * @param thresholdBytes the threshold K, bytes, at least 0
     */
    public record StepMarking(DropTailIncast incast, long thresholdBytes) {
        /** Validates as stated on the record. */
        public StepMarking {
            Parameters.notNull("incast", incast);
            Parameters.inRange("thresholdBytes", thresholdBytes, 0L, 1L << 40);
        }

        /** Runs the incast in our simulator: drops, packets delivered and packets delivered marked. */
        public StepFigures runOurs() {
            SimulationResult r = new Simulator(incast.scenario(new EcnMarking(thresholdBytes, thresholdBytes, 1.0))).run();
            long marked = r.flows().stream().mapToLong(SimulationResult.FlowRecord::ecnMarkedPackets).sum();
            return new StepFigures(r.droppedPackets(), r.deliveredBytes() / WIRE_BYTES, marked);
        }
    }

    /**
     * What a step-marked incast gives.
     *
     * @param drops packets dropped at the switch
     * @param deliveredPackets packets delivered
     * @param markedPackets packets delivered with an ECN mark
     */
    public record StepFigures(long drops, long deliveredPackets, long markedPackets) {
    }

    /** The step-marked incasts compared with ns-3: the three {@link #INCASTS} with K = 20 kB, 100 kB and 200 kB. */
    public static final List<StepMarking> STEPS = List.of(
            new StepMarking(INCASTS.get(0), 20_000),
            new StepMarking(INCASTS.get(1), 100_000),
            new StepMarking(INCASTS.get(2), 200_000));

    /** Leaves of the permutation's leaf-spine. */
    public static final int PERMUTATION_LEAVES = 4;
    /** Hosts per leaf of the permutation's leaf-spine. */
    public static final int PERMUTATION_HOSTS_PER_LEAF = 4;
    /** Bytes every flow of the permutation sends (100 packets). */
    public static final long PERMUTATION_BYTES = 100_000;
    /** Link rate of the permutation's leaf-spine, bit/s. */
    public static final long PERMUTATION_RATE = 100_000_000_000L;

    /**
     * A permutation of line-rate flows on a leaf-spine: {@value #PERMUTATION_LEAVES} leaves of
     * {@value #PERMUTATION_HOSTS_PER_LEAF} hosts, {@code spines} spines, one link per host-leaf and per leaf-spine
     * pair, every link {@value #PERMUTATION_RATE} bit/s with 1 us delay; every host sends {@value #PERMUTATION_BYTES}
     * bytes from time 0 to its partner in {@link Scenario#permutation}'s derangement for {@code seed}; no congestion
     * control, no drop (a 1 GiB shared buffer), so every queue is a FIFO output queue. Ours hashes each flow onto a
     * spine with CRC-32 ({@code Forwarding.ecmp}, seeded); the ns-3 program picks each flow's spine uniformly at random
     * (seed 1, run {@code seed}), so with more than one spine the two are compared as distributions over seeds.
     *
     * @param spines spine switches, in [1, 64]
     * @param seed the permutation's and the hash's seed, in [1, 2^31 - 1]
     */
    public record LeafSpinePermutation(int spines, long seed) {
        /** Validates as stated on the record. */
        public LeafSpinePermutation {
            Parameters.inRange("spines", spines, 1, 64);
            Parameters.inRange("seed", seed, 1L, Integer.MAX_VALUE);
        }

        /** The permutation as our simulator runs it. */
        public Scenario scenario() {
            fabriclab.fabric.LeafSpine fabric = new fabriclab.fabric.LeafSpine(PERMUTATION_LEAVES * PERMUTATION_HOSTS_PER_LEAF,
                    1, PERMUTATION_LEAVES, spines, PERMUTATION_RATE, PERMUTATION_RATE, 1, Time.US, Time.US);
            SimulationConfig cfg = SimulationConfig.builder().mtuBytes(WIRE_BYTES).headerBytes(0)
                    .buffer(SwitchBuffer.shared(1L << 30))
                    .forwarding(fabriclab.simulation.config.Forwarding.ecmp(
                            fabriclab.loadbalancing.hash.HashFunction.CRC32, (int) seed))
                    .seed(seed).build();
            return Scenario.permutation(fabric, PERMUTATION_BYTES, seed, cfg).withTieOrder(TieOrder.SCHEDULING);
        }

        /**
         * Runs the permutation in our simulator: each flow's completion time (its last delivery; all start at 0), ps,
         * in flow order.
         *
         * @throws IllegalStateException if a packet was dropped (the buffer is meant never to fill)
         */
        public long[] runOurs() {
            SimulationResult r = new Simulator(scenario()).run();
            if (r.droppedPackets() != 0) {
                throw new IllegalStateException("the permutation dropped " + r.droppedPackets() + " packets");
            }
            return r.flows().stream().mapToLong(SimulationResult.FlowRecord::lastDeliveryPs).toArray();
        }
    }

    /** The permutations compared with ns-3: one spine with seeds 1 to 5 (paths equal), four spines with seeds 1 to 20. */
    public static final List<LeafSpinePermutation> PERMUTATIONS = permutations();

    private static List<LeafSpinePermutation> permutations() {
        List<LeafSpinePermutation> l = new java.util.ArrayList<>();
        for (long seed = 1; seed <= 5; seed++) {
            l.add(new LeafSpinePermutation(1, seed));
        }
        for (long seed = 1; seed <= 20; seed++) {
            l.add(new LeafSpinePermutation(4, seed));
        }
        return List.copyOf(l);
    }

    private static SimulationResult.QueueTrace receiverPort(SimulationResult r, int receiver) {
        return r.queues().stream().filter(q -> q.peerNode() == receiver).findFirst()
                .orElseThrow(() -> new IllegalStateException("no queue towards the receiver " + receiver));
    }
}
