package fabriclab.workload;

import fabriclab.Parameters;

/**
 * Incast bursts mixed into a {@link PoissonTraffic}: every {@code periodPs}, from {@code periodPs} on, {@code senders}
 * distinct hosts drawn at random each send {@code bytesPerSender} to one receiver drawn at random among the others, all
 * starting together. {@link #off()} (no senders) mixes nothing in.
 *
 * @param senders senders per burst, 0 (off) to {@link PoissonTraffic#MAX_HOSTS} - 1 (at most the hosts but one when
 *     generated)
 * @param bytesPerSender payload of each sender's flow, bytes, 1 to 1e12
 * @param periodPs time between bursts, ps, at least 1 ns
 */
public record IncastMix(int senders, long bytesPerSender, long periodPs) {
    /** Validates. */
    public IncastMix {
        Parameters.inRange("senders", senders, 0, PoissonTraffic.MAX_HOSTS - 1);
        Parameters.inRange("bytesPerSender", bytesPerSender, 1L, 1_000_000_000_000L);
        Parameters.inRange("periodPs", periodPs, 1_000L, Long.MAX_VALUE);
    }

    /** No incast. */
    public static IncastMix off() {
        return new IncastMix(0, 1, 1_000);
    }

    /** Whether bursts are mixed in (at least one sender). */
    public boolean on() {
        return senders > 0;
    }

    /** Bursts in {@code [0, durationPs)}: {@code ceil(durationPs / periodPs) - 1} (none at time 0), 0 when off. */
    public long bursts(long durationPs) {
        Parameters.atLeast("durationPs", durationPs, 0L);
        return on() && durationPs > 0 ? (durationPs - 1) / periodPs : 0;
    }
}
