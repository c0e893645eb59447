package fabriclab.flowcontrol;

import fabriclab.Parameters;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

/**
 * PFC deadlock detection and recovery for one priority queue (003 section 4.1.3), as a state
 * machine driven by a trace of pause-state observations.
 *
 * <ul>
 *   <li>NORMAL: PFC honoured. A queue that stays paused (XOFF received) continuously for the
 *       detection period is declared deadlocked.</li>
 *   <li>RECOVERING: for the recovery period the queue ignores PFC (sends or drops), then returns to
 *       NORMAL; pause observations during recovery are ignored.</li>
 *   <li>PFC_DISABLED: once {@code maxDeadlocks} deadlocks fall within the sliding {@code windowS},
 *       PFC is disabled on the queue for good (absorbing state).</li>
 * </ul>
 *
 * Observations must come in non-decreasing time; {@link #advanceTo} lets time pass without a
 * change. The object holds the state of one queue.
 */
public final class DeadlockWatchdog {
    /** States of the watchdog. */
    public enum State { NORMAL, RECOVERING, PFC_DISABLED }

    /**
     * A transition.
     *
     * @param timeS time of the transition [s]
     * @param from  previous state
     * @param to    new state
     */
    public record Transition(double timeS, State from, State to) {
        /** Validates: time finite and &gt;= 0, states not null. */
        public Transition {
            Parameters.nonNegative("timeS", timeS);
            Parameters.notNull("from", from);
            Parameters.notNull("to", to);
        }
    }

    private final double detection;
    private final double recovery;
    private final double window;
    private final int maxDeadlocks;

    private State state = State.NORMAL;
    private double now = 0;
    private boolean paused = false;
    private double pausedSince = Double.NaN;
    private double recoveryEnds = Double.NaN;
    private final Deque<Double> deadlocks = new ArrayDeque<>();
    private final List<Transition> log = new ArrayList<>();

    /**
     * @param detectionPeriodS continuous pause that counts as a deadlock [s], > 0
     * @param recoveryPeriodS  time PFC is ignored after a detection [s], > 0
     * @param windowS          sliding window for counting deadlocks [s], > 0
     * @param maxDeadlocks     deadlocks within the window that disable PFC, >= 1
     */
    public DeadlockWatchdog(double detectionPeriodS, double recoveryPeriodS, double windowS, int maxDeadlocks) {
        this.detection = Parameters.positive("detectionPeriodS", detectionPeriodS);
        this.recovery = Parameters.positive("recoveryPeriodS", recoveryPeriodS);
        this.window = Parameters.positive("windowS", windowS);
        this.maxDeadlocks = Parameters.atLeast("maxDeadlocks", maxDeadlocks, 1);
    }

    /** Current state. */
    public State state() {
        return state;
    }

    /** Every transition so far, in time order. */
    public List<Transition> transitions() {
        return Collections.unmodifiableList(log);
    }

    /** Number of deadlocks detected so far. */
    public int deadlocksDetected() {
        return (int) log.stream().filter(t -> t.to() == State.RECOVERING).count();
    }

    /** Lets time pass to {@code timeS} with the pause state unchanged. */
    public State advanceTo(double timeS) {
        Parameters.finite("timeS", timeS);
        if (timeS < now) {
            throw new IllegalArgumentException("timeS must be >= the last time " + now + ", got " + timeS);
        }
        while (true) {
            if (state == State.PFC_DISABLED) {
                break;
            }
            if (state == State.RECOVERING) {
                if (recoveryEnds <= timeS) {
                    move(recoveryEnds, State.NORMAL);
                    // the queue is judged afresh: a pause still present counts from the end of recovery
                    pausedSince = paused ? recoveryEnds : Double.NaN;
                    continue;
                }
                break;
            }
            // NORMAL
            if (paused && pausedSince + detection <= timeS) {
                double at = pausedSince + detection;
                deadlocks.addLast(at);
                while (!deadlocks.isEmpty() && deadlocks.peekFirst() <= at - window) {
                    deadlocks.pollFirst();
                }
                if (deadlocks.size() >= maxDeadlocks) {
                    move(at, State.PFC_DISABLED);
                    break;
                }
                move(at, State.RECOVERING);
                recoveryEnds = at + recovery;
                continue;
            }
            break;
        }
        now = timeS;
        return state;
    }

    /** Records that at {@code timeS} the queue is (or is not) paused by a received PFC XOFF. */
    public State observe(double timeS, boolean pausedNow) {
        advanceTo(timeS);
        if (pausedNow && !paused) {
            pausedSince = timeS;
        } else if (!pausedNow) {
            pausedSince = Double.NaN;
        }
        paused = pausedNow;
        return state;
    }

    private void move(double t, State to) {
        log.add(new Transition(t, state, to));
        state = to;
    }
}
