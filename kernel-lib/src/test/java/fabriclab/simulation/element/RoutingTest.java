package fabriclab.simulation.element;

import fabriclab.simulation.config.SwitchBuffer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Shortest-path candidates. In {@code new LeafSpine(8, 1, 2, 4, ...)} hosts 0-3 sit on leaf 0 (node 8),
 * hosts 4-7 on leaf 1 (node 9), spines are nodes 10-13. Links are listed host links first, then per
 * leaf per spine, so a leaf's ports are its 4 hosts (0-3) then spines 0-3 (4-7), and a spine's ports
 * are leaf 0 (0) then leaf 1 (1).
 */
class RoutingTest {
    static final LeafSpine FABRIC = new LeafSpine(8, 1, 2, 4, Rig.G100, Rig.G100, 1, Time.US, Time.US);

    static Network network(Topology t) {
        Network net = new Network(t, Rig.config(1, SwitchBuffer.shared(1_000_000), 1));
        net.workload = new Workload(net, List.of());
        return net;
    }

    static int[] peers(Switch sw, int[] ports) {
        return Arrays.stream(ports).map(p -> sw.ports.get(p).peer().id).toArray();
    }

    @Test
    void leafSpineCandidatesAreEveryUplinkTowardARemoteLeafAndTheHostPortLocally() {
        Network net = network(FABRIC.build());
        Switch leaf0 = net.switches[0];
        Switch leaf1 = net.switches[1];
        for (int h = 4; h < 8; h++) {
            assertArrayEquals(new int[] {4, 5, 6, 7}, leaf0.routes[h], "leaf 0 -> host " + h);
        }
        assertArrayEquals(new int[] {10, 11, 12, 13}, peers(leaf0, leaf0.routes[5]));
        for (int h = 0; h < 4; h++) {
            assertArrayEquals(new int[] {h}, leaf0.routes[h], "leaf 0 -> local host " + h);
            assertArrayEquals(new int[] {h}, peers(leaf0, leaf0.routes[h]));
            assertArrayEquals(new int[] {4, 5, 6, 7}, leaf1.routes[h], "leaf 1 -> host " + h);
        }
        for (int s = 0; s < 4; s++) {
            Switch spine = net.switches[2 + s];
            for (int h = 0; h < 8; h++) {
                int[] expected = {h < 4 ? 0 : 1};
                assertArrayEquals(expected, spine.routes[h], "spine " + s + " -> host " + h);
                assertArrayEquals(new int[] {h < 4 ? 8 : 9}, peers(spine, spine.routes[h]));
            }
        }
        // equal lists are one shared array
        assertSame(leaf0.routes[4], leaf0.routes[7]);
        assertSame(leaf0.routes[4], leaf1.routes[0]);
    }

    @Test
    void parallelLinksAreEqualCostMembers() {
        // 2 leaves x 2 spines, 2 links per pair: leaf ports 0, 1 hosts; 2, 3 spine 0; 4, 5 spine 1.
        // spine ports: 0, 1 leaf 0; 2, 3 leaf 1
        Network net = network(new LeafSpine(4, 1, 2, 2, Rig.G100, Rig.G100, 2, Time.US, Time.US).build());
        assertArrayEquals(new int[] {2, 3, 4, 5}, net.switches[0].routes[3]);
        assertArrayEquals(new int[] {2, 3}, net.switches[2].routes[3]);
        assertArrayEquals(new int[] {0, 1}, net.switches[3].routes[0]);
    }

    @Test
    void withdrawingALinkRemovesItAndPathsAroundItAreLonger() {
        Network net = network(FABRIC.build());
        int link = FABRIC.uplinkIndex(0, 1, 0); // leaf 0 - spine 1: leaf 0 port 5, spine 1 port 0
        net.withdrawLink(link);
        Switch leaf0 = net.switches[0];
        Switch leaf1 = net.switches[1];
        Switch spine1 = net.switches[3];
        assertArrayEquals(new int[] {4, 6, 7}, leaf0.routes[5]);
        // spine 1 now reaches leaf 0 only through leaf 1 and another spine (4 hops instead of 2)
        assertArrayEquals(new int[] {1}, spine1.routes[0]);
        // so for leaf 1 spine 1 is no longer on a shortest path to leaf 0's hosts
        assertArrayEquals(new int[] {4, 6, 7}, leaf1.routes[0]);
        // toward leaf 1's hosts nothing changed
        assertArrayEquals(new int[] {1}, spine1.routes[5]);
        assertArrayEquals(new int[] {0}, net.switches[2].routes[0]);
    }

    @Test
    void aDownLinkIsLeftOutWhenTheTablesAreComputed() {
        Network net = network(FABRIC.build());
        net.failLink(FABRIC.uplinkIndex(0, 2, 0));
        // the failure alone does not reroute (detection delay): the tables still list the port
        assertArrayEquals(new int[] {4, 5, 6, 7}, net.switches[0].routes[5]);
        Routing.install(net);
        assertArrayEquals(new int[] {4, 5, 7}, net.switches[0].routes[5]);
    }

    @Test
    void hostsNeverForwardAndIslandsAreUnreachable() {
        // hosts 0, 1 on switch 0 (node 4), hosts 2, 3 on switch 1 (node 5), no switch-to-switch link
        Topology split = new Topology("split", 4, 2, List.of(new LinkSpec(0, 4, 1, 0), new LinkSpec(1, 4, 1, 0),
                new LinkSpec(2, 5, 1, 0), new LinkSpec(3, 5, 1, 0)), List.of(0, 0));
        Network net = network(split);
        assertArrayEquals(new int[] {1}, net.switches[0].routes[1]);
        assertNull(net.switches[0].routes[2]);
        assertNull(net.switches[1].routes[0]);
        // withdrawing a host's only link makes that host unreachable
        net.withdrawLink(1);
        assertNull(net.switches[0].routes[1]);
        assertArrayEquals(new int[] {0}, net.switches[0].routes[0]);
    }
}
