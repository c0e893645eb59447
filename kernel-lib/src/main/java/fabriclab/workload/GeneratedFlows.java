package fabriclab.workload;

import fabriclab.Parameters;
import fabriclab.simulation.config.FlowSpec;
import java.util.BitSet;
import java.util.List;

/**
 * The flows of a {@link PoissonTraffic}, in order of start time, and which of them belong to the incast bursts.
 */
public final class GeneratedFlows {
    private final List<FlowSpec> flows;
    private final BitSet incast;

    GeneratedFlows(List<FlowSpec> flows, BitSet incast) {
        this.flows = List.copyOf(flows);
        this.incast = (BitSet) incast.clone();
    }

    /** The flows, by start time (ties: background before incast, each in the order drawn). */
    public List<FlowSpec> flows() {
        return flows;
    }

    /** Number of flows. */
    public int size() {
        return flows.size();
    }

    /**
     * Whether flow {@code i} is an incast sender's flow (else a Poisson background flow).
     *
     * @param i flow index, 0 to {@link #size()} - 1
     */
    public boolean isIncast(int i) {
        Parameters.inRange("i", i, 0, flows.size() - 1);
        return incast.get(i);
    }

    /** Number of incast flows. */
    public int incastFlows() {
        return incast.cardinality();
    }

    /** Payload bytes of all flows. */
    public long totalBytes() {
        return flows.stream().mapToLong(FlowSpec::bytes).sum();
    }

    /**
     * One line per flow, {@code source destination bytes startPs sourcePort kind} with kind {@code poisson} or
     * {@code incast}: a text to compare two generations byte for byte.
     */
    public String toText() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < flows.size(); i++) {
            FlowSpec f = flows.get(i);
            b.append(f.source()).append(' ').append(f.destination()).append(' ').append(f.bytes()).append(' ')
                    .append(f.startPs()).append(' ').append(f.sourcePort()).append(' ')
                    .append(incast.get(i) ? "incast" : "poisson").append('\n');
        }
        return b.toString();
    }
}
