package fabriclab.kernel;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import fabriclab.kernel.widgets.CommTransport;
import fabriclab.kernel.widgets.Displays;
import fabriclab.kernel.widgets.Widget;
import fabriclab.kernel.widgets.WidgetManager;
import fabriclab.kernel.widgets.WidgetProtocol;
import io.github.spencerpark.jupyter.channels.ShellReplyEnvironment;
import io.github.spencerpark.jupyter.kernel.comm.CommManager;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import io.github.spencerpark.jupyter.messages.Message;
import io.github.spencerpark.jupyter.messages.MessageType;
import io.github.spencerpark.jupyter.messages.comm.CommCloseCommand;
import io.github.spencerpark.jupyter.messages.comm.CommMsgCommand;
import io.github.spencerpark.jupyter.messages.comm.CommOpenCommand;
import io.github.spencerpark.jupyter.messages.publish.PublishClearOutput;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kernel's side of the comm protocol for Jupyter widgets: sends the {@link WidgetManager}'s
 * {@code comm_open}, {@code comm_msg} and {@code comm_close} on IOPub through {@link CellOutput} (so they
 * keep their order with printed text and displays, and have the request being handled as parent), and
 * handles the front end's comm messages on the shell channel.
 *
 * <p>A front end's {@code comm_msg} (a slider moved) is handled like a request: {@code busy}, then the
 * widget's listeners with their output sent to that message, then {@code idle} (the classic front end
 * waits for that {@code idle} before sending the next change). The shell channel handles one message at
 * a time, so a change sent while a cell runs is handled after that cell, in the order it was sent.
 * Comms of other targets go to the base library's comm manager.
 */
final class WidgetComms implements CommTransport {
    private static final Gson GSON = new Gson();

    private final CellOutput output;
    private final CommManager others;
    private final WidgetManager widgets;
    /** Comms the front end opened and the kernel keeps open (the classic front end's version comm), by id: their target. */
    private final Map<String, String> frontEndComms = new ConcurrentHashMap<>();

    WidgetComms(CellOutput output, CommManager others, WidgetProtocol protocol) {
        this.output = output;
        this.others = others;
        this.widgets = new WidgetManager(this, protocol);
        widgets.displays(new Displays() {
            @Override
            public String show(Object value) {
                return NotebookDisplay.display(value);
            }

            @Override
            public void replace(String displayId, Object value) {
                NotebookDisplay.updateDisplay(displayId, value);
            }
        });
    }

    WidgetManager widgets() {
        return widgets;
    }

    /**
     * How a widget is displayed: {@code application/vnd.jupyter.widget-view+json}, plus its text for
     * protocol 2 front ends (the classic front end would show the text beside the widget). The classic front
     * end is also sent the {@code display} comm message that places the view.
     */
    static DisplayData displayData(Widget w) {
        w.displaying();
        DisplayData data = new DisplayData();
        data.putData(WidgetProtocol.VIEW_MIME, w.viewData());
        if (w.protocol() != WidgetProtocol.CLASSIC) {
            data.putData(MIMEType.TEXT_PLAIN, w.toString());
        }
        return data;
    }

    @Override
    public void open(String commId, String target, Map<String, Object> data, Map<String, Object> metadata) {
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("comm_id", commId);
        content.put("target_name", target);
        content.put("data", data);
        output.publishWithMetadata(MessageType.COMM_OPEN_COMMAND, content, metadata);
    }

    @Override
    public void send(String commId, Map<String, Object> data) {
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("comm_id", commId);
        content.put("data", data);
        output.publishWithMetadata(MessageType.COMM_MSG_COMMAND, content, Map.of());
    }

    @Override
    public void close(String commId) {
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("comm_id", commId);
        content.put("data", Map.of());
        output.publishWithMetadata(MessageType.COMM_CLOSE_COMMAND, content, Map.of());
    }

    @Override
    public String parentMessageId() {
        return output.parentMessageId();
    }

    @Override
    public void clearOutput(boolean wait) {
        output.publish(MessageType.PUBLISH_CLEAR_OUTPUT, wait ? PublishClearOutput.BEFORE_NEXT_OUTPUT : PublishClearOutput.NOW);
    }

    /** The open comms the kernel knows of, by id: their target (widgets, kept front-end comms, the base library's). */
    Map<String, String> openComms() {
        Map<String, String> comms = new LinkedHashMap<>();
        for (String id : widgets.openComms()) {
            comms.put(id, WidgetProtocol.TARGET);
        }
        comms.putAll(frontEndComms);
        others.forEach(c -> comms.put(c.getID(), c.getTargetName()));
        return comms;
    }

    void handleOpen(ShellReplyEnvironment env, Message<CommOpenCommand> message) {
        CommOpenCommand c = message.getContent();
        if (WidgetProtocol.VERSION_TARGET.equals(c.getTargetName())) {
            env.setBusyDeferIdle();
            output.begin(message);
            widgets.frontEndOpened(c.getCommID(), c.getTargetName());
            frontEndComms.put(c.getCommID(), c.getTargetName());
            return;
        }
        if (c.getTargetName() != null && c.getTargetName().startsWith(WidgetProtocol.TARGET)) {
            widgets.frontEndOpened(c.getCommID(), c.getTargetName()); // refused: closed below
        }
        others.handleCommOpenCommand(env, message);
    }

    @SuppressWarnings("unchecked")
    void handleMessage(ShellReplyEnvironment env, Message<CommMsgCommand> message) {
        CommMsgCommand c = message.getContent();
        String id = c.getCommID();
        if (widgets.widget(id).isEmpty()) {
            if (!frontEndComms.containsKey(id)) {
                others.handleCommMsgCommand(env, message);
            } else {
                env.setBusyDeferIdle(); // the version comm's answer ({"validated": ...}) needs nothing more
            }
            return;
        }
        env.setBusyDeferIdle();
        output.begin(message);
        JsonObject json = c.getData();
        Map<String, Object> data = json == null ? Map.of() : GSON.fromJson(json, Map.class);
        try {
            widgets.frontEndMessage(id, data);
        } catch (RuntimeException e) {
            output.err.println("widget listener failed: " + e);
        }
        output.flush();
    }

    void handleClose(ShellReplyEnvironment env, Message<CommCloseCommand> message) {
        String id = message.getContent().getCommID();
        if (widgets.widget(id).isPresent() || frontEndComms.remove(id) != null) {
            env.setBusyDeferIdle();
            widgets.frontEndClosed(id);
            return;
        }
        others.handleCommCloseCommand(env, message);
    }
}
