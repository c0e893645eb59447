package fabriclab.simulation;

import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.trace.Counters;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.element.EgressQueue;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.HostNic;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Node;
import fabriclab.simulation.element.PfcIngress;
import fabriclab.simulation.element.Port;
import fabriclab.simulation.element.Switch;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.TransportRun;
import fabriclab.simulation.trace.DropReason;
import fabriclab.Parameters;
import fabriclab.fabric.Time;
import java.util.List;

/**
 * What a run measured, grouped by what belongs together: the run itself ({@link RunSummary}: transport, end,
 * events), its totals ({@link Totals}: link crossings, control packets and the payload balance), what the fabric did
 * to packets ({@link FabricEvents}: losses by place, ECN marks, PFC), one record per flow and per queue pair, the
 * monitored queues' traces and the counters of the transport and the elements. The accessors of the groups' fields
 * are repeated here ({@link #deliveredBytes()}, {@link #ecnMarks()}, ...). Byte counts are payload bytes; at the end
 * of a complete run {@code injectedBytes == deliveredBytes + droppedBytes + discardedBytes + inFlightBytes} holds
 * exactly (injected bytes count retransmissions again), and {@code inFlightBytes == 0} unless the run is
 * {@code partial} or flows never completed.
 *
 * @param run the transport, the simulated end time and the events handled; not null
 * @param totals link crossings, control packets sent and the payload bytes injected, delivered, lost, discarded and
 *        in flight; not null
 * @param fabric the packets the fabric lost (by place and reason), marked with ECN, and the PFC counters of every
 *        port; not null
 * @param flows one record per flow, in input order, summed over the flow's queue pairs (see {@link FlowRecord}); not
 *        null, no null element
 * @param queuePairs one record per queue pair, flow-major (flow 0's queue pairs, then flow 1's, ...): element k is the
 *        queue pair the trace callbacks call k; its {@code id} is the index of its flow and its {@code spec} the queue
 *        pair's own part of the flow ({@link FlowSpec#queuePair}); as many as the flows' queue pairs; equal to
 *        {@code flows} when every flow has one queue pair; not null, no null element
 * @param queues the monitored egress queues; not null, no null element
 * @param counters (not null) the positive counters of the transport and the elements; read one with
 *        {@link #counter(Counter)} (the counters are declared by the models that report them:
 *        {@code TransportModel.NACKS}, {@code RoceTransport.RATE_CUTS}, {@code GseTransport.CONTAINERS},
 *        {@link #BLACKHOLED_PACKETS}, ...)
 */
