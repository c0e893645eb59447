package fabriclab.cli;

import fabriclab.fabric.Pfc;
import fabriclab.scenarios.ScenarioSettings;

/**
 * The kind of {@code --pfc}: {@code off} (null), {@code default} ({@link ScenarioSettings.Transport#htsimPfc} for
 * packets of {@code --mtu + --header}) or {@code XOFF,XON}.
 */
final class PfcKind implements Option.Kind<Pfc> {
    @Override
    public String metavar() {
        return "off|default|XOFF,XON";
    }

    @Override
    public Pfc parse(String option, String text, Option.Values values) {
        if (text.equals("off")) {
            return null;
        }
        if (text.equals("default")) {
            return ScenarioSettings.Transport.htsimPfc(values.get(SimulateOptions.MTU) + values.get(SimulateOptions.HEADER));
        }
        String[] parts = text.split(",", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException(option + " must be off, default or XOFF,XON (sizes, e.g. 15960,12000), got \""
                    + text + "\"");
        }
        long xoff = Quantity.BYTES.parse(option + " XOFF", parts[0], 1, 1L << 40);
        long xon = Quantity.BYTES.parse(option + " XON", parts[1], 1, 1L << 40);
        if (xon > xoff) {
            throw new IllegalArgumentException(option + " must have XON <= XOFF, got XOFF " + xoff + ", XON " + xon);
        }
        return new Pfc(xoff, xon, 0, Pfc.MAX_QUANTA);
    }

    @Override
    public String show(Pfc pfc) {
        return pfc == null ? "off" : pfc.xoffBytes() + "," + pfc.xonBytes();
    }
}
