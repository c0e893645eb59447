// fabriclab's ns-3 side of the differential test Ns3DifferentialTest (kernel-lib/src/test/java/fabriclab/simulation).
// Written for this project against ns-3 3.37 (Debian libns3-dev); compiled and run by the test.
//
// A drop-tail incast on one switch, without an IP stack: N sender nodes and one receiver node, each joined to a
// switch node by a point-to-point link (same rate and delay everywhere). Senders hand all their packets to their
// own device at time 0 (an unbounded device queue: back-to-back at line rate, no congestion control). The switch
// node forwards every packet it receives to the receiver's device at once (zero processing delay) whose drop-tail
// device queue is the output queue under test. There is no traffic-control layer (no InternetStack), so the
// device queue is the only queue.
//
// Sizes are wire sizes: each packet is created with (wire - 2) bytes so that, with PPP's 2-byte header, it takes
// `wire` bytes on the link. The first 4 bytes of every packet carry its flow (sender) index.
//
// fabriclab charges a packet to the buffer until its last bit has left the port; ns-3's device queue lets go of a
// packet when its transmission starts. With all packets of one size W, fabriclab admits a packet iff
// queued + in-transmission + W <= buffer, ns-3 iff queued + W <= MaxSize, so the device queue gets
// MaxSize = buffer - W bytes. Occupancy is counted here as fabriclab counts it (admitted minus fully transmitted,
// from the device's PhyTxEnd trace), its peak taken after each admission.
//
// Simultaneous events: with equal rates and delays a batch of packets reaches the switch at the picosecond a
// transmission there ends. ns-3 runs simultaneous events in the order they were scheduled, here the arrivals first
// (scheduled one packet time plus a delay before) and the transmission's end last. With tieOrder 1 the switch hands
// each arriving packet on through Simulator::ScheduleNow instead, that is after the events already due at that
// instant: the transmission's end first, then the arrivals (still zero processing delay).
//
// Arguments: senders bytesPerSender wireBytes rateBitsPerSecond delayPs bufferBytes tieOrder
// Output (stdout, CSV lines):
//   summary,<drops>,<peakBytes>,<lastArrivalPs>,<deliveredWireBytes>,<deliveredPackets>
//   flow,<id>,<lastArrivalPs>,<deliveredWireBytes>,<deliveredPackets>     (one per sender)
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

using namespace ns3;

namespace
{
Ptr<NetDevice> g_egress;            // the switch's port to the receiver
uint64_t g_drops = 0;
int64_t g_occupancy = 0;            // wire bytes admitted and not yet fully transmitted
int64_t g_peak = 0;
std::vector<int64_t> g_lastPs;
std::vector<uint64_t> g_bytes;
std::vector<uint64_t> g_packets;

uint32_t
WireSize(Ptr<const Packet> p)
{
    return p->GetSize() + 2; // the PPP header is not in the packet when it is handed to or up from the device
}

bool g_departuresFirst = false;

void
Forward(Ptr<Packet> copy, uint16_t protocol)
{
    uint32_t wire = WireSize(copy); // before Send, which adds the PPP header to the packet
    if (g_egress->Send(copy, g_egress->GetBroadcast(), protocol))
    {
        g_occupancy += wire;
        if (g_occupancy > g_peak)
        {
            g_peak = g_occupancy;
        }
    }
    else
    {
        g_drops++;
    }
}

void
SwitchReceive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t protocol, const Address&, const Address&,
              NetDevice::PacketType)
{
    if (g_departuresFirst)
    {
        Simulator::ScheduleNow(&Forward, p->Copy(), protocol);
    }
    else
    {
        Forward(p->Copy(), protocol);
    }
}

void
EgressTxEnd(Ptr<const Packet> p)
{
    // PhyTxEnd sees the packet with its PPP header added
    g_occupancy -= p->GetSize();
}

void
ReceiverReceive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&, const Address&,
                NetDevice::PacketType)
{
    uint8_t head[4];
    p->CopyData(head, 4);
    uint32_t flow;
    std::memcpy(&flow, head, 4);
    g_lastPs.at(flow) = Simulator::Now().GetPicoSeconds();
    g_bytes.at(flow) += WireSize(p);
    g_packets.at(flow)++;
}

