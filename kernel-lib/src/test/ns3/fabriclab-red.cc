// fabriclab's ns-3 side of the ECN differential test Ns3EcnDifferentialTest (kernel-lib/src/test/java/
// fabriclab/simulation). Written for this project against ns-3 3.37 (Debian libns3-dev); compiled and run by the test.
//
// Flows into one switch port whose queue is ns-3's RedQueueDisc marking ECN. Sender nodes and one receiver node,
// each joined to a switch node by a point-to-point link (same rate and delay everywhere). Sender f hands all its
// packets to its own device at its start time (an unbounded device queue: back to back at line rate, no congestion
// control). Every packet is an IPv4 packet with ECN codepoint ECT(0), `wire` bytes on the link (20-byte IPv4 header,
// 2-byte PPP header, the flow index in the first 4 payload bytes). The senders and the receiver have no IP stack;
// the switch node has only a traffic-control layer: its protocol handler takes the IPv4 header off each arriving
// packet and hands it, as an Ipv4QueueDiscItem, to the traffic-control layer of the receiver-facing device, whose
// root queue disc is RED (zero processing delay, no routing). The receiver reads the ECN codepoint of every packet.
//
// Occupancy as fabriclab counts it (bytes admitted to the port and not fully transmitted) is in three places here:
// the packet in transmission, the device queue (1 packet: flow control stops the queue disc while it is full) and
// the queue disc. Whenever the queue disc holds a packet the device queue is full and the device transmits, so a
// fabriclab occupancy of q bytes is a queue disc of n = q / wire - 2 packets. The program takes fabriclab's
// parameters (bytes) and maps them:
//   queue disc limit      MaxSize = buffer / wire - 2 packets    (fabriclab admits iff q + wire <= buffer)
//   ramp (kMin < kMax)    MinTh = kMin / wire - 2, MaxTh = kMax / wire - 2, LInterm = 1 / pMax
//   step (kMin = kMax)    MinTh = MaxTh = kMin / wire - 1         (fabriclab marks every packet iff q > K)
// in packet mode, with QW 1 (the "average" is the queue disc's length at each arrival), Gentle false, Wait false,
// UseHardDrop false (above MaxTh RED marks instead of dropping), UseEcn true. RED's count-based spacing of marks
// (p_a = p_b / (1 - count p_b)) has no switch; the test accounts for it.
//
// Simultaneous events: as in fabriclab-incast.cc, tieOrder 1 runs a transmission's end before the arrivals at the
// same instant. Here the end of a transmission takes two events (the device's, then the queue disc's refill of the
// device queue, which the device's wake-up schedules at the same instant), so the switch defers each arriving packet
// through Simulator::ScheduleNow twice before handing it to the queue disc.
//
// Arguments: wireBytes rateBitsPerSecond delayPs bufferBytes kMinBytes kMaxBytes pMax tieOrder startPs:packets...
// Output (stdout, CSV lines):
//   summary,<drops>,<deliveredPackets>,<deliveredMarked>,<marksByRed>,<peakBytes>,<mappingMismatches>
//   flow,<id>,<deliveredPackets>,<deliveredMarked>,<minOccupancy>,<maxOccupancy>,<minDisc>,<maxDisc>,<lastArrivalPs>
// where min/maxOccupancy are fabriclab's occupancy (bytes) just before each of the flow's packets joined the queue,
// min/maxDisc the queue disc's length (packets) then, and mappingMismatches counts arrivals at which occupancy and
// queue disc length did not stand in the relation above.
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
const uint32_t kPpp = 2;
const uint32_t kIp = 20;

Ptr<NetDevice> g_egress;
Ptr<TrafficControlLayer> g_tc;
Ptr<QueueDisc> g_disc;
uint32_t g_wire = 0;
bool g_departuresFirst = false;
uint64_t g_drops = 0;
uint64_t g_redMarks = 0;
int64_t g_occupancy = 0;
int64_t g_peak = 0;
uint64_t g_mismatches = 0;

