package fabriclab.kernel.widgets;

/**
 * An output area: what code prints or displays inside {@link #capture} shows in the widget instead of
 * below the cell. The front end catches the output by the request it answers: {@code msg_id} is set to
 * the request being handled (a cell, or a front end's change) while the code runs.
 */
public final class Output extends Widget {
    /** An empty output area. */
    public Output() {
        super("OutputModel", "OutputView", true);
        define("msg_id", "");
        if (protocol() == WidgetProtocol.V2) {
            define("outputs", java.util.List.of());
        }
        open();
    }

    /** Runs {@code code} with its output (printed text, displays) going to this widget. */
    public void capture(Runnable code) {
        CommTransport t = manager().transport();
        String previous = String.valueOf(get("msg_id"));
        set("msg_id", t == null ? "" : t.parentMessageId());
        try {
            code.run();
        } finally {
            System.out.flush();
            System.err.flush();
            set("msg_id", previous);
        }
    }

    /** Clears the widget ({@code wait}: when the next output comes, so it does not flicker). */
    public void clear(boolean wait) {
        CommTransport t = manager().transport();
        if (t != null) {
            capture(() -> t.clearOutput(wait));
        }
    }

    @Override
    public String toString() {
        return "Output";
    }
}
