package fabriclab.validation;

import fabriclab.Parameters;
import fabriclab.simulation.config.FlowSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The flows of the csg-htsim comparisons' two workloads, shared by {@link HtsimAdaptiveRoce} and {@link HtsimCc}: all
 * flows start at 0; the seed changes only their UDP source ports (the ECMP hash input), port = 10,000 + (997 seed mod
 * 50,000) + source host.
 */
final class HtsimFlows {
    private HtsimFlows() {
    }

    /**
     * {@code incast8}: hosts 8 to 15 each send 1 MiB to host 0; otherwise the shift permutation of {@code hosts} hosts,
     * host i sending 2 MiB to host (i + 8) mod {@code hosts}. {@code seed} from 1 to 2^31 - 1.
     */
    static List<FlowSpec> of(String scenario, int hosts, long seed) {
        Parameters.inRange("seed", seed, 1L, Integer.MAX_VALUE);
        List<FlowSpec> f = new ArrayList<>();
        int port = (int) (10_000 + (seed * 997) % 50_000);
        if (scenario.equals("incast8")) {
            for (int h = 8; h < 16; h++) {
                f.add(new FlowSpec(h, 0, 1L << 20, 0, 0, port + h));
            }
        } else {
            for (int h = 0; h < hosts; h++) {
                f.add(new FlowSpec(h, (h + 8) % hosts, 2L << 20, 0, 0, port + h));
            }
        }
        return f;
    }
}
