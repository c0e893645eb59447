package fabriclab.loadbalancing.flow;

import fabriclab.Parameters;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The RoCEv2 flows of one training job as the switches see them: every source NIC opens
 * {@code qpsPerNic} queue pairs to every destination, one 5-tuple per QP.
 *
 * <p>Addressing (fabriclab's convention): source NIC {@code i} (0-based) has address
 * {@code sourceBase + i + 1}, destination {@code d} has {@code destinationBase + d + 1}; by default
 * 10.0.0.0/16 and 10.128.0.0/16. Each NIC numbers its QPs from {@code firstQpn} upwards in the
 * order (destination, QP), the same way on every NIC, as NIC drivers typically do; the source port
 * then follows the {@link SourcePortPolicy}. The job's flows number
 * {@code sourceNics x destinations x qpsPerNic}. This is the low-entropy traffic of seed 000
 * section 1.2.1 and seed 002 challenge 1: few flows, differing only in a handful of address and port
 * bits.
 *
 * @param sourceNics number of sending NICs, at least 1
 * @param destinations number of destination addresses each NIC sends to, at least 1
 * @param qpsPerNic queue pairs per (NIC, destination), at least 1
 * @param policy how a QP's UDP source port is chosen
 * @param firstQpn first QP number on each NIC, at least 0
 * @param sourceBase address of the source subnet (NIC i gets sourceBase + i + 1)
 * @param destinationBase address of the destination subnet
 */
public record RoceJobTraffic(int sourceNics, int destinations, int qpsPerNic, SourcePortPolicy policy, int firstQpn,
                             int sourceBase, int destinationBase) {
    /** Default source subnet 10.0.0.0. */
    public static final int DEFAULT_SOURCE_BASE = 0x0A000000;
    /** Default destination subnet 10.128.0.0. */
    public static final int DEFAULT_DESTINATION_BASE = 0x0A800000;

    /** Validates the counts (the total must fit in an int) and the policy. */
    public RoceJobTraffic {
        Parameters.atLeast("sourceNics", sourceNics, 1);
        Parameters.atLeast("destinations", destinations, 1);
        Parameters.atLeast("qpsPerNic", qpsPerNic, 1);
        Parameters.notNull("policy", policy);
        Parameters.atLeast("firstQpn", firstQpn, 0);
        long total = (long) sourceNics * destinations * qpsPerNic;
        if (total > 50_000_000L) {
            throw new IllegalArgumentException("sourceNics x destinations x qpsPerNic must be <= 50,000,000 flows, got " + total);
        }
    }

    /** A job with the default subnets and QPs numbered from 0x100. */
    public static RoceJobTraffic of(int sourceNics, int destinations, int qpsPerNic, SourcePortPolicy policy) {
        return new RoceJobTraffic(sourceNics, destinations, qpsPerNic, policy, 0x100, DEFAULT_SOURCE_BASE, DEFAULT_DESTINATION_BASE);
    }

    /** Number of flows, {@code sourceNics x destinations x qpsPerNic}. */
    public int flowCount() {
        return sourceNics * destinations * qpsPerNic;
    }

    /**
     * The job's 5-tuples, ordered by source NIC, then destination, then QP.
     *
     * @param seed seed of the generator used by {@link SourcePortPolicy#RANDOM} (ignored otherwise);
     *     the same seed gives the same list
     */
    public List<FiveTuple> flows(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<FiveTuple> out = new ArrayList<>(flowCount());
        for (int i = 0; i < sourceNics; i++) {
            int src = sourceBase + i + 1;
            for (int d = 0; d < destinations; d++) {
                int dst = destinationBase + d + 1;
                for (int q = 0; q < qpsPerNic; q++) {
                    int qpn = firstQpn + d * qpsPerNic + q;
                    out.add(FiveTuple.roceV2(src, dst, policy.sourcePort(qpn, random)));
                }
            }
        }
        return Collections.unmodifiableList(out);
    }
}
