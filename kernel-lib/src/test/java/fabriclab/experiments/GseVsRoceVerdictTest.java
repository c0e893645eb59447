package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.Scorecard;
import fabriclab.datasets.SeedRanges;
import fabriclab.datasets.Target;
import fabriclab.project.ProjectPaths;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/** 000's verdict sentence against the scorecard it must agree with, on the project's saved runs. */
class GseVsRoceVerdictTest {
    @Test
    void everySettingIsJudgedByTheBandWithItsToleranceOnEverySeed() {
        for (GseVsRoceVerdict.Setting s : GseVsRoceVerdict.members()) {
            Target b = s.band();
            // accepted interval worked out from the band's ends and its relative tolerance (ends positive)
            double low = b.published() * (1 - b.tolerance()), high = b.publishedHigh() * (1 + b.tolerance());
            boolean every = s.range().values().stream().allMatch(v -> v >= low - 1e-12 && v <= high + 1e-12);
            assertEquals(every, s.everySeedMeets(), s.collective() + " " + s.setting());
            assertEquals(s.median() >= low - 1e-12 && s.median() <= high + 1e-12, s.medianMeets(), s.collective() + " " + s.setting());
            assertEquals(5, s.range().values().size(), s.collective() + " " + s.setting());
        }
        assertEquals(6, GseVsRoceVerdict.members().size());
        assertEquals(24, GseVsRoceVerdict.markingRecovery().size());
    }

    @Test
    void aNullDirectoryIsRefusedByName() {
        for (org.junit.jupiter.api.function.Executable call : List.<org.junit.jupiter.api.function.Executable>of(
                () -> GseVsRoceVerdict.members(null), () -> GseVsRoceVerdict.markingRecovery(null),
                () -> GseVsRoceVerdict.sentence(null), () -> GseVsRoceVerdict.table(null))) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, call);
            assertTrue(e.getMessage().contains("root"), e.getMessage());
        }
    }

    @Test
    void theSentenceStatesTheScorecardsCountAndTheOpenAxis() {
        var ranges = SeedRanges.fromDatasets(ProjectPaths.datasets());
        List<Scorecard.Entry> rows = Scorecard.entries(ProjectPaths.datasets()).stream()
                .filter(e -> e.comparison().equals(GseVsRoceVerdict.COMPARISON) && Scorecard.counted(e)).toList();
        long met = rows.stream().filter(e -> Scorecard.meetsPaper(e, ranges)).count();
        String s = GseVsRoceVerdict.sentence();
        assertTrue(s.contains("meet the band in " + met + " of " + rows.size() + " cases"), s);
        assertTrue(s.contains("clamp_tgt_rate 0"), s);
        // every member setting whose median meets but not every seed is named as such
        for (GseVsRoceVerdict.Setting m : GseVsRoceVerdict.members()) {
            if (m.medianMeets() && !m.everySeedMeets()) {
                assertTrue(s.contains(m.collective() + " with " + m.setting()), m.setting());
            }
        }
        Table t = GseVsRoceVerdict.table();
        assertEquals(30, t.rowCount());
        assertFalse(t.stringColumn("every_seed_meets").isEqualTo("yes").isEmpty());
    }
}
