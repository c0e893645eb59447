package fabriclab.scheduling;

import fabriclab.Parameters;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Time;
import fabriclab.flowcontrol.FluidQueue;
import fabriclab.flowcontrol.RateInterval;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Event-driven request/grant incast under DGSQ (000 section 2; 002 section 3.1.2 and figure 7).
 * Each source holds its bytes for the destination in a virtual queue and asks for credit; the
 * destination's scheduler issues grants of g bytes, paced so that the total credit rate is C <= R,
 * each grant to the eligible source chosen by the {@link GrantPolicy}, and never faster to a source
 * than its path rate allows (intermediate links). A grant's bytes reach the egress port after a
 * delay drawn uniformly in [min, max] grant delay (seeded), at the source's link rate. The egress
 * queue is then computed exactly with {@link FluidQueue}.
 *
 * <p>Assumption: each source's path rate does not exceed its link rate, so grants to one source are
 * spaced at least one chunk time apart; sources do not serialize overlapping chunks.
 */
public final class DgsqSimulator {
    private final DgsqConfig config;

    /** @param config the scheduler */
    public DgsqSimulator(DgsqConfig config) {
        this.config = Parameters.notNull("config", config);
    }

    /** The most grants one run issues (each is kept for the result; demand / grantBytes above it is rejected). */
    public static final long MAX_GRANTS = 10_000_000L;

    /** The scheduler configuration. */
    public DgsqConfig config() {
        return config;
    }

    /**
     * Runs an {@link Incast}: sender i asks for its M bytes at its start {@code i * stagger}, with
     * link and path rate r (no slower intermediate link).
     *
     * @param incast the incast; its receiver rate must be the scheduler's port rate
     * @param seed   seed of the grant-delay draws (same seed, same result)
     */
    public DgsqResult run(Incast incast, long seed) {
        Parameters.notNull("incast", incast);
        if (config.portRateBitsPerSecond() != incast.receiverRateBitsPerSecond()) {
            throw new IllegalArgumentException("incast.receiverRateBitsPerSecond must equal config.portRateBitsPerSecond ("
                    + config.portRateBitsPerSecond() + "), got " + incast.receiverRateBitsPerSecond());
        }
        List<GrantSource> sources = new ArrayList<>(incast.senders());
        for (int i = 0; i < incast.senders(); i++) {
            sources.add(new GrantSource(incast.bytesPerSender(), incast.senderRateBitsPerSecond(), incast.senderRateBitsPerSecond(),
                    Time.toSeconds(incast.startPs(i))));
        }
        return run(sources, seed);
    }

    /**
     * Runs one incast.
     *
     * @param sources the requesting sources (not empty)
     * @param seed    seed of the grant-delay draws (same seed, same result)
     * @return grants, the egress trajectory and the source backlogs
     */
    public DgsqResult run(List<GrantSource> sources, long seed) {
        Parameters.notNull("sources", sources);
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("sources must not be empty");
        }
        int n = sources.size();
        double[] weight = new double[n];
        double[] remaining = new double[n];
        double[] granted = new double[n];
        double[] eligibleAt = new double[n];
        for (int i = 0; i < n; i++) {
            GrantSource s = Parameters.notNull("sources[" + i + "]", sources.get(i));
            remaining[i] = s.demandBytes();
            eligibleAt[i] = s.requestTimeS();
            weight[i] = switch (config.policy()) {
                case EQUAL -> 1.0;
                case DEMAND_WEIGHTED -> s.demandBytes();
                case PATH_WEIGHTED -> s.pathRateBitsPerSecond();
            };
        }
        double g = config.grantBytes();
        double grantsNeeded = 0;
        for (double r : remaining) {
            grantsNeeded += Math.ceil(r / g);
        }
        if (grantsNeeded > MAX_GRANTS) {
            double demand = java.util.Arrays.stream(remaining).sum();
            throw new IllegalArgumentException("config.grantBytes must be at least about " + demand / MAX_GRANTS
                    + " B for a demand of " + demand + " B (a run issues at most " + MAX_GRANTS + " grants), got " + g);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        double c = config.creditRateBitsPerSecond();
        List<double[]> grants = new ArrayList<>();
        List<RateInterval> chunks = new ArrayList<>();
        int left = n;
        double t = 0;
        while (left > 0) {
            int best = -1;
            double bestKey = Double.POSITIVE_INFINITY;
            double nextEligible = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                if (remaining[i] <= 0) {
                    continue;
                }
                if (eligibleAt[i] <= t) {
                    double key = (granted[i] + g) / weight[i];
                    if (key < bestKey) {
                        bestKey = key;
                        best = i;
                    }
                } else {
                    nextEligible = Math.min(nextEligible, eligibleAt[i]);
                }
            }
            if (best < 0) {
                t = nextEligible;
                continue;
            }
            GrantSource s = sources.get(best);
            double size = Math.min(g, remaining[best]);
            double d = config.minGrantDelayS() + rnd.nextDouble() * config.jitterS();
            grants.add(new double[] {t, best, size});
            chunks.add(RateInterval.ofBytes(t + d, size, s.linkRateBitsPerSecond()));
            granted[best] += size;
            remaining[best] -= size;
            if (remaining[best] <= 1e-9) {
                remaining[best] = 0;
                left--;
            }
            eligibleAt[best] = t + 8.0 * size / s.pathRateBitsPerSecond();
            t += 8.0 * size / c;
        }
        FluidQueue.Trajectory egress = FluidQueue.run(chunks, config.portRateBitsPerSecond(), Double.POSITIVE_INFINITY);
        double[] gt = new double[grants.size()];
        int[] gs = new int[grants.size()];
        double[] gb = new double[grants.size()];
        for (int k = 0; k < gt.length; k++) {
            gt[k] = grants.get(k)[0];
            gs[k] = (int) grants.get(k)[1];
            gb[k] = grants.get(k)[2];
        }
        double[] demand = sources.stream().mapToDouble(GrantSource::demandBytes).toArray();
        return new DgsqResult(config, demand, gt, gs, gb, egress);
    }
}
