package fabriclab.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.channels.Loop;
import io.github.spencerpark.jupyter.channels.ShellChannel;
import java.lang.reflect.Field;
import java.util.logging.Logger;

/**
 * Keeps the shell and control channels alive when a message is rejected.
 *
 * <p>The base library checks each message's HMAC signature but throws from its socket loop, and a
 * loop without an error handler ends on the first exception: one forged or corrupted message (bad
 * signature, malformed JSON) would leave the kernel deaf. After {@code connect()} this installs an
 * error handler on both loops that logs the rejected message and goes on with the next one (the
 * message is dropped, no reply is sent). The library offers no public hook for the loops, so they
 * are reached by reflection; the kernel robustness test checks the behaviour end to end.
 */
final class ResilientChannels {
    private static final Logger LOG = Logger.getLogger("fabriclab.kernel");

    private ResilientChannels() {
    }

    /** Installs the handlers on a connected connection. */
    static void install(JupyterConnection connection) throws ReflectiveOperationException {
        for (String name : new String[] {"shell", "control"}) {
            Field channelField = JupyterConnection.class.getDeclaredField(name);
            channelField.setAccessible(true);
            ShellChannel channel = (ShellChannel) channelField.get(connection);
            Field loopField = ShellChannel.class.getDeclaredField("ioloop");
            loopField.setAccessible(true);
            Loop loop = (Loop) loopField.get(channel);
            if (loop == null) {
                throw new IllegalStateException(name + " channel has no loop: install after connect()");
            }
            loop.onError(error -> {
                LOG.warning(name + " channel rejected a message: " + error);
                return 0; // carry on with the next message
            });
        }
    }
}
