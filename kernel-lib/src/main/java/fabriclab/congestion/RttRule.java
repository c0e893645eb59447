package fabriclab.congestion;

/** Which RTT-based rate rule {@link RttFluidModel} applies at each probe. */
public enum RttRule {
    /**
     * CTCC (001, Che et al., ICT &amp; Policy 2024): RTT above the target RTT gives a multiplicative
     * decrease, below it an additive increase; a NACK halves the rate.
     */
    CTCC_TARGET,
    /**
     * TIMELY's gradient rule (Mittal et al., SIGCOMM 2015, algorithm 1): additive increase below
     * T_low, multiplicative decrease proportional to the excess above T_high, otherwise decrease in
     * proportion to the normalised RTT gradient, or increase (hyper-active after N negative
     * gradients in a row) when the gradient is not positive; the one definition is {@link TimelyUpdate}.
     */
    TIMELY_GRADIENT
}
