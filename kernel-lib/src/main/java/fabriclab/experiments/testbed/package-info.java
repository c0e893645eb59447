/**
 * The shared base of the experiments: what several of them run on, importing none of them.
 *
 * <ul>
 *   <li>{@link fabriclab.experiments.testbed.Duan2024Testbed}: the leaf-spine and the 8 jobs of 000 section 3 (Duan et
 *       al., China Mobile, Telecommunications Science 2024), with the settings the paper leaves unstated (uplinks,
 *       collective algorithm, DCQCN parameter set);</li>
 *   <li>{@link fabriclab.experiments.testbed.RoceOrGse}: which of the two fabrics a run uses;</li>
 *   <li>{@link fabriclab.experiments.testbed.Spread}: a quantity over seeds as its median and range.</li>
 * </ul>
 * The experiments' one packet-level run of concurrent jobs and its metrics sit beside the experiments, package-private
 * to them ({@code JobSimulation}, {@code JobMetrics}), and build on this package alone.
 */
package fabriclab.experiments.testbed;
