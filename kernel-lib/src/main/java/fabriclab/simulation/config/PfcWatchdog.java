package fabriclab.simulation.config;

import fabriclab.Parameters;

/**
 * PFC deadlock detection and recovery in every port (seed 003 section 4.1.3), with the state
 * machine of {@link fabriclab.flowcontrol.DeadlockWatchdog}: a priority queue paused continuously
 * for {@code detectionPs} is declared deadlocked and ignores PFC for {@code recoveryPs} (it sends
 * although paused; the downstream buffer may overflow and drop); {@code maxDeadlocks} deadlocks
 * within {@code windowPs} disable PFC on that queue for the rest of the run. 003 gives the
 * mechanism, not the periods: they are the caller's settings (product timers are in the 10 to
 * 100 ms range; a packet-level run uses microseconds to stay short, which keeps the mechanism).
 *
 * @param detectionPs continuous pause that counts as a deadlock [ps], positive
 * @param recoveryPs time PFC is ignored after a detection [ps], positive
 * @param windowPs sliding window for counting deadlocks [ps], positive
 * @param maxDeadlocks deadlocks within the window that disable PFC, at least 1
 */
public record PfcWatchdog(long detectionPs, long recoveryPs, long windowPs, int maxDeadlocks) {
    /** Validates; times must stay below 2^53 ps (about 2.5 hours) so the state machine's arithmetic is exact. */
    public PfcWatchdog {
        long max = 1L << 53;
        Parameters.inRange("detectionPs", detectionPs, 1L, max);
        Parameters.inRange("recoveryPs", recoveryPs, 1L, max);
        Parameters.inRange("windowPs", windowPs, 1L, max);
        Parameters.atLeast("maxDeadlocks", maxDeadlocks, 1);
    }
}
