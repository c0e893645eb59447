package fabriclab.fabric;

import fabriclab.Parameters;

/**
 * The tier of a node in a {@link Topology}: a host (one NIC), or a switch of the folded Clos
 * fabrics the papers describe (seed 000 section 3 and seed 003 figure 18: servers under leaf/ToR
 * switches, leaves joined by spines; a third, core tier for larger fabrics).
 *
 * <p>A topology stores the tier of each switch as its {@link #level() level} (leaf 0, spine 1,
 * core 2) in {@link Topology#tiers()}; {@link Topology#tier(int)} gives the tier of any node.
 */
public enum Tier {
    /** A host NIC: a source and sink of traffic, never a forwarding hop. */
    HOST,
    /** Leaf or top-of-rack switch (level 0): hosts hang below it. */
    LEAF,
    /** Spine switch (level 1): joins the leaves. */
    SPINE,
    /** Core or super-spine switch (level 2): joins spine planes. */
    CORE;

    /** Highest switch level, that of {@link #CORE}. */
    public static final int MAX_LEVEL = 2;

    /** Whether this is a switch tier (not {@link #HOST}). */
    public boolean isSwitch() {
        return this != HOST;
    }

    /**
     * The switch level of this tier: 0 for a leaf, 1 for a spine, 2 for a core switch.
     *
     * @throws IllegalStateException for {@link #HOST}, which has no switch level
     */
    public int level() {
        if (this == HOST) {
            throw new IllegalStateException("a host has no switch level");
        }
        return ordinal() - 1;
    }

    /**
     * The switch tier of a level.
     *
     * @param level 0 (leaf), 1 (spine) or 2 (core)
     */
    public static Tier ofLevel(int level) {
        Parameters.inRange("level", level, 0, MAX_LEVEL);
        return values()[level + 1];
    }
}
