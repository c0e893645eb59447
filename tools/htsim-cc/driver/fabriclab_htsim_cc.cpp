// fabriclab's own driver for csg-htsim (github.com/Broadcom/csg-htsim): runs the library's DCTCP source
// (DCTCPSrc, sim/dctcp.cpp, over TcpSink) or Swift source (SwiftSrc, sim/swift.cpp) on the 16-host three-tier
// fat tree the library builds (FatTreeTopology, k = 4, 100 Gb/s, 1 us per link) for the flows of one
// connection matrix, with the C library's generator seeded from -seed. Written for fabriclab from the
// library's class interfaces (no program of the repository runs DCTCPSrc; htsim_swift has no seed option);
// see tools/htsim-cc/README.md. Output (standard output), besides what the library prints itself:
//   fabriclab-flow <src> <dst> <fct_ps>        one line per DCTCP flow, when its last byte was acknowledged
//   fabriclab-run <quantity> <value>           per run counters (DCTCP) and the settings used
// Swift's completions are the library's own "Flow swift_<src>_<dst> finished at <us>" lines, printed here
// with 15 significant digits (the stream's precision is raised before the run).
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "config.h"
#include "network.h"
#include "eventlist.h"
#include "queue.h"
#include "tcp.h"
#include "dctcp.h"
#include "ecn.h"
#include "swift.h"
#include "fat_tree_topology.h"
#include "connection_matrix.h"

using namespace std;

EventList eventlist;

namespace {

// A DCTCP sender that notes when its last byte is acknowledged and counts what it saw; the
// congestion control and loss recovery are the library's (DCTCPSrc and TcpSrc).
class CountingDctcpSrc : public DCTCPSrc {
public:
    CountingDctcpSrc(int src, int dst, EventList& ev) : DCTCPSrc(NULL, NULL, ev), source(src), destination(dst) {}

    void receivePacket(Packet& pkt) override {
        if (pkt.flags() & ECN_ECHO) {
            echoedAcks++;
        }
        acks++;
        DCTCPSrc::receivePacket(pkt);
        if (finishedAt == 0 && _flow_size > 0 && _last_acked >= _flow_size) {
            finishedAt = eventlist().now();
        }
    }

    void doNextEvent() override {
        if (_rtx_timeout_pending) {
            timeouts++;
        }
        DCTCPSrc::doNextEvent();
    }

    int source;
    int destination;
    simtime_picosec finishedAt = 0;
    uint64_t acks = 0;
    uint64_t echoedAcks = 0;
    uint64_t timeouts = 0;
};

void usage(const char* program) {
    cerr << "usage: " << program << " -cc dctcp|swift -tm <connection matrix> -seed <n >= 1> [-nodes 16]"
         << " [-mtu 4096] [-end <us>] [-q <packets>] [-ssthresh <packets>] [-cwnd <packets>]" << endl;
    exit(2);
}

long positive(const char* name, const char* value, long least) {
    char* end = NULL;
    long v = strtol(value, &end, 10);
    if (end == value || *end != '\0' || v < least) {
        cerr << "option " << name << " must be a whole number >= " << least << ", got '" << value << "'" << endl;
        exit(2);
    }
    return v;
}

uint64_t sumDrops(const vector<vector<vector<BaseQueue*>>>& tiers) {
    uint64_t total = 0;
    for (const auto& a : tiers) {
        for (const auto& b : a) {
            for (BaseQueue* q : b) {
                Queue* queue = dynamic_cast<Queue*>(q);
                if (queue != NULL) {
                    total += queue->num_drops();
                }
            }
        }
    }
    return total;
}

}  // namespace

