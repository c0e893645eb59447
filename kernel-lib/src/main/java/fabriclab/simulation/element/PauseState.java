package fabriclab.simulation.element;

import fabriclab.simulation.config.PfcWatchdog;
import fabriclab.fabric.Pfc;
import fabriclab.flowcontrol.DeadlockWatchdog;
import fabriclab.simulation.event.EventHandler;

/**
 * The upstream half of PFC at one egress port: which priorities the peer has paused and until
 * when. A PAUSE frame with {@code q > 0} quanta stops new transmissions of its priority for
 * {@code q x 512} bit times (a refresh extends it); a zero-quanta frame (XON) resumes at once; a
 * pause that is not refreshed expires. The port consults {@link #paused} before starting a packet
 * and is kicked when a priority resumes. Counters: PAUSE and XON frames received, time paused,
 * deadlocks detected.
 *
 * <p>With a {@link PfcWatchdog} (seed 003 section 4.1.3), each priority has a
 * {@link DeadlockWatchdog}: a priority paused continuously for the detection time is declared
 * deadlocked and then ignores PFC for the recovery time (it sends although paused, so the
 * downstream buffer may overflow and drop); enough deadlocks in the window disable PFC on it for
 * good. The watchdog's state machine runs in picoseconds (exact arithmetic). PAUSE frames that
 * arrive while PFC is ignored are remembered, and a pause still in force when the recovery ends
 * applies again from then on (and counts afresh toward the next detection).
 */
public final class PauseState implements EventHandler {
    private final Port port;
    /** Per priority, the time the pause ends (the port's transmitter reads it directly). */
    final long[] pausedUntil;
    private final long[] pausedSince; // -1 when not paused
    private final long[] pausedPs;
    long pausesReceived;
    long xonReceived;
    long deadlocks;
    private final EventHandler expiry = this::onExpiry;
    // the watchdog (null when off)
    private PfcWatchdog watchdogConfig;
    private DeadlockWatchdog[] watchdogs;
    private boolean[] ignoring;
    private long[] ignoredUntil; // pause in force had PFC been honoured, while ignoring
    private final EventHandler watchdogCheck = this::onWatchdogCheck;
    // the duration of the last quanta value seen (frames nearly always carry the same one; exact, see Pfc.quantaPs)
    private int lastQuanta = -1;
    private long lastQuantaPs;

    /** {@link Pfc#quantaPs} at this link's rate, remembered for the last value. */
    private long quantaPs(int quanta) {
        if (quanta != lastQuanta) {
            lastQuantaPs = Pfc.quantaPs(quanta, port.link.rateBitsPerSecond);
            lastQuanta = quanta;
        }
        return lastQuantaPs;
    }

    PauseState(Port port, int priorities) {
        this.port = port;
        this.pausedUntil = new long[priorities];
        this.pausedSince = new long[priorities];
        java.util.Arrays.fill(pausedSince, -1);
        this.pausedPs = new long[priorities];
    }

    /** Watches every priority of this port for PFC deadlocks. */
    public void watch(PfcWatchdog config) {
        int n = pausedUntil.length;
        watchdogConfig = config;
        watchdogs = new DeadlockWatchdog[n];
        for (int pr = 0; pr < n; pr++) {
            watchdogs[pr] = new DeadlockWatchdog(config.detectionPs(), config.recoveryPs(), config.windowPs(),
                    config.maxDeadlocks());
        }
        ignoring = new boolean[n];
        ignoredUntil = new long[n];
    }

    /** Whether priority {@code pr} is paused at {@code t}. */
    boolean paused(int pr, long t) {
        return pausedUntil[pr] > t;
    }

