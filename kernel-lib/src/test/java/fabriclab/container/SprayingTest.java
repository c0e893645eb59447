package fabriclab.container;

import static fabriclab.TestArguments.rejects;

import org.junit.jupiter.api.Test;

/** {@link Spraying}: the arguments it refuses. */
class SprayingTest {
    @Test
    void aCellHeaderBeyondAnIntOfUnitsIsRejected() {
        rejects("cellHeaderBytes", () -> Spraying.cellUnits(new int[] {1500}, 256, Integer.MAX_VALUE));
    }
}
