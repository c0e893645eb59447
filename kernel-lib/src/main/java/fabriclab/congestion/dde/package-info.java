/**
 * A solver for delay differential equations with constant lags by the method of steps
 * ({@link fabriclab.congestion.dde.DdeSolver}): fixed-step RK4 with cubic Hermite history, or
 * Commons Math's adaptive Dormand-Prince 5(4) on each lag interval. Used by the DCQCN fluid model,
 * whose feedback arrives one loop delay tau* late.
 */
package fabriclab.congestion.dde;
