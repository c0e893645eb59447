package fabriclab.loadbalancing.flowlet;

import fabriclab.Parameters;
import java.util.SplittableRandom;

/**
 * Packet departure times of one flow, in microseconds, for the two traffic types the papers contrast
 * (seed 000 section 1.2.1 (2): datacenter traffic is many request/response mice with gaps that are
 * easy to find; AI training traffic is a few elephants with almost none).
 */
public final class PacketTrace {
    private PacketTrace() {
    }

    /** Serialisation time of one packet, microseconds: {@code 8 bytes / (rate x 1000)} (1 Gb/s = 1000 bits/us). */
    /** The largest packet {@link #packetTimeUs} takes, bytes (1e9). */
    public static final double MAX_PACKET_BYTES = 1e9;

    /**
     * The longest packet time, compute gap or idle time the traces take, us (1e9 us = 1000 s), so
     * that a trace's times stay finite and exact to well below a packet time.
     */
    public static final double MAX_INTERVAL_US = 1e9;

    public static double packetTimeUs(double packetBytes, double lineRateGbps) {
        Parameters.inHalfOpenRange("packetBytes", packetBytes, 0, MAX_PACKET_BYTES);
        Parameters.positive("lineRateGbps", lineRateGbps);
        return packetBytes * 8 / (lineRateGbps * 1000);
    }

    /**
     * An AI-training elephant: {@code steps} collective steps, each sending {@code packetsPerStep}
     * back-to-back packets at line rate (one packet time apart), separated by a compute phase of
     * {@code computeGapUs} with no traffic. The only idle gaps longer than a packet time are the
     * compute phases.
     *
     * @param steps at least 1
     * @param packetsPerStep at least 1
     * @param packetTimeUs spacing of packets within a step, us, > 0
     * @param computeGapUs idle time between the last packet of a step and the first of the next, us, > 0
     */
    public static double[] elephant(int steps, int packetsPerStep, double packetTimeUs, double computeGapUs) {
        Parameters.atLeast("steps", steps, 1);
        Parameters.atLeast("packetsPerStep", packetsPerStep, 1);
        Parameters.inHalfOpenRange("packetTimeUs", packetTimeUs, 0, MAX_INTERVAL_US);
        Parameters.inHalfOpenRange("computeGapUs", computeGapUs, 0, MAX_INTERVAL_US);
        if ((long) steps * packetsPerStep > 50_000_000L) {
            throw new IllegalArgumentException("steps x packetsPerStep must be <= 50,000,000 packets, got " + (long) steps * packetsPerStep);
        }
        double[] t = new double[steps * packetsPerStep];
        double period = (packetsPerStep - 1) * packetTimeUs + computeGapUs;
        int i = 0;
        for (int s = 0; s < steps; s++) {
            for (int p = 0; p < packetsPerStep; p++) {
                t[i++] = s * period + p * packetTimeUs;
            }
        }
        return t;
    }

    /**
     * A datacenter "mouse" connection: {@code messages} request/response messages, each of a
     * geometric number of packets (mean {@code meanPacketsPerMessage}) sent back to back, separated
     * by exponential idle times of mean {@code meanIdleUs}, starting at an exponential offset.
     *
     * @param seed generator seed; the same seed gives the same trace
     */
    public static double[] mice(int messages, double meanPacketsPerMessage, double packetTimeUs, double meanIdleUs, long seed) {
        Parameters.atLeast("messages", messages, 1);
        Parameters.inRange("meanPacketsPerMessage", meanPacketsPerMessage, 1, 1e6);
        Parameters.inHalfOpenRange("packetTimeUs", packetTimeUs, 0, MAX_INTERVAL_US);
        Parameters.inHalfOpenRange("meanIdleUs", meanIdleUs, 0, MAX_INTERVAL_US);
        if (messages * meanPacketsPerMessage > 50_000_000L) {
            throw new IllegalArgumentException("messages x meanPacketsPerMessage must be <= 50,000,000 packets, got "
                    + messages + " x " + meanPacketsPerMessage);
        }
        SplittableRandom r = new SplittableRandom(seed);
        double q = 1 / meanPacketsPerMessage; // geometric on {1, 2, ...} with mean 1/q
        double[] buf = new double[Math.max(16, (int) (messages * meanPacketsPerMessage * 1.5))];
        int n = 0;
        double now = -meanIdleUs * Math.log(1 - r.nextDouble());
        for (int msg = 0; msg < messages; msg++) {
            int packets = q >= 1 ? 1 : 1 + (int) Math.floor(Math.log(1 - r.nextDouble()) / Math.log(1 - q));
            for (int p = 0; p < packets; p++) {
                if (n == buf.length) {
                    buf = java.util.Arrays.copyOf(buf, buf.length * 2);
                }
                buf[n++] = now;
                now += packetTimeUs;
            }
            now += -meanIdleUs * Math.log(1 - r.nextDouble());
        }
        return java.util.Arrays.copyOf(buf, n);
    }
}
