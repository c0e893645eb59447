package fabriclab.cli;

import fabriclab.fabric.Tier;
import fabriclab.simulation.config.BufferPlan;
import fabriclab.simulation.config.SwitchBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The kinds of {@code --switch-buffer} and {@code --port-limit}: comma-separated entries, each read into a
 * {@link BufferPlan} entry. {@code --switch-buffer} entries are {@code WHO=S}, WHO a tier ({@code leaf}, {@code spine},
 * {@code core}) or a switch's name ({@code leaf1}, {@code spine3}); {@code --port-limit} entries are
 * {@code TIER:up=S}, {@code TIER:down=S} or {@code SWITCH:PORT=S}. Each entry at most once; whether the names, tiers
 * and ports exist in the fabric is the options' check, as it depends on the other options.
 */
final class BufferPlanKind implements Option.Kind<BufferPlan> {
    /** The tiers as the command line writes them. */
    static final List<String> TIERS = List.of("leaf", "spine", "core");
    /** The largest size an entry may give [bytes]: as {@code --buffer}'s. */
    static final long MAX_BYTES = 1L << 40;

    private final boolean ports;

    private BufferPlanKind(boolean ports) {
        this.ports = ports;
    }

    /** The kind of {@code --switch-buffer}: tier and switch buffers. */
    static BufferPlanKind switchBuffers() {
        return new BufferPlanKind(false);
    }

    /** The kind of {@code --port-limit}: queue limits of a tier's ports facing one way, or of one switch port. */
    static BufferPlanKind portLimits() {
        return new BufferPlanKind(true);
    }

    @Override
    public String metavar() {
        return ports ? "WHO:WHERE=S,..." : "WHO=S,...";
    }

    @Override
    public BufferPlan parse(String option, String text, Option.Values values) {
        String syntax = ports ? "TIER:up=S, TIER:down=S or SWITCH:PORT=S (leaf:down=200KB,spine1:0=1MB)"
                : "WHO=S, WHO a tier (leaf, spine, core) or a switch (leaf1, spine3) (leaf=16MB,spine=32MB)";
        BufferPlan plan = BufferPlan.none();
        Set<String> seen = new HashSet<>();
        for (String entry : text.split(",", -1)) {
            int eq = entry.indexOf('=');
            if (eq <= 0 || eq != entry.lastIndexOf('=')) {
                throw new IllegalArgumentException(option + " must be a comma-separated list of " + syntax + ", got \""
                        + entry + "\" in \"" + text + "\"");
            }
            String who = entry.substring(0, eq);
            long bytes = Quantity.BYTES.parse(option + " " + who, entry.substring(eq + 1), 1, MAX_BYTES);
            if (ports) {
                int colon = who.indexOf(':');
                if (colon <= 0 || colon == who.length() - 1 || colon != who.lastIndexOf(':')) {
                    throw new IllegalArgumentException(option + " must be a comma-separated list of " + syntax + ", got \""
                            + entry + "\" in \"" + text + "\"");
                }
                String name = who.substring(0, colon);
                String where = who.substring(colon + 1);
                if (TIERS.contains(name)) {
                    if (!where.equals("up") && !where.equals("down")) {
                        throw new IllegalArgumentException(option + " " + who + ": a tier's ports must be up or down, got \""
                                + where + "\" in \"" + text + "\"");
                    }
                    once(option, seen, name + ":" + where, text);
                    plan = plan.withPortLimit(tier(name), BufferPlan.Facing.valueOf(where.toUpperCase(Locale.ROOT)), bytes);
                } else {
                    int port = (int) Quantity.INTEGER.parse(option + " " + name + " port", where, 0, Integer.MAX_VALUE);
                    once(option, seen, name + ":" + port, text);
                    plan = plan.withPortLimit(name, port, bytes);
                }
            } else {
                once(option, seen, who, text);
                plan = TIERS.contains(who) ? plan.withTier(tier(who), SwitchBuffer.shared(bytes))
                        : plan.withSwitch(who, SwitchBuffer.shared(bytes));
            }
        }
        return plan;
    }

    /** Refuses {@code key} (a tier, switch, tier's ports or switch port) given a second time. */
    private void once(String option, Set<String> seen, String key, String text) {
        if (!seen.add(key)) {
            throw new IllegalArgumentException(option + " must give each " + (ports ? "tier's ports or switch port"
                    : "tier or switch") + " once, got " + key + " twice in \"" + text + "\"");
        }
    }

    @Override
    public String show(BufferPlan plan) {
        if (plan == null) {
            return null;
        }
        List<String> entries = new ArrayList<>();
        plan.tiers().forEach(t -> entries.add(name(t.tier()) + "=" + Quantity.BYTES.show(t.buffer().sharedBytes())));
        plan.switches().forEach(s -> entries.add(s.name() + "=" + Quantity.BYTES.show(s.buffer().sharedBytes())));
        plan.tierPorts().forEach(t -> entries.add(name(t.tier()) + ":" + t.facing().name().toLowerCase(Locale.ROOT) + "="
                + Quantity.BYTES.show(t.queueLimitBytes())));
        plan.ports().forEach(p -> entries.add(p.name() + ":" + p.port() + "=" + Quantity.BYTES.show(p.queueLimitBytes())));
        return String.join(",", entries);
    }

    @Override
    public String range() {
        return "sizes S in [a packet (--mtu + --header), " + Quantity.BYTES.show(MAX_BYTES) + "]";
    }

    /** The tier written {@code name} ({@link #TIERS}). */
    static Tier tier(String name) {
        return Tier.ofLevel(TIERS.indexOf(name));
    }

    /** The tier as the command line writes it. */
    static String name(Tier tier) {
        return tier.name().toLowerCase(Locale.ROOT);
    }
}
