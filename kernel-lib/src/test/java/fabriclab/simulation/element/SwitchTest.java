package fabriclab.simulation.element;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.flow.FiveTuple;
import fabriclab.loadbalancing.hash.EcmpHasher;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.loadbalancing.hash.PathSelection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SwitchTest {
    /** Hosts 0, 1, 2 on one switch (port h toward host h), 100G, 1 us; flow 0: 0 -> 1, flow 1: 0 -> 2. */
    static Rig star(int priorities, SwitchBuffer buffer, long seed) {
        return new Rig(Topology.singleSwitch(3, Rig.G100, Time.US), Rig.config(priorities, buffer, seed),
                List.of(FlowSpec.of(0, 1, 1_000_000, 0), FlowSpec.of(0, 2, 1_000_000, 0)));
    }

    /** Offers {@code p} to the switch as if it had arrived from host 0. */
    static void arrive(Rig r, Packet p) {
        Switch sw = r.net.switches[0];
        p.ingress = sw.ports.get(0);
        sw.receive(p, r.net.main.now);
    }

    @Test
    void tailDropAtThePerQueueLimitAndAtTheSharedBuffer() {
        // shared 3000 B, 2000 B per (port, priority) queue, 1000 B packets all arriving at t = 0
        Rig r = star(1, new SwitchBuffer(3_000, 2_000, EcnMarking.OFF), 1);
        Switch sw = r.net.switches[0];
        r.at(0, () -> {
            for (int k = 0; k < 3; k++) {
                arrive(r, r.data(0, k, 1000, 0)); // to host 1: 1000, 2000, then 3000 > 2000: dropped
            }
            for (int k = 0; k < 2; k++) {
                arrive(r, r.data(1, k, 1000, 0)); // to host 2: used 3000, then 4000 > 3000: dropped (its queue holds only 1000)
            }
        });
        r.runUntil(0);
        assertEquals(1, sw.ports.get(1).queue.drops);
        assertEquals(1, sw.ports.get(2).queue.drops);
        assertEquals(1, r.flow(0).dropped);
        assertEquals(1, r.flow(1).dropped);
        assertEquals(3_000, sw.usedBytes);
        assertEquals(3_000, sw.ports.get(0).ingress.peakBytes()[0]); // every admitted byte arrived through port 0
        // the first packet to host 1 has left at 80 ns: its 1000 B are free again
        r.at(81 * Time.NS, () -> arrive(r, r.data(0, 3, 1000, 0)));
        r.runAll();
        assertEquals(1, sw.ports.get(1).queue.drops);
        assertEquals(List.of(0, 1, 3), r.arrivalsAt(1).stream().map(a -> a.packet().seq).toList());
        assertEquals(1, r.arrivalsAt(2).size());
        assertEquals(0, sw.usedBytes);
        assertEquals(3_000, sw.peakUsedBytes);
    }

    @Test
    void thePerQueueLimitIsPerPortAndPriority() {
        Rig r = star(2, new SwitchBuffer(10_000, 2_000, EcnMarking.OFF), 1);
        Switch sw = r.net.switches[0];
        r.at(0, () -> {
            for (int pr = 0; pr < 2; pr++) {
                for (int k = 0; k < 3; k++) { // the third of each priority exceeds 2000
                    arrive(r, r.data(0, 3 * pr + k, 1000, pr));
                }
            }
        });
        r.runAll();
        assertEquals(2, sw.ports.get(1).queue.drops);
        assertEquals(4, r.arrivalsAt(1).size());
    }

    /** Marks of {@code n} data packets offered at t = 0 to one queue: packet k finds k x 1000 B in it. */
    static boolean[] marks(EcnMarking marking, long seed, int n) {
        Rig r = star(1, new SwitchBuffer(1_000_000, 1_000_000, marking), seed);
        List<Packet> sent = new ArrayList<>();
        r.at(0, () -> {
            for (int k = 0; k < n; k++) {
                Packet p = r.data(0, k, 1000, 0);
                sent.add(p);
                arrive(r, p);
            }
        });
        r.runUntil(0);
        boolean[] m = new boolean[n];
        for (int k = 0; k < n; k++) {
            m[k] = sent.get(k).ecn;
        }
        long count = 0;
        for (boolean b : m) {
            count += b ? 1 : 0;
        }
        assertEquals(count, r.net.switches[0].ports.get(1).queue.ecnMarks);
        return m;
    }

    @Test
    void ecnMarksNothingUpToKminAndEverythingAboveKmax() {
        // Pmax = 0: the probability is 0 up to and at Kmax, 1 above it
        boolean[] m = marks(new EcnMarking(2_000, 4_000, 0.0), 1, 8);
        assertArrayEquals(new boolean[] {false, false, false, false, false, true, true, true}, m);
        // the linear part: Kmin 2000, Kmax 6000, Pmax 0.5. q = 0..2000: never; q = 4000: 0.25;
        // q = 6000 (at Kmax): 0.5; q >= 7000: always. 400 seeds, counts within 5 binomial deviations.
        int trials = 400;
        int[] count = new int[10];
        for (int s = 0; s < trials; s++) {
            boolean[] x = marks(new EcnMarking(2_000, 6_000, 0.5), 1000 + s, 10);
            for (int k = 0; k < 10; k++) {
                count[k] += x[k] ? 1 : 0;
            }
        }
        for (int k = 0; k <= 2; k++) {
            assertEquals(0, count[k], "q = " + 1000 * k);
        }
        for (int k = 7; k < 10; k++) {
            assertEquals(trials, count[k], "q = " + 1000 * k);
        }
        double[] p = {0, 0, 0, 0.125, 0.25, 0.375, 0.5};
        for (int k = 3; k <= 6; k++) {
            double mean = trials * p[k];
            double sd = Math.sqrt(trials * p[k] * (1 - p[k]));
            assertEquals(mean, count[k], 5 * sd, "q = " + 1000 * k);
        }
    }

    @Test
    void controlPacketsAreNeverMarkedAndOnlyCongestedDataReachesTheCongestionPoint() {
        Rig r = star(1, new SwitchBuffer(1_000_000, 1_000_000, new EcnMarking(0, 0, 1.0)), 1);
        Switch sw = r.net.switches[0];
        List<Integer> congested = new ArrayList<>();
        sw.congestionPoint = (s, p, now) -> congested.add(p.seq);
        List<Packet> ctrl = new ArrayList<>();
        r.at(0, () -> {
            arrive(r, r.data(0, 0, 1000, 0)); // empty queue: q = 0 is not above Kmin = 0
            Packet c = r.control(0, Packet.ACK, 64, 0, 1);
            ctrl.add(c);
            arrive(r, c);
            arrive(r, r.data(0, 1, 1000, 0));
        });
        r.runUntil(0);
        assertFalse(ctrl.get(0).ecn);
        assertEquals(List.of(1), congested);
        assertEquals(1, sw.ports.get(1).queue.ecnMarks);
    }

    /**
     * Four 1000 B data packets reach host 1's port at once, step marking above 1500 B. At enqueue a packet is marked on
     * the bytes it finds (0, 1000, 2000, 3000: the third and fourth); at dequeue on the bytes it leaves behind as it
     * starts (the first starts at once with none behind, the second at 80 ns with the third and fourth behind, 2000 B,
     * then 1000 and 0): the second only.
     */
    @Test
    void marksAtEnqueueOnTheQueueFoundAndAtDequeueOnTheQueueLeftBehind() {
        for (SwitchBuffer.MarkingPoint point : SwitchBuffer.MarkingPoint.values()) {
            Rig r = star(1, new SwitchBuffer(1_000_000, 1_000_000, new EcnMarking(1500, 1500, 1.0)).withEcnMarkingPoint(point), 1);
            r.at(0, () -> {
                for (int k = 0; k < 4; k++) {
                    arrive(r, r.data(0, k, 1000, 0));
                }
            });
            r.runAll();
            List<Integer> marked = r.arrivalsAt(1).stream().filter(a -> a.packet().ecn).map(a -> a.packet().seq).toList();
            assertEquals(point == SwitchBuffer.MarkingPoint.ENQUEUE ? List.of(2, 3) : List.of(1), marked, point.name());
            assertEquals(marked.size(), r.net.switches[0].ports.get(1).queue.ecnMarks, point.name());
        }
    }

    @Test
    void aDownLinkBlackHolesUntilWithdrawnThenThereIsNoRoute() {
        Rig r = star(1, SwitchBuffer.shared(1_000_000), 1);
        Switch sw = r.net.switches[0];
        r.at(Time.US, () -> r.net.failLink(1));
        r.at(2 * Time.US, () -> arrive(r, r.data(0, 0, 1000, 0)));
        r.at(3 * Time.US, () -> r.net.withdrawLink(1));
        r.at(4 * Time.US, () -> arrive(r, r.data(0, 1, 1000, 0)));
        r.runAll();
        assertEquals(1, sw.blackholedPackets);
        assertEquals(1, sw.ports.get(1).queue.drops);
        assertEquals(1, sw.unroutablePackets);
        assertEquals(2, r.flow(0).dropped);
        assertEquals(0, sw.usedBytes);
        assertTrue(r.arrivalsAt(1).isEmpty());
    }

    // ------------------------------------------------------------------ ECMP on a leaf-spine

    /** 2 leaves x 2 spines, hosts 0, 1 on leaf 0 (switch 0), hosts 2, 3 on leaf 1; leaf ports 2, 3 go to spines 0, 1. */
    static final LeafSpine FABRIC = new LeafSpine(4, 1, 2, 2, Rig.G100, Rig.G100, 1, Time.US, Time.US);

    /** The uplink member (0 or 1) that switch {@code k}'s hasher picks, from the documented per-switch seed. */
    static int member(int switchIndex, FiveTuple t) {
        int seed = 0 + switchIndex * 0x9E3779B9; // Forwarding.ecmp(CRC32, 0): seed_k = seed + k * 0x9E3779B9
        return EcmpHasher.of(HashFunction.CRC32, seed, 0, PathSelection.MODULO).path(t, 2);
    }

    static FiveTuple tuple(int src, int dst, int sport) {
        return FiveTuple.roceV2(0x0A000000 + src + 1, 0x0A000000 + dst + 1, sport);
    }

    @Test
    void ecmpRemembersEachFlowsHashedUplinkInBothDirectionsUntilTheRoutesChange() {
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            flows.add(new FlowSpec(0, 2, 1_000_000, 0, 0, 50_000 + i));
        }
        Rig r = new Rig(FABRIC.build(), Rig.config(1, SwitchBuffer.shared(10_000_000), 1), flows);
        Switch leaf0 = r.net.switches[0];
        Switch leaf1 = r.net.switches[1];
        int[] perUplink = new int[2];
        r.at(0, () -> {
            for (int i = 0; i < 16; i++) {
                Packet p = r.data(i, 0, 1000, 0);
                leaf0.receive(p, 0);
                Port expected = leaf0.ports.get(2 + member(0, tuple(0, 2, 50_000 + i)));
                assertSame(expected, r.flow(i).ecmpEgress[0], "flow " + i);
                perUplink[expected.index - 2]++;
                // a reply (destination -> source) hashes the reversed tuple (addresses and ports swapped)
                // with leaf 1's seed
                Packet ack = r.control(i, Packet.ACK, 64, 0, 0);
                leaf1.receive(ack, 0);
                FiveTuple reverse = new FiveTuple(0x0A000000 + 2 + 1, 0x0A000000 + 0 + 1, FiveTuple.ROCE_V2_PORT, 50_000 + i,
                        FiveTuple.UDP);
                assertSame(leaf1.ports.get(2 + member(1, reverse)), r.flow(i).reverseEcmpEgress[1], "flow " + i + " reverse");
            }
        });
        r.runUntil(0);
        assertTrue(perUplink[0] > 0 && perUplink[1] > 0, "the flows must use both uplinks: " + perUplink[0] + "/" + perUplink[1]);
        // take a flow hashed to spine 0 (port 2): its later packets follow the remembered port, black-holed
        // once the link is down; when the link is withdrawn the memory is cleared and the flow moves to port 3
        int f = 0;
        while (member(0, tuple(0, 2, 50_000 + f)) != 0) {
            f++;
        }
        final int flow = f;
        Port dead = leaf0.ports.get(2);
        long droppedBefore = dead.queue.drops;
        r.at(10 * Time.US, () -> r.net.failLink(FABRIC.uplinkIndex(0, 0, 0)));
        r.at(11 * Time.US, () -> leaf0.receive(r.data(flow, 1, 1000, 0), 11 * Time.US));
        r.at(12 * Time.US, () -> r.net.withdrawLink(FABRIC.uplinkIndex(0, 0, 0)));
        r.at(13 * Time.US, () -> leaf0.receive(r.data(flow, 2, 1000, 0), 13 * Time.US));
        r.runAll();
        assertEquals(1, leaf0.blackholedPackets);
        assertEquals(droppedBefore + 1, dead.queue.drops);
        assertSame(leaf0.ports.get(3), r.flow(flow).ecmpEgress[0]);
        assertEquals(List.of(0, 2), r.arrivalsAt(2).stream().filter(a -> a.packet().flow.id == flow)
                .map(a -> a.packet().seq).toList());
    }

    @Test
    void roundRobinSprayingAlternatesTheUplinksPerDestination() {
        SimulationConfig c = Rig.config(1, SwitchBuffer.shared(10_000_000), 1).withForwarding(Forwarding.sprayRoundRobin());
        Rig r = new Rig(FABRIC.build(), c, List.of(FlowSpec.of(0, 2, 1_000_000, 0), FlowSpec.of(0, 3, 1_000_000, 0)));
        Switch leaf0 = r.net.switches[0];
        r.at(0, () -> {
            // destinations 2, 2, 3, 2, 3: per destination the rotation goes port 2, 3, 2, ...
            for (int f : new int[] {0, 0, 1, 0, 1}) {
                leaf0.receive(r.data(f, 0, 1000, 0), 0);
            }
        });
        r.runUntil(0);
        // port 2 got (dst 2) #1, #3 and (dst 3) #1; port 3 got (dst 2) #2 and (dst 3) #2
        assertEquals(3_000, leaf0.ports.get(2).queue.totalBytes());
        assertEquals(2_000, leaf0.ports.get(3).queue.totalBytes());
    }
}
