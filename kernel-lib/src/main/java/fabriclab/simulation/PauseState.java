package fabriclab.simulation;

import fabriclab.fabric.Pfc;
import fabriclab.simulation.event.EventHandler;

/**
 * The upstream half of PFC at one egress port: which priorities the peer has paused and until
 * when. A PAUSE frame with {@code q > 0} quanta stops new transmissions of its priority for
 * {@code q x 512} bit times (a refresh extends it); a zero-quanta frame (XON) resumes at once; a
 * pause that is not refreshed expires. The port consults {@link #paused} before starting a packet
 * and is kicked when a priority resumes. Counters: PAUSE and XON frames received, time paused.
 */
final class PauseState implements EventHandler {
    private final Port port;
    private final long[] pausedUntil;
    private final long[] pausedSince; // -1 when not paused
    private final long[] pausedPs;
    long pausesReceived;
    long xonReceived;
    private final EventHandler expiry = this::onExpiry;

    PauseState(Port port, int priorities) {
        this.port = port;
        this.pausedUntil = new long[priorities];
        this.pausedSince = new long[priorities];
        java.util.Arrays.fill(pausedSince, -1);
        this.pausedPs = new long[priorities];
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
        closeInterval(pr, timePs);
        if (quanta > 0) {
            pausesReceived++;
            if (pausedSince[pr] < 0) {
                pausedSince[pr] = timePs;
            }
            pausedUntil[pr] = timePs + Pfc.quantaPs(quanta, port.link.rateBps);
            port.net.events.schedule(pausedUntil[pr], expiry, pr);
        } else {
            xonReceived++;
            if (pausedSince[pr] >= 0) {
                pausedPs[pr] += timePs - pausedSince[pr];
                pausedSince[pr] = -1;
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
        }
    }

    /** Total time any priority was paused up to {@code end}, summed over priorities, ps. */
    long pausedPsUpTo(long end) {
        long total = 0;
        for (int pr = 0; pr < pausedPs.length; pr++) {
            total += pausedPs[pr];
            if (pausedSince[pr] >= 0) {
                total += Math.max(0, Math.min(pausedUntil[pr], end) - pausedSince[pr]);
            }
        }
        return total;
    }
}
