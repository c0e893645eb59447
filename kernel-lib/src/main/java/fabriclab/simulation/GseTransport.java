package fabriclab.simulation;

import fabriclab.fabric.Time;
import fabriclab.Parameters;

/**
 * Global Scheduling Ethernet (GSE) in the packet simulator (seed 000 sections 2 and 3, seed 002
 * section 3): the fabric, not the host, schedules. Hosts send plain packets at line rate into their
 * leaf; each leaf is a GSE edge (the package-private {@code GseEdge}) that
 * <ol>
 *   <li>queues a local host's packets per destination host (virtual output queues) and assembles
 *       them into packet containers (PKTC) of up to {@code containerBytes}, closing a partial
 *       container after {@code assemblyTimeoutPs};</li>
 *   <li>asks the destination edge for a grant per container; the destination edge grants each of its
 *       host ports at that port's rate (a container of b bytes advances the port's grant clock by
 *       8b / rate), first come first served among sources (DGSQ, seed 002 section 3.1.2), so the bytes
 *       granted toward a port never exceed what the port drains;</li>
 *   <li>sends each granted container on one uplink, the uplinks taken round robin per destination
 *       (container spraying; the uplinks are the current shortest-path next hops, so a failed link is
 *       avoided as soon as routes are recomputed);</li>
 *   <li>at the destination edge, holds packets until their container is complete and every earlier
 *       container of the same source-destination pair has been delivered (egress reordering), then
 *       forwards them to the host in order;</li>
 *   <li>pauses a local host (PFC on the host link only) when the host's packets waiting at the edge
 *       reach {@code localXoffBytes}, and resumes it below {@code localXonBytes} (the one PFC convention of
 *       {@link fabriclab.fabric.Pfc}, through the same ingress accounting as the fabric's PFC).</li>
 * </ol>
 * Requests and grants are modelled as messages with a fixed one-way latency
 * {@code controlLatencyPs} that take no link bandwidth (they are a few tens of bytes per 16 KB
 * container, under 0.5% of the link, and travel on a high priority in 000's design). Traffic between
 * hosts of the same leaf is switched directly. There is no PFC in the fabric and no end-to-end
 * congestion control: hosts use the default line-rate transport, and nothing in the fabric drops
 * when grants bound every egress.
 *
 * <p>Usage: {@code Scenario.builder(leafSpine.build(), config.withMtu(4096)).flows(flows)
 * .transport(GseTransport.defaults()).build().simulator().run()}: 16 KB containers of about 4 KB packets (000
 * section 3 test setup) need a run MTU of 4096.
 *
 * @param containerBytes maximum container payload [bytes], at least 64 (000: 16 KB)
 * @param assemblyTimeoutPs time after which a partial container is closed [ps], positive (this project's choice: 1 us)
 * @param controlLatencyPs one-way latency of a request or grant [ps], not negative (this project's choice: 2 us,
 *        the two fabric links of a leaf-spine path plus switching)
 * @param localXoffBytes a local host is paused when its packets waiting at the edge reach this [bytes]
 * @param localXonBytes and resumed below this [bytes], 1 to {@code localXoffBytes}
 */
public record GseTransport(int containerBytes, long assemblyTimeoutPs, long controlLatencyPs, long localXoffBytes,
        long localXonBytes) implements TransportModel {
    /** Validates. */
    public GseTransport {
        Parameters.atLeast("containerBytes", containerBytes, 64);
        Parameters.atLeast("assemblyTimeoutPs", assemblyTimeoutPs, 1L);
        Parameters.atLeast("controlLatencyPs", controlLatencyPs, 0L);
        Parameters.atLeast("localXoffBytes", localXoffBytes, 1L);
        Parameters.inRange("localXonBytes", localXonBytes, 1L, localXoffBytes);
    }

    /** 16 KB containers, 1 us assembly timeout, 2 us request/grant latency, local PFC at 4 MB / 3 MB per host. */
    public static GseTransport defaults() {
        return new GseTransport(16_384, Time.US, 2 * Time.US, 4_000_000, 3_000_000);
    }

    /** A copy with another container size [bytes]. */
    public GseTransport withContainerBytes(int bytes) {
        return new GseTransport(bytes, assemblyTimeoutPs, controlLatencyPs, localXoffBytes, localXonBytes);
    }

    /** One run of this transport (the simulator's internal types). */
    @Override
    public TransportRun start(Network network) {
        return new GseRun(network, this);
    }
}