struct FlowStats
{
    uint64_t delivered = 0;
    uint64_t marked = 0;
    int64_t minOcc = std::numeric_limits<int64_t>::max();
    int64_t maxOcc = -1;
    int64_t minDisc = std::numeric_limits<int64_t>::max();
    int64_t maxDisc = -1;
    int64_t lastPs = -1;
};

std::vector<FlowStats> g_flows;

uint32_t
FlowOf(Ptr<const Packet> payload)
{
    uint8_t head[4];
    payload->CopyData(head, 4);
    uint32_t flow;
    std::memcpy(&flow, head, 4);
    return flow;
}

void
Enqueue(Ptr<Packet> p)
{
    Ipv4Header ip;
    p->RemoveHeader(ip);
    FlowStats& f = g_flows.at(FlowOf(p));
    int64_t n = g_disc->GetNPackets();
    f.minOcc = std::min(f.minOcc, g_occupancy);
    f.maxOcc = std::max(f.maxOcc, g_occupancy);
    f.minDisc = std::min(f.minDisc, n);
    f.maxDisc = std::max(f.maxDisc, n);
    if (n > 0 ? g_occupancy != (n + 2) * g_wire : g_occupancy > 2 * int64_t(g_wire))
    {
        g_mismatches++;
    }
    uint64_t dropsBefore = g_drops;
    g_tc->Send(g_egress, Create<Ipv4QueueDiscItem>(p, g_egress->GetBroadcast(), 0x0800, ip));
    if (g_drops == dropsBefore)
    {
        g_occupancy += g_wire;
        g_peak = std::max(g_peak, g_occupancy);
    }
}

void
EnqueueLater(Ptr<Packet> p)
{
    Simulator::ScheduleNow(&Enqueue, p);
}

void
SwitchReceive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&, const Address&, NetDevice::PacketType)
{
    if (g_departuresFirst)
    {
        Simulator::ScheduleNow(&EnqueueLater, p->Copy());
    }
    else
    {
        Enqueue(p->Copy());
    }
}

void
DiscDrop(Ptr<const QueueDiscItem>)
{
    g_drops++;
}

void
DiscMark(Ptr<const QueueDiscItem>, const char*)
{
    g_redMarks++;
}

void
EgressTxEnd(Ptr<const Packet> p)
{
    g_occupancy -= p->GetSize(); // with its PPP header: the wire size
}

void
ReceiverReceive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&, const Address&, NetDevice::PacketType)
{
    Ptr<Packet> c = p->Copy();
    Ipv4Header ip;
    c->RemoveHeader(ip);
    FlowStats& f = g_flows.at(FlowOf(c));
    f.delivered++;
    if (ip.GetEcn() == Ipv4Header::ECN_CE)
    {
        f.marked++;
    }
    f.lastPs = Simulator::Now().GetPicoSeconds();
}

void
SendAll(Ptr<NetDevice> dev, uint32_t flow, uint64_t packets)
{
    std::vector<uint8_t> buf(g_wire - kPpp - kIp, 0);
    std::memcpy(buf.data(), &flow, 4);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address(0x0a000001 + flow));
    ip.SetDestination(Ipv4Address("10.1.0.1"));
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetPayloadSize(buf.size());
    ip.SetEcn(Ipv4Header::ECN_ECT0);
    for (uint64_t i = 0; i < packets; i++)
    {
        Ptr<Packet> p = Create<Packet>(buf.data(), buf.size());
        p->AddHeader(ip);
        dev->Send(p, dev->GetBroadcast(), 0x0800);
    }
}
} // namespace

