package fabriclab.loadbalancing.flow;

import java.util.SplittableRandom;

/**
 * How a RoCEv2 NIC picks the UDP source port of a queue pair (QP). The RoCEv2 annex leaves the
 * choice to the NIC; the source port is the entropy ECMP sees, so this choice decides how
 * "low-entropy" a job's traffic is.
 *
 * <p>All policies return a port in the dynamic range 49152..65535 (0xC000 | 14 bits).
 */
public enum SourcePortPolicy {
    /**
     * Port = 0xC000 | (QPN mod 2^14): consecutive QP numbers give consecutive ports, and NICs that
     * number their QPs alike give identical ports. The realistic low-entropy case.
     */
    SEQUENTIAL {
        @Override
        public int sourcePort(int qpn, SplittableRandom random) {
            return 0xC000 | (qpn & 0x3FFF);
        }
    },
    /**
     * Port = 0xC000 | (top 14 bits of QPN x 0x9E3779B1): a fixed multiplicative scramble of the QP
     * number, standing for a vendor's QPN-to-port hash (fabriclab's choice, not a vendor's formula).
     */
    QPN_SCRAMBLED {
        @Override
        public int sourcePort(int qpn, SplittableRandom random) {
            return 0xC000 | ((qpn * 0x9E3779B1) >>> 18);
        }
    },
    /** Port uniform in 49152..65535, drawn from the seeded generator (ideal entropy). */
    RANDOM {
        @Override
        public int sourcePort(int qpn, SplittableRandom random) {
            return 0xC000 | fabriclab.Parameters.notNull("random", random).nextInt(1 << 14);
        }
    };

    /**
     * The source port of queue pair {@code qpn}.
     *
     * @param qpn queue pair number (24-bit in InfiniBand; any int accepted)
     * @param random generator used by {@link #RANDOM} only (not null there); the other policies
     *               ignore it and accept null
     * @return a port in 49152..65535
     */
    public abstract int sourcePort(int qpn, SplittableRandom random);
}
