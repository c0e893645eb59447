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
    /** The largest payload of a sender's flow [bytes]: 1e12; the least is 1. */
    public static final long MAX_BYTES_PER_SENDER = 1_000_000_000_000L;
    /** The shortest time between bursts [ps]: 1 ns. */
    public static final long MIN_PERIOD_PS = 1_000L;

    /** Validates. */
    public IncastMix {
        Parameters.inRange("senders", senders, 0, PoissonTraffic.MAX_HOSTS - 1);
        Parameters.inRange("bytesPerSender", bytesPerSender, 1L, MAX_BYTES_PER_SENDER);
        Parameters.inRange("periodPs", periodPs, MIN_PERIOD_PS, Long.MAX_VALUE);
    }

    /** No incast. */
    public static IncastMix off() {
        return new IncastMix(0, 1, MIN_PERIOD_PS);
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
