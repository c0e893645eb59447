package fabriclab.simulation;

import fabriclab.fabric.Time;
import fabriclab.Parameters;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A ready-to-run experiment: topology, configuration and flows. The factories build the two fixed
 * workloads of the performance section (incast, permutation) and are used by the benchmark
 * and the notebook.
 *
 * @param name description
 * @param topology the fabric
 * @param config run configuration
 * @param flows the flows
 */
public record Scenario(String name, Topology topology, SimulationConfig config, List<FlowSpec> flows) {
    /** Validates and copies. */
    public Scenario {
        Parameters.notBlank("name", name);
        Parameters.notNull("topology", topology);
        Parameters.notNull("config", config);
        flows = List.copyOf(Parameters.notNull("flows", flows));
    }

    /** A fresh simulator for this scenario (a simulator runs once). */
    public Simulator simulator() {
        return new Simulator(topology, config, flows);
    }

    /**
     * Uncontrolled incast: {@code senders} hosts each send {@code bytesPerSender} at time 0 to one
     * receiver through a single switch; all links at {@code rateBps} with 1 us propagation.
     *
     * @param senders number of senders n, at least 1
     * @param bytesPerSender payload per sender in bytes
     * @param rateBps link rate in bit/s
     * @param config run configuration (buffer, ECN, sampling)
     */
    public static Scenario incast(int senders, long bytesPerSender, long rateBps, SimulationConfig config) {
        Parameters.atLeast("senders", senders, 1);
        Parameters.atLeast("bytesPerSender", bytesPerSender, 1L);
        Topology t = Topology.singleSwitch(senders + 1, rateBps, Time.US);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < senders; i++) {
            flows.add(FlowSpec.of(i, senders, bytesPerSender, 0));
        }
        return new Scenario(senders + "-to-1 incast", t, config, flows);
    }

    /**
     * Random permutation traffic on a leaf-spine: every host sends {@code bytesPerFlow} at time 0 to
     * a distinct host other than itself (a uniformly random derangement drawn with {@code seed}),
     * with a random ephemeral UDP source port.
     *
     * @param fabric the leaf-spine, at least 2 hosts
     * @param bytesPerFlow payload per flow in bytes
     * @param seed seed of the permutation and ports
     * @param config run configuration
     */
    public static Scenario permutation(LeafSpine fabric, long bytesPerFlow, long seed, SimulationConfig config) {
        Parameters.notNull("fabric", fabric);
        Parameters.atLeast("bytesPerFlow", bytesPerFlow, 1L);
        int n = fabric.hosts();
        Parameters.atLeast("fabric.hosts()", n, 2);
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] perm = new int[n];
        boolean ok;
        do { // rejection sampling of a derangement (succeeds with probability about 1/e)
            for (int i = 0; i < n; i++) {
                perm[i] = i;
            }
            for (int i = n - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int tmp = perm[i];
                perm[i] = perm[j];
                perm[j] = tmp;
            }
            ok = Arrays.stream(perm).boxed().toList().stream().noneMatch(x -> perm[x] == x);
        } while (!ok);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            flows.add(new FlowSpec(i, perm[i], bytesPerFlow, 0, 0, 49152 + rnd.nextInt(16384)));
        }
        return new Scenario("permutation on " + fabric.build().name(), fabric.build(), config, flows);
    }
}