public record SimulationResult(RunSummary run, Totals totals, FabricEvents fabric, List<FlowRecord> flows,
        List<FlowRecord> queuePairs, List<QueueTrace> queues, Counters counters) {

    /**
     * Validates: the groups and counters present, the lists without null elements, flow ids increasing, one
     * queue-pair record per queue pair of the flows, in flow order, each with its flow's id (the lists are kept, not
     * copied).
     */
    public SimulationResult {
        Parameters.notNull("run", run);
        Parameters.notNull("totals", totals);
        Parameters.notNull("fabric", fabric);
        Parameters.noNullElements("flows", flows);
        Parameters.noNullElements("queues", queues);
        Parameters.notNull("counters", counters);
        Parameters.noNullElements("queuePairs", queuePairs);
        long total = flows.stream().mapToLong(f -> f.spec().queuePairs()).sum();
        if (queuePairs.size() != total) {
            throw new IllegalArgumentException("queuePairs must hold one record per queue pair of the flows (" + total
                    + "), got " + queuePairs.size());
        }
        int k = 0;
        for (int i = 0; i < flows.size(); i++) {
            FlowRecord f = flows.get(i);
            if (i > 0 && f.id() <= flows.get(i - 1).id()) {
                throw new IllegalArgumentException("flows must have increasing ids, flows[" + i + "].id = " + f.id()
                        + " after " + flows.get(i - 1).id());
            }
            for (int q = 0; q < f.spec().queuePairs(); q++, k++) {
                if (queuePairs.get(k).id() != f.id()) {
                    throw new IllegalArgumentException("queuePairs[" + k + "].id must be its flow's id " + f.id()
                            + " (queue pairs in flow order), got " + queuePairs.get(k).id());
                }
            }
        }
    }

    /**
     * A result whose flows have one queue pair each ({@code queuePairs} is {@code flows}).
     */
    public SimulationResult(RunSummary run, Totals totals, FabricEvents fabric, List<FlowRecord> flows,
            List<QueueTrace> queues, Counters counters) {
        this(run, totals, fabric, flows, flows, queues, counters);
    }

    /**
     * The run as a whole.
     *
     * @param transport the transport model of the run, not null
     * @param endPs simulated time of the last handled event, ps
     * @param partial true if the run stopped at its time limit or on interrupt with events pending
     * @param events events handled
     */
    public record RunSummary(String transport, long endPs, boolean partial, long events) {
        /** Validates: transport present. */
        public RunSummary {
            Parameters.notNull("transport", transport);
        }
    }

    /**
     * What the run put on the links and what became of the payload.
     *
     * @param packetHops packets that finished crossing a link (one per link per packet)
     * @param controlPackets control packets (ACK, NACK, CNP, probes, grants) sent by hosts and edges
     * @param injectedBytes payload bytes whose last bit left a sending NIC, plus the payload of the copies a
     *        switch resent (GSE edges, see {@link fabriclab.simulation.transport.gse.GseTransport}): the payload put
     *        on the wire, retransmissions included (the run's "wire bytes"; headers not counted)
     * @param deliveredBytes payload bytes delivered to receivers (first copies only)
     * @param droppedBytes payload bytes of the data packets lost in the fabric: dropped by a switch (tail drop, black
     *        hole, no route) or lost on a failed link; never a receiver's discard (see {@code discardedBytes})
     * @param discardedBytes payload bytes that reached their receiver but were not delivered (duplicates,
     *        or out-of-order packets a go-back-N receiver throws away)
     * @param inFlightBytes payload bytes still queued or on a wire
     */
    public record Totals(long packetHops, long controlPackets, long injectedBytes, long deliveredBytes,
            long droppedBytes, long discardedBytes, long inFlightBytes) {
    }

    /**
     * What the fabric did to packets: lost them, marked them, paused their ports.
     *
     * @param droppedPackets data packets lost in the fabric, each copy counted (a packet dropped, retransmitted and
     *        dropped again counts twice); by place and reason in {@code drops}
     * @param controlDropped control packets lost in the fabric (dropped by a switch or lost on a failed link)
     * @param drops (not null, no null element) the places that lost packets, with the reason and what they lost: only
     *        places with a loss, ordered by node, port (-1, no port, first) and reason (declaration order); their data
     *        packets, payload bytes and control packets sum to {@code droppedPackets}, the run's {@code droppedBytes}
     *        and {@code controlDropped}
     * @param ecnMarks packets ECN-marked by WRED
     * @param pfc PFC counters of every port of every node (hosts first, then switches; zeros when PFC is off); not
     *        null, no null element
     */
    public record FabricEvents(long droppedPackets, long controlDropped, List<DropSite> drops, long ecnMarks,
            List<PortPfc> pfc) {
        /** Validates: the lists without null elements (kept, not copied). */
        public FabricEvents {
            Parameters.noNullElements("drops", drops);
            Parameters.noNullElements("pfc", pfc);
        }

        /** Nothing lost or marked, no PFC counters. */
        public static FabricEvents none() {
            return new FabricEvents(0, 0, List.of(), 0, List.of());
        }
    }

    /** The transport model of the run ({@link RunSummary#transport()}). */
    public String transport() {
        return run.transport();
    }

    /** Simulated time of the last handled event, ps ({@link RunSummary#endPs()}). */
    public long endPs() {
        return run.endPs();
    }

    /** Whether the run stopped at its time limit or on interrupt with events pending ({@link RunSummary#partial()}). */
    public boolean partial() {
        return run.partial();
    }

    /** Events handled ({@link RunSummary#events()}). */
    public long events() {
        return run.events();
    }

    /** Packets that finished crossing a link ({@link Totals#packetHops()}). */
    public long packetHops() {
        return totals.packetHops();
    }

    /** Control packets sent by hosts and edges ({@link Totals#controlPackets()}). */
    public long controlPackets() {
        return totals.controlPackets();
    }

    /** Payload bytes put on the wire, retransmissions included ({@link Totals#injectedBytes()}). */
    public long injectedBytes() {
        return totals.injectedBytes();
    }

    /** Payload bytes delivered to receivers, first copies only ({@link Totals#deliveredBytes()}). */
    public long deliveredBytes() {
        return totals.deliveredBytes();
    }

    /** Payload bytes of the data packets lost in the fabric ({@link Totals#droppedBytes()}). */
    public long droppedBytes() {
        return totals.droppedBytes();
    }

    /** Payload bytes that reached their receiver but were not delivered ({@link Totals#discardedBytes()}). */
    public long discardedBytes() {
        return totals.discardedBytes();
    }

    /** Payload bytes still queued or on a wire ({@link Totals#inFlightBytes()}). */
    public long inFlightBytes() {
        return totals.inFlightBytes();
    }

    /** Data packets lost in the fabric, each copy counted ({@link FabricEvents#droppedPackets()}). */
    public long droppedPackets() {
        return fabric.droppedPackets();
    }

    /** Control packets lost in the fabric ({@link FabricEvents#controlDropped()}). */
    public long controlDropped() {
        return fabric.controlDropped();
    }

    /** The places that lost packets, with the reason and what they lost ({@link FabricEvents#drops()}). */
    public List<DropSite> drops() {
        return fabric.drops();
    }

    /** Packets ECN-marked by WRED ({@link FabricEvents#ecnMarks()}). */
    public long ecnMarks() {
        return fabric.ecnMarks();
    }

    /** PFC counters of every port of every node, hosts first ({@link FabricEvents#pfc()}). */
    public List<PortPfc> pfc() {
        return fabric.pfc();
    }

    /**
     * The records of flow {@code flow}'s queue pairs, in queue-pair order: the sublist of {@link #queuePairs()} from
     * the flow's first queue pair, {@code flows().get(flow).spec().queuePairs()} long.
     *
     * @param flow flow index, 0 to {@code flows().size() - 1}
     */
    public List<FlowRecord> queuePairsOf(int flow) {
        Parameters.inRange("flow", flow, 0, flows.size() - 1);
        int lo = 0;
        int hi = queuePairs.size();
        int id = flows.get(flow).id();
        while (lo < hi) { // the first queue pair of the flow (queue pairs are in flow order, flow ids increase)
            int mid = (lo + hi) >>> 1;
            if (queuePairs.get(mid).id() < id) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return queuePairs.subList(lo, lo + flows.get(flow).spec().queuePairs());
    }

    /**
     * Packets lost at one place of the fabric for one reason, over the whole run (each copy counted).
     *
     * @param place "switch S port P -> node N" or "host H port P -> node N" (the egress port the packet was
     *        lost at), or "switch S (no route)" for a drop at no port
     * @param node node id (hosts are 0..hosts-1, switches follow)
     * @param port port index on that node; -1 for a drop at no port ({@link DropReason#NO_ROUTE})
     * @param reason why the packets were lost
     * @param dataPackets data packets lost
     * @param payloadBytes payload bytes of those data packets
     * @param controlPackets control packets (ACK, NACK, CNP, probes, grants) lost
     */
    public record DropSite(String place, int node, int port, DropReason reason, long dataPackets, long payloadBytes,
            long controlPackets) {
        /** Validates: place and reason present, node not negative, port at least -1, counts not negative. */
        public DropSite {
            Parameters.notNull("place", place);
            Parameters.notNull("reason", reason);
            Parameters.atLeast("node", node, 0);
            Parameters.atLeast("port", port, -1);
            Parameters.atLeast("dataPackets", dataPackets, 0L);
            Parameters.atLeast("payloadBytes", payloadBytes, 0L);
            Parameters.atLeast("controlPackets", controlPackets, 0L);
        }

        /** Data and control packets lost here. */
        public long packets() {
            return dataPackets + controlPackets;
        }
    }

    /**
     * Totals of some drops.
     *
     * @param dataPackets data packets lost
     * @param payloadBytes payload bytes of those data packets
     * @param controlPackets control packets lost
     */
    public record DropCount(long dataPackets, long payloadBytes, long controlPackets) {
        /** Validates: counts not negative. */
        public DropCount {
            Parameters.atLeast("dataPackets", dataPackets, 0L);
            Parameters.atLeast("payloadBytes", payloadBytes, 0L);
            Parameters.atLeast("controlPackets", controlPackets, 0L);
        }

        /** Data and control packets lost. */
        public long packets() {
            return dataPackets + controlPackets;
        }
    }

    /** What the fabric lost for {@code reason}, summed over {@link #drops()} (zeros when nothing). */
    public DropCount dropsBy(DropReason reason) {
        Parameters.notNull("reason", reason);
        long data = 0;
        long bytes = 0;
        long control = 0;
        for (DropSite d : drops()) {
            if (d.reason() == reason) {
                data += d.dataPackets();
                bytes += d.payloadBytes();
                control += d.controlPackets();
            }
        }
        return new DropCount(data, bytes, control);
    }

    /**
     * Goodput of the run, bits per second: {@code 8 * deliveredBytes} (distinct payload handed to receivers, first
     * copies only) over the time from the earliest flow start ({@link FlowRecord#startedPs()}) to the last delivery
     * ({@link #lastDeliveryPs()}), in seconds. 0 when nothing was delivered or that time is not positive.
     */
    public double goodputBitsPerSecond() {
        long first = flows.stream().mapToLong(FlowRecord::startedPs).filter(t -> t >= 0).min().orElse(-1);
        long last = lastDeliveryPs();
        if (deliveredBytes() == 0 || first < 0 || last <= first) {
            return 0;
        }
        return 8.0 * deliveredBytes() / ((last - first) / 1e12);
    }

    /** Payload bytes of data packets the senders sent more than once (each resend counted), summed over flows. */
    public long retransmittedBytes() {
        return flows.stream().mapToLong(FlowRecord::retransmittedBytes).sum();
    }

    /** Retransmission timeouts that fired at the senders, summed over flows. */
    public long timeouts() {
        return flows.stream().mapToLong(FlowRecord::timeouts).sum();
    }

    /** Of {@link #timeouts()}, those with no loss of their flow to explain them, summed over flows. */
    public long spuriousTimeouts() {
        return flows.stream().mapToLong(FlowRecord::spuriousTimeouts).sum();
    }

    /** Queue pairs that went to the error state (retries exhausted) before their flow's bytes had all arrived. */
    public long failedQueuePairs() {
        return queuePairs.stream().filter(FlowRecord::failed).count();
    }

    /** Flows that did not complete because one of their queue pairs failed ({@link FlowRecord#failed}). */
    public long failedFlows() {
        return flows.stream().filter(FlowRecord::failed).count();
    }

    /** Copies of already delivered data packets that reached their receivers (discarded there), summed over flows. */
    public long duplicatePackets() {
        return flows.stream().mapToLong(FlowRecord::duplicatePackets).sum();
    }

    /** Data packets receivers discarded for arriving above the expected sequence number, summed over flows. */
    public long outOfOrderDiscards() {
        return flows.stream().mapToLong(FlowRecord::outOfOrderDiscards).sum();
    }

    /** Packets switches sent onto a failed link before their routes changed (each lost). */
    public static final Counter BLACKHOLED_PACKETS = new Counter("linkFailure.blackholedPackets", Counter.Unit.PACKETS,
            "packets sent onto a failed link before the routes changed");

    /** The value of {@code counter} in this run, 0 if it did not count (counters are kept only when positive). */
    public long counter(Counter counter) {
        return counters.get(counter);
    }

    /**
     * PFC counters of one port. The downstream side (a switch port seen as ingress) sends PAUSE and
     * XON frames; the upstream side (any port, hosts included) receives them and stops its egress
     * queue of that priority.
     *
     * @param name "switch S port P -> node N" or "host H port 0 -> node N"
     * @param node node id (hosts are 0..hosts-1, switches follow)
     * @param port port index on that node
     * @param peerNode node at the other end
     * @param pausesSent PAUSE frames (non-zero quanta, refreshes included) sent upstream through this port
     * @param xonSent XON (zero-quanta PAUSE) frames sent
     * @param pausesReceived PAUSE frames (non-zero quanta) received by this port
     * @param xonReceived XON frames received
     * @param pausedPs time this port's egress was paused, summed over priorities, ps
     * @param peakIngressBytes per priority, the highest ingress counter (wire bytes admitted from this port and not yet sent on)
     * @param firstPauseSentPs time of the first PAUSE sent through this port, ps; -1 if none
     * @param deadlocks PFC deadlocks the port's watchdog declared (summed over priorities; 0 without a watchdog)
     */
    public record PortPfc(String name, int node, int port, int peerNode, long pausesSent, long xonSent,
            long pausesReceived, long xonReceived, long pausedPs, long[] peakIngressBytes, long firstPauseSentPs,
            long deadlocks) {
        /** Validates: name and peaks present, counters and times not negative ({@code firstPauseSentPs} -1 for none). */
        public PortPfc {
            Parameters.notNull("name", name);
            Parameters.notNull("peakIngressBytes", peakIngressBytes);
            Parameters.atLeast("pausesSent", pausesSent, 0L);
            Parameters.atLeast("xonSent", xonSent, 0L);
            Parameters.atLeast("pausesReceived", pausesReceived, 0L);
            Parameters.atLeast("xonReceived", xonReceived, 0L);
            Parameters.atLeast("pausedPs", pausedPs, 0L);
            Parameters.atLeast("firstPauseSentPs", firstPauseSentPs, -1L);
            Parameters.atLeast("deadlocks", deadlocks, 0L);
        }
    }

    /** PFC deadlocks declared by the ports' watchdogs in the whole fabric. */
    public long deadlocks() {
        return pfc().stream().mapToLong(PortPfc::deadlocks).sum();
    }

    /** PAUSE frames (non-zero quanta) sent in the whole fabric. */
    public long pausesSent() {
        return pfc().stream().mapToLong(PortPfc::pausesSent).sum();
    }

    /** Time paused summed over every port and priority, ps. */
    public long pausedPs() {
        return pfc().stream().mapToLong(PortPfc::pausedPs).sum();
    }

    /**
     * One flow's outcome, or one queue pair's ({@link #queuePairs()}). A flow's record sums its queue pairs' counters,
     * takes the latest of their last deliveries, and completes when its last queue pair completed (all its queue pairs
     * start together).
     *
     * @param id flow index (input order)
     * @param spec the flow (for a queue pair: its part of the flow, {@link FlowSpec#queuePair})
     * @param completionTimePs flow completion time (last payload byte of its last queue pair delivered minus the time
     *        the flow actually started), ps; -1 if not completed
     * @param deliveredBytes payload bytes delivered
     * @param droppedPackets data packets of the flow lost in the fabric (each copy; never a receiver's discard)
     * @param ecnMarkedPackets delivered packets carrying an ECN mark
     * @param reorderedPackets delivered packets with a lower sequence number than one delivered before
     * @param duplicatePackets copies of already delivered packets that reached the receiver (discarded)
     * @param startedPs time the flow started (its start time, or later when it waited for
     *        predecessors), ps; -1 if it never started
     * @param retransmittedPackets data packets the sender sent more than once
     * @param lastDeliveryPs time the receiver was last handed new data of the flow, ps; -1 if never
     * @param retransmittedBytes payload bytes of the data packets the sender sent more than once (each resend)
     * @param timeouts retransmission (local ACK) timeouts that fired at the sender
     * @param spuriousTimeouts of {@code timeouts}, those with no loss of this flow to explain them
     * @param failed whether the flow did not complete because its queue pair (one of them) went to the error state
     *        (retries exhausted; it sent no more); never with {@code completionTimePs >= 0}: a queue pair that failed
     *        only after its receiver had every byte (its last ACK lost) leaves the flow completed
     * @param outOfOrderDiscards data packets the receiver discarded for arriving above the expected sequence
     *        number (go-back-N); duplicates are counted apart in {@code duplicatePackets}
     * @param acknowledgedPs time the sender learned that its last byte was acknowledged (an ACK covering every
     *        packet reached it), ps; -1 if never, or for a transport without per-flow acknowledgements (line rate,
     *        GSE). HPCC's simulator ends a flow's completion time here
     */
    public record FlowRecord(int id, FlowSpec spec, long completionTimePs, long deliveredBytes, long droppedPackets,
            long ecnMarkedPackets, long reorderedPackets, long duplicatePackets, long startedPs,
            long retransmittedPackets, long lastDeliveryPs, long retransmittedBytes, long timeouts,
            long spuriousTimeouts, boolean failed, long outOfOrderDiscards, long acknowledgedPs) {
        /** Validates: spec present, counters not negative, times not negative or -1 (never). */
        public FlowRecord {
            Parameters.notNull("spec", spec);
            Parameters.atLeast("completionTimePs", completionTimePs, -1L);
            Parameters.atLeast("deliveredBytes", deliveredBytes, 0L);
            Parameters.atLeast("droppedPackets", droppedPackets, 0L);
            Parameters.atLeast("ecnMarkedPackets", ecnMarkedPackets, 0L);
            Parameters.atLeast("reorderedPackets", reorderedPackets, 0L);
            Parameters.atLeast("duplicatePackets", duplicatePackets, 0L);
            Parameters.atLeast("startedPs", startedPs, -1L);
            Parameters.atLeast("retransmittedPackets", retransmittedPackets, 0L);
            Parameters.atLeast("lastDeliveryPs", lastDeliveryPs, -1L);
            Parameters.atLeast("retransmittedBytes", retransmittedBytes, 0L);
            Parameters.atLeast("timeouts", timeouts, 0L);
            Parameters.atLeast("spuriousTimeouts", spuriousTimeouts, 0L);
            Parameters.atLeast("outOfOrderDiscards", outOfOrderDiscards, 0L);
            Parameters.atLeast("acknowledgedPs", acknowledgedPs, -1L);
            if (failed && completionTimePs >= 0) {
                throw new IllegalArgumentException("failed must be false for a completed flow (completionTimePs = "
                        + completionTimePs + "): a flow is completed or failed, never both");
            }
        }

        /** Whether every byte arrived. */
        public boolean completed() {
            return completionTimePs >= 0;
        }
    }

    /**
     * One egress queue: occupancy samples (all priorities, including the packet being transmitted,
     * in wire bytes) taken every sampling period, and whole-run counters.
     *
     * @param name "switch S port P -> node N"
     * @param switchIndex switch index
     * @param port port index on that switch
     * @param peerNode node at the other end of the link
     * @param samplePeriodPs sampling period, ps (sample k is at time k * period)
     * @param occupancyBytes the samples (at most maxSamples)
     * @param peakBytes highest occupancy seen at any enqueue
     * @param drops packets dropped at this queue
     * @param ecnMarks packets marked at this queue
     * @param txPackets packets transmitted
     * @param flowHeads first packets (sequence 0) of flows transmitted, i.e. flows routed here
     * @param utilisation busy time over run time
     */
    public record QueueTrace(String name, int switchIndex, int port, int peerNode, long samplePeriodPs,
            long[] occupancyBytes, long peakBytes, long drops, long ecnMarks, long txPackets, long flowHeads,
            double utilisation) {
        /** Validates: name and samples present, counters not negative, utilisation in [0, 1]. */
        public QueueTrace {
            Parameters.notNull("name", name);
            Parameters.notNull("occupancyBytes", occupancyBytes);
            Parameters.atLeast("samplePeriodPs", samplePeriodPs, 0L);
            Parameters.atLeast("peakBytes", peakBytes, 0L);
            Parameters.atLeast("drops", drops, 0L);
            Parameters.atLeast("ecnMarks", ecnMarks, 0L);
            Parameters.atLeast("txPackets", txPackets, 0L);
            Parameters.atLeast("flowHeads", flowHeads, 0L);
            Parameters.inRange("utilisation", utilisation, 0, 1);
        }
    }

    /** Completion times of the completed flows in microseconds, input order. */
    public double[] completionTimesMicros() {
        return flows.stream().filter(FlowRecord::completed).mapToDouble(f -> Time.toMicros(f.completionTimePs())).toArray();
    }

    /** Time flow {@code flow} (in [0, flows().size())) completed (start plus completion time), ps; -1 if not completed. */
    public long completedAtPs(int flow) {
        Parameters.inRange("flow", flow, 0, flows.size() - 1);
        FlowRecord f = flows.get(flow);
        return f.completed() ? f.startedPs() + f.completionTimePs() : -1;
    }

    /** Time any flow was last handed new data, ps; -1 if none was (the onset of a deadlock when flows stop). */
    public long lastDeliveryPs() {
        return flows.stream().mapToLong(FlowRecord::lastDeliveryPs).max().orElse(-1);
    }

    /** Whether every flow completed. */
    public boolean allCompleted() {
        return flows.stream().allMatch(FlowRecord::completed);
    }

    /**
     * Assembles the result of a run from the counters its elements own (after the event loop).
     *
     * @param loop the events handled, or {@code -handled - 1} if the run stopped with events pending
     */
    static SimulationResult of(Network net, List<FlowSpec> flowSpecs, TransportRun run, TransportModel model, long loop,
            long endPs) {
        run.finish();
        boolean partial = loop < 0;
        long handled = partial ? -loop - 1 : loop;
        long now = endPs;
        List<FlowRecord> qr = new java.util.ArrayList<>(net.workload().flows.size());
        long delivered = 0;
        long dropped = 0;
        long droppedPackets = 0;
        long discarded = 0;
        long controlDropped = 0;
        for (FlowState f : net.workload().flows) {
            qr.add(new FlowRecord(net.workload().flowOf(f.id), f.spec, f.completionPs() < 0 ? -1 : f.completionPs() - f.startedPs(),
                    f.receivedBytes(), f.dropped(), f.ecnMarked(), f.reordered(), f.duplicates(), f.startedPs(), f.retransmitted(),
                    f.lastDeliveryPs(), f.retransmittedBytes(), f.timeouts(), f.spuriousTimeouts(),
                    f.failed() && f.completionPs() < 0, // failed after its receiver had every byte: completed
                    f.outOfOrderDiscards(), f.acknowledgedPs()));
            delivered += f.receivedBytes();
            dropped += f.droppedBytes();
            droppedPackets += f.dropped();
            discarded += f.discardedBytes();
            controlDropped += f.controlDropped();
        }
        List<FlowRecord> fr;
        if (qr.size() == flowSpecs.size()) {
            fr = qr; // one queue pair per flow: the flows' records are the queue pairs'
        } else {
            fr = new java.util.ArrayList<>(flowSpecs.size());
            for (int i = 0; i < flowSpecs.size(); i++) {
                fr.add(aggregate(i, flowSpecs.get(i), qr.subList(net.workload().firstQueuePair(i),
                        net.workload().firstQueuePair(i + 1))));
            }
        }
        long injected = run.fabricInjectedBytes();
        long control = run.fabricControlPackets();
        for (HostNic h : net.hosts) {
            injected += h.injectedBytes();
            control += h.controlSent();
        }
        long hops = 0;
        long marks = 0;
        long blackholed = 0;
        List<QueueTrace> qs = new java.util.ArrayList<>();
        List<PortPfc> pp = new java.util.ArrayList<>();
        for (Node n : net.nodes) {
            String who = n instanceof Switch sw ? "switch " + sw.switchIndex : "host " + n.id;
            for (Port p : n.ports) {
                hops += p.link.txPackets();
                PfcIngress in = p.ingress;
                pp.add(new PortPfc(who + " port " + p.index + " -> node " + p.peer().id, n.id, p.index, p.peer().id,
                        in.pausesSent(), in.xonSent(), p.pause.pausesReceived(), p.pause.xonReceived(), p.pause.pausedPsUpTo(now),
                        in.peakBytes(), in.firstPauseSentPs(), p.pause.deadlocks()));
            }
        }
        for (Switch sw : net.switches) {
            blackholed += sw.blackholedPackets();
            for (Port p : sw.ports) {
                EgressQueue q = p.queue;
                marks += q.ecnMarks();
                long[] samples = q.sampledBytes();
                qs.add(new QueueTrace("switch " + sw.switchIndex + " port " + p.index + " -> node " + p.peer().id,
                        sw.switchIndex, p.index, p.peer().id, net.config.samplePeriodPs(), samples, q.peakBytes(), q.drops(),
                        q.ecnMarks(), p.link.txPackets(), p.link.flowHeads(), now == 0 ? 0 : Math.min(1.0, p.link.busyPs() / (double) now)));
            }
        }
        List<DropSite> drops = new java.util.ArrayList<>();
        DropReason[] reasons = DropReason.values();
        for (Node n : net.nodes) {
            if (!n.hasDrops()) {
                continue;
            }
            String who = n instanceof Switch sw ? "switch " + sw.switchIndex : "host " + n.id;
            for (int port = -1; port < n.ports.size(); port++) {
                for (DropReason reason : reasons) {
                    long data = n.dropped(port, reason, Node.DROPPED_DATA_PACKETS);
                    long bytes = n.dropped(port, reason, Node.DROPPED_PAYLOAD_BYTES);
                    long ctl = n.dropped(port, reason, Node.DROPPED_CONTROL_PACKETS);
                    if (data + ctl > 0) {
                        String place = port < 0 ? who + " (no route)"
                                : who + " port " + port + " -> node " + n.ports.get(port).peer().id;
                        drops.add(new DropSite(place, n.id, port, reason, data, bytes, ctl));
                    }
                }
            }
        }
        Counters.Builder counters = Counters.builder();
        run.reportCounters(counters);
        counters.put(BLACKHOLED_PACKETS, blackholed);
        long inFlight = injected - delivered - dropped - discarded;
        return new SimulationResult(new RunSummary(RecordText.of(model), now, partial, handled),
                new Totals(hops, control, injected, delivered, dropped, discarded, inFlight),
                new FabricEvents(droppedPackets, controlDropped, List.copyOf(drops), marks, List.copyOf(pp)),
                List.copyOf(fr), List.copyOf(qr), List.copyOf(qs), counters.build());
    }

    /**
     * Flow {@code id}'s record from its queue pairs' {@code qps}: counters summed, started at the earliest start, last
     * delivery the latest, completed when all are, at the latest completion.
     */
    private static FlowRecord aggregate(int id, FlowSpec spec, List<FlowRecord> qps) {
        long started = -1;
        long completedAt = 0;
        boolean completed = true;
        long delivered = 0;
        long dropped = 0;
        long marked = 0;
        long reordered = 0;
        long duplicates = 0;
        long retransmitted = 0;
        long last = -1;
        long retransmittedBytes = 0;
        long timeouts = 0;
        long spurious = 0;
        boolean failed = false;
        long outOfOrder = 0;
        long acknowledged = -1;
        boolean allAcknowledged = true;
        for (FlowRecord q : qps) {
            if (q.acknowledgedPs() < 0) {
                allAcknowledged = false;
            }
            acknowledged = Math.max(acknowledged, q.acknowledgedPs());
            if (q.startedPs() >= 0) {
                started = started < 0 ? q.startedPs() : Math.min(started, q.startedPs());
            }
            if (q.completed()) {
                completedAt = Math.max(completedAt, q.startedPs() + q.completionTimePs());
            } else {
                completed = false;
            }
            delivered += q.deliveredBytes();
            dropped += q.droppedPackets();
            marked += q.ecnMarkedPackets();
            reordered += q.reorderedPackets();
            duplicates += q.duplicatePackets();
            retransmitted += q.retransmittedPackets();
            last = Math.max(last, q.lastDeliveryPs());
            retransmittedBytes += q.retransmittedBytes();
            timeouts += q.timeouts();
            spurious += q.spuriousTimeouts();
            failed |= q.failed();
            outOfOrder += q.outOfOrderDiscards();
        }
        return new FlowRecord(id, spec, completed ? completedAt - started : -1, delivered, dropped, marked, reordered,
                duplicates, started, retransmitted, last, retransmittedBytes, timeouts, spurious, failed && !completed, outOfOrder,
                allAcknowledged ? acknowledged : -1);
    }
}
