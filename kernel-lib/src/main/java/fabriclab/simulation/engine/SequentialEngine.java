package fabriclab.simulation.engine;

import fabriclab.Parameters;
import fabriclab.progress.ProgressSink;
import fabriclab.simulation.element.Partition;
import fabriclab.simulation.event.EventQueue;

/**
 * The sequential engine: one partition holding every node, its events handled one instant at a time in time
 * order, the clock set before an instant's handlers run. An instant's events follow the scenario's
 * {@code TieOrder}: the engines' one rule ({@link fabriclab.simulation.element.CanonicalOrder}, the default, as the
 * parallel engine) once the partition applies it, else the order they were scheduled in.
 */
public final class SequentialEngine {
    /** Events between two checks for an interrupt and progress reports. */
    static final long CHECK_EVERY_EVENTS = 1 << 16;

    private final Partition part;
    private boolean stalled;
    private int instantEventLimit = Integer.MAX_VALUE;
    private long droppingLimitPs = Long.MAX_VALUE;
    private boolean dropping;
    private long quietEventLimit = Long.MAX_VALUE;
    private boolean quiet;
    private StuckInstant stuckInstant;

    /** The engine of {@code part}, the run's only partition. */
    public SequentialEngine(Partition part) {
        this.part = Parameters.notNull("part", part);
    }

    /**
     * Runs the partition's events until none is pending, the next would pass {@code timeLimitPs}, the thread is
     * interrupted, or the progress watchdog stops it ({@link #stalled()}): a flow has started and not completed and
     * no flow has started and no payload was delivered for more than {@code stallLimitPs} of simulated time
     * ({@link Partition#lastProgressPs}), checked after each instant. Reports progress to {@code sink} (see
     * {@link RunProgress}).
     *
     * @param timeLimitPs last simulated time to handle, ps ({@code Long.MAX_VALUE}: none)
     * @param stallLimitPs simulated time without progress that stops the run, ps, positive ({@code Long.MAX_VALUE}:
     *        no watchdog)
     * @param totalPayloadMb the payload of all the flows, MB rounded up (the progress total without a time limit)
     * @param sink progress sink
     * @return the events handled; {@code -handled - 1} if the run stopped with events pending
     */
    public long run(long timeLimitPs, long stallLimitPs, long totalPayloadMb, ProgressSink sink) {
        Parameters.atLeast("timeLimitPs", timeLimitPs, 1L);
        Parameters.atLeast("stallLimitPs", stallLimitPs, 1L);
        Parameters.atLeast("totalPayloadMb", totalPayloadMb, 0L);
        Parameters.notNull("sink", sink);
        stalled = false;
        stuckInstant = null;
        dropping = false;
        quiet = false;
        boolean partial = false;
        long handled = 0;
        long quietSince = 0; // events handled when a flow last started or payload was last delivered
        long lastDelivered = 0;
        long lastStarted = 0;
        long nextCheck = CHECK_EVERY_EVENTS;
        EventQueue events = part.events();
        try (RunProgress progress = new RunProgress(null, timeLimitPs, totalPayloadMb, sink)) {
            while (true) {
                // all events of one instant at a time: handlers read the clock from now
                long t = events.peekTime();
                if (events.size() == part.cancelledEvents()) {
                    break; // nothing pending, or only timers that would do nothing: the run is over
                }
                if (t > timeLimitPs) {
                    partial = true; // stopped by the time limit
                    break;
                }
                part.advanceClockTo(t);
                int n = events.dispatchNextInstant(timeLimitPs, instantEventLimit);
                handled += n;
                if (n == instantEventLimit && events.peekTime() == t && events.size() > part.cancelledEvents()) {
                    stalled = true; // the watchdog: an instant that keeps scheduling events at itself never ends
                    stuckInstant = StuckInstant.takeFrom(events, t, n);
                    partial = true;
                    break;
                }
                long idle = part.now() - part.lastProgressPs();
                boolean droppingStall = idle > droppingLimitPs && part.lastDropPs() - part.lastProgressPs() > droppingLimitPs;
                if ((idle > stallLimitPs || droppingStall) && part.flowsStarted() > part.flowsCompleted()) {
                    stalled = true; // the watchdog: flows in progress, nothing delivered for the limit
                    dropping = droppingStall && idle <= stallLimitPs;
                    partial = !events.isEmpty();
                    break;
                }
                if (handled >= nextCheck) {
                    nextCheck = handled + CHECK_EVERY_EVENTS;
                    if (Thread.currentThread().isInterrupted()) {
                        partial = !events.isEmpty();
                        break;
                    }
                    progress.simulatedTo(part.now());
                    progress.delivered(part.deliveredBytes());
                    if (part.deliveredBytes() != lastDelivered || part.flowsStarted() != lastStarted) {
                        lastDelivered = part.deliveredBytes();
                        lastStarted = part.flowsStarted();
                        quietSince = handled;
                    } else if (handled - quietSince > quietEventLimit && part.flowsStarted() > part.flowsCompleted()) {
                        stalled = true; // the watchdog: events keep coming, nothing is delivered
                        quiet = true;
                        partial = !events.isEmpty();
                        break;
                    }
                }
            }
            progress.finish(part.deliveredBytes());
        }
        return partial ? -handled - 1 : handled;
    }

