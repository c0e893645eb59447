/*
 * fabriclab: a stand-in for the C library's time() for running csg-htsim's htsim_roce reproducibly.
 * htsim_roce reseeds the C library's generator with time(NULL) as it creates each RoCE sender
 * (glibc's srand and srandom share one generator), so without this its runs depend on the wall clock.
 * Loaded with LD_PRELOAD; time() returns the value of FABRICLAB_FIXED_TIME (0 when unset).
 * Build: gcc -shared -fPIC -O2 -o fixed_time.so fixed_time.c
 */
#include <stdlib.h>
#include <time.h>

time_t time(time_t *out) {
    const char *v = getenv("FABRICLAB_FIXED_TIME");
    time_t now = v == NULL ? 0 : (time_t) strtoll(v, NULL, 10);
    if (out != NULL) {
        *out = now;
    }
    return now;
}
