package fabriclab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Tier;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.BufferPlan;
import fabriclab.simulation.config.SwitchBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --switch-buffer} and {@code --port-limit}: read into the scenario's {@link BufferPlan}, written back, and
 * every bad value refused naming the option, the entry as written and what is allowed.
 */
class SimulateBufferOptionsTest {
    private static SimulateRun parse(String... args) {
        return SimulateOptions.parse(List.of(args));
    }

    /** Fails unless parsing {@code args} is refused with a message starting with the option and holding {@code parts}. */
    private static void refused(String[] args, String... parts) {
        String m = assertThrows(IllegalArgumentException.class, () -> parse(args), String.join(" ", args)).getMessage();
        assertTrue(m.startsWith(args[args.length - 2] + " "), m);
        for (String p : parts) {
            assertTrue(m.contains(p), "\"" + p + "\" in: " + m);
        }
    }

    @Test
    void theOptionsBecomeThePlanWithTheTransportsMarking() {
        SimulateRun r = parse("--hosts", "32", "--transport", "dcqcn", "--switch-buffer", "leaf=12MB,spine2=64MB,spine=32MB",
                "--port-limit", "leaf:down=200KB,spine1:0=1MB");
        BufferPlan p = r.settings().fabric().bufferPlan();
        assertEquals(List.of(new BufferPlan.TierBuffer(Tier.LEAF, SwitchBuffer.shared(12_000_000)),
                new BufferPlan.TierBuffer(Tier.SPINE, SwitchBuffer.shared(32_000_000))), p.tiers());
        assertEquals(List.of(new BufferPlan.SwitchOverride("spine2", SwitchBuffer.shared(64_000_000))), p.switches());
        assertEquals(List.of(new BufferPlan.TierPortLimit(Tier.LEAF, BufferPlan.Facing.DOWN, 200_000)), p.tierPorts());
        assertEquals(List.of(new BufferPlan.PortLimit("spine1", 0, 1_000_000)), p.ports());
        Scenario s = r.settings().scenario();
        BufferPlan run = s.config().bufferPlan();
        // DCQCN's buffers mark ECN on its curve, as --buffer's does
        assertEquals(s.config().buffer().ecnMarking(), run.tiers().get(0).buffer().ecnMarking());
        assertEquals(12_000_000, run.tiers().get(0).buffer().sharedBytes());
        assertEquals(64_000_000, run.bufferOf(s.topology(), s.topology().nodeIndex("spine2") - s.topology().hosts(),
                s.config().buffer()).sharedBytes());
        assertTrue(s.name().contains("leaf buffer 12000000 B"), s.name());
        SimulateRun back = SimulateOptions.parse(r.args());
        assertEquals(r.args(), back.args());
        assertEquals(r.settings(), back.settings());
        assertEquals(BufferPlan.none(), parse().settings().fabric().bufferPlan());
        assertTrue(parse().args().stream().noneMatch(a -> a.equals("--switch-buffer") || a.equals("--port-limit")));
    }

    @Test
    void theIncastSwitchIsLeaf1() {
        SimulateRun r = parse("--workload", "incast", "--senders", "4", "--port-limit", "leaf1:4=20KB", "--switch-buffer",
                "leaf=1MB");
        assertEquals(List.of(new BufferPlan.PortLimit("leaf1", 4, 20_000)), r.settings().fabric().bufferPlan().ports());
        r.settings().scenario(); // valid for the scenario too
    }

    @Test
    void aBufferSmallerThanAPacketOrThePfcXoffIsRefused() {
        refused(new String[] {"--switch-buffer", "spine=1000"}, "spine", "--mtu + --header = 1064 B", "got spine=1000");
        refused(new String[] {"--pfc", "off", "--switch-buffer", "leaf1=1063"}, "leaf1", "1064 B", "got leaf1=1063");
        refused(new String[] {"--switch-buffer", "spine=10KB"}, "PFC XOFF", "15960 B", "got spine=10KB");
        refused(new String[] {"--port-limit", "leaf:down=1000"}, "leaf:down", "1064 B", "got leaf:down=1000");
        refused(new String[] {"--port-limit", "leaf2:0=1KB"}, "leaf2:0", "1064 B", "got leaf2:0=1KB");
        refused(new String[] {"--switch-buffer", "leaf=0"}, "leaf", "[1B, 1TiB]", "got 0");
    }