int main(int argc, char** argv) {
    string cc;
    const char* matrixFile = NULL;
    long seed = 0;
    long nodes = 16;
    long mtu = 4096;
    long endUs = 100000;
    long queuePackets = -1;
    long ssthreshPackets = 15;
    long cwndPackets = 15;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) {
            usage(argv[0]);
        }
        string option = argv[i];
        const char* value = argv[++i];
        if (option == "-cc") {
            cc = value;
        } else if (option == "-tm") {
            matrixFile = value;
        } else if (option == "-seed") {
            seed = positive("-seed", value, 1);
        } else if (option == "-nodes") {
            nodes = positive("-nodes", value, 2);
        } else if (option == "-mtu") {
            mtu = positive("-mtu", value, 64);
        } else if (option == "-end") {
            endUs = positive("-end", value, 1);
        } else if (option == "-q") {
            queuePackets = positive("-q", value, 1);
        } else if (option == "-ssthresh") {
            ssthreshPackets = positive("-ssthresh", value, 1);
        } else if (option == "-cwnd") {
            cwndPackets = positive("-cwnd", value, 1);
        } else {
            usage(argv[0]);
        }
    }
    if ((cc != "dctcp" && cc != "swift") || matrixFile == NULL || seed == 0) {
        usage(argv[0]);
    }
    // DCTCP: 100-packet switch queues (the DCTCP programs of sim/datacenter/old_tests); Swift: 8 (htsim_swift's).
    if (queuePackets < 0) {
        queuePackets = cc == "dctcp" ? 100 : 8;
    }
    srand((unsigned) seed);
    Packet::set_packet_size((int) mtu);
    eventlist.setEndtime(timeFromUs((double) endUs));
    cout << setprecision(15);
    cout << "fabriclab-run control " << cc << endl;
    cout << "fabriclab-run seed " << seed << endl;
    cout << "fabriclab-run queue_packets " << queuePackets << endl;

    linkspeed_bps speed = speedFromMbps((double) HOST_NIC);
    mem_b queueBytes = memFromPkt(queuePackets);
    // ECN: the topology's ECNQueue, marking at dequeue above 15 packets (FatTreeTopology::alloc_queue);
    // RANDOM: drop-tail with random early drops, as htsim_swift builds it.
    FatTreeTopology* top = cc == "dctcp"
            ? new FatTreeTopology((uint32_t) nodes, speed, queueBytes, NULL, &eventlist, NULL, ECN, FAIR_PRIO, 0)
            : new FatTreeTopology((uint32_t) nodes, speed, queueBytes, NULL, &eventlist, NULL, RANDOM, SWIFT_SCHEDULER, 0);
    uint32_t n = top->no_of_nodes();
    ConnectionMatrix matrix(n);
    if (!matrix.load(matrixFile)) {
        cerr << "cannot read connection matrix " << matrixFile << endl;
        return 1;
    }
    if (matrix.N != n) {
        cerr << "the matrix has " << matrix.N << " nodes, the topology " << n << endl;
        return 1;
    }
    vector<connection*>* flows = matrix.getAllConnections();

    TcpRtxTimerScanner* tcpScanner = NULL;
    SwiftRtxTimerScanner* swiftScanner = NULL;
    vector<CountingDctcpSrc*> dctcp;
    for (connection* f : *flows) {
        vector<const Route*>* forward = top->get_paths(f->src, f->dst);
        vector<const Route*>* backward = top->get_paths(f->dst, f->src);
        // one path per flow, drawn by the sender from the seeded generator
        uint32_t path = (uint32_t) (rand() % forward->size());
        Route* out = new Route(*forward->at(path));
        Route* back = new Route(*backward->at(path));
        simtime_picosec start = timeFromUs((double) f->start);
        if (cc == "dctcp") {
            if (tcpScanner == NULL) {
                tcpScanner = new TcpRtxTimerScanner(timeFromMs(10), eventlist);
            }
            CountingDctcpSrc* src = new CountingDctcpSrc(f->src, f->dst, eventlist);
            TcpSink* sink = new TcpSink();
            src->setName("dctcp_" + ntoa(f->src) + "_" + ntoa(f->dst));
            sink->setName("dctcp_sink_" + ntoa(f->src) + "_" + ntoa(f->dst));
            src->set_ssthresh((uint64_t) ssthreshPackets * Packet::data_packet_size());
            src->set_flowsize((uint64_t) f->size);
            out->push_back(sink);
            back->push_back(src);
            src->connect(*out, *back, *sink, start);
            tcpScanner->registerTcp(*src);
            dctcp.push_back(src);
        } else {
            if (swiftScanner == NULL) {
                swiftScanner = new SwiftRtxTimerScanner(timeFromMs(10), eventlist);
            }
            SwiftSrc* src = new SwiftSrc(*swiftScanner, NULL, NULL, eventlist);
            SwiftSink* sink = new SwiftSink();
            src->set_cwnd((uint32_t) (cwndPackets * Packet::data_packet_size()));
            src->set_flowsize((uint64_t) f->size);
            src->setName("swift_" + ntoa(f->src) + "_" + ntoa(f->dst));
            sink->setName("swift_sink_" + ntoa(f->src) + "_" + ntoa(f->dst));
            src->connect(*out, *back, *sink, start);
            src->set_paths(forward);
        }
        cout << "fabriclab-path " << f->src << " " << f->dst << " " << path << " of " << forward->size() << endl;
    }
    cout << "fabriclab-run connections " << flows->size() << endl;

    while (eventlist.doNextEvent()) {
    }

    if (cc == "dctcp") {
        uint64_t acks = 0, echoed = 0, timeouts = 0, fast = 0, sentBytes = 0;
        for (CountingDctcpSrc* s : dctcp) {
            if (s->finishedAt > 0) {
                cout << "fabriclab-flow " << s->source << " " << s->destination << " " << s->finishedAt << endl;
            }
            acks += s->acks;
            echoed += s->echoedAcks;
            timeouts += s->timeouts;
            fast += s->_drops;
            sentBytes += s->_packets_sent;
        }
        cout << "fabriclab-run acks " << acks << endl;
        cout << "fabriclab-run ecn_echo_acks " << echoed << endl;
        cout << "fabriclab-run timeouts " << timeouts << endl;
        cout << "fabriclab-run fast_retransmits " << fast << endl;
        cout << "fabriclab-run sent_bytes " << sentBytes << endl;
    }
    uint64_t drops = sumDrops(top->queues_nlp_ns) + sumDrops(top->queues_nlp_nup) + sumDrops(top->queues_nup_nlp)
            + sumDrops(top->queues_nup_nc) + sumDrops(top->queues_nc_nup) + sumDrops(top->queues_ns_nlp);
    cout << "fabriclab-run switch_drops " << drops << endl;
    cout << "fabriclab-run end_ps " << eventlist.now() << endl;
    return 0;
}
