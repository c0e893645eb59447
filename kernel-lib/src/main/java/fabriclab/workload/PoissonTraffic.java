package fabriclab.workload;

import fabriclab.Parameters;
import fabriclab.simulation.config.FlowSpec;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The field's standard traffic for flow-completion studies (DCTCP, pFabric, HPCC): flows between random host pairs,
 * sizes drawn from an empirical {@link FlowSizeDistribution}, Poisson arrivals at a target load, optionally with incast
 * bursts mixed in ({@link IncastMix}). A pure function of its parameters and {@code seed}: the same record always
 * gives the same flows.
 *
 * <p><b>Load.</b> Each host starts flows as a Poisson process of rate {@code lambda} per second; each flow carries
 * {@code mean} bytes on average, so the host offers {@code lambda * 8 * mean} bit/s on its link of rate {@code R}.
 * Setting that to {@code load * R} gives {@code lambda = load * R / (8 * mean)} flows per second per host
 * ({@link #flowsPerSecondPerHost}). The load is the offered load of each host link (and, as destinations are uniform,
 * of each host's downlink on average), not of the fabric's core.
 *
 * <p><b>Drawing.</b> The hosts' independent Poisson processes together are one Poisson process of rate
 * {@code hosts * lambda} whose every arrival belongs to a host drawn uniformly (superposition and thinning of Poisson
 * processes); that is how they are drawn, so the flows come out in time order and the draw stops as soon as the window
 * or the flow count is reached. Inter-arrival times are exponential with mean {@code 1 / (hosts * lambda)}, by
 * inverse transform; each flow's destination is uniform over the other hosts (any pair, hosts on the same leaf
 * included, as HPCC's generator draws them); its size is {@link FlowSizeDistribution#sampleBytes}; its UDP source port
 * (ECMP entropy) uniform in 49152..65535. Start times are the arrival times rounded down to the picosecond.
 *
 * <p><b>Window.</b> Arrivals in {@code [0, durationPs)}; with {@code maxFlows > 0}, at most the first
 * {@code maxFlows}, and the window then ends at the last one's start. Incast bursts fall at {@code k * periodPs},
 * {@code k >= 1}, inside the window; they are drawn from a stream of their own, so mixing them in leaves the
 * background flows unchanged.
 *
 * @param sizes the flow-size distribution (mean at least 1 byte)
 * @param hosts hosts, 2 to {@link #MAX_HOSTS}
 * @param hostRateBitsPerSecond rate of each host's link, bit/s, positive
 * @param load offered load of each host link, in (0, 1]
 * @param durationPs the arrival window, ps, 1 to {@link #MAX_DURATION_PS}
 * @param maxFlows the most background flows, 1 to {@link #MAX_FLOWS}, or 0 for as many as arrive in the window
 * @param incast the incast bursts mixed in ({@link IncastMix#off()} for none)
 * @param seed the seed of every draw
 */
public record PoissonTraffic(FlowSizeDistribution sizes, int hosts, long hostRateBitsPerSecond, double load,
        long durationPs, int maxFlows, IncastMix incast, long seed) {
    /** The most hosts. */
    public static final int MAX_HOSTS = 1 << 20;
    /** The most flows a generation may hold (background and incast together). */
    public static final int MAX_FLOWS = 2_000_000;
    /** The longest arrival window, ps (100 s). */
    public static final long MAX_DURATION_PS = 100_000_000_000_000L;

    /** Validates; refuses a window whose expected flows exceed {@link #MAX_FLOWS}. */
    public PoissonTraffic {
        Parameters.notNull("sizes", sizes);
        Parameters.inRange("hosts", hosts, 2, MAX_HOSTS);
        Parameters.atLeast("hostRateBitsPerSecond", hostRateBitsPerSecond, 1L);
        Parameters.inHalfOpenRange("load", load, 0, 1);
        Parameters.inRange("durationPs", durationPs, 1L, MAX_DURATION_PS);
        Parameters.inRange("maxFlows", maxFlows, 0, MAX_FLOWS);
        Parameters.notNull("incast", incast);
        if (sizes.meanBytes() < 1) {
            throw new IllegalArgumentException("sizes must have a mean of at least 1 byte, got " + sizes.meanBytes());
        }
        if (incast.on() && incast.senders() > hosts - 1) {
            throw new IllegalArgumentException("incast.senders must be at most hosts - 1 = " + (hosts - 1) + ", got "
                    + incast.senders());
        }
        double expected = hosts * (load * hostRateBitsPerSecond / (8 * sizes.meanBytes())) * (durationPs / 1e12);
        if (maxFlows == 0 && expected > MAX_FLOWS * 0.9) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "durationPs must hold at most about %,d flows (expected arrivals within 10%% of the limit %,d), got %d ps"
                            + " with %.0f expected (%d hosts at load %s of %d bit/s, mean flow %.0f B)",
                    (long) (MAX_FLOWS * 0.9), MAX_FLOWS, durationPs, expected, hosts, load, hostRateBitsPerSecond,
                    sizes.meanBytes()));
        }
        if (maxFlows == 0) { // (with a flow count the window's end is known only once drawn: generate checks it)
            checkIncast(incast, durationPs);
        }
    }

    /** Refuses bursts that would add more than half of {@link #MAX_FLOWS} in a window of {@code windowPs}. */
    private static void checkIncast(IncastMix incast, long windowPs) {
        long bursts = incast.bursts(windowPs);
        if ((double) bursts * incast.senders() > MAX_FLOWS / 2.0) {
            throw new IllegalArgumentException("incast must add at most " + MAX_FLOWS / 2 + " flows, got " + bursts
                    + " bursts of " + incast.senders() + " senders in " + windowPs + " ps (period " + incast.periodPs()
                    + " ps)");
        }
    }

    /** Flows each host starts per second, {@code load * R / (8 * mean)} (class comment). */
    public double flowsPerSecondPerHost() {
        return load * hostRateBitsPerSecond / (8 * sizes.meanBytes());
    }

    /** Background flows expected in the whole window (before any {@code maxFlows} cap). */
    public double expectedFlows() {
        return hosts * flowsPerSecondPerHost() * (durationPs / 1e12);
    }

    /**
     * The flows (class comment): background flows by start time, incast flows merged in at their bursts.
     *
     * @throws IllegalStateException if the arrivals exceed {@link #MAX_FLOWS} (far above their expectation)
     * @throws IllegalArgumentException if a flow count ends the window so late that the incast bursts would add more
     *     than half of {@link #MAX_FLOWS}
     */
    public GeneratedFlows generate() {
        SplittableRandom root = new SplittableRandom(seed);
        SplittableRandom background = root.split();
        SplittableRandom bursts = root.split();
        double ratePerPs = hosts * flowsPerSecondPerHost() / 1e12;
        List<FlowSpec> poisson = new ArrayList<>();
        double t = 0;
        long end = durationPs;
        while (true) {
            t += -Math.log(1 - background.nextDouble()) / ratePerPs;
            if (t >= durationPs) {
                break;
            }
            if (poisson.size() == MAX_FLOWS) {
                throw new IllegalStateException("more than " + MAX_FLOWS + " flows arrived in " + durationPs + " ps");
            }
            int src = background.nextInt(hosts);
            int dst = background.nextInt(hosts - 1);
            if (dst >= src) {
                dst++;
            }
            long bytes = sizes.sampleBytes(background);
            int port = 49152 + background.nextInt(16384);
            poisson.add(new FlowSpec(src, dst, bytes, (long) t, 0, port));
            if (maxFlows > 0 && poisson.size() == maxFlows) {
                end = (long) t + 1; // the window ends at the last flow's start (bursts at it included)
                break;
            }
        }
        List<FlowSpec> burst = new ArrayList<>();
        checkIncast(incast, end);
        if (incast.on()) {
            int[] hostsDrawn = new int[hosts];
            for (int i = 0; i < hosts; i++) {
                hostsDrawn[i] = i;
            }
            for (long k = 1; k <= (end - 1) / incast.periodPs(); k++) {
                long at = k * incast.periodPs();
                int receiver = bursts.nextInt(hosts);
                // partial Fisher-Yates over the hosts but the receiver: the first `senders` of a random order
                swap(hostsDrawn, indexOf(hostsDrawn, receiver), hosts - 1);
                for (int j = 0; j < incast.senders(); j++) {
                    swap(hostsDrawn, j, j + bursts.nextInt(hosts - 1 - j));
                    burst.add(new FlowSpec(hostsDrawn[j], receiver, incast.bytesPerSender(), at, 0,
                            49152 + bursts.nextInt(16384)));
                }
            }
        }
        List<FlowSpec> all = new ArrayList<>(poisson.size() + burst.size());
        BitSet isIncast = new BitSet();
        int i = 0;
        int j = 0;
        while (i < poisson.size() || j < burst.size()) { // merge by start time, background first at a tie
            boolean takeBurst = i == poisson.size() || j < burst.size() && burst.get(j).startPs() < poisson.get(i).startPs();
            if (takeBurst) {
                isIncast.set(all.size());
                all.add(burst.get(j++));
            } else {
                all.add(poisson.get(i++));
            }
        }
        return new GeneratedFlows(all, isIncast);
    }

    private static void swap(int[] a, int i, int j) {
        int x = a[i];
        a[i] = a[j];
        a[j] = x;
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        throw new IllegalStateException("host " + v + " missing");
    }
}
