/**
 * Packet-level runs described by their settings: a workload (a permutation, an incast, a ring or halving-doubling
 * all-reduce, or the standard flow-completion workload of Poisson arrivals) on a leaf-spine, run with a transport
 * ({@code TransportChoice}) and its forwarding, PFC and packet sizes, every draw from one seed
 * ({@code ScenarioSettings}), and the simulator's {@code Scenario} each stands for. Uses the simulator's API, the
 * models and the workloads; the command line ({@code fabriclab.cli}) reads these settings from its options, and the
 * validation ({@code fabriclab.validation}) builds them for its runs, so both run the same scenario.
 */
package fabriclab.scenarios;