    /**
     * A buffer that PFC cannot keep lossless is announced before the run: after a port's counter crosses XOFF, the
     * default link (100G, 1 us each way, packets of 1000 + 64 B) still delivers P (3 + floor((2 prop + ser(64 B)) /
     * ser(P))) bytes: ser(1064 B) = 85,120 ps, 2 prop + ser(64 B) = 2,005,120 ps, floor = 23, so 26 packets = 27,664 B;
     * with the default XOFF of 15,960 B a port needs 43,624 B. With 32 hosts a spine has 4 ports (2 leaves, 2 links
     * each): 174,496 B. The run still goes (a short flow never fills it).
     */
    @Test
    void aBufferPfcCannotProtectIsAnnounced() {
        Object[] r = SimulateCommandTest.run("--hosts", "32", "--flow-bytes", "10KB", "--switch-buffer", "spine=174495",
                "--quiet");
        String err = (String) r[2];
        assertEquals(0, r[0], err);
        for (String part : List.of("warning: PFC cannot keep spine1 lossless", "174,495 B", "174,496 B", "4 ports",
                "15,960 B", "one port needs 43,624 B")) {
            assertTrue(err.contains(part), "\"" + part + "\" in: " + err);
        }
        r = SimulateCommandTest.run("--hosts", "32", "--flow-bytes", "10KB", "--switch-buffer", "spine=174496", "--quiet");
        assertTrue(!((String) r[2]).contains("warning: PFC"), (String) r[2]);
    }

    @Test
    void aTierSwitchOrPortTheFabricLacksIsRefused() {
        refused(new String[] {"--switch-buffer", "core=32MB"}, "core", "must be a tier", "leaf, spine", "got core=32MB");
        refused(new String[] {"--switch-buffer", "spine9=1MB"}, "spine9", "must name a switch", "got spine9=1MB");
        refused(new String[] {"--switch-buffer", "host0=1MB"}, "host0", "must name a switch");
        refused(new String[] {"--workload", "incast", "--switch-buffer", "spine=1MB"}, "spine", "leaf)");
        refused(new String[] {"--port-limit", "spine:up=1MB"}, "spine:up", "no port facing up", "got spine:up=1MB");
        refused(new String[] {"--workload", "incast", "--port-limit", "leaf:up=1MB"}, "no port facing up");
        refused(new String[] {"--port-limit", "leaf1:32=100KB"}, "leaf1:32", "port 32", "[0, 31]", "got leaf1:32=100KB");
        refused(new String[] {"--port-limit", "leaf9:0=100KB"}, "leaf9", "must name a switch");
        refused(new String[] {"--port-limit", "leaf:sideways=100KB"}, "up or down", "sideways");
        refused(new String[] {"--port-limit", "leaf1:x=100KB"}, "leaf1 port", "\"x\"");
        refused(new String[] {"--port-limit", "leaf1=100KB"}, "comma-separated list", "leaf1=100KB");
        refused(new String[] {"--switch-buffer", "leaf=1MB,"}, "comma-separated list");
        refused(new String[] {"--switch-buffer", "leaf=1MB=2MB"}, "comma-separated list");
    }

    @Test
    void aLimitAboveTheSwitchsSharedBufferIsRefused() {
        refused(new String[] {"--port-limit", "leaf:down=17MB"}, "leaf:down", "shared buffer of leaf1, 16000000 B",
                "got leaf:down=17MB");
        refused(new String[] {"--switch-buffer", "leaf2=1MB", "--port-limit", "leaf:up=2MB"}, "leaf:up",
                "shared buffer of leaf2, 1000000 B", "got leaf:up=2MB");
        refused(new String[] {"--switch-buffer", "spine=1MB", "--port-limit", "spine3:5=2MB"}, "spine3:5",
                "shared buffer of spine3, 1000000 B");
        parse("--switch-buffer", "spine=1MB", "--port-limit", "leaf:down=2MB"); // a leaf keeps 16 MB
    }

    @Test
    void anEntryGivenTwiceIsRefused() {
        refused(new String[] {"--switch-buffer", "leaf=1MB,leaf=2MB"}, "once", "leaf twice", "\"leaf=1MB,leaf=2MB\"");
        refused(new String[] {"--switch-buffer", "spine1=1MB,spine1=1MB"}, "spine1 twice");
        refused(new String[] {"--port-limit", "leaf:down=1MB,leaf:down=2MB"}, "leaf:down twice");
        refused(new String[] {"--port-limit", "leaf1:3=1MB,leaf1:03=2MB"}, "leaf1:3 twice");
        refused(new String[] {"--switch-buffer", "leaf=1MB", "--switch-buffer", "spine=1MB"}, "given twice");
    }

    @Test
    void usageSaysTheUnitsAndTheForms() {
        String u = SimulateOptions.usage();
        assertTrue(u.contains("--switch-buffer WHO=S,..."), u);
        assertTrue(u.contains("--port-limit WHO:WHERE=S,..."), u);
        assertTrue(u.contains("sizes S in [a packet (--mtu + --header), 1TiB]"), u);
    }
}