    /**
     * Sets the progress watchdog's bound on one instant (before the run; default none): a run that handles more than
     * {@code limit} events at one simulated time, with more still scheduled at it, stops ({@link #stalled()},
     * {@link #stuckInstant()}). Simulated time cannot advance past such an instant, so the watchdog on simulated time
     * would never see it; counting events keeps the outcome independent of the machine's speed.
     *
     * @param limit events at one instant, positive
     * @return this engine
     */
    public SequentialEngine instantEventLimit(int limit) {
        this.instantEventLimit = Parameters.atLeast("limit", limit, 1);
        return this;
    }

    /**
     * Sets the watchdog's limit for a run that keeps dropping packets (before the run; default none): the run also
     * stops when a flow has started and not completed, nothing was delivered and no flow started for more than
     * {@code limitPs}, and packets were still being dropped after that time ({@link #stalledDropping()}). Such flows
     * are not waiting for a timer (the longer limit of {@link #run} allows for that): their packets are sent and lost.
     *
     * @param limitPs simulated time without progress while packets are dropped, ps, positive ({@code Long.MAX_VALUE}:
     *        none)
     * @return this engine
     */
    public SequentialEngine droppingLimit(long limitPs) {
        this.droppingLimitPs = Parameters.atLeast("limitPs", limitPs, 1L);
        return this;
    }

    /**
     * Sets the watchdog's limit on events without progress (before the run; default none): the run also stops when
     * a flow has started and not completed and more than {@code limit} events were handled since a flow last started
     * or payload was last delivered (checked every {@value #CHECK_EVERY_EVENTS} events), whatever simulated time
     * did meanwhile ({@link #stalledQuiet()}). It bounds the work of a run whose simulated time advances but whose
     * flows never get anywhere (packets or probes circling while every flow waits for a long timer).
     *
     * @param limit events, positive ({@code Long.MAX_VALUE}: none)
     * @return this engine
     */
    public SequentialEngine quietEventLimit(long limit) {
        this.quietEventLimit = Parameters.atLeast("limit", limit, 1L);
        return this;
    }

    /** Whether the watchdog stopped the last run for events without progress ({@link #quietEventLimit}). */
    public boolean stalledQuiet() {
        return quiet;
    }

    /** Whether the watchdog stopped the last run for packets dropped without progress ({@link #droppingLimit}). */
    public boolean stalledDropping() {
        return dropping;
    }

    /** The instant that never ended if the watchdog stopped the last run at one, else null. */
    public StuckInstant stuckInstant() {
        return stuckInstant;
    }

    /** Whether the progress watchdog stopped the last run. */
    public boolean stalled() {
        return stalled;
    }
}
