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
// (scheduled one packet time plus a delay before) and the transmission's end last; among the arrivals, the senders
// in the order their transmissions started, which with back-to-back senders is the same at every instant.
// tieOrder 0 keeps that order. With tieOrder 1 the switch hands each arriving packet on through
// Simulator::ScheduleNow instead, that is after the events already due at that instant: the transmission's end
// first, then the arrivals (still zero processing delay). With tieOrder 2 the run uses fabriclab's rule
// (CanonicalOrder): a scheduler of this program (TieRuleScheduler) puts the events of one instant in the order of a
// rank given when each is scheduled: an event a node schedules for itself ranks after every arrival; an event
// scheduled for node v from node u (a packet put on the link u-v) ranks by fabriclab's draw of seed, time, v and
// the lane of v's port to u, ties by scheduling order. Node ids here are fabriclab's (senders 0..n-1, receiver n,
// switch n+1) and the switch's port to sender i is its port i, as in fabriclab's single-switch topology. ns-3's
// DefaultSimulatorImpl takes an event of the current instant as expired when its uid is at most the running event's,
// true only in uid order; under the rule the run uses TieRuleSimulatorImpl, whose IsExpired asks the scheduler whether
// the event is still pending, so that Cancel and Remove act on every pending event.
//
// Arguments: senders bytesPerSender wireBytes rateBitsPerSecond delayPs bufferBytes tieOrder [seed]
// Output (stdout, CSV lines):
//   summary,<drops>,<peakBytes>,<lastArrivalPs>,<deliveredWireBytes>,<deliveredPackets>
//   flow,<id>,<lastArrivalPs>,<deliveredWireBytes>,<deliveredPackets>     (one per sender)
#include "ns3/core-module.h"
#include "ns3/default-simulator-impl.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

using namespace ns3;

namespace
{
uint64_t g_seed = 1;
uint32_t g_switchId = 0;

// fabriclab's CanonicalOrder.draw: 27 bits of the SplitMix64 finaliser of
// (node << 12 | lane) * 0x9E3779B97F4A7C15 + time + seed * 0xBF58476D1CE4E5B9, at most 2^27 - 3 (the two values
// above are the message lanes' and the node's own events')
uint64_t
Draw(uint64_t seed, uint64_t timePs, uint64_t node, uint64_t lane)
{
    uint64_t z = (node << 12 | lane) * 0x9E3779B97F4A7C15ULL + timePs + seed * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    uint64_t d = z >> 37;
    const uint64_t own = (1ULL << 27) - 1;
    return d >= own - 1 ? own - 2 : d;
}
} // namespace

