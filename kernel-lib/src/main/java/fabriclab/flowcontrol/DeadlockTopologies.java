package fabriclab.flowcontrol;

import fabriclab.Parameters;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Topology;

import java.util.List;

/**
 * Fabrics of the PFC deadlock examples, as {@link Topology} graphs with link rates, so that the
 * buffer dependency analysis and the packet simulator can take the same object.
 */
public final class DeadlockTopologies {
    /**
     * The leaf-spine links that have failed in {@link #huaweiWhitePaperClos}, each as its two node names:
     * leaf3-spine1 and leaf4-spine2.
     */
    public static final List<List<String>> HUAWEI_WHITE_PAPER_FAILED_LINKS = List.of(List.of("leaf3", "spine1"),
            List.of("leaf4", "spine2"));

    private DeadlockTopologies() {
    }

    /**
     * The CLOS of 003's deadlock prevention example (Huawei et al., intelligent lossless network white paper, section 4.1.4,
     * figures 18 and 19): four leaves
     * "leaf1".."leaf4" under two spines "spine1", "spine2", every leaf-spine pair joined by one link
     * except the failed leaf3-spine1 and leaf4-spine2 ({@link #HUAWEI_WHITE_PAPER_FAILED_LINKS}). A flow from
     * leaf1 to leaf3 hashed onto spine1, or from leaf2 to leaf4 hashed onto spine2, must then bounce
     * through another leaf, and two such bounced flows close the cycle leaf2-spine2-leaf1-spine1.
     *
     * <p>Servers: 003 draws servers under the leaves; here each leaf has {@code serversPerLeaf}
     * servers with one NIC each (hosts "host0", "host1", ... in leaf order), the shape the packet
     * simulator can run (a host has exactly one link). Their number does not change the buffer
     * dependency graph of switch-to-switch routes. All links run at {@code linkRateBitsPerSecond} with
     * {@code propagationPs} (speedup 1 when {@code serversPerLeaf = 2}).
     *
     * @param serversPerLeaf single-NIC servers under each leaf, at least 1
     * @param linkRateBitsPerSecond rate of every link [bit/s], positive
     * @param propagationPs propagation delay of every link [ps], 0 to {@link fabriclab.fabric.LinkSpec#MAX_PROPAGATION_PS} (5 ns per metre of fibre)
     */
    public static Topology huaweiWhitePaperClos(int serversPerLeaf, long linkRateBitsPerSecond, long propagationPs) {
        Parameters.inRange("serversPerLeaf", serversPerLeaf, 1, 1 << 18); // 4 leaves x 2^18: the leaf-spine's 2^20 hosts
        Parameters.atLeast("linkRateBitsPerSecond", linkRateBitsPerSecond, 1);
        Parameters.inRange("propagationPs", propagationPs, 0, fabriclab.fabric.LinkSpec.MAX_PROPAGATION_PS);
        Topology t = new LeafSpine(4 * serversPerLeaf, 1, 4, 2, linkRateBitsPerSecond, linkRateBitsPerSecond, 1, propagationPs,
                propagationPs).build();
        for (List<String> failed : HUAWEI_WHITE_PAPER_FAILED_LINKS) {
            t = t.withoutLink(failed.get(0), failed.get(1));
        }
        return t;
    }
}