void
SendAll(Ptr<NetDevice> dev, uint32_t flow, uint64_t bytes, uint32_t wire)
{
    std::vector<uint8_t> buf(wire, 0);
    std::memcpy(buf.data(), &flow, 4);
    for (uint64_t left = bytes; left > 0;)
    {
        uint32_t w = left < wire ? static_cast<uint32_t>(left) : wire;
        left -= w;
        Ptr<Packet> p = Create<Packet>(buf.data(), w - 2);
        dev->Send(p, dev->GetBroadcast(), 0x0800);
    }
}
} // namespace

int
main(int argc, char* argv[])
{
    if (argc != 8)
    {
        std::cerr << "usage: " << argv[0]
                  << " senders bytesPerSender wireBytes rateBitsPerSecond delayPs bufferBytes tieOrder" << std::endl;
        return 2;
    }
    uint32_t senders = std::strtoul(argv[1], nullptr, 10);
    uint64_t bytesPerSender = std::strtoull(argv[2], nullptr, 10);
    uint32_t wire = std::strtoul(argv[3], nullptr, 10);
    uint64_t rate = std::strtoull(argv[4], nullptr, 10);
    int64_t delayPs = std::strtoll(argv[5], nullptr, 10);
    uint64_t buffer = std::strtoull(argv[6], nullptr, 10);
    g_departuresFirst = std::strtoul(argv[7], nullptr, 10) == 1;
    if (senders < 1 || wire < 8 || bytesPerSender % wire < 8 && bytesPerSender % wire != 0 || buffer < 2 * wire)
    {
        std::cerr << "bad arguments: need senders >= 1, wire >= 8, a last packet of 0 or >= 8 bytes, buffer >= 2 wire"
                  << std::endl;
        return 2;
    }
    Time::SetResolution(Time::PS);

    NodeContainer hosts;
    hosts.Create(senders + 1); // senders 0..n-1, receiver n
    Ptr<Node> sw = CreateObject<Node>();

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(65535));
    p2p.SetChannelAttribute("Delay", TimeValue(PicoSeconds(delayPs)));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("100000000p")));

    std::vector<Ptr<NetDevice>> senderDevs;
    for (uint32_t i = 0; i < senders; i++)
    {
        NetDeviceContainer d = p2p.Install(hosts.Get(i), sw);
        senderDevs.push_back(d.Get(0));
    }
    NetDeviceContainer r = p2p.Install(sw, hosts.Get(senders));
    g_egress = r.Get(0);
    Ptr<PointToPointNetDevice> egress = DynamicCast<PointToPointNetDevice>(g_egress);
    egress->GetQueue()->SetMaxSize(QueueSize(QueueSizeUnit::BYTES, static_cast<uint32_t>(buffer - wire)));
    egress->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&EgressTxEnd));

    sw->RegisterProtocolHandler(MakeCallback(&SwitchReceive), 0x0800, nullptr);
    hosts.Get(senders)->RegisterProtocolHandler(MakeCallback(&ReceiverReceive), 0x0800, nullptr);

    g_lastPs.assign(senders, -1);
    g_bytes.assign(senders, 0);
    g_packets.assign(senders, 0);
    for (uint32_t i = 0; i < senders; i++)
    {
        Simulator::Schedule(Seconds(0), &SendAll, senderDevs[i], i, bytesPerSender, wire);
    }
    Simulator::Run();

    int64_t last = -1;
    uint64_t bytes = 0;
    uint64_t packets = 0;
    for (uint32_t i = 0; i < senders; i++)
    {
        last = std::max(last, g_lastPs[i]);
        bytes += g_bytes[i];
        packets += g_packets[i];
    }
    std::cout << "summary," << g_drops << "," << g_peak << "," << last << "," << bytes << "," << packets << "\n";
    for (uint32_t i = 0; i < senders; i++)
    {
        std::cout << "flow," << i << "," << g_lastPs[i] << "," << g_bytes[i] << "," << g_packets[i] << "\n";
    }
    Simulator::Destroy();
    return 0;
}
