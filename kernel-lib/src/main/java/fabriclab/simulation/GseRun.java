package fabriclab.simulation;

import java.util.List;
import java.util.Map;

/**
 * One run of {@link GseTransport}: hosts send at line rate ({@link Transport.LineRate}) and a
 * {@link GseEdge} on every switch with host ports schedules the fabric.
 */
final class GseRun extends TransportRun {
    private final List<GseEdge> edges;

    GseRun(Network net, GseTransport model) {
        super(net);
        this.edges = GseEdge.install(net, model);
    }

    @Override
    Transport newFlow(FlowState f) {
        return new Transport.LineRate(net, f);
    }

    @Override
    void reportCounters(Map<String, Long> out) {
        long containers = 0;
        long grants = 0;
        long reordered = 0;
        long pauses = 0;
        long voqPeak = 0;
        long reorderPeak = 0;
        for (GseEdge e : edges) {
            containers += e.containers;
            grants += e.grants;
            reordered += e.containersReordered;
            pauses += e.localPauses();
            voqPeak = Math.max(voqPeak, e.voqPeakBytes);
            reorderPeak = Math.max(reorderPeak, e.reorderPeakBytes);
        }
        put(out, "gse.containers", containers);
        put(out, "gse.grants", grants);
        put(out, "gse.containersReordered", reordered);
        put(out, "gse.localPauses", pauses);
        put(out, "gse.voqPeakBytes", voqPeak);
        put(out, "gse.reorderPeakBytes", reorderPeak);
    }
}
