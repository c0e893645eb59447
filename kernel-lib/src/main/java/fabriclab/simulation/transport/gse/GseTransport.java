package fabriclab.simulation.transport.gse;

import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.TransportRun;
import fabriclab.fabric.Time;
import fabriclab.Parameters;

/**
 * Global Scheduling Ethernet (GSE) in the packet simulator (seed 000 sections 2 and 3, seed 002
 * section 3): the fabric, not the host, schedules. Hosts send plain packets at line rate into their
 * leaf; each leaf is a GSE edge (the package-private {@code GseEdge}) that
 * <ol>
 *   <li>queues every packet of a local host per destination host (virtual output queues), whether the
 *       destination is under another leaf or under this one, and assembles them into packet containers
 *       (PKTC) of up to {@code containerBytes}, closing a partial container after {@code assemblyTimeoutPs};</li>
 *   <li>asks the destination edge for a grant per container; the destination edge grants each of its
 *       host ports at that port's rate (a container of b bytes advances the port's grant clock by
 *       8b / rate), first come first served among sources (DGSQ, seed 002 section 3.1.2), so the bytes
 *       granted toward a port never exceed what the port drains. The destination edge of a container
 *       between two hosts of one leaf is that leaf itself: its requests join the same grant clock as the
 *       requests from other leaves, so one scheduler per host port sees all the traffic toward it;</li>
 *   <li>sends each granted container on one uplink, the uplinks taken round robin per destination
 *       (container spraying; the uplinks are the current shortest-path next hops, so a failed link is
 *       avoided as soon as routes are recomputed); a container for a host of the same leaf takes no
 *       uplink and reaches the leaf's own destination side at once;</li>
 *   <li>at the destination edge, holds packets until their container is complete and every earlier
 *       container of the same source-destination pair has been delivered (egress reordering), then
 *       forwards them to the host in order;</li>
 *   <li>pauses a local host (PFC on the host link only) when the host's packets waiting at the edge
 *       reach {@code localXoffBytes}, and resumes it below {@code localXonBytes} (the one PFC convention of
 *       {@link fabriclab.fabric.Pfc}, through the same ingress accounting as the fabric's PFC).</li>
 * </ol>
 * Requests and grants are modelled as messages with a fixed one-way latency
 * {@code controlLatencyPs} that take no link bandwidth (they are a few tens of bytes per 16 KB
 * container, under 0.5% of the link, and travel on a high priority in 000's design). There is no PFC
 * in the fabric and no end-to-end congestion control: hosts use the default line-rate transport, and
 * nothing in the fabric drops when grants bound every egress. Switches between the edges (spines)
 * forward a container on one of their shortest-path egress ports chosen by the container, not the flow: candidate
 * {@code (number + source host) mod candidates} for the container with sequence number {@code number}
 * of its source-destination pair, so a pair's consecutive containers rotate over parallel members
 * (000 sprays containers over every path; with one link per switch pair this is the only candidate,
 * as before).
 *
 * <p><b>Traffic between two hosts of one leaf.</b> It takes the same path through the edge as any other:
 * VOQ, container, request, grant, confirmation, reordering, resend timer. Source: 000 section 2 (DGSQ: the
 * source keeps a virtual queue per final egress port and sends only with a grant from that port) and 002
 * section 3.1.2 (the credit bound: the grants toward a receiver of capacity R sum to at most R, so the
 * senders' rates do; the bound needs every sender toward the port to be granted, a local one included). The
 * request, grant and confirmation of such a container cross no link, so they take no time (this project's
 * choice: the simulator's switches have zero processing delay; {@code controlLatencyPs} is the latency
 * across the fabric); the container's packets go from the VOQ to the destination side in the same instant
 * and on to the host port the grant reserved. Consequences: a host port's grant clock paces local and remote
 * containers together, so it is never oversubscribed by unscheduled traffic and is not tail-dropped (a
 * local container, granted now, lands at the port at once, and a remote one granted up to one loop earlier
 * lands later, so the port holds at most the bytes granted over the difference of their delays plus a
 * container); a local host whose containers wait is paused by its edge's local PFC as for remote traffic. A
 * local flow alone on the fabric whose packets fill a container of k packets within {@code assemblyTimeoutPs}
 * (k - 1 packet times at most) and that makes n such containers completes n k + k packet times plus the two
 * host-link delays after its start: k - 1 packet times more than through a store-and-forward switch, as each
 * container waits for its last packet (a partial last container, of m packets, is closed
 * {@code assemblyTimeoutPs} after its first packet reached the edge, and the flow completes m packet times and a
 * host-link delay later; with the defaults and 1000-byte packets every container closes so: 12 packets of
 * 1064 B reach the edge in 1 us at 100G). Before this, a leaf switched such packets directly, unscheduled and
 * never resent, and a host port overfilled by them and granted containers dropped them for good.
 *
 * <p><b>Loss recovery (this project's design; 000 and 002 describe containers, requests and grants,
 * not how a lost container is recovered).</b> A container can be lost when a link fails under it
 * (queued on the link, on its wire, or sprayed onto it before the routes avoid it, see
 * {@code Scenario.LinkFailure}), or when a fabric queue overflows (grants bound the destination port,
 * not the path); a container between hosts of one leaf crosses no fabric link and is complete, so
 * confirmed, the instant it is sent. The edges recover it end to end:
 * <ol>
 *   <li>the source edge keeps every container it sent (the flow, sequence number and size of each of
 *       its packets) until the destination edge confirms it;</li>
 *   <li>the destination edge confirms a container as soon as it holds all of its packets (before
 *       reordering); the confirmation is a control message like a grant (latency
 *       {@code controlLatencyPs}, no link bandwidth; it can ride on the grants the edge sends anyway);</li>
 *   <li>a container not confirmed within the resend timeout after it was sent is requested again, granted
 *       again (so resent bytes are paced at the destination port like any others) and sent again, whole,
 *       on the uplink the spraying turn gives it; one timer per virtual output queue, on its oldest
 *       unconfirmed container. A repeated request for a container the destination edge already holds
 *       complete (its confirmation is on its way) gets no grant: the confirmation answers it. The timeout
 *       of a virtual output queue follows its measured loop (sending to confirmation, containers sent once
 *       only) as TCP's retransmission timer does (Jacobson and Karels; RFC 6298): srtt and rttvar, timeout
 *       = max({@code resendTimeoutPs}, srtt + 4 rttvar), at most 1 s; {@code resendTimeoutPs} until the
 *       first sample. A fixed timeout below the queueing delay of a loaded fabric (the 32 MB buffers of
 *       000's switches hold 640 us at 400G) would resend containers that are only late, and those copies
 *       take grants and links when they are scarcest;</li>
 *   <li>at the destination edge a packet of a container that is already complete, or a second copy of a
 *       packet it already holds, is discarded and counted (a duplicate, as when the timeout is shorter
 *       than the loop); the first copy of each packet is kept, so the host receives every payload byte
 *       exactly once, in container order, as without loss;</li>
 *   <li>the destination edge forwards a container it confirmed to its host without tail drop: the grant
 *       reserved that port's buffer (its bytes count in the switch's shared buffer, which may exceed its
 *       size by what the edge releases at once after a lost container is filled in: the edge's reordering
 *       memory is its own); on a failed host link they are lost like any packet;</li>
 *   <li>a container whose destination has no route at all at the source edge (the fabric is partitioned;
 *       this simulator never restores a link) is dropped and not resent, so a run cannot loop forever.</li>
 * </ol>
 * Why a timeout rather than a gap in the container numbers: containers are sprayed over paths of different
 * delays and arrive out of order by design, so a gap is normal and says nothing about loss, and the last
 * containers of a flow have no successor to reveal their gap. The timeout must exceed the loop from sending a
 * container to its confirmation: on an unloaded path that is the data's one-way time (serialisation and
 * propagation of two fabric links, about 2.7 us for 16 KB at 400G with 1 us links) plus
 * {@code controlLatencyPs} (2 us), about 5 us on 000's fabric (measured: 5.6 us on an unloaded path of 100G links,
 * at most 6.7 us in the 8 concurrent ring AllReduces of {@code Llama2Training}'s non-blocking fabric); the default floor of 100 us is about 20 such loops (measured: no resend in
 * notebook 08's lossless runs). A lost container thus costs at least {@code resendTimeoutPs + 2
 * controlLatencyPs} more than its first sending. Counters: {@code gse.containersResent}, {@code gse.packetsResent},
 * {@code gse.duplicatesDiscarded} (packets), {@code gse.repeatedRequestsConfirmed} (timeouts that found the
 * container already complete), {@code gse.containersAbandoned}, {@code gse.confirmLoopPeakPs} (the longest
 * time from the sending of the copy that completed a container, its last packet to arrive, to the container's
 * confirmation at the source edge; with no resending, from its only sending), {@code gse.resendTimeoutPeakPs}
 * (the largest timeout a virtual output queue's loop estimate set, when above the floor); resent packets also
 * count in their flow's retransmitted packets and discarded duplicates in its duplicate packets. Costs in a lossless run: no extra packet or
 * byte on any link; the timer events add to the event count and the run ends at the last timer check, up
 * to one timeout after the last delivery, so {@code SimulationResult.endPs()} and the queues'
 * utilisation (busy time over run time) are not those of a run without recovery.
 *
 * <p>Usage: {@code new Simulator(Scenario.builder(leafSpine.build(), config.withMtu(4096)).flows(flows)
 * .transport(GseTransport.defaults()).build()).run()}: 16 KB containers of about 4 KB packets (000
 * section 3 test setup) need a run MTU of 4096.
 *
 * @param containerBytes maximum container payload [bytes], at least 64 (000: 16 KB)
 * @param assemblyTimeoutPs time after which a partial container is closed [ps], positive (this project's choice: 1 us)
 * @param controlLatencyPs one-way latency of a request, grant or confirmation [ps], 0 to 1 s (this project's choice:
 *        2 us, the two fabric links of a leaf-spine path plus switching)
 * @param localXoffBytes a local host is paused when its packets waiting at the edge reach this [bytes]
 * @param localXonBytes and resumed below this [bytes], 1 to {@code localXoffBytes}
 * @param resendTimeoutPs the least time after sending a container without its confirmation after which it is
 *        requested again [ps], 1 ps to 1 s, and the timeout before the first loop sample (this project's
 *        choice: 100 us, see above)
 */
