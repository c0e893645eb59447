package fabriclab.simulation.config;

import fabriclab.Parameters;

/**
 * Everything about a run except topology and traffic.
 *
 * @param mtuBytes maximum payload per packet in bytes, at least 64
 * @param headerBytes bytes added to every packet on the wire (headers, preamble, inter-frame gap),
 *        not negative; 0 makes the wire carry payload only, which keeps hand calculations simple
 * @param priorities number of traffic classes (per-priority egress queues), 1 to 8
 * @param buffer buffer and ECN configuration of every switch that {@code bufferPlan} does not give another
 * @param forwarding multipath policy
 * @param seed seed of every random choice of the run (spraying, WRED)
 * @param samplePeriodPs period of queue-occupancy sampling in ps, 0 for none
 * @param maxSamples at most this many samples are kept per monitored queue (bounded memory)
 * @param bufferPlan buffers of particular switches and queue limits of particular ports, in place of {@code buffer}
 *        ({@link BufferPlan#none()}: {@code buffer} everywhere); its names and ports are checked against the
 *        topology by the scenario
 */
public record SimulationConfig(int mtuBytes, int headerBytes, int priorities, SwitchBuffer buffer,
        Forwarding forwarding, long seed, long samplePeriodPs, int maxSamples, BufferPlan bufferPlan) {
    /** The least payload per packet [bytes]. */
    public static final int MIN_MTU_BYTES = 64;
    /** The largest payload per packet [bytes]. */
    public static final int MAX_MTU_BYTES = 65536;
    /** The most bytes added to a packet on the wire [bytes]; the least is 0. */
    public static final int MAX_HEADER_BYTES = 4096;

    /** Validates; the buffer, and every buffer and queue limit of the plan, must hold at least one full packet. */
    public SimulationConfig {
        Parameters.atLeast("mtuBytes", mtuBytes, MIN_MTU_BYTES);
        Parameters.inRange("mtuBytes", mtuBytes, MIN_MTU_BYTES, MAX_MTU_BYTES);
        Parameters.atLeast("headerBytes", headerBytes, 0);
        Parameters.inRange("headerBytes", headerBytes, 0, MAX_HEADER_BYTES);
        Parameters.inRange("priorities", priorities, 1, 8);
        Parameters.notNull("buffer", buffer);
        Parameters.notNull("forwarding", forwarding);
        Parameters.atLeast("samplePeriodPs", samplePeriodPs, 0L);
        Parameters.atLeast("maxSamples", maxSamples, 0);
        long packet = (long) mtuBytes + headerBytes;
        if (buffer.sharedBytes() < packet) {
            throw new IllegalArgumentException("buffer.sharedBytes must hold at least one packet (mtuBytes + headerBytes = "
                    + packet + " B), got " + buffer.sharedBytes());
        }
        if (buffer.perQueueLimitBytes() < packet) {
            throw new IllegalArgumentException("buffer.perQueueLimitBytes must hold at least one packet (mtuBytes + headerBytes = "
                    + packet + " B), got " + buffer.perQueueLimitBytes());
        }
        Parameters.notNull("bufferPlan", bufferPlan);
        for (int i = 0; i < bufferPlan.tiers().size(); i++) {
            holdsPacket("bufferPlan.tiers[" + i + "].buffer", bufferPlan.tiers().get(i).buffer(), packet);
        }
        for (int i = 0; i < bufferPlan.switches().size(); i++) {
            holdsPacket("bufferPlan.switches[" + i + "].buffer", bufferPlan.switches().get(i).buffer(), packet);
        }
        for (int i = 0; i < bufferPlan.tierPorts().size(); i++) {
            holdsPacket("bufferPlan.tierPorts[" + i + "].queueLimitBytes", bufferPlan.tierPorts().get(i).queueLimitBytes(),
                    packet);
        }
        for (int i = 0; i < bufferPlan.ports().size(); i++) {
            holdsPacket("bufferPlan.ports[" + i + "].queueLimitBytes", bufferPlan.ports().get(i).queueLimitBytes(), packet);
        }
    }

    /** The run's buffer everywhere ({@link BufferPlan#none()}). */
    public SimulationConfig(int mtuBytes, int headerBytes, int priorities, SwitchBuffer buffer, Forwarding forwarding,
            long seed, long samplePeriodPs, int maxSamples) {
        this(mtuBytes, headerBytes, priorities, buffer, forwarding, seed, samplePeriodPs, maxSamples, BufferPlan.none());
    }

    private static void holdsPacket(String name, SwitchBuffer b, long packet) {
        holdsPacket(name + ".sharedBytes", b.sharedBytes(), packet);
        holdsPacket(name + ".perQueueLimitBytes", b.perQueueLimitBytes(), packet);
    }

    private static void holdsPacket(String name, long bytes, long packet) {
        if (bytes < packet) {
            throw new IllegalArgumentException(name + " must hold at least one packet (mtuBytes + headerBytes = " + packet
                    + " B), got " + bytes);
        }
    }

    /** 1000-byte MTU, no header, one priority, the given buffer, ECMP CRC-32 seed 0, no sampling. */
    public static SimulationConfig defaults(SwitchBuffer buffer) {
        return new SimulationConfig(1000, 0, 1, buffer, Forwarding.ecmp(fabriclab.loadbalancing.hash.HashFunction.CRC32, 0),
                1L, 0, 0);
    }

    /** A copy with another multipath policy. */
    public SimulationConfig withForwarding(Forwarding f) {
        return new SimulationConfig(mtuBytes, headerBytes, priorities, buffer, f, seed, samplePeriodPs, maxSamples,
                bufferPlan);
    }

    /** A copy with another seed. */
    public SimulationConfig withSeed(long s) {
        return new SimulationConfig(mtuBytes, headerBytes, priorities, buffer, forwarding, s, samplePeriodPs, maxSamples,
                bufferPlan);
    }

    /** A copy with queue sampling every {@code periodPs}, keeping at most {@code max} samples per queue. */
    public SimulationConfig withSampling(long periodPs, int max) {
        return new SimulationConfig(mtuBytes, headerBytes, priorities, buffer, forwarding, seed, periodPs, max, bufferPlan);
    }

    /** A copy with another MTU [bytes of payload per packet]. */
    public SimulationConfig withMtu(int bytes) {
        return new SimulationConfig(bytes, headerBytes, priorities, buffer, forwarding, seed, samplePeriodPs, maxSamples,
                bufferPlan);
    }

    /** A copy with the buffers of particular switches and the queue limits of particular ports ({@link BufferPlan}). */
    public SimulationConfig withBufferPlan(BufferPlan plan) {
        return new SimulationConfig(mtuBytes, headerBytes, priorities, buffer, forwarding, seed, samplePeriodPs, maxSamples,
                plan);
    }

    /**
     * A builder with named settings: {@code buffer} is required; the others default to a 1000-byte
     * MTU, no header bytes, one priority, ECMP with CRC-32 and hash seed 0, run seed 1 and no
     * sampling (as {@link #defaults}).
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Collects a configuration's settings by name; {@link #build()} validates them. */
    public static final class Builder {
        private int mtuBytes = 1000;
        private int headerBytes;
        private int priorities = 1;
        private SwitchBuffer buffer;
        private Forwarding forwarding = Forwarding.ecmp(fabriclab.loadbalancing.hash.HashFunction.CRC32, 0);
        private long seed = 1;
        private long samplePeriodPs;
        private int maxSamples;
        private BufferPlan bufferPlan = BufferPlan.none();

        private Builder() {
        }

        /** Maximum payload per packet [bytes], 64 to 65536 (default 1000). */
        public Builder mtuBytes(int bytes) {
            this.mtuBytes = bytes;
            return this;
        }

        /** Bytes added to every packet on the wire: headers, preamble, inter-frame gap [bytes] (default 0). */
        public Builder headerBytes(int bytes) {
            this.headerBytes = bytes;
            return this;
        }

        /** Traffic classes (per-priority egress queues), 1 to 8 (default 1). */
        public Builder priorities(int n) {
            this.priorities = n;
            return this;
        }

        /** Buffer and ECN marking of every switch (required). */
        public Builder buffer(SwitchBuffer b) {
            this.buffer = Parameters.notNull("buffer", b);
            return this;
        }

        /** Buffers of particular switches and queue limits of particular ports (default {@link BufferPlan#none()}). */
        public Builder bufferPlan(BufferPlan plan) {
            this.bufferPlan = Parameters.notNull("bufferPlan", plan);
            return this;
        }

        /** Multipath policy (default ECMP, CRC-32, hash seed 0). */
        public Builder forwarding(Forwarding f) {
            this.forwarding = Parameters.notNull("forwarding", f);
            return this;
        }

        /** Seed of every random choice of the run: spraying, ECN marking, jitter (default 1). */
        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        /** Samples every switch egress queue every {@code periodPs}, keeping at most {@code max} samples per queue. */
        public Builder sampling(long periodPs, int max) {
            this.samplePeriodPs = periodPs;
            this.maxSamples = max;
            return this;
        }

        /** The configuration; fails naming the first invalid setting. */
        public SimulationConfig build() {
            if (buffer == null) {
                throw new IllegalStateException("buffer is required: set the switch buffer with buffer(SwitchBuffer.shared(bytes))");
            }
            return new SimulationConfig(mtuBytes, headerBytes, priorities, buffer, forwarding, seed, samplePeriodPs, maxSamples,
                    bufferPlan);
        }
    }
}
