package fabriclab.simulation.element;

import fabriclab.simulation.event.EventHandler;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The flows of a run and the order they may start in, kept outside the network elements: a flow
 * starts at its {@link fabriclab.simulation.config.FlowSpec#startPs()} once every flow it waits for has been completely received
 * (the dependency of a collective's step on the data of the step before). Receives the deliveries
 * of the receivers, records completion and releases the flows that waited for it.
 */
public final class Workload implements EventHandler {
    private final Network net;
    public final List<FlowState> flows;

    public Workload(Network net, List<FlowState> flows) {
        this.net = net;
        this.flows = flows;
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

    /** Flow {@code flow} waits for every flow in {@code predecessors}. */
    public void addDependency(int flow, int[] predecessors) {
        FlowState f = flows.get(flow);
        for (int pi : predecessors) {
            FlowState pre = flows.get(pi);
            pre.successors = java.util.Arrays.copyOf(pre.successors, pre.successors.length + 1);
            pre.successors[pre.successors.length - 1] = flow;
            f.pendingPredecessors++;
        }
    }

    /** Fails if the dependencies form a cycle (some flow could never start). */
    public void checkAcyclic() {
        int[] pending = new int[flows.size()];
        ArrayDeque<Integer> free = new ArrayDeque<>();
        for (FlowState f : flows) {
            pending[f.id] = f.pendingPredecessors;
            if (pending[f.id] == 0) {
                free.add(f.id);
            }
        }
        int seen = 0;
        while (!free.isEmpty()) {
            seen++;
            for (int s : flows.get(free.poll()).successors) {
                if (--pending[s] == 0) {
                    free.add(s);
                }
            }
        }
        if (seen != flows.size()) {
            throw new IllegalArgumentException("flow dependencies (startAfter) form a cycle; " + (flows.size() - seen)
                    + " flows could never start");
        }
    }

    /** Schedules the start of every flow that waits for no other. */
    public void scheduleStarts() {
        for (FlowState f : flows) {
            if (f.pendingPredecessors == 0) {
                net.hosts[f.spec.source()].part.scheduleFor(net.hosts[f.spec.source()], f.spec.startPs(), this, f);
            }
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
            for (int s : f.successors) {
                FlowState next = flows.get(s);
                if (--next.pendingPredecessors == 0) { // (spread over partitions: only when next starts at this host)
                    HostNic source = net.hosts[next.spec.source()];
                    source.part.scheduleFor(source, Math.max(now, next.spec.startPs()), this, next);
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
