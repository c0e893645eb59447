package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.transport.uec.EntropySpraying;
import fabriclab.simulation.transport.uec.UecTransport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tech.tablesaw.api.Table;

/**
 * Our UEC transport against the UEC reference simulator's runs ({@link UetReferenceUec}), seeds 1 to 3 of ours against
 * its 10, each row within the reference's own seed spread (its min..max widened by half its width on each side; the
 * reason is {@link UetReferenceUec}'s). Rows listed as misses are asserted to miss, so that a change that brings them
 * in (or pushes a passing row out) is noticed.
 */
class UetReferenceUecTest {
    private static List<SimulationResult> run(UetReferenceUec s) {
        List<SimulationResult> out = new ArrayList<>();
        for (long seed = 1; seed <= 3; seed++) {
            out.add(new Simulator(s.scenario(seed)).run());
        }
        return out;
    }

    /**
     * Every row passes unless {@link UetReferenceUec#knownMiss} names the modelling difference behind its miss; those
     * are asserted to miss. Incasts: mean FCT, last completion, NACKs and no timeouts; the permutation: mean FCT and last
     * completion.
     */
    @ParameterizedTest
    @CsvSource({"incast4, REPS", "incast4, OBLIVIOUS", "incast8, REPS", "incast8, OBLIVIOUS", "incast16, REPS",
            "incast16, OBLIVIOUS", "incast24, REPS", "incast24, OBLIVIOUS", "permutation32, REPS",
            "permutation32, OBLIVIOUS"})
    void withinTheReferencesSeedSpreadOrAKnownMiss(String scenario, EntropySpraying spraying) {
        UetReferenceUec s = new UetReferenceUec(scenario, spraying);
        Table t = s.reference();
        List<UetReferenceUec.Row> rows = s.rows(run(s), t);
        assertEquals(scenario.startsWith("incast") ? 4 : 2, rows.size());
        for (UetReferenceUec.Row r : rows) {
            boolean known = !s.knownMiss(r.quantity()).isEmpty();
            assertEquals(!known, r.pass(), scenario + " " + spraying + ": " + r);
        }
        if (scenario.startsWith("incast")) {
            assertEquals(0, rows.get(3).oursMax(), "no timeouts in ours");
            assertEquals(0, rows.get(3).referenceMax(), "no timeouts in the reference");
            assertTrue(rows.get(2).oursMin() > 0 && rows.get(2).referenceMin() > 0, "both trim in every incast");
        }
    }

    @Test
    void theScenarioIsTheReferences() {
        UetReferenceUec s = new UetReferenceUec("incast8", EntropySpraying.REPS);
        int[] sources = s.flows().stream().mapToInt(f -> f.source()).toArray();
        // 2 x 4 x 1 us + (4160 + 64) B x 8 / 100 Gb/s x 4 links (the reference's calculate_rtt)
        assertEquals(9_351_680L, UecTransport.fabricBaseRttPs(UetReferenceUec.topology(), sources, 4160, 64));
        assertEquals(8, s.flows().size());
        assertThrows(IllegalArgumentException.class, () -> new UetReferenceUec("incast5", EntropySpraying.REPS));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> s.referenceValues(s.reference(), "no_such_quantity"));
        assertTrue(e.getMessage().contains("no_such_quantity"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.rows(List.of(), s.reference()));
        SimulationResult other = new Simulator(new UetReferenceUec("incast4", EntropySpraying.REPS).scenario(1)).run();
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class, () -> s.rows(List.of(other), s.reference()));
        assertTrue(wrong.getMessage().contains("ours[0]"), wrong.getMessage());
        UetReferenceUec.Row miss = new UetReferenceUec.Row("mean FCT", "us", 100, 110, 116, 117, "");
        assertFalse(miss.pass());
        assertTrue(new UetReferenceUec.Row("mean FCT", "us", 100, 110, 96, 115, "").pass());
    }
}