public record GseTransport(int containerBytes, long assemblyTimeoutPs, long controlLatencyPs, long localXoffBytes,
        long localXonBytes, long resendTimeoutPs) implements TransportModel {
    /** The default {@code resendTimeoutPs}: 100 us, about 20 unloaded container loops of 000's fabric (see above). */
    public static final long DEFAULT_RESEND_TIMEOUT_PS = 100 * Time.US;
    /** The largest {@code assemblyTimeoutPs}, {@code controlLatencyPs} and {@code resendTimeoutPs}: 1 s [ps]. */
    public static final long MAX_TIME_PS = Time.S;

    /** Validates. */
    public GseTransport {
        Parameters.atLeast("containerBytes", containerBytes, 64);
        Parameters.inRange("assemblyTimeoutPs", assemblyTimeoutPs, 1L, MAX_TIME_PS);
        Parameters.inRange("controlLatencyPs", controlLatencyPs, 0L, MAX_TIME_PS);
        Parameters.atLeast("localXoffBytes", localXoffBytes, 1L);
        Parameters.inRange("localXonBytes", localXonBytes, 1L, localXoffBytes);
        Parameters.inRange("resendTimeoutPs", resendTimeoutPs, 1L, MAX_TIME_PS);
    }

    /**
     * The same with the default resend timeout ({@link #DEFAULT_RESEND_TIMEOUT_PS}).
     *
     * @param containerBytes maximum container payload [bytes], at least 64
     * @param assemblyTimeoutPs time after which a partial container is closed [ps], 1 ps to 1 s
     * @param controlLatencyPs one-way latency of a request, grant or confirmation [ps], 0 to 1 s
     * @param localXoffBytes a local host is paused when its packets waiting at the edge reach this [bytes], positive
     * @param localXonBytes and resumed below this [bytes], 1 to {@code localXoffBytes}
     */
    public GseTransport(int containerBytes, long assemblyTimeoutPs, long controlLatencyPs, long localXoffBytes,
            long localXonBytes) {
        this(containerBytes, assemblyTimeoutPs, controlLatencyPs, localXoffBytes, localXonBytes, DEFAULT_RESEND_TIMEOUT_PS);
    }

    /**
     * 16 KB containers, 1 us assembly timeout, 2 us request/grant/confirmation latency, local PFC at 4 MB / 3 MB per
     * host, containers resent 100 us after sending without confirmation.
     */
    public static GseTransport defaults() {
        return new GseTransport(16_384, Time.US, 2 * Time.US, 4_000_000, 3_000_000, DEFAULT_RESEND_TIMEOUT_PS);
    }

    /** A copy with another container size [bytes], at least 64. */
    public GseTransport withContainerBytes(int bytes) {
        return new GseTransport(bytes, assemblyTimeoutPs, controlLatencyPs, localXoffBytes, localXonBytes, resendTimeoutPs);
    }

    /** A copy with another resend timeout floor [ps], 1 ps to 1 s. */
    public GseTransport withResendTimeoutPs(long timeoutPs) {
        return new GseTransport(containerBytes, assemblyTimeoutPs, controlLatencyPs, localXoffBytes, localXonBytes, timeoutPs);
    }

    /** A copy with another one-way control latency [ps], 0 to 1 s. */
    public GseTransport withControlLatencyPs(long latencyPs) {
        return new GseTransport(containerBytes, assemblyTimeoutPs, latencyPs, localXoffBytes, localXonBytes, resendTimeoutPs);
    }

    /** GSE counter: containers the source edges closed. */
    public static final Counter CONTAINERS = new Counter("gse.containers", Counter.Unit.CONTAINERS, "containers the source edges closed");
    /** GSE counter: grants the destination edges sent. */
    public static final Counter GRANTS = new Counter("gse.grants", Counter.Unit.EVENTS, "grants the destination edges sent");
    /** GSE counter: containers held at a destination edge for an earlier one. */
    public static final Counter CONTAINERS_REORDERED = new Counter("gse.containersReordered", Counter.Unit.CONTAINERS, "containers held at a destination edge for an earlier one");
    /** GSE counter: pauses the edges sent to their own hosts. */
    public static final Counter LOCAL_PAUSES = new Counter("gse.localPauses", Counter.Unit.EVENTS, "pauses the edges sent to their own hosts");
    /** GSE counter: largest occupancy of one VOQ. */
    public static final Counter VOQ_PEAK_BYTES = new Counter("gse.voqPeakBytes", Counter.Unit.BYTES, "largest occupancy of one VOQ");
    /** GSE counter: largest reordering buffer of one edge. */
    public static final Counter REORDER_PEAK_BYTES = new Counter("gse.reorderPeakBytes", Counter.Unit.BYTES, "largest reordering buffer of one edge");
    /** GSE counter: containers resent after the resend timeout. */
    public static final Counter CONTAINERS_RESENT = new Counter("gse.containersResent", Counter.Unit.CONTAINERS, "containers resent after the resend timeout");
    /** GSE counter: packets of resent containers. */
    public static final Counter PACKETS_RESENT = new Counter("gse.packetsResent", Counter.Unit.PACKETS, "packets of resent containers");
    /** GSE counter: duplicate packets discarded at destination edges. */
    public static final Counter DUPLICATES_DISCARDED = new Counter("gse.duplicatesDiscarded", Counter.Unit.PACKETS, "duplicate packets discarded at destination edges");
    /** GSE counter: containers with no route left, not resent. */
    public static final Counter CONTAINERS_ABANDONED = new Counter("gse.containersAbandoned", Counter.Unit.CONTAINERS, "containers with no route left, not resent");
    /** GSE counter: repeated requests answered by a confirmation. */
    public static final Counter REPEATED_REQUESTS_CONFIRMED = new Counter("gse.repeatedRequestsConfirmed", Counter.Unit.EVENTS, "repeated requests answered by a confirmation");
    /** GSE counter: longest request-to-confirmation loop. */
    public static final Counter CONFIRM_LOOP_PEAK_PS = new Counter("gse.confirmLoopPeakPs", Counter.Unit.PICOSECONDS, "longest request-to-confirmation loop");
    /** GSE counter: largest resend timeout an edge used. */
    public static final Counter RESEND_TIMEOUT_PEAK_PS = new Counter("gse.resendTimeoutPeakPs", Counter.Unit.PICOSECONDS, "largest resend timeout an edge used");

    /** One run of this transport (the simulator's internal types). */
    @Override
    public TransportRun start(Network network) {
        return new GseRun(network, this);
    }

    /**
     * The parallel engine runs GSE when its requests and grants take time ({@code controlLatencyPs > 0}): they cross
     * between edges as messages, and their latency bounds the engine's lookahead.
     */
    @Override
    public String parallelEngineLimitation() {
        return controlLatencyPs < 1 ? "GSE with controlLatencyPs = 0 (requests and grants with no delay leave no lookahead)"
                : null;
    }
}
