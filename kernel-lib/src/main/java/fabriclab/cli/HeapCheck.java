package fabriclab.cli;

import fabriclab.scenarios.ScenarioSettings;
import java.util.Locale;

/**
 * The heap a run of {@code bin/simulate} needs, estimated from its settings and checked against the JVM's before
 * anything is built ({@link #checkHeap}): a run that cannot fit is refused with the options that size it.
 */
final class HeapCheck {
    private HeapCheck() {
    }

    /**
     * Heap per host that a run is assumed to need, bytes, to refuse sizes that cannot fit before building anything:
     * the peak RSS of the whole process per host of the RoCE+PFC permutation with 16 MB buffers at 3456 and at
     * 10,000 hosts ({@code BENCH-RESULTS.md}), rounded up. A floor, not a promise: with deep buffers and no PFC
     * the packets held in the queues can need much more.
     */
    static final long HEAP_BYTES_PER_HOST = 100_000L;

    /**
     * Heap per flow (per queue pair: each is a flow of the run) assumed besides, bytes: the flow's state, endpoints and result, from the heap after a full GC
     * of ring all-reduces of thousands to a hundred thousand flows, built and after the run
     * ({@code BENCH-RESULTS.md}), rounded up. It
     * matters where flows outnumber hosts: an all-reduce's steps are flows (2 (R - 1) per host in a ring of R ranks).
     */
    static final long HEAP_BYTES_PER_FLOW = 1_500L;

    /**
     * Heap per link between a leaf and a spine assumed besides, bytes: its two ports' queues, counters and PFC state,
     * from the heap after a full GC of leaf-spines of 16,384 to 131,072 such links built and run for a few
     * microseconds (2.1 KB per link measured), rounded up. It matters where links outnumber
     * hosts: 1024 leaves of one host each under 4096 spines have 4 M of them. A host's own link is in
     * {@link #HEAP_BYTES_PER_HOST}.
     */
    static final long HEAP_BYTES_PER_LINK = 3_000L;

    /**
     * Heap per packet held in a switch's buffer or on a link assumed besides, bytes: 93 B measured per packet in flight
     * (12.8 GB of 1064-byte packets on 1 s links) and per packet queued (300 MB in one incast switch), rounded up.
     */
    static final long HEAP_BYTES_PER_PACKET = 150L;

    /**
     * The packets a run may hold at once, at most: the bytes the switches may queue (each switch's {@code --buffer} or
     * {@code --switch-buffer}, or with PFC at most, per port, the XOFF threshold plus what arrives in the round trip of
     * its link and two packets)
     * and the bytes on the links (each direction's rate times its delay), but no more than the workload sends, in
     * packets of {@code --mtu + --header}.
     */
    static double heldPackets(ScenarioSettings w, long flows) {
        ScenarioSettings.Fabric fabric = w.fabric();
        ScenarioSettings.Traffic traffic = w.traffic();
        ScenarioSettings.Transport transport = w.transport();
        boolean incast = w.workload().equals("incast");
        double wire = transport.mtuBytes() + transport.headerBytes();
        double rate = fabric.rateBitsPerSecond();
        double fabricLinks = incast ? 0 : (double) fabric.hosts() / fabric.hostsPerLeaf() * fabric.spines() * fabric.parallelLinks();
        double hostLinks = incast ? traffic.senders() + 1.0 : fabric.hosts();
        double links = hostLinks + fabricLinks;
        double onLinks = 2 * links * rate * (fabric.delayPs() / 1e12) / 8; // both directions of every link
        double ports = hostLinks + 2 * fabricLinks; // switch ports: a host link has one, a fabric link two
        double switches = incast ? 1 : (double) fabric.hosts() / fabric.hostsPerLeaf() + fabric.spines();
        double queued = switches * fabric.bufferBytes();
        if (!fabric.bufferPlan().isEmpty()) { // each switch's own buffer
            fabriclab.fabric.Topology t = w.topology();
            fabriclab.simulation.config.SwitchBuffer run =
                    fabriclab.simulation.config.SwitchBuffer.shared(fabric.bufferBytes());
            queued = 0;
            for (int s = 0; s < t.switches(); s++) {
                queued += fabric.bufferPlan().bufferOf(t, s, run).sharedBytes();
            }
        }
        if (transport.pfc() != null) {
            double perPort = transport.pfc().xoffBytes() + 2 * rate * (fabric.delayPs() / 1e12) / 8 + 2 * wire;
            queued = Math.min(queued, ports * perPort);
        }
        double sent = w.standard() ? flows * traffic.distribution().meanBytes()
                : incast ? (double) traffic.senders() * traffic.flowBytes()
                : w.workload().equals("permutation") ? (double) fabric.hosts() * traffic.flowBytes()
                : 2.0 * fabric.hosts() * traffic.flowBytes(); // an all-reduce: each rank sends 2 (p - 1) / p of its buffer
        double sentPackets = sent / transport.mtuBytes() + flows; // a partial packet per flow
        return Math.min(sentPackets, (queued + onLinks) / wire);
    }