    /** A PAUSE (quanta &gt; 0) or XON (quanta 0) frame arrived; payload is {@code priority << 16 | quanta}. */
    @Override
    public void handle(long timePs, Object payload) {
        if (port.link.down) {
            return;
        }
        int code = (Integer) payload;
        int pr = code >>> 16;
        int quanta = code & 0xFFFF;
        if (ignoring != null && ignoring[pr]) { // PFC ignored on this priority: remember, do not stop
            if (quanta > 0) {
                pausesReceived++;
                ignoredUntil[pr] = timePs + quantaPs(quanta);
            } else {
                xonReceived++;
                ignoredUntil[pr] = timePs;
            }
            watchdogs[pr].observe(timePs, quanta > 0);
            return;
        }
        closeInterval(pr, timePs);
        if (quanta > 0) {
            pausesReceived++;
            if (pausedSince[pr] < 0) {
                pausedSince[pr] = timePs;
                if (watchdogs != null) {
                    watchdogs[pr].observe(timePs, true);
                    port.part.events().schedule(timePs + watchdogConfig.detectionPs(), watchdogCheck, pr);
                }
            }
            pausedUntil[pr] = timePs + quantaPs(quanta);
            port.part.events().schedule(pausedUntil[pr], expiry, pr);
        } else {
            xonReceived++;
            if (pausedSince[pr] >= 0) {
                pausedPs[pr] += timePs - pausedSince[pr];
                pausedSince[pr] = -1;
                if (watchdogs != null) {
                    watchdogs[pr].observe(timePs, false);
                }
            }
            pausedUntil[pr] = timePs;
            port.kick(timePs);
        }
    }

    private void onExpiry(long timePs, Object payload) {
        int pr = (Integer) payload;
        if (pausedUntil[pr] != timePs) {
            return; // refreshed or resumed since
        }
        closeInterval(pr, timePs);
        port.kick(timePs);
    }

    /** Books a pause that expired (without XON) before {@code t}. */
    private void closeInterval(int pr, long t) {
        if (pausedSince[pr] >= 0 && pausedUntil[pr] <= t) {
            pausedPs[pr] += pausedUntil[pr] - pausedSince[pr];
            pausedSince[pr] = -1;
            if (watchdogs != null) {
                watchdogs[pr].observe(pausedUntil[pr], false);
            }
        }
    }

    /**
     * The watchdog of priority {@code payload} may have changed state: a detection period passed
     * (declare a deadlock and ignore PFC) or a recovery ended (honour PFC again, with any pause
     * still in force).
     */
    private void onWatchdogCheck(long timePs, Object payload) {
        int pr = (Integer) payload;
        DeadlockWatchdog.State state = watchdogs[pr].advanceTo(timePs);
        boolean ignore = state != DeadlockWatchdog.State.NORMAL;
        if (ignore && !ignoring[pr]) { // a deadlock: stop honouring the pause
            deadlocks++;
            ignoring[pr] = true;
            ignoredUntil[pr] = pausedUntil[pr];
            if (pausedSince[pr] >= 0) {
                pausedPs[pr] += timePs - pausedSince[pr];
                pausedSince[pr] = -1;
            }
            pausedUntil[pr] = timePs;
            if (state == DeadlockWatchdog.State.RECOVERING) {
                port.part.events().schedule(timePs + watchdogConfig.recoveryPs(), watchdogCheck, pr);
            }
            port.kick(timePs);
        } else if (!ignore && ignoring[pr]) { // recovery over: a pause still in force applies again
            ignoring[pr] = false;
            if (ignoredUntil[pr] > timePs) {
                pausedSince[pr] = timePs;
                pausedUntil[pr] = ignoredUntil[pr];
                port.part.events().schedule(pausedUntil[pr], expiry, pr);
                port.part.events().schedule(timePs + watchdogConfig.detectionPs(), watchdogCheck, pr);
            } else {
                watchdogs[pr].observe(timePs, false); // the last pause ran out during the recovery
            }
        }
    }

    /** Total time any priority was paused up to {@code end}, summed over priorities, ps. */
    public long pausedPsUpTo(long end) {
        long total = 0;
        for (int pr = 0; pr < pausedPs.length; pr++) {
            total += pausedPs[pr];
            if (pausedSince[pr] >= 0) {
                total += Math.max(0, Math.min(pausedUntil[pr], end) - pausedSince[pr]);
            }
        }
        return total;
    }

    /** PAUSE frames (non-zero quanta) this port received. */
    public long pausesReceived() {
        return pausesReceived;
    }

    /** XON (zero-quanta PAUSE) frames this port received. */
    public long xonReceived() {
        return xonReceived;
    }

    /** PFC deadlocks this port's watchdog declared, summed over priorities. */
    public long deadlocks() {
        return deadlocks;
    }
}
