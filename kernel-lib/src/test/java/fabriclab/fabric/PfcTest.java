package fabriclab.fabric;

import static fabriclab.TestArguments.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link Pfc}: pause quanta in picoseconds and the rates they refuse. */
class PfcTest {
    @Test
    void aPauseLongerThanALongOfPicosecondsNamesTheRate() {
        // 65535 x 512 bit x 1e12 ps/s = 3.36e19 > 2^63 - 1 = 9.22e18: at least 4 bit/s
        refused(() -> Pfc.quantaPs(65535, 1), "rateBitsPerSecond", "at least 4", "got 1");
        assertEquals(8_388_480_000_000_000_000L, Pfc.quantaPs(65535, 4));
    }
}
