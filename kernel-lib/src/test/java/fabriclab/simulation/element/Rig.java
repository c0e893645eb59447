package fabriclab.simulation.element;

import fabriclab.simulation.transport.TransportRun;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.flow.FiveTuple;
import fabriclab.loadbalancing.hash.HashFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * A test rig for the simulator's elements: the runtime {@link Network} of a small topology, with
 * flows whose transport ({@link Recorder}) logs every packet that reaches a host, and an event loop
 * that advances the clock as {@code Simulator.loop} does (one instant at a time, {@code net.main.now} set
 * before the instant's handlers run). Nothing starts by itself: a test injects packets, starts flows
 * or schedules actions with {@link #at}, then runs the events with {@link #runUntil}.
 */
public final class Rig {
    public static final long G100 = 100_000_000_000L;

    /** A packet that reached a host: when, and which. */
    public record Arrival(long timePs, Packet packet) {
    }

    public final Network net;
    public final List<Arrival> arrivals = new ArrayList<>();
    /** The transport's part of the run (its switch functions and counters). */
    public final TransportRun transportRun;

    /** A network of {@code topology} with {@code flows} (each with a {@link Recorder}), PFC {@code pfc} (null: off). */
    public Rig(Topology topology, SimulationConfig config, List<FlowSpec> flows, Pfc pfc) {
        this(topology, config, flows, pfc, null);
    }

    /**
     * As {@link #Rig(Topology, SimulationConfig, List, Pfc)}, but with {@code model}'s transport for
     * every flow (its switch functions attached); null for {@link Recorder}s.
     */
    public Rig(Topology topology, SimulationConfig config, List<FlowSpec> flows, Pfc pfc, TransportModel model) {
        net = new Network(topology, config, pfc, null);
        List<FlowState> states = new ArrayList<>();
        for (int i = 0; i < flows.size(); i++) {
            FlowSpec f = flows.get(i);
            FiveTuple t = FiveTuple.roceV2(Simulator.hostAddress(f.source()), Simulator.hostAddress(f.destination()),
                    f.sourcePort());
            states.add(new FlowState(i, f, t, config.mtuBytes(), net.switches.length));
        }
        net.workload = new Workload(net, states);
        transportRun = (model == null ? TransportModel.uncontrolled() : model).start(net);
        for (FlowState f : states) {
            f.transport = model == null ? new Recorder(net, f, arrivals) : transportRun.newFlow(f);
        }
    }

    public Rig(Topology topology, SimulationConfig config, List<FlowSpec> flows) {
        this(topology, config, flows, null);
    }

    /** 1000-byte MTU, no header, {@code priorities} priorities, {@code buffer}, ECMP CRC-32 seed 0, {@code seed}, no sampling. */
    public static SimulationConfig config(int priorities, SwitchBuffer buffer, long seed) {
        return new SimulationConfig(1000, 0, priorities, buffer, Forwarding.ecmp(HashFunction.CRC32, 0), seed, 0, 0);
    }

    public FlowState flow(int i) {
        return net.workload.flows.get(i);
    }

    public Recorder transport(int i) {
        return (Recorder) flow(i).transport;
    }

    /** A data packet of flow {@code f} with sequence {@code seq}, {@code bytes} on the wire and as payload. */
    public Packet data(int f, int seq, int bytes, int priority) {
        return new Packet(flow(f), seq, bytes, bytes, priority);
    }

    /** A control packet of flow {@code f} toward host {@code destination}. */
    public Packet control(int f, byte kind, int wireBytes, int priority, int destination) {
        return new Packet(flow(f), kind, 0, 0, wireBytes, priority, destination);
    }

    /** Runs {@code action} at {@code timePs} (with {@code net.main.now == timePs}). */
    public void at(long timePs, Runnable action) {
        net.main.events().schedule(timePs, (t, x) -> action.run(), null);
    }

    /** Handles every event due at or before {@code limitPs}, an instant at a time, as the simulator's loop does. */
    public void runUntil(long limitPs) {
        var events = net.main.events();
        long handled = 0;
        while (!events.isEmpty() && events.peekTime() <= limitPs) {
            net.main.now = events.peekTime();
            handled += events.dispatchNextInstant(limitPs);
            if (handled > MAX_EVENTS) { // e.g. a PFC pause that is never released refreshes for ever
                throw new AssertionError("more than " + MAX_EVENTS + " events before " + limitPs + " ps; now " + net.main.now);
            }
        }
    }

    /** A test's run handles fewer events than this (a guard against a run that never ends). */
    static final long MAX_EVENTS = 2_000_000;

    /** Handles every pending event. */
    public void runAll() {
        runUntil(Long.MAX_VALUE);
    }

    /** Arrivals at host {@code h}, in arrival order. */
    public List<Arrival> arrivalsAt(int h) {
        return arrivals.stream().filter(a -> a.packet().destination == h).toList();
    }

    /**
     * A transport that sends its flow's packets at line rate (or every {@code gapPs} when set: the
     * pacing time of the next packet is the start of the last one plus the gap), acknowledges nothing,
     * and logs every packet of the flow that reaches one of its hosts.
     */
    /** Hands data packet {@code p} to {@code t}'s receiver at {@code now}, as the destination NIC does. */
    public static void receiveData(Transport t, Packet p, long now) {
        t.onData(p, now);
    }

    public static final class Recorder extends Transport {
        private final List<Arrival> log;
        long gapPs;
        final List<Long> sentPs = new ArrayList<>();

        Recorder(Network net, FlowState flow, List<Arrival> log) {
            super(net, flow);
            this.log = log;
        }

        @Override
        protected boolean canSend() {
            return flow.nextSeq < flow.packets;
        }

        @Override
        protected int takeSequence() {
            return flow.nextSeq++;
        }

        @Override
        protected void onSent(Packet p, long now) {
            sentPs.add(now);
            if (gapPs > 0) {
                nextSendPs = now + gapPs;
            }
        }

        @Override
        protected void onData(Packet p, long now) {
            log.add(new Arrival(now, p));
            net.workload.deliver(p, now);
        }

        @Override
        protected void onControl(Packet p, long now) {
            log.add(new Arrival(now, p));
        }
    }
}
