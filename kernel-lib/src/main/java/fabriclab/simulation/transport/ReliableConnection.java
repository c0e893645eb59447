package fabriclab.simulation.transport;

import fabriclab.Parameters;
import fabriclab.fabric.Time;

/**
 * The settings of a reliable-connected (RC) queue pair, as the InfiniBand Architecture Specification
 * (vol. 1, release 1.4, sections 9.7.5.1 and 9.7.6.1; RoCEv2 carries this transport unchanged) defines them and
 * the collective libraries set them. Shared by the go-back-N transports (RoCE, CTCC).
 *
 * <p><b>Requester</b> (sender): a flow is written as messages of {@code messageBytes} (the last one shorter); the
 * last packet of each message, and so of the flow, carries the AckReq bit. The local ACK timeout is
 * {@code 4.096 us x 2^localAckTimeoutExponent} (the specification's encoding of the QP attribute
 * {@code timeout}); the timer runs while packets are outstanding and restarts whenever an acknowledgement
 * advances the oldest unacknowledged packet. When it expires the requester resends from that packet
 * (go-back-N); after {@code retryCount} consecutive expiries without progress the next expiry moves the QP to
 * the error state: it stops sending and is reported as failed ({@code TransportModel.FAILED_QPS}).
 *
 * <p><b>Responder</b> (receiver): acknowledges cumulatively when {@code ackEvery} packets have been delivered
 * since its last acknowledgement, at once for a packet with AckReq, and when a delivered packet has waited
 * {@code ackDelayPs} for an acknowledgement (the coalescing timer the specification allows a responder in place
 * of acknowledging every packet). A packet above the expected sequence number is discarded and answered with
 * one sequence-error NAK per gap; a duplicate is discarded and re-acknowledged. With {@code outOfOrder} set, the
 * responder places packets out of order instead ({@link OutOfOrderPlacement}).
 *
 * <p>Defaults ({@link #defaults()}): timeout exponent 20 (4.29 s) and retry count 7, the documented defaults
 * of Huawei's HCCL ({@code HCCL_RDMA_TIMEOUT}, {@code HCCL_RDMA_RETRY_CNT}, the collective library of seed 000's
 * Ascend testbed) and of NVIDIA's NCCL ({@code NCCL_IB_TIMEOUT}, {@code NCCL_IB_RETRY_CNT}); messages of
 * 512 KiB, NCCL's RDMA write per pipeline step (its default {@code NCCL_BUFFSIZE} of 4 MiB over
 * {@code NCCL_STEPS} = 8 slots). The coalescing count (16) and delay (16 us) are not published by NIC vendors;
 * they are this project's settings, axes of any experiment that depends on them.
 *
 * @param messageBytes bytes per message (RDMA write); AckReq on each message's last packet; at least 1
 * @param ackEvery cumulative ACK after this many delivered packets without one, at least 1
 * @param ackDelayPs coalescing timer: an ACK at most this long after a delivered packet [ps], at least 1
 * @param localAckTimeoutExponent t of the local ACK timeout 4.096 us x 2^t, 1..31 (the specification's 0,
 *        an infinite timeout, is not offered: a run must end)
 * @param retryCount retries after a timeout before the QP fails, 0..7 (a 3-bit field in the specification)
 * @param outOfOrder the responder's out-of-order data placement, or null for the in-order responder (the default)
 */
public record ReliableConnection(long messageBytes, int ackEvery, long ackDelayPs, int localAckTimeoutExponent,
        int retryCount, OutOfOrderPlacement outOfOrder) {
    /** 4.096 us, the unit of the local ACK timeout, in ps. */
    public static final long TIMEOUT_UNIT_PS = 4_096_000L;
    /** The least message [bytes]. */
    public static final long MIN_MESSAGE_BYTES = 1;
    /** The least ACK coalescing count [packets]: an ACK per packet. */
    public static final int MIN_ACK_EVERY = 1;
    /** The least ACK coalescing delay [ps]. */
    public static final long MIN_ACK_DELAY_PS = 1;
    /** The least local ACK timeout exponent: 1 (the specification's 0, an infinite timeout, is not offered). */
    public static final int MIN_LOCAL_ACK_TIMEOUT_EXPONENT = 1;
    /** The largest local ACK timeout exponent: 31 (a 5-bit field). */
    public static final int MAX_LOCAL_ACK_TIMEOUT_EXPONENT = 31;
    /** The largest retry count: 7 (a 3-bit field); the least is 0. */
    public static final int MAX_RETRY_COUNT = 7;

    /** Validates. */
    public ReliableConnection {
        Parameters.atLeast("messageBytes", messageBytes, MIN_MESSAGE_BYTES);
        Parameters.atLeast("ackEvery", ackEvery, MIN_ACK_EVERY);
        Parameters.atLeast("ackDelayPs", ackDelayPs, MIN_ACK_DELAY_PS);
        Parameters.inRange("localAckTimeoutExponent", localAckTimeoutExponent, MIN_LOCAL_ACK_TIMEOUT_EXPONENT,
                MAX_LOCAL_ACK_TIMEOUT_EXPONENT);
        Parameters.inRange("retryCount", retryCount, 0, MAX_RETRY_COUNT);
    }

    /** A connection with the in-order responder. */
    public ReliableConnection(long messageBytes, int ackEvery, long ackDelayPs, int localAckTimeoutExponent,
            int retryCount) {
        this(messageBytes, ackEvery, ackDelayPs, localAckTimeoutExponent, retryCount, null);
    }

    /** HCCL's and NCCL's timeout (t = 20, 4.29 s) and retry count (7); 512 KiB messages; ACK every 16 packets or 16 us. */
    public static ReliableConnection defaults() {
        return new ReliableConnection(512L * 1024, 16, 16 * Time.US, 20, 7);
    }

    /** The local ACK timeout 4.096 us x 2^t [ps]. */
    public long localAckTimeoutPs() {
        return TIMEOUT_UNIT_PS << localAckTimeoutExponent;
    }

    /** A copy acknowledging every {@code n} packets. */
    public ReliableConnection withAckEvery(int n) {
        return new ReliableConnection(messageBytes, n, ackDelayPs, localAckTimeoutExponent, retryCount, outOfOrder);
    }

    /** A copy with the local ACK timeout exponent {@code t} (t = 8 gives 1.05 ms, the short-timeout what-if). */
    public ReliableConnection withLocalAckTimeoutExponent(int t) {
        return new ReliableConnection(messageBytes, ackEvery, ackDelayPs, t, retryCount, outOfOrder);
    }

    /** A copy with {@code n} retries. */
    public ReliableConnection withRetryCount(int n) {
        return new ReliableConnection(messageBytes, ackEvery, ackDelayPs, localAckTimeoutExponent, n, outOfOrder);
    }

    /** A copy with messages of {@code bytes}. */
    public ReliableConnection withMessageBytes(long bytes) {
        return new ReliableConnection(bytes, ackEvery, ackDelayPs, localAckTimeoutExponent, retryCount, outOfOrder);
    }

    /** A copy with the coalescing delay {@code ps}. */
    public ReliableConnection withAckDelayPs(long ps) {
        return new ReliableConnection(messageBytes, ackEvery, ps, localAckTimeoutExponent, retryCount, outOfOrder);
    }

    /** A copy whose responder places packets out of order by {@code placement} (null: in order). */
    public ReliableConnection withOutOfOrder(OutOfOrderPlacement placement) {
        return new ReliableConnection(messageBytes, ackEvery, ackDelayPs, localAckTimeoutExponent, retryCount, placement);
    }
}
