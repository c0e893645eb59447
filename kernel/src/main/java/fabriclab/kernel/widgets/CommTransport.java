package fabriclab.kernel.widgets;

import java.util.Map;

/**
 * Where widget models' comm messages go: the kernel's IOPub channel, with the request being handled
 * (a cell's {@code execute_request}, a front end's {@code comm_msg}) as parent, after the output printed
 * before them.
 */
public interface CommTransport {
    /** Publishes {@code comm_open} of comm {@code commId} for {@code target}. */
    void open(String commId, String target, Map<String, Object> data, Map<String, Object> metadata);

    /** Publishes {@code comm_msg} on comm {@code commId}. */
    void send(String commId, Map<String, Object> data);

    /** Publishes {@code comm_close} of comm {@code commId}. */
    void close(String commId);

    /** The {@code msg_id} of the request being handled, to which output is sent; empty when none. */
    String parentMessageId();

    /** Publishes {@code clear_output} to the request being handled. */
    void clearOutput(boolean wait);
}