namespace ns3
{
// Orders the events of one time by (rank, uid), the rank given at insertion (see the header comment).
class TieRuleScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FabriclabTieRuleScheduler")
                                .SetParent<Scheduler>()
                                .SetGroupName("Core")
                                .AddConstructor<TieRuleScheduler>();
        return tid;
    }

    TieRuleScheduler()
    {
        s_active = this;
    }

    ~TieRuleScheduler() override
    {
        if (s_active == this)
        {
            s_active = nullptr;
        }
    }

    // the scheduler of the running simulation, null before it exists and after it is destroyed
    static const TieRuleScheduler* Active()
    {
        return s_active;
    }

    // whether the event with this uid is in the queue (not yet run, not removed)
    bool Pending(uint32_t uid) const
    {
        return m_rank.count(uid) > 0;
    }

    void Insert(const Event& ev) override
    {
        uint64_t rank = Rank(ev.key.m_ts, ev.key.m_context, Simulator::GetContext());
        m_events.emplace(std::make_tuple(ev.key.m_ts, rank, ev.key.m_uid), ev);
        m_rank[ev.key.m_uid] = rank;
    }

    bool IsEmpty() const override
    {
        return m_events.empty();
    }

    Event PeekNext() const override
    {
        return m_events.begin()->second;
    }

    Event RemoveNext() override
    {
        Event ev = m_events.begin()->second;
        m_events.erase(m_events.begin());
        m_rank.erase(ev.key.m_uid);
        return ev;
    }

    void Remove(const Event& ev) override
    {
        auto r = m_rank.find(ev.key.m_uid);
        if (r == m_rank.end())
        {
            return;
        }
        m_events.erase(std::make_tuple(ev.key.m_ts, r->second, ev.key.m_uid));
        m_rank.erase(r);
    }

  private:
    static uint64_t Rank(uint64_t ts, uint32_t node, uint32_t from)
    {
        const uint64_t ownLane = 4095;
        if (node == from || node == Simulator::NO_CONTEXT || from == Simulator::NO_CONTEXT)
        {
            return ((1ULL << 27) - 1) << 12 | ownLane; // the node's own event: after its arrivals
        }
        // the lane of node's port toward from: at the switch, sender i's port is port i; a host has one port
        uint64_t lane = node == g_switchId ? (from == g_switchId ? 0 : from) : 0;
        return Draw(g_seed, ts, node, lane) << 12 | lane;
    }

    std::map<std::tuple<uint64_t, uint64_t, uint32_t>, Event> m_events;
    std::unordered_map<uint32_t, uint64_t> m_rank;
    static inline TieRuleScheduler* s_active = nullptr;
};

NS_OBJECT_ENSURE_REGISTERED(TieRuleScheduler);

// The default simulator implementation with IsExpired true only for events no longer in the scheduler's queue or
// cancelled, whatever their uid.
class TieRuleSimulatorImpl : public DefaultSimulatorImpl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FabriclabTieRuleSimulatorImpl")
                                .SetParent<DefaultSimulatorImpl>()
                                .SetGroupName("Core")
                                .AddConstructor<TieRuleSimulatorImpl>();
        return tid;
    }

    bool IsExpired(const EventId& id) const override
    {
        const TieRuleScheduler* scheduler = TieRuleScheduler::Active();
        if (scheduler == nullptr || id.GetUid() == EventId::UID::DESTROY)
        {
            return DefaultSimulatorImpl::IsExpired(id);
        }
        return id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled() || !scheduler->Pending(id.GetUid());
    }
};

NS_OBJECT_ENSURE_REGISTERED(TieRuleSimulatorImpl);
} // namespace ns3

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
    if (argc != 8 && argc != 9)
    {
        std::cerr << "usage: " << argv[0]
                  << " senders bytesPerSender wireBytes rateBitsPerSecond delayPs bufferBytes tieOrder [seed]" << std::endl;
        return 2;
    }
    uint32_t senders = std::strtoul(argv[1], nullptr, 10);
    uint64_t bytesPerSender = std::strtoull(argv[2], nullptr, 10);
    uint32_t wire = std::strtoul(argv[3], nullptr, 10);
    uint64_t rate = std::strtoull(argv[4], nullptr, 10);
    int64_t delayPs = std::strtoll(argv[5], nullptr, 10);
    uint64_t buffer = std::strtoull(argv[6], nullptr, 10);
    uint32_t tieOrder = std::strtoul(argv[7], nullptr, 10);
    g_departuresFirst = tieOrder == 1;
    if (argc == 9)
    {
        g_seed = std::strtoull(argv[8], nullptr, 10);
    }
    g_switchId = senders + 1;
    if (tieOrder == 2)
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::FabriclabTieRuleSimulatorImpl"));
        ObjectFactory scheduler;
        scheduler.SetTypeId("ns3::FabriclabTieRuleScheduler");
        Simulator::SetScheduler(scheduler);
    }
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
        // in sender i's context, so that its device's events are its own (the tie rule's ranks read the context)
        Simulator::ScheduleWithContext(i, Seconds(0), &SendAll, senderDevs[i], i, bytesPerSender, wire);
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