int
main(int argc, char* argv[])
{
    if (argc < 10)
    {
        std::cerr << "usage: " << argv[0]
                  << " wireBytes rateBitsPerSecond delayPs bufferBytes kMinBytes kMaxBytes pMax tieOrder"
                     " startPs:packets..."
                  << std::endl;
        return 2;
    }
    g_wire = std::strtoul(argv[1], nullptr, 10);
    uint64_t rate = std::strtoull(argv[2], nullptr, 10);
    int64_t delayPs = std::strtoll(argv[3], nullptr, 10);
    uint64_t buffer = std::strtoull(argv[4], nullptr, 10);
    uint64_t kMin = std::strtoull(argv[5], nullptr, 10);
    uint64_t kMax = std::strtoull(argv[6], nullptr, 10);
    double pMax = std::strtod(argv[7], nullptr);
    g_departuresFirst = std::strtoul(argv[8], nullptr, 10) == 1;
    std::vector<int64_t> starts;
    std::vector<uint64_t> counts;
    for (int a = 9; a < argc; a++)
    {
        std::string s(argv[a]);
        size_t colon = s.find(':');
        if (colon == std::string::npos)
        {
            std::cerr << "bad flow " << s << ": expected startPs:packets" << std::endl;
            return 2;
        }
        starts.push_back(std::stoll(s.substr(0, colon)));
        counts.push_back(std::stoull(s.substr(colon + 1)));
    }
    bool step = kMin == kMax;
    if (g_wire < kPpp + kIp + 4 || buffer % g_wire != 0 || kMin % g_wire != 0 || kMax % g_wire != 0 ||
        kMin < 3 * g_wire || kMax < kMin || buffer < 4 * g_wire || !(pMax > 0 && pMax <= 1))
    {
        std::cerr << "bad arguments: need wire >= 26, buffer >= 4 wire, 3 wire <= kMin <= kMax, all multiples of"
                     " wire, 0 < pMax <= 1"
                  << std::endl;
        return 2;
    }
    Time::SetResolution(Time::PS);
    uint32_t senders = starts.size();

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
        senderDevs.push_back(p2p.Install(hosts.Get(i), sw).Get(0));
    }
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("1p")));
    g_egress = p2p.Install(sw, hosts.Get(senders)).Get(0);
    g_egress->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&EgressTxEnd));

    g_tc = CreateObject<TrafficControlLayer>();
    sw->AggregateObject(g_tc);
    double minTh = step ? double(kMin / g_wire) - 1 : double(kMin / g_wire) - 2;
    double maxTh = step ? minTh : double(kMax / g_wire) - 2;
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::RedQueueDisc",
                         "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, buffer / g_wire - 2)),
                         "MinTh", DoubleValue(minTh),
                         "MaxTh", DoubleValue(maxTh),
                         "LInterm", DoubleValue(1.0 / pMax),
                         "QW", DoubleValue(1.0),
                         "Gentle", BooleanValue(false),
                         "Wait", BooleanValue(false),
                         "UseEcn", BooleanValue(true),
                         "UseHardDrop", BooleanValue(false),
                         "MeanPktSize", UintegerValue(g_wire - kPpp),
                         "LinkBandwidth", DataRateValue(DataRate(rate)));
    g_disc = tch.Install(g_egress).Get(0);
    g_disc->TraceConnectWithoutContext("Drop", MakeCallback(&DiscDrop));
    g_disc->TraceConnectWithoutContext("Mark", MakeCallback(&DiscMark));

    sw->RegisterProtocolHandler(MakeCallback(&SwitchReceive), 0x0800, nullptr);
    hosts.Get(senders)->RegisterProtocolHandler(MakeCallback(&ReceiverReceive), 0x0800, nullptr);

    g_flows.assign(senders, FlowStats());
    for (uint32_t i = 0; i < senders; i++)
    {
        Simulator::Schedule(PicoSeconds(starts[i]), &SendAll, senderDevs[i], i, counts[i]);
    }
    Simulator::Run();

    uint64_t delivered = 0;
    uint64_t marked = 0;
    for (const FlowStats& f : g_flows)
    {
        delivered += f.delivered;
        marked += f.marked;
    }
    std::cout << "summary," << g_drops << "," << delivered << "," << marked << "," << g_redMarks << "," << g_peak << ","
              << g_mismatches << "\n";
    for (uint32_t i = 0; i < senders; i++)
    {
        const FlowStats& f = g_flows[i];
        std::cout << "flow," << i << "," << f.delivered << "," << f.marked << "," << f.minOcc << "," << f.maxOcc << ","
                  << f.minDisc << "," << f.maxDisc << "," << f.lastPs << "\n";
    }
    Simulator::Destroy();
    return 0;
}
