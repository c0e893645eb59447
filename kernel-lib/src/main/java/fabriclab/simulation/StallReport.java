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

    /**
     * Events at one instant before the watchdog calls the instant endless: {@code 2^24 + 64 x (nodes + ports + flow
     * states)}, at most {@code Integer.MAX_VALUE - 1}. An instant of a run that progresses holds a few events per
     * element (a packet's arrival and the end of a transmission at each port, a timer or a start per queue pair), far
     * below 64 each; {@code 2^24} (16.8 M) events take about 10 s at the sequential engine's 1 to 3 M events/s, the
     * bound on the wall-clock time an endless instant of a small fabric runs before it is stopped.
     */
    static int instantEventLimit(Network net, int flowStates) {
        long ports = 0;
        for (Node n : net.nodes) {
            ports += n.ports.size();
        }
        long limit = (1L << 24) + 64 * (net.nodes.length + ports + flowStates);
        return (int) Math.min(limit, Integer.MAX_VALUE - 1L);
    }

    /**
     * Events without a flow starting or payload delivered before the watchdog stops a run: {@code 2^27 + 2^18 x flow
     * states + 2^10 x (nodes + ports)}, saturating. 2^27 events take about 40 to 130 s at 1 to 3 M events/s.
     */
    static long quietEventLimit(Network net, int flowStates) {
        long ports = 0;
        for (Node n : net.nodes) {
            ports += n.ports.size();
        }
        return (1L << 27) + (1L << 18) * flowStates + (1L << 10) * (net.nodes.length + ports);
    }

    /**
     * The watchdog's stop of a run of {@code flows} on {@code net}, ended in {@code r}, after more than {@code limit}
     * events without a flow starting or payload delivered.
     */
    static SimulationStalledException quiet(Network net, List<FlowState> flows, SimulationResult r, long limit) {
        String rest = stalled(net, flows, r, Long.MAX_VALUE, Long.MAX_VALUE).getMessage();
        long last = 0;
        for (FlowState f : flows) {
            last = Math.max(last, Math.max(f.startedPs(), f.lastDeliveryPs()));
        }
        return new SimulationStalledException("the run stopped: more than "
                + String.format(java.util.Locale.ROOT, "%,d", limit) + " events were handled from t = " + fmt(last)
                + " to t = " + fmt(r.endPs()) + " with no payload delivered and no flow started (the watchdog on events"
                + " without progress; Simulator.quietWatchdog sets it). " + rest.substring(rest.indexOf(". ") + 2), r);
    }

    /**
     * The watchdog's stop of a run of {@code flows} on {@code net}, ended in {@code r}, at an instant that never
     * ended: the instant, the events handled at it, the kinds of event still pending there and the flows (queue pairs)
     * whose packets they carry, then the incomplete flows and the ports as {@link #stalled} lists them.
     */
    static SimulationStalledException stuck(Network net, List<FlowState> flows, SimulationResult r,
            fabriclab.simulation.engine.StuckInstant at) {
        StringBuilder m = new StringBuilder();
        m.append("the run stopped: simulated time stood still at t = ").append(fmtPs(at.timePs())).append(" while ")
                .append(String.format(java.util.Locale.ROOT, "%,d", at.events()))
                .append(" events were handled at that instant and more kept being scheduled at it (the instant watchdog's"
                        + " limit; Simulator.instantWatchdog sets it). Events pending at that instant, by handler: ");
        List<String> kinds = new ArrayList<>();
        at.handlers().entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .forEach(e -> kinds.add(e.getKey() + " " + e.getValue()));
        m.append(String.join(", ", kinds)).append(". ");
        if (!at.flowStates().isEmpty()) {
            boolean qps = net.workload().flows.size() != net.workload().flowCount();
            m.append("Their packets belong to ").append(qps ? "queue pairs of " : "").append("flows ");
            List<String> ids = new ArrayList<>();
            java.util.Set<String> seen = new java.util.LinkedHashSet<>();
            for (int id : at.flowStates()) {
                FlowState f = flows.get(id);
                seen.add(net.workload().flowOf(id) + " (host " + f.spec.source() + " -> host " + f.spec.destination() + ")");
            }
            ids.addAll(seen);
            m.append(String.join(", ", ids.subList(0, Math.min(8, ids.size())))).append(ids.size() > 8 ? ", ..." : "")
                    .append(". ");
        }
        String rest = stalled(net, flows, r, Long.MAX_VALUE, Long.MAX_VALUE).getMessage();
        m.append(rest.substring(rest.indexOf(". ") + 2)); // the incomplete flows and the ports, without the time-limit sentence
        return new SimulationStalledException(m.toString(), r);
    }

    /** {@code ps} with its unit for the watchdog's message. */
    private static String fmtPs(long ps) {
        return ps < Time.MS ? String.format(java.util.Locale.ROOT, "%.6f us", ps / (double) Time.US) : fmt(ps);
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
        return stalled(net, flows, r, stallLimitPs, limitPs, false);
    }

    /**
     * As {@link #stalled(Network, List, SimulationResult, long, long)}; {@code dropping}: the watchdog stopped the run
     * because packets kept being dropped past {@code limitPs} (the limit without the transport's timeout).
     */
    static SimulationStalledException stalled(Network net, List<FlowState> flows, SimulationResult r, long stallLimitPs,
            long limitPs, boolean dropping) {
        long last = 0;
        for (FlowState f : flows) {
            last = Math.max(last, Math.max(f.startedPs(), f.lastDeliveryPs()));
        }
        StringBuilder m = new StringBuilder();
        m.append("the run stopped: no payload delivered and no flow started from t = ").append(fmt(last))
                .append(" to t = ").append(fmt(r.endPs()));
        if (dropping) {
            m.append(" while packets kept being sent and dropped (progress watchdog for flows that send and lose every"
                    + " packet: ").append(fmt(stallLimitPs)).append(" + the fabric's grace = ").append(fmt(limitPs))
                    .append("; Simulator.progressWatchdog sets it). ");
        } else {
            m.append(" while events still flowed (progress watchdog: ").append(fmt(stallLimitPs))
                    .append(" + the fabric's grace and the transport's timeout = ").append(fmt(limitPs))
                    .append("; Simulator.progressWatchdog sets it). ");
        }
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
