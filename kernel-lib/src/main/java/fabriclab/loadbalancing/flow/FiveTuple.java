package fabriclab.loadbalancing.flow;

import fabriclab.Parameters;

/**
 * The IPv4 5-tuple a switch hashes to pick an ECMP member (seed 003, section 4.3.1: source and
 * destination address, source and destination port, protocol are the "hash factors").
 *
 * <p>Addresses are held as the 32-bit big-endian value of the dotted quad (so {@code 10.0.0.1} is
 * {@code 0x0A000001}); ports are 0..65535; protocol 0..255. For RoCEv2 the destination port is
 * {@link #ROCE_V2_PORT} and the protocol {@link #UDP}; the source port is chosen by the NIC per queue
 * pair, which is the only entropy a RoCE flow offers beyond its addresses.
 *
 * @param sourceIp source IPv4 address as an int
 * @param destinationIp destination IPv4 address as an int
 * @param sourcePort UDP/TCP source port, 0..65535
 * @param destinationPort UDP/TCP destination port, 0..65535
 * @param protocol IP protocol number, 0..255
 */
public record FiveTuple(int sourceIp, int destinationIp, int sourcePort, int destinationPort, int protocol) {
    /** UDP destination port assigned to RoCEv2 by IANA. */
    public static final int ROCE_V2_PORT = 4791;
    /** IP protocol number of UDP. */
    public static final int UDP = 17;
    /** IP protocol number of TCP. */
    public static final int TCP = 6;

    /** Validates ports and protocol. */
    public FiveTuple {
        Parameters.inRange("sourcePort", sourcePort, 0, 65535);
        Parameters.inRange("destinationPort", destinationPort, 0, 65535);
        Parameters.inRange("protocol", protocol, 0, 255);
    }

    /** A RoCEv2 flow: UDP to port 4791 from the given source port. */
    public static FiveTuple roceV2(int sourceIp, int destinationIp, int sourcePort) {
        return new FiveTuple(sourceIp, destinationIp, sourcePort, ROCE_V2_PORT, UDP);
    }

    /**
     * Parses a dotted-quad IPv4 address ("10.0.0.1") into its 32-bit value.
     *
     * @throws IllegalArgumentException naming {@code address} if it is not four numbers 0..255
     */
    public static int ipv4(String address) {
        Parameters.notBlank("address", address);
        String[] parts = address.trim().split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("address must be a dotted quad a.b.c.d with each part in [0, 255], got \"" + address + "\"");
        }
        int v = 0;
        for (String p : parts) {
            int octet;
            try {
                octet = Integer.parseInt(p);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("address must be a dotted quad a.b.c.d with each part in [0, 255], got \"" + address + "\"");
            }
            if (octet < 0 || octet > 255) {
                throw new IllegalArgumentException("address must be a dotted quad a.b.c.d with each part in [0, 255], got \"" + address + "\"");
            }
            v = (v << 8) | octet;
        }
        return v;
    }

    /** Dotted-quad text of a 32-bit address. */
    public static String ipv4Text(int address) {
        return (address >>> 24) + "." + ((address >>> 16) & 0xFF) + "." + ((address >>> 8) & 0xFF) + "." + (address & 0xFF);
    }

    /**
     * The 13 bytes hashed by the CRC and XOR functions, in network order: source address (4),
     * destination address (4), source port (2), destination port (2), protocol (1).
     */
    public byte[] bytes() {
        return new byte[] {
            (byte) (sourceIp >>> 24), (byte) (sourceIp >>> 16), (byte) (sourceIp >>> 8), (byte) sourceIp,
            (byte) (destinationIp >>> 24), (byte) (destinationIp >>> 16), (byte) (destinationIp >>> 8), (byte) destinationIp,
            (byte) (sourcePort >>> 8), (byte) sourcePort, (byte) (destinationPort >>> 8), (byte) destinationPort,
            (byte) protocol,
        };
    }

    @Override
    public String toString() {
        return ipv4Text(sourceIp) + ":" + sourcePort + " -> " + ipv4Text(destinationIp) + ":" + destinationPort + " proto " + protocol;
    }
}