    /**
     * Fails naming the options that size the run when it would need more than {@code maxHeapBytes} (instead of running
     * out of memory): {@link #HEAP_BYTES_PER_HOST} per host, {@link #HEAP_BYTES_PER_FLOW} per flow,
     * {@link #HEAP_BYTES_PER_LINK} per leaf-spine link and {@link #HEAP_BYTES_PER_PACKET} per packet it may hold
     * ({@link #heldPackets}).
     */
    static void checkHeap(ScenarioSettings w, long maxHeapBytes) {
        ScenarioSettings.Fabric fabric = w.fabric();
        ScenarioSettings.Traffic traffic = w.traffic();
        ScenarioSettings.Transport transport = w.transport();
        boolean incast = w.workload().equals("incast");
        boolean allReduce = w.workload().endsWith("allreduce");
        long hosts = incast ? traffic.senders() + 1L : fabric.hosts();
        long stepsPerHost = !allReduce ? 1 // a flow per host (permutation) or per sender (incast)
                : w.collective().transfersPerRank(traffic.ranks());
        long flows = w.standard() ? standardFlowsEstimate(w) // drawn later: their expected number
                : (incast ? traffic.senders() : fabric.hosts()) * stepsPerHost * traffic.queuePairs(); // runtime flows: queue pairs
        double links = incast ? 0 : (double) fabric.hosts() / fabric.hostsPerLeaf() * fabric.spines() * fabric.parallelLinks();
        double packets = heldPackets(w, flows);
        double hostsAndFlows = hosts * (double) HEAP_BYTES_PER_HOST + flows * (double) HEAP_BYTES_PER_FLOW; // (can pass 2^63)
        double linkHeap = links * HEAP_BYTES_PER_LINK;
        double packetHeap = packets * HEAP_BYTES_PER_PACKET;
        double need = hostsAndFlows + linkHeap + packetHeap;
        if (need > maxHeapBytes) {
            String what;
            if (linkHeap >= hostsAndFlows && linkHeap >= packetHeap) {
                what = String.format(Locale.ROOT, "--hosts %d with --hosts-per-leaf %d, --spines %d and --parallel-links %d"
                        + " (%,.0f leaf-spine links)", fabric.hosts(), fabric.hostsPerLeaf(), fabric.spines(), fabric.parallelLinks(), links);
            } else if (packetHeap >= hostsAndFlows) {
                what = String.format(Locale.ROOT, "--buffer %d%s with --delay %d ps and %s (up to %,.0f packets held in"
                        + " buffers and on links)", fabric.bufferBytes(), transport.pfc() == null ? " and --pfc off" : "", fabric.delayPs(),
                        incast ? "--senders " + traffic.senders() + " of --flow-bytes " + traffic.flowBytes()
                                : w.standard() ? "--hosts " + fabric.hosts() + " with about " + flows + " flows"
                                : "--hosts " + fabric.hosts() + " of --flow-bytes " + traffic.flowBytes(), packets);
            } else {
                what = w.standard() ? String.format(Locale.ROOT, "--hosts %d with about %,d flows", fabric.hosts(), flows)
                        : incast ? "--senders " + traffic.senders()
                        : allReduce ? "--hosts " + fabric.hosts() + " with --ranks " + traffic.ranks()
                        : "--hosts " + fabric.hosts();
                if (traffic.queuePairs() > 1) {
                    what += " with --qps " + traffic.queuePairs();
                }
                if (allReduce || traffic.queuePairs() > 1) {
                    what += " (" + flows + (traffic.queuePairs() > 1 ? " queue pairs)" : " flows)");
                }
            }
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "%s needs about %.1f GB of heap (%d KB per host, %.1f KB per flow, %.1f KB per leaf-spine link, %d B per"
                            + " packet held), this JVM has %.1f GB: a smaller run, or a larger heap"
                            + " (FABRICLAB_SIMULATE_JAVA_OPTS=-Xmx%dg bin/simulate ...)",
                    what, need / 1e9, HEAP_BYTES_PER_HOST / 1000, HEAP_BYTES_PER_FLOW / 1000.0, HEAP_BYTES_PER_LINK / 1000.0,
                    HEAP_BYTES_PER_PACKET, maxHeapBytes / 1e9, (long) Math.ceil(need * 1.5 / (1L << 30))));
        }
    }

    /**
     * The flows a standard workload is expected to draw: the Poisson flows expected in its window (at most
     * {@code --flow-count}) plus its incast flows, with 4 standard deviations of the Poisson count on top.
     */
    static long standardFlowsEstimate(ScenarioSettings w) {
        ScenarioSettings.Fabric fabric = w.fabric();
        ScenarioSettings.Traffic traffic = w.traffic();
        fabriclab.workload.PoissonTraffic p = new fabriclab.workload.PoissonTraffic(traffic.distribution(), fabric.hosts(),
                fabric.rateBitsPerSecond(), traffic.load(), traffic.durationPs(), traffic.flowCount(), fabriclab.workload.IncastMix.off(), w.seed());
        double expected = p.expectedFlows() + 4 * Math.sqrt(p.expectedFlows());
        if (traffic.flowCount() > 0) {
            expected = Math.min(expected, traffic.flowCount());
        }
        double window = traffic.flowCount() > 0 ? Math.min(traffic.durationPs(), traffic.flowCount() / (fabric.hosts() * p.flowsPerSecondPerHost()) * 1e12)
                : traffic.durationPs();
        double incastFlows = traffic.incast().on() ? Math.floor(window / traffic.incast().periodPs()) * traffic.incast().senders() : 0;
        return (long) Math.ceil(expected + incastFlows);
    }
}
