package fabriclab.simulation.engine;

import fabriclab.simulation.element.HostNic;
import fabriclab.simulation.element.CanonicalOrder;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Node;
import fabriclab.simulation.element.Partition;
import fabriclab.simulation.element.Switch;
import fabriclab.simulation.transport.TransportRun;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Time;
import fabriclab.progress.ProgressSink;
import fabriclab.simulation.event.EventQueue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The parallel engine of the packet simulator: a conservative (no rollback) parallel discrete-event
 * simulation in time windows, whose result does not depend on the number of threads.
 *
 * <p><b>Partitions.</b> The fabric's nodes are grouped into units (a leaf switch with the hosts
 * attached to it; every other switch alone; a host attached to no leaf alone), and the units are
 * spread over one {@link Partition} per thread by load (largest first onto the partition with the
 * fewest ports so far; weight of a unit = its ports). Each partition has its own event queue, clock
 * and packet pool; each switch and link its own random source, derived from the seed and its id
 * ({@link Network#elementRandom}), so a random draw does not depend on which thread makes it.
 *
 * <p><b>Lookahead and windows.</b> Nodes interact only over links: a packet reaches the peer
 * {@code propagation} after its last bit left, a PAUSE frame {@code ser(64 B) + propagation} after it
 * was sent. Any event one node causes at another is therefore at least {@code L} = the smallest
 * propagation delay of any link after the event that caused it. The run advances in windows
 * {@code [T, T + L)}, {@code T} the earliest pending event time over all partitions: each thread
 * handles its partition's events before {@code T + L}; an event for a node of another partition goes
 * to the outbox toward that partition (it is due at or after {@code T + L}, so no partition has
 * passed it); at the barrier closing the window ({@link Phaser}) every thread takes the events sent
 * to it into its queue and publishes its next event time (its queue's earliest, or the earliest event
 * it sent), and the next window starts at the minimum of those (empty time is skipped). Outboxes are
 * kept in two sets by window parity, so one barrier per window suffices.
 *
 * <p><b>Canonical tie order.</b> Both engines handle simultaneous events by one rule, {@link CanonicalOrder}
 * (its Javadoc states it): every event belongs to a node and a lane, lane {@code k} the events that arrived through
 * the node's port {@code k} (packets and PAUSE frames, in the order the peer sent them), the lanes after the ports'
 * GSE's messages, the last lane ({@link CanonicalOrder#OWN_LANE}) the events the node scheduled itself (timers, end
 * of a transmission). At each instant a node takes its arriving lanes in an order drawn from the run's seed, the
 * instant and the node, each lane in scheduling order, then its own events, then what it schedules for that same
 * instant while it runs. This order is independent of the partition: the events of one node at one instant
 * can only come from the node itself (every path between nodes has a positive delay), so, by induction
 * over the instants, every node sees the same events in the same order whatever the grouping of nodes:
 * the own lane is filled by the node alone, lane {@code k} by one peer in its own order, and the
 * interleaving of different nodes, the only thing the partition changes, does not matter because nodes share no
 * state at an instant.
 * What elements of different nodes do share is made partition-safe: a flow's sender and receiver state
 * are disjoint fields (the sender at the source host, the receiver at the destination); a flow's drop counters,
 * written by any switch, are sums updated under the flow's lock ({@code ParallelPartition.countDrop});
 * each switch remembers its own ECMP choice in its own entry of the flow's array; a packet's fields are
 * reset when a pool hands it out again, so pools, one per partition, may exchange packets; a GSE container
 * is the source edge's until it is sent and the destination edge's after, but for its confirmation time,
 * which the source edge reads only once that time has come, a latency (at least the lookahead) after it was
 * written, and the destination edge takes a copy's sending time from its packets.
 *
 * <p>So a run gives byte-identical results with 1, 2 or any number of threads, and the same results as the
 * sequential engine, which keeps the same order and the same per-element random sources in one partition.
 *
 * <p>What it can run: everything whose effect between two nodes takes at least the lookahead. What the
 * scenario must not contain (flow dependencies across hosts, link failures, queue sampling, observers, fabric
 * jitter) is checked by {@code Simulator.runParallel}, where it is documented; what a transport must not do is
 * declared by the transport ({@code TransportModel.parallelEngineLimitation}); a link without propagation delay is
 * rejected here.
 */
public final class ParallelEngine {
    /** The most ports a node may have on the parallel engine (with GSE: ports plus switches), one lane each. */
    public static final int MAX_PORTS_PER_NODE = CanonicalOrder.MAX_LANE - 1;

    private final Network net;
    private final ParallelPartition[] parts;
    private final int threads;
    private final long lookaheadPs;
    // statistics
    private long windows;
    private long[][] eventsPerWindow;   // [partition][window]
    private long[][] messagesPerWindow; // [partition][window]
    private long[][] cpuNsPerWindow;    // [partition][window]: CPU time of the owning thread in the window
    private final long[] barrierWaitNs;
    private final long[] busyNs;
    private final long[] partitionPorts;
    private final int[] partitionNodes;
    private volatile boolean stalled;
    private int instantEventLimit = Integer.MAX_VALUE;
    private long droppingLimitPs = Long.MAX_VALUE;
    private volatile boolean dropping;
    private long quietEventLimit = Long.MAX_VALUE;
    private volatile boolean quiet;
    private StuckInstant[][] stuck; // [window parity][partition]: the instant that never ended, or null
    private volatile StuckInstant stuckInstant;

    /**
     * The engine for {@code net} on {@code threads} threads, running {@code run}'s transport; spreads the nodes over
     * the partitions. The caller has checked that the scenario has nothing the engine cannot run (see the class
     * comment).
     *
     * @throws IllegalArgumentException if a link has no propagation delay or the fabric exceeds the event keys' lanes
     *         or nodes
     */
    public ParallelEngine(Network net, TransportRun run, int threads) {
        this.net = net;
        this.threads = threads;
        long l = Long.MAX_VALUE;
        for (LinkSpec s : net.topology.links()) {
            if (s.propagationPs() < 1) {
                throw new IllegalArgumentException("the parallel engine does not support a link with no propagation delay ("
                        + s + "; the lookahead is the smallest delay); run it with the sequential engine, run()");
            }
            l = Math.min(l, s.propagationPs());
        }
        // messages between switches outside the links (GSE's requests and grants) bound the lookahead too, and
        // each sender of them has a lane at every receiver, after the lanes of its ports
        l = Math.min(l, run.messageLatencyPs());
        int controlLanes = run.messageLanes();
        this.lookaheadPs = l;
        Node beyond = net.nodeBeyondTheLanes(controlLanes);
        if (beyond != null) {
            throw new IllegalArgumentException("the parallel engine allows at most " + (CanonicalOrder.MAX_LANE - 1)
                    + " ports per node (with GSE: ports plus switches), node " + beyond.id + " has " + beyond.ports.size()
                    + (controlLanes > 0 ? " ports and the fabric " + controlLanes + " switches" : ""));
        }
        if (net.nodes.length - 1 > CanonicalOrder.MAX_NODE) {
            throw new IllegalArgumentException("the parallel engine allows at most " + (CanonicalOrder.MAX_NODE + 1)
                    + " nodes, the topology has " + net.nodes.length);
        }
        parts = new ParallelPartition[threads];
        for (int i = 0; i < threads; i++) {
            parts[i] = new ParallelPartition(i, threads, net.config.seed(), net.portsOfNodes());
        }
        int[] partOf = assign(net, threads);
        partitionPorts = new long[threads];
        partitionNodes = new int[threads];
        for (Node n : net.nodes) {
            partitionPorts[partOf[n.id]] += n.ports.size();
            partitionNodes[partOf[n.id]]++;
        }
        net.partition(parts, partOf);
        barrierWaitNs = new long[threads];
        busyNs = new long[threads];
    }

    /** The partition of every node: units (a leaf and its hosts; any other switch or host alone) spread by ports. */
    static int[] assign(Network net, int parts) {
        int n = net.nodes.length;
        int[] unitOf = new int[n];
        Arrays.fill(unitOf, -1);
        for (Switch sw : net.switches) {
            unitOf[sw.id] = sw.id;
        }
        for (HostNic h : net.hosts) {
            Node peer = h.ports.isEmpty() ? null : h.nic().peer();
            unitOf[h.id] = peer instanceof Switch sw && sw.tier == 0 ? sw.id : h.id;
        }
        long[] weight = new long[n];
        for (Node x : net.nodes) {
            weight[unitOf[x.id]] += Math.max(1, x.ports.size());
        }
        List<Integer> units = new ArrayList<>();
        for (int u = 0; u < n; u++) {
            if (weight[u] > 0) {
                units.add(u);
            }
        }
        units.sort((a, b) -> weight[a] != weight[b] ? Long.compare(weight[b], weight[a]) : Integer.compare(a, b));
        long[] load = new long[parts];
        int[] partOfUnit = new int[n];
        for (int u : units) {
            int best = 0;
            for (int p = 1; p < parts; p++) {
                if (load[p] < load[best]) {
                    best = p;
                }
            }
            partOfUnit[u] = best;
            load[best] += weight[u];
        }
        int[] partOf = new int[n];
        for (int x = 0; x < n; x++) {
            partOf[x] = partOfUnit[unitOf[x]];
        }
        return partOf;
    }

    /** Time of the last handled instant over all partitions, ps. */
    public long endPs() {
        long end = 0;
        for (Partition p : parts) {
            end = Math.max(end, p.now());
        }
        return end;
    }

    /**
     * Runs the windows until no event is pending, the next one is after {@code timeLimitPs}, or the
     * calling thread is interrupted; returns the events handled, negative ({@code -handled - 1}) if
     * events were left pending.
     */
    public long run(long timeLimitPs, ProgressSink sink) {
        return run(timeLimitPs, Long.MAX_VALUE, sink);
    }

    /**
     * As {@link #run(long, ProgressSink)}, with a progress watchdog: the run also stops, with events pending and
     * {@link #stalled()} true, when at the start of a window a flow has started and not completed and, over all
     * partitions, no flow has started and no payload was delivered for more than {@code stallLimitPs} (the
     * partitions' figures at the last barrier, so the stop does not depend on the number of threads).
     *
     * @param stallLimitPs simulated time without progress that stops the run, ps ({@code Long.MAX_VALUE}: none)
     */
    public long run(long timeLimitPs, long stallLimitPs, ProgressSink sink) {
        fabriclab.Parameters.atLeast("stallLimitPs", stallLimitPs, 1L);
        fabriclab.Parameters.notNull("sink", sink);
        Phaser barrier = new Phaser(threads);
        long[][] nextPs = new long[2][threads];
        long[][] delivered = new long[2][threads]; // payload delivered per partition, published at each barrier
        long[][] progressPs = new long[2][threads]; // per partition: last flow start or delivery, flows started, completed
        long[][] started = new long[2][threads];
        long[][] completed = new long[2][threads];
        long[][] lastDrop = new long[2][threads];
        long[][] handledAt = new long[2][threads]; // events handled per partition, published at each barrier
        boolean[] stop = new boolean[2];
        stuck = new StuckInstant[2][threads];
        stuckInstant = null;
        dropping = false;
        quiet = false;
        for (long[] d : lastDrop) {
            java.util.Arrays.fill(d, -1);
        }
        long[] handled = new long[threads];
        long[] pendingAtStop = new long[1];
        List<long[]>[] eventLog = newLogs();
        List<long[]>[] messageLog = newLogs();
        List<long[]>[] cpuLog = newLogs();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int w = 0; w < threads; w++) {
            nextPs[0][w] = parts[w].events().peekTime();
        }
        Thread caller = Thread.currentThread();
        try (RunProgress progress = new RunProgress("parallel, " + threads + " threads", timeLimitPs,
                net.workload().totalPayloadMb(), sink)) {
            Runnable[] workers = new Runnable[threads];
            for (int w = 0; w < threads; w++) {
                int me = w;
                workers[w] = () -> {
                    try {
                        work(me, barrier, nextPs, delivered, new long[][][] {progressPs, started, completed, lastDrop, handledAt}, stallLimitPs,
                                stop, handled, pendingAtStop, eventLog[me], messageLog[me],
                                cpuLog[me], timeLimitPs, me == 0 ? caller : null, me == 0 ? progress : null);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                        barrier.forceTermination();
                    }
                };
            }
            Thread[] others = new Thread[threads - 1];
            for (int w = 1; w < threads; w++) {
                others[w - 1] = new Thread(workers[w], "fabriclab-parallel-sim-" + w);
                others[w - 1].setDaemon(true);
                others[w - 1].start();
            }
            workers[0].run();
            for (Thread t : others) {
                boolean joined = false;
                while (!joined) {
                    try {
                        t.join();
                        joined = true;
                    } catch (InterruptedException e) { // keep waiting: the workers stop at the next window
                        caller.interrupt();
                    }
                }
            }
            long deliveredBytes = 0;
            for (ParallelPartition p : parts) {
                deliveredBytes += p.deliveredBytes();
            }
            progress.finish(deliveredBytes);
        }
        Throwable e = failure.get();
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e instanceof Error r) {
            throw r;
        }
        if (e != null) {
            throw new IllegalStateException("a simulation thread failed", e);
        }
        eventsPerWindow = flatten(eventLog);
        messagesPerWindow = flatten(messageLog);
        cpuNsPerWindow = flatten(cpuLog);
        windows = eventsPerWindow[0].length;
        long total = 0;
        for (long h : handled) {
            total += h;
        }
        return pendingAtStop[0] > 0 ? -total - 1 : total;
    }

    @SuppressWarnings("unchecked")
    private List<long[]>[] newLogs() {
        List<long[]>[] l = new List[threads];
        for (int i = 0; i < threads; i++) {
            l[i] = new ArrayList<>();
        }
        return l;
    }

    private static long[][] flatten(List<long[]>[] logs) {
        long[][] r = new long[logs.length][];
        for (int i = 0; i < logs.length; i++) {
            long[] last = logs[i].isEmpty() ? new long[] {0} : logs[i].get(logs[i].size() - 1);
            int count = (int) last[0];
            r[i] = new long[count];
            int k = 0;
            for (long[] chunk : logs[i]) {
                int m = (int) Math.min(chunk.length - 1, count - k);
                System.arraycopy(chunk, 1, r[i], k, m);
                k += m;
            }
        }
        return r;
    }

    private static final int LOG_CHUNK = 4096;

    /** Appends {@code v} to a log of chunks (element 0 of the last chunk: the count so far). */
    private static void log(List<long[]> l, long v) {
        long[] last = l.isEmpty() ? null : l.get(l.size() - 1);
        long count = last == null ? 0 : last[0];
        if (last == null || count % LOG_CHUNK == 0 && count > 0) {
            long[] c = new long[LOG_CHUNK + 1];
            c[0] = count;
            l.add(c);
            last = c;
        }
        last[(int) (count % LOG_CHUNK) + 1] = v;
        last[0] = count + 1;
    }

    /** The loop of the thread that owns partition {@code me}. */
    private void work(int me, Phaser barrier, long[][] nextPs, long[][] delivered, long[][][] watch, long stallLimitPs,
            boolean[] stop, long[] handled,
            long[] pendingAtStop, List<long[]> eventLog, List<long[]> messageLog, List<long[]> cpuLog, long timeLimitPs,
            Thread caller, RunProgress progress) {
        long quietSince = 0; // every thread follows the same published sums, so all agree on a stop
        long lastDelivered = 0;
        long lastStarted = 0;
        java.lang.management.ThreadMXBean cpuClock = java.lang.management.ManagementFactory.getThreadMXBean();
        boolean cpuTimed = cpuClock.isCurrentThreadCpuTimeSupported() && cpuClock.isThreadCpuTimeEnabled();
        ParallelPartition part = parts[me];
        EventQueue q = part.events();
        // the queues hold their initial events; every thread starts from the same published times
        long t0 = System.nanoTime();
        if (barrier.arriveAndAwaitAdvance() < 0) {
            return;
        }
        long t1 = System.nanoTime();
        barrierWaitNs[me] += t1 - t0;
        long cpu0 = cpuTimed ? cpuClock.getCurrentThreadCpuTime() : 0; // (after the barrier: its spinning is not work)
        for (int k = 0; ; k++) {
            int parity = k & 1;
            long start = Long.MAX_VALUE;
            for (long t : nextPs[parity]) {
                start = Math.min(start, t);
            }
            if (progress != null) { // every partition's payload delivered up to the last barrier
                long bytes = 0;
                for (long d : delivered[parity]) {
                    bytes += d;
                }
                progress.delivered(bytes);
            }
            long lastProgress = 0;
            long active = 0;
            long lastDropPs = -1;
            long allHandled = 0;
            long allDelivered = 0;
            long allStarted = 0;
            for (int p = 0; p < threads; p++) {
                lastProgress = Math.max(lastProgress, watch[0][parity][p]);
                active += watch[1][parity][p] - watch[2][parity][p];
                lastDropPs = Math.max(lastDropPs, watch[3][parity][p]);
                allHandled += watch[4][parity][p];
                allDelivered += delivered[parity][p];
                allStarted += watch[1][parity][p];
            }
            boolean quietStall = false;
            if (allDelivered != lastDelivered || allStarted != lastStarted) {
                lastDelivered = allDelivered;
                lastStarted = allStarted;
                quietSince = allHandled;
            } else if (allHandled - quietSince > quietEventLimit) {
                quietStall = true;
            }
            boolean droppingStall = start - lastProgress > droppingLimitPs && lastDropPs - lastProgress > droppingLimitPs;
            boolean stalled = start != Long.MAX_VALUE && active > 0
                    && (start - lastProgress > stallLimitPs || droppingStall || quietStall);
            if (stalled && me == 0 && start - lastProgress <= stallLimitPs) {
                dropping = droppingStall;
                quiet = !droppingStall;
            }
            for (StuckInstant s : stuck[parity]) { // published before the last barrier
                if (s != null) {
                    stalled = true;
                    if (me == 0 && stuckInstant == null) {
                        stuckInstant = s; // the first partition's, in partition order
                    }
                }
            }
            if (stalled && me == 0) {
                this.stalled = true;
            }
            if (start == Long.MAX_VALUE || start > timeLimitPs || stop[parity] || stalled) {
                if (me == 0) {
                    pendingAtStop[0] = start == Long.MAX_VALUE ? 0 : 1;
                }
                return;
            }
            long end = start > Long.MAX_VALUE - lookaheadPs ? Long.MAX_VALUE : start + lookaheadPs; // handle t < end
            long last = Math.min(end - 1, timeLimitPs);
            part.parity = parity;
            long n = 0;
            while (!q.isEmpty() && q.peekTime() <= last) {
                long t = q.peekTime();
                part.advanceClockTo(t);
                int m = q.dispatchNextInstant(last, instantEventLimit);
                n += m;
                if (m == instantEventLimit && q.peekTime() == t && q.size() > part.cancelledEvents()) {
                    stuck[parity ^ 1][me] = StuckInstant.takeFrom(q, t, m); // the watchdog: an instant that never ends
                    break;
                }
            }
            handled[me] += n;
            log(eventLog, n);
            long sent = part.messagesSent;
            log(messageLog, sent);
            part.messagesSent = 0;
            // a queue holding only timers that would do nothing (Partition.cancelledEvents) has nothing to run
            nextPs[parity ^ 1][me] = Math.min(q.size() == part.cancelledEvents() ? Long.MAX_VALUE : q.peekTime(),
                    part.earliestSentPs);
            delivered[parity ^ 1][me] = part.deliveredBytes();
            watch[0][parity ^ 1][me] = part.lastProgressPs();
            watch[1][parity ^ 1][me] = part.flowsStarted();
            watch[2][parity ^ 1][me] = part.flowsCompleted();
            watch[3][parity ^ 1][me] = part.lastDropPs();
            watch[4][parity ^ 1][me] = handled[me];
            part.earliestSentPs = Long.MAX_VALUE;
            if (caller != null) {
                stop[parity ^ 1] = caller.isInterrupted();
                if (progress != null) {
                    progress.simulatedTo(part.now());
                }
            }
            long t2 = System.nanoTime();
            busyNs[me] += t2 - t1;
            log(cpuLog, cpuTimed ? cpuClock.getCurrentThreadCpuTime() - cpu0 : 0); // taking in messages, then the window
            if (barrier.arriveAndAwaitAdvance() < 0) {
                return;
            }
            t1 = System.nanoTime();
            barrierWaitNs[me] += t1 - t2;
            cpu0 = cpuTimed ? cpuClock.getCurrentThreadCpuTime() : 0;
            for (ParallelPartition src : parts) { // take the events sent to this partition in the window (in partition order)
                if (src != part) {
                    src.outboxes[me][parity].drainInto(q);
                }
            }
        }
    }

    /**
     * Sets the progress watchdog's bound on one instant (before the run; default none), as
     * {@link SequentialEngine#instantEventLimit}: a partition that handles more than {@code limit} events at one
     * simulated time, with more still scheduled at it, stops the run at the next barrier.
     *
     * @param limit events at one instant in one partition, positive
     * @return this engine
     */
    public ParallelEngine instantEventLimit(int limit) {
        this.instantEventLimit = fabriclab.Parameters.atLeast("limit", limit, 1);
        return this;
    }

    /**
     * Sets the watchdog's limit for a run that keeps dropping packets (before the run; default none), as
     * {@link SequentialEngine#droppingLimit}, over all partitions at the start of a window.
     *
     * @param limitPs simulated time without progress while packets are dropped, ps, positive
     * @return this engine
     */
    public ParallelEngine droppingLimit(long limitPs) {
        this.droppingLimitPs = fabriclab.Parameters.atLeast("limitPs", limitPs, 1L);
        return this;
    }

    /**
     * Sets the watchdog's limit on events without progress (before the run; default none), as
     * {@link SequentialEngine#quietEventLimit}: over all partitions, checked at the start of each window.
     *
     * @param limit events, positive
     * @return this engine
     */
    public ParallelEngine quietEventLimit(long limit) {
        this.quietEventLimit = fabriclab.Parameters.atLeast("limit", limit, 1L);
        return this;
    }

    /** Whether the watchdog stopped the last run for events without progress ({@link #quietEventLimit}). */
    public boolean stalledQuiet() {
        return quiet;
    }

    /** Whether the watchdog stopped the last run for packets dropped without progress ({@link #droppingLimit}). */
    public boolean stalledDropping() {
        return dropping;
    }

    /** The instant that never ended if the watchdog stopped the last run at one (the first partition's), else null. */
    public StuckInstant stuckInstant() {
        return stuckInstant;
    }

    /** Whether the progress watchdog stopped the last run ({@link #run(long, long, ProgressSink)}). */
    public boolean stalled() {
        return stalled;
    }

    /** The statistics of the finished run. */
    public ParallelRunStats stats() {
        int w = (int) windows;
        long[] events = new long[w];
        long[] messages = new long[w];
        long[] partitionEvents = new long[threads];
        long[] busiest = new long[w];
        for (int p = 0; p < threads; p++) {
            for (int i = 0; i < w; i++) {
                events[i] += eventsPerWindow[p][i];
                messages[i] += messagesPerWindow[p][i];
                partitionEvents[p] += eventsPerWindow[p][i];
                busiest[i] = Math.max(busiest[i], eventsPerWindow[p][i]);
            }
        }
        long critical = Arrays.stream(busiest).sum();
        long cpuTotal = 0;
        long cpuCritical = 0;
        for (int i = 0; i < w; i++) {
            long max = 0;
            for (int p = 0; p < threads; p++) {
                cpuTotal += cpuNsPerWindow[p][i];
                max = Math.max(max, cpuNsPerWindow[p][i]);
            }
            cpuCritical += max;
        }
        return ParallelRunStats.of(threads, lookaheadPs, events, messages, critical, cpuTotal, cpuCritical, partitionEvents, partitionNodes.clone(),
                partitionPorts.clone(), busyNs.clone(), barrierWaitNs.clone());
    }
}
