package fabriclab.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.channels.JupyterSocket;
import io.github.spencerpark.jupyter.channels.Loop;
import io.github.spencerpark.jupyter.channels.ShellChannel;
import io.github.spencerpark.jupyter.channels.ShellHandler;
import io.github.spencerpark.jupyter.channels.ShellReplyEnvironment;
import io.github.spencerpark.jupyter.messages.Message;
import java.lang.reflect.Field;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.zeromq.ZMQ;

/**
 * The shell and control channels' loops, in place of the base library's: they wait for a message
 * instead of sleeping, and survive a rejected message.
 *
 * <ul>
 *   <li>The base library's loop polls its socket without waiting, handles at most one message and then
 *       sleeps 50 ms: every request waits up to 50 ms before it is read (25 ms on average, on the shell and
 *       again on the control channel), and a queue of requests (Run All) is read at 20 a second. These loops
 *       block in a ZeroMQ poll until a message arrives (at most {@link #POLL_MILLIS}, to see a shutdown).
 *   <li>The base library checks each message's HMAC signature but throws from its socket loop, and a loop
 *       without an error handler ends on the first exception: one forged or corrupted message (bad
 *       signature, malformed JSON) would leave the kernel deaf. These loops log the rejected message and go
 *       on with the next one (the message is dropped, no reply is sent).
 * </ul>
 *
 * <p>A message is handled as the base library does it (its handler, then the deferred replies, then the
 * connection closed when the handler asked for a shutdown). The library offers no public hook for the
 * loops, so they are swapped by reflection after {@code connect()}; the kernel's tests check the behaviour
 * end to end.
 */
final class ResilientChannels {
    private static final Logger LOG = Logger.getLogger("fabriclab.kernel");
    /** Longest wait for a message before the loop looks whether it was shut down. */
    static final long POLL_MILLIS = 200;
    /** When this thread's loop found the message it is handling ({@link System#nanoTime()}), or -1. */
    private static final ThreadLocal<long[]> FOUND = ThreadLocal.withInitial(() -> new long[] {-1});

    private ResilientChannels() {
    }

    /** Replaces the loops of a connected connection's shell and control channels. */
    static void install(JupyterConnection connection) throws ReflectiveOperationException, InterruptedException {
        Field loopField = ShellChannel.class.getDeclaredField("ioloop");
        loopField.setAccessible(true);
        Field ctxField = JupyterSocket.class.getDeclaredField("ctx");
        ctxField.setAccessible(true);
        for (String name : new String[] {"shell", "control"}) {
            Field channelField = JupyterConnection.class.getDeclaredField(name);
            channelField.setAccessible(true);
            ShellChannel channel = (ShellChannel) channelField.get(connection);
            Loop old = (Loop) loopField.get(channel);
            if (old == null) {
                throw new IllegalStateException(name + " channel has no loop: install after connect()");
            }
            old.shutdown();
            old.join(); // within its 50 ms sleep; what arrives meanwhile waits in the socket
            ZMQ.Poller poller = ((ZMQ.Context) ctxField.get(channel)).poller(1);
            poller.register(channel, ZMQ.Poller.POLLIN);
            Loop loop = new Loop(old.getName(), () -> {
                if (poller.poll(POLL_MILLIS) > 0) {
                    handleOne(connection, channel, name, System.nanoTime());
                }
                return 0; // no sleep: wait in the poll
            });
            loop.onError(error -> {
                LOG.warning(name + " channel rejected a message: " + error);
                return 0; // carry on with the next message
            });
            loopField.set(channel, loop);
            loop.start();
        }
    }

    /**
     * When the loop of the calling thread found the message it is handling, on this JVM's clock
     * ({@link System#nanoTime()}): the moment its wait for a message ended, which is when the message arrived
     * if the loop was waiting, or when the loop came back to the socket if the message was already queued.
     * The current time on a thread that runs no loop (or between messages).
     */
    static long foundNanos() {
        long found = FOUND.get()[0];
        return found < 0 ? System.nanoTime() : found;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void handleOne(JupyterConnection connection, ShellChannel channel, String name, long found) {
        FOUND.get()[0] = found;
        try {
            handleOne(connection, channel, name);
        } finally {
            FOUND.get()[0] = -1;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void handleOne(JupyterConnection connection, ShellChannel channel, String name) {
        Message message = channel.readMessage();
        ShellHandler handler = connection.getHandler(message.getHeader().getType());
        if (handler == null) {
            LOG.warning(name + " channel: unhandled message " + message.getHeader().getType().getName());
            return;
        }
        ShellReplyEnvironment env = connection.prepareReplyEnv(channel, message);
        try {
            handler.handle(env, message);
        } catch (Exception e) {
            LOG.log(Level.SEVERE, name + " channel: unhandled exception handling " + message.getHeader().getType().getName(), e);
        } finally {
            env.resolveDeferrals();
        }
        if (env.isMarkedForShutdown()) {
            connection.close();
        }
    }
}
