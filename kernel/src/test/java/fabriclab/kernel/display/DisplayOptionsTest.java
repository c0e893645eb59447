package fabriclab.kernel.display;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DisplayOptionsTest {
    @AfterEach
    void reset() {
        DisplayOptions.setPrecision(DisplayOptions.DEFAULT_PRECISION);
    }

    @Test
    void roundOffResiduesReadAsTheNumberMeant() {
        assertEquals("40", DisplayOptions.format(39.99999999999999));
        assertEquals("0.3", DisplayOptions.format(0.1 + 0.2));
        assertEquals("-1.77636e-15", DisplayOptions.format(-0.0000000000000017763568394002506));
        assertEquals("0", DisplayOptions.format(-0.0));
    }

    @Test
    void sixDigitsAfterThePointByDefaultTrailingZerosDropped() {
        assertEquals("3.141593", DisplayOptions.format(Math.PI));
        assertEquals("0.125", DisplayOptions.format(0.125));
        assertEquals("1234567.891235", DisplayOptions.format(1234567.891234567));
        assertEquals("0.000123", DisplayOptions.format(0.000123));
        assertEquals("1.2e-07", DisplayOptions.format(1.2e-7));
        assertEquals("2e+15", DisplayOptions.format(2e15));
        assertEquals("NaN", DisplayOptions.format(Double.NaN));
        assertEquals("-Infinity", DisplayOptions.format(Double.NEGATIVE_INFINITY));
    }

    @Test
    void precisionIsConfigurableAndChecked() {
        DisplayOptions.setPrecision(2);
        assertEquals("3.14", DisplayOptions.format(Math.PI));
        assertEquals("0.12", DisplayOptions.format(0.125)); // half-even, as the decimal 0.125 is exact
        assertEquals("1.8e-15", DisplayOptions.format(-0.0000000000000017763568394002506).substring(1));
        DisplayOptions.setPrecision(0);
        assertEquals("3", DisplayOptions.format(Math.PI));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DisplayOptions.setPrecision(-1));
        assertEquals("precision must be 0 to 17 digits after the decimal point, was -1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DisplayOptions.setPrecision(18));
    }
}
