package fabriclab.simulation.transport.uec;

import fabriclab.fabric.Time;
import fabriclab.simulation.element.Partition;
import fabriclab.simulation.event.EventHandler;
import java.util.ArrayDeque;

/**
 * The RCCC credit pacer of one receiving host (package-private runtime state; {@link Rccc}): a round robin over the
 * flows into the host that asked for credit, one grant per turn, the turns spaced by each grant's time at
 * {@code pullRateFraction} of the host's line rate; and, when none asks, unrequested grants to idle flows up to the
 * most credit a sender keeps. It lives at the receiving host: only that host's events and arrivals touch it.
 */
final class CreditPacer {
    private final Rccc rccc;
    private final long lineRateBitsPerSecond;
    private final long grantBytes;
    private final long slowCapBytes;
    private final ArrayDeque<UecFlow> active = new ArrayDeque<>();
    private final ArrayDeque<UecFlow> idle = new ArrayDeque<>();
    private Partition partition;
    private boolean running;
    long creditPackets;
    long creditBytes;
    private final EventHandler turn = this::onTurn;

    /**
     * @param rccc the settings
     * @param lineRateBitsPerSecond the receiving host's line rate
     * @param mssBytes the payload of a full packet (a grant is {@code packetsPerCredit} of them)
     * @param maxCreditBytes the most credit a sender keeps, wire bytes
     */
    CreditPacer(Rccc rccc, long lineRateBitsPerSecond, int mssBytes, long maxCreditBytes) {
        this.rccc = rccc;
        this.lineRateBitsPerSecond = lineRateBitsPerSecond;
        this.grantBytes = (long) rccc.packetsPerCredit() * mssBytes;
        this.slowCapBytes = maxCreditBytes;
    }

    /** Flow {@code f}'s target rose above its credit (or it must resend): it joins the round robin. */
    void request(UecFlow f, Partition at, long now) {
        if (f.inPull) {
            return;
        }
        if (f.inSlowPull) {
            idle.remove(f);
            f.inSlowPull = false;
        }
        f.inPull = true;
        active.addLast(f);
        start(at, now);
    }

    private void start(Partition at, long now) {
        partition = at;
        if (!running) {
            running = true;
            partition.events().schedule(now, turn, null);
        }
    }

    /** One turn: a grant to the next flow asking, else an unrequested grant to the next idle flow. */
    private void onTurn(long now, Object ignored) {
        long granted;
        if (!active.isEmpty()) {
            UecFlow f = active.pollFirst();
            granted = f.grant(Math.min(grantBytes, Math.max(0, f.creditBacklog())), now);
            if (f.creditBacklog() > 0) {
                active.addLast(f);
            } else {
                f.inPull = false;
                f.inSlowPull = true;
                idle.addLast(f);
            }
        } else if (!idle.isEmpty()) {
            UecFlow f = idle.pollFirst();
            granted = f.grant(grantBytes, now);
            if (f.creditBacklog() <= 0 && -f.creditBacklog() < slowCapBytes && !f.receivedAll()) {
                idle.addLast(f);
            } else {
                f.inSlowPull = false;
            }
        } else {
            running = false;
            return;
        }
        if (granted > 0) {
            creditPackets++;
            creditBytes += granted;
        }
        long spacing = Math.max(granted, Rccc.MIN_PULL_SPACING_BYTES);
        long gapPs = Math.max(1, Math.round(spacing * 8.0 * Time.S / (lineRateBitsPerSecond * rccc.pullRateFraction())));
        partition.events().schedule(now + gapPs, turn, null);
    }
}
