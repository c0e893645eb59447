package fabriclab.simulation.element;

import fabriclab.simulation.event.EventHandler;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The flows of a run and the order they may start in, kept outside the network elements. The runtime flows
 * ({@link #flows}) are queue pairs: flow {@code i} of the scenario is the runtime flows
 * {@code firstQueuePair(i)} to {@code firstQueuePair(i + 1) - 1}. A flow starts, all its queue pairs at once, at its
 * {@link fabriclab.simulation.config.FlowSpec#startPs()} once every flow it waits for has been completely received
 * (all of that flow's queue pairs: the dependency of a collective's step on the data of the step before). Receives
 * the deliveries of the receivers, records completion and releases the flows that waited for it.
 */
public final class Workload implements EventHandler {
    private final Network net;
    /** The runtime flows (queue pairs), by runtime index. */
    public final List<FlowState> flows;
    /** Flow i's queue pairs are runtime flows first[i] to first[i + 1] - 1; first has one entry per flow and one more. */
    private final int[] first;
    /** The flow of each queue pair. */
    private final int[] flowOfQueuePair;
    /** Per flow, its queue pairs not yet completely received. */
    private final int[] incompleteQueuePairs;
    /** Per flow, the flows it waits for that are not yet completely received. */
    private final int[] pendingPredecessors;
    /** Per flow, the flows that wait for it. */
    private final int[][] successors;

    /** A workload where every runtime flow is a flow of one queue pair. */
    public Workload(Network net, List<FlowState> flows) {
        this(net, flows, identity(flows.size()));
    }

    /**
     * A workload of {@code firstQueuePair.length - 1} flows over the runtime flows {@code flows} (queue pairs): flow i
     * is {@code flows} {@code firstQueuePair[i]} to {@code firstQueuePair[i + 1] - 1}, at least one each.
     */
    public Workload(Network net, List<FlowState> flows, int[] firstQueuePair) {
        this.net = net;
        this.flows = flows;
        int n = firstQueuePair.length - 1;
        if (n < 0 || firstQueuePair[0] != 0 || firstQueuePair[n] != flows.size()) {
            throw new IllegalArgumentException("firstQueuePair must run from 0 to flows.size() = " + flows.size());
        }
        this.first = firstQueuePair.clone();
        this.flowOfQueuePair = new int[flows.size()];
        this.incompleteQueuePairs = new int[n];
        this.pendingPredecessors = new int[n];
        this.successors = new int[n][];
        for (int i = 0; i < n; i++) {
            if (first[i + 1] <= first[i]) {
                throw new IllegalArgumentException("firstQueuePair must increase, got " + first[i] + " then " + first[i + 1]);
            }
            java.util.Arrays.fill(flowOfQueuePair, first[i], first[i + 1], i);
            incompleteQueuePairs[i] = first[i + 1] - first[i];
            successors[i] = new int[0];
        }
    }

    private static int[] identity(int n) {
        int[] a = new int[n + 1];
        for (int i = 0; i <= n; i++) {
            a[i] = i;
        }
        return a;
    }

    /** Flows (as the scenario numbers them, each of one or more queue pairs). */
    public int flowCount() {
        return successors.length;
    }

    /** The runtime index of flow {@code flow}'s first queue pair; {@code flowCount()} gives the number of queue pairs. */
    public int firstQueuePair(int flow) {
        return first[flow];
    }

    /** The flow queue pair (runtime flow) {@code queuePair} belongs to. */
    public int flowOf(int queuePair) {
        return flowOfQueuePair[queuePair];
    }

    /** Bytes in the megabyte of progress reports (10^6). */
    static final long MB = 1_000_000L;

    /** The payload of all the flows, MB rounded up: the total of a progress report by payload delivered. */
    public long totalPayloadMb() {
        long total = 0;
        for (FlowState f : flows) {
            total += f.spec.bytes();
        }
        return megabytes(total);
    }

    /** {@code bytes} in MB of progress reports, rounded up (a report's count of payload delivered). */
    public static long megabytes(long bytes) {
        return (bytes + MB - 1) / MB;
    }

    /** Flow {@code flow} waits for every flow in {@code predecessors} (flow indices, not queue pairs). */
    public void addDependency(int flow, int[] predecessors) {
        for (int pi : predecessors) {
            successors[pi] = java.util.Arrays.copyOf(successors[pi], successors[pi].length + 1);
            successors[pi][successors[pi].length - 1] = flow;
            pendingPredecessors[flow]++;
        }
    }

    /** Fails if the dependencies form a cycle (some flow could never start). */
    public void checkAcyclic() {
        int n = flowCount();
        int[] pending = pendingPredecessors.clone();
        ArrayDeque<Integer> free = new ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            if (pending[i] == 0) {
                free.add(i);
            }
        }
        int seen = 0;
        while (!free.isEmpty()) {
            seen++;
            for (int s : successors[free.poll()]) {
                if (--pending[s] == 0) {
                    free.add(s);
                }
            }
        }
        if (seen != n) {
            throw new IllegalArgumentException("flow dependencies (startAfter) form a cycle; " + (n - seen)
                    + " flows could never start");
        }
    }

    /** Schedules the start of every queue pair of every flow that waits for no other. */
    public void scheduleStarts() {
        for (int i = 0; i < flowCount(); i++) {
            if (pendingPredecessors[i] == 0) {
                scheduleStart(i, 0);
            }
        }
    }

    /** Schedules the start of flow {@code flow}'s queue pairs at their start time, not before {@code notBeforePs}. */
    private void scheduleStart(int flow, long notBeforePs) {
        for (int q = first[flow]; q < first[flow + 1]; q++) {
            FlowState f = flows.get(q);
            HostNic source = net.hosts[f.spec.source()];
            source.part.scheduleFor(source, Math.max(notBeforePs, f.spec.startPs()), this, f);
        }
    }

    /** A flow's start event: its start time passed and its predecessors are complete. */
    @Override
    public void handle(long timePs, Object payload) {
        FlowState f = (FlowState) payload;
        f.startedPs = timePs;
        Partition part = net.hosts[f.spec.source()].part; // (the partition running this start)
        part.flowsStarted++;
        part.lastProgressPs = timePs;
        f.transport.onStart(timePs);
        net.hosts[f.spec.source()].wake(f);
    }

    /**
     * Delivers data packet {@code p} to the receiving application; returns false (and counts a
     * duplicate, discarding it) if that sequence was delivered before.
     */
    public boolean deliver(Packet p, long now) {
        FlowState f = p.flow;
        if (f.received.get(p.seq)) {
            f.duplicates++;
            discard(p);
            return false;
        }
        f.received.set(p.seq);
        if (p.seq < f.highestSeq) {
            f.reordered++;
        } else {
            f.highestSeq = p.seq;
        }
        if (p.ecn) {
            f.ecnMarked++;
        }
        f.receivedBytes += p.payloadBytes;
        f.transport.destination.deliveredBytes += p.payloadBytes; // (the partition running this: progress reports)
        f.lastDeliveryPs = now;
        f.transport.destination.lastProgressPs = now;
        if (f.receivedBytes == f.spec.bytes()) {
            f.transport.destination.flowsCompleted++;
            f.completionPs = now;
            f.transport.onCompleted(now);
            int flow = flowOfQueuePair[f.id];
            if (--incompleteQueuePairs[flow] == 0) { // (a flow's queue pairs complete at one host: one partition)
                for (int s : successors[flow]) {
                    if (--pendingPredecessors[s] == 0) { // (spread over partitions: only when s starts at this host)
                        scheduleStart(s, now);
                    }
                }
            }
        }
        return true;
    }

    /** A data packet reached its receiver but is not delivered (duplicate, or out of order under go-back-N). */
    public void discard(Packet p) {
        p.flow.discardedBytes += p.payloadBytes;
    }
}
