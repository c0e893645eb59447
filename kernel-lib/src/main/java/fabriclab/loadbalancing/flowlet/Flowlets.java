package fabriclab.loadbalancing.flowlet;

import fabriclab.Parameters;

/**
 * Flowlet splitting (seed 000 section 1.2.1 (2)): a flow is cut into flowlets wherever the idle time
 * between two consecutive packets exceeds a timeout; all packets of one flowlet follow one path,
 * and each new flowlet may take a new one. The timeout must exceed the delay skew between paths,
 * or the flowlets can arrive out of order; deployments use tens to hundreds of microseconds.
 */
public final class Flowlets {
    private Flowlets() {
    }

    private static void checkTrace(double[] times) {
        Parameters.finiteElements("packetTimesUs", times);
        if (times.length == 0) {
            throw new IllegalArgumentException("packetTimesUs must contain at least 1 packet, got an empty array");
        }
        for (int i = 1; i < times.length; i++) {
            if (!(times[i] >= times[i - 1])) {
                throw new IllegalArgumentException("packetTimesUs must be non-decreasing and finite, but element " + i + " is "
                        + times[i] + " after " + times[i - 1]);
            }
        }
    }

    /**
     * Flowlet index of every packet: a new flowlet starts at packet i when
     * {@code t[i] - t[i-1] > timeoutUs}.
     *
     * @param packetTimesUs non-decreasing departure times, us, not empty
     * @param timeoutUs flowlet timeout, us, >= 0
     */
    public static int[] split(double[] packetTimesUs, double timeoutUs) {
        checkTrace(packetTimesUs);
        Parameters.nonNegative("timeoutUs", timeoutUs);
        int[] id = new int[packetTimesUs.length];
        int f = 0;
        for (int i = 1; i < packetTimesUs.length; i++) {
            if (startsNew(packetTimesUs[i] - packetTimesUs[i - 1], timeoutUs)) {
                f++;
            }
            id[i] = f;
        }
        return id;
    }

    /**
     * The flowlet rule: a packet starts a new flowlet when the idle time since the previous packet of its flow
     * exceeds the timeout (strictly). Any one time unit for both (the packet simulator's switches apply it in ps to
     * route per flowlet).
     *
     * @param idle time since the previous packet of the flow, finite and &gt;= 0
     * @param timeout the flowlet timeout (inactivity interval), in the unit of {@code idle}, finite and &gt;= 0
     */
    public static boolean startsNew(double idle, double timeout) {
        Parameters.nonNegative("idle", idle);
        Parameters.nonNegative("timeout", timeout);
        return idle > timeout;
    }

    /** Number of flowlets: 1 + the number of gaps longer than the timeout. */
    public static int count(double[] packetTimesUs, double timeoutUs) {
        int[] id = split(packetTimesUs, timeoutUs);
        return id[id.length - 1] + 1;
    }
}
