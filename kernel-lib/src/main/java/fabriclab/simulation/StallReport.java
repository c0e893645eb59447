package fabriclab.simulation;

import fabriclab.fabric.Time;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Node;
import fabriclab.simulation.element.Port;
import fabriclab.simulation.element.Switch;
import java.util.ArrayList;
import java.util.List;

/**
 * The progress watchdog's side of the simulator: its limit with the fabric's grace, and the report of a stalled
 * run that {@link SimulationStalledException} carries.
 */
final class StallReport {
    private StallReport() {
    }

    /**
     * The watchdog's limit with the fabric's grace and the transport's own recovery timeout (see
     * {@code Simulator.progressWatchdog}), saturating.
     */
    static long limitPs(Network net, long stallLimitPs, long recoveryTimeoutPs) {
        if (stallLimitPs == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        long packet = (long) net.config.mtuBytes() + net.config.headerBytes();
        long grace = 0;
        for (fabriclab.fabric.LinkSpec l : net.topology.links()) {
            long ser = l.rateBitsPerSecond() <= 0 ? Long.MAX_VALUE : Time.serializationPs(packet, l.rateBitsPerSecond());
            grace = saturatingAdd(grace, saturatingAdd(saturatingAdd(l.propagationPs(), ser), saturatingAdd(l.propagationPs(), ser)));
        }
        return saturatingAdd(saturatingAdd(stallLimitPs, grace), recoveryTimeoutPs);
    }

    /** {@code ps} in milliseconds for the watchdog's message. */
    private static String fmt(long ps) {
        return ps == Long.MAX_VALUE ? "unbounded" : String.format(java.util.Locale.ROOT, "%.3f ms", ps / (double) Time.MS);
    }

    private static long saturatingAdd(long a, long b) {
        long r = a + b;
        return r < 0 || r < a ? Long.MAX_VALUE : r;
    }

    /**
     * The watchdog's stop of a run of {@code flows} on {@code net} that ended in {@code r}: the limit it exceeded
     * ({@code stallLimitPs} as set, {@code limitPs} with the grace), the incomplete flows, the ports that dropped or
     * were paused, the failed links.
     */
    static SimulationStalledException stalled(Network net, List<FlowState> flows, SimulationResult r, long stallLimitPs,
            long limitPs) {
        long last = 0;
        for (FlowState f : flows) {
            last = Math.max(last, Math.max(f.startedPs(), f.lastDeliveryPs()));
        }
        StringBuilder m = new StringBuilder();
        m.append("the run stopped: no payload delivered and no flow started from t = ").append(fmt(last))
                .append(" to t = ").append(fmt(r.endPs())).append(" while events still flowed (progress watchdog: ")
                .append(fmt(stallLimitPs)).append(" + the fabric's grace and the transport's timeout = ").append(fmt(limitPs))
                .append("; Simulator.progressWatchdog sets it). ");
        int incomplete = 0;
        StringBuilder fl = new StringBuilder();
        for (FlowState f : flows) {
            if (f.startedPs() >= 0 && f.completionPs() < 0) {
                if (incomplete < 8) {
                    int flow = net.workload().flowOf(f.id);
                    fl.append(incomplete == 0 ? "" : "; ").append("flow ").append(flow);
                    if (net.workload().flows.size() != net.workload().flowCount()) {
                        fl.append(" queue pair ").append(f.id - net.workload().firstQueuePair(flow));
                    }
                    fl.append(" (host ")
                            .append(f.spec.source()).append(" -> host ").append(f.spec.destination()).append(", ")
                            .append(f.receivedBytes()).append(" of ").append(f.spec.bytes()).append(" B delivered, ")
                            .append(f.dropped()).append(" packets dropped, ").append(f.retransmitted()).append(" retransmitted)");
                }
                incomplete++;
            }
        }
        long waiting = flows.stream().filter(f -> f.startedPs() < 0).count();
        m.append(net.workload().flows.size() != net.workload().flowCount() ? "Queue pairs started and incomplete: "
                : "Flows started and incomplete: ").append(incomplete).append(" of ").append(flows.size());
        if (waiting > 0) {
            m.append(" (").append(waiting).append(" not started yet)");
        }
        m.append(": ").append(fl).append(incomplete > 8 ? "; ..." : "").append(". ");
        List<String> drops = new ArrayList<>();
        List<String> paused = new ArrayList<>();
        List<String> down = new ArrayList<>();
        List<long[]> dropCounts = new ArrayList<>();
        for (Node n : net.nodes) {
            for (Port p : n.ports) {
                String name = (n instanceof Switch sw ? "switch " + sw.switchIndex : "host " + n.id) + " port " + p.index
                        + " -> node " + p.peer().id;
                if (p.queue.drops() > 0) {
                    dropCounts.add(new long[] {p.queue.drops(), drops.size()});
                    drops.add(name + " (" + p.queue.drops() + " drops)");
                }
                if (p.link.isDown() && (n.id < p.peer().id)) {
                    down.add(name);
                }
            }
        }
        for (SimulationResult.PortPfc p : r.pfc()) {
            if (p.pausesReceived() > 0) {
                paused.add(p.name() + " (" + p.pausesReceived() + " PAUSE frames received, paused "
                        + fmt(p.pausedPs()) + ")");
            }
        }
        dropCounts.sort((a, b) -> Long.compare(b[0], a[0]));
        m.append("Ports that dropped: ");
        if (drops.isEmpty()) {
            m.append("none");
        }
        for (int i = 0; i < Math.min(8, dropCounts.size()); i++) {
            m.append(i == 0 ? "" : ", ").append(drops.get((int) dropCounts.get(i)[1]));
        }
        m.append(drops.size() > 8 ? ", ... (" + drops.size() + " ports)" : "").append(". Ports paused by PFC: ");
        m.append(paused.isEmpty() ? "none" : String.join(", ", paused.subList(0, Math.min(8, paused.size()))))
                .append(paused.size() > 8 ? ", ... (" + paused.size() + " ports)" : "").append(".");
        if (!down.isEmpty()) {
            m.append(" Failed links: ").append(String.join(", ", down)).append(".");
        }
        return new SimulationStalledException(m.toString(), r);
    }
}
