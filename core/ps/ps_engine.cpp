// ps_engine.cpp — the parameter server's event loop (dsml/param_server.h).
//
// Why not dsml::simulate's Engine: its ranks run fixed programs (recv from a NAMED peer), while a shard under
// asp/ssp serves pushes in whatever order they arrive and a worker's next step depends on the replies it got.
// So this loop drives the protocol itself but moves every message under the same link model — routes from the
// Topology, contention from sim::LinkTable, and blocking eager sends (a rank sends one message at a time). On
// bsp the two agree to the last bit (test_param_server.cpp replays a bsp run as Programs through simulate()).
//
// Two events: a worker's compute ends; a message arrives (its links free up, the sender sends its next one,
// the receiver handles it). Ties at one instant run in creation order.
#include <algorithm>
#include <deque>
#include <limits>
#include <queue>

#include "dsml/error.h"
#include "dsml/param_server.h"
#include "sim/link_table.h"

namespace dsml {
namespace {

struct Event {
  double time;
  std::uint64_t seq;
  int id;  // worker (compute done) or message
  bool arrive;
  int epoch;  // compute done: the worker's compute it ends (a cancelled one's event is ignored)
};
struct Later {
  bool operator()(const Event& a, const Event& b) const {
    return a.time > b.time || (a.time == b.time && a.seq > b.seq);
  }
};

struct Message {
  int src, dst, worker, shard, gradient, iteration;
  int version;  // push: the shard version the gradient was computed on; reply: the version it carries
  double bytes;
  bool push;
};

struct Worker {
  std::vector<int> held, used;  // per shard: the version held now / at the start of the current compute
  int computes = 0;             // iterations computed so far (the speed model's counter; the asp/ssp clock)
  int replies_needed = 0;       // asp/ssp: replies still to come for the last push
  int gradient = -1, data = 0;  // the current compute's gradient id and data index
  int epoch = 0;                // computes started (cancelled ones included)
  bool computing = false, waiting = false, finished = false;
  double since = 0.0;           // start of the current span
};

struct Shard {
  int version = 0;
  int accepted = 0;                      // bsp/backup: gradients in this round's sum
  std::vector<int> clock;                // asp/ssp: per worker, pushes applied
  std::vector<std::pair<int, int>> held;  // ssp: replies held back (worker, the min clock they need)
  std::vector<double> done;              // done[r]: when this shard finished round/clock r
  double bytes_in = 0.0;
};

class PsEngine {
 public:
  PsEngine(const Topology& topology, const ParamServerConfig& config)
      : topology_(topology), c_(config), W_(config.workers), K_(config.servers),
        sync_(config.consistency == Consistency::bsp || config.consistency == Consistency::backup),
        links_(topology.links()), queues_(static_cast<std::size_t>(W_ + K_)), sending_(queues_.size(), false),
        workers_(static_cast<std::size_t>(W_)), shards_(static_cast<std::size_t>(K_)), spans_(workers_.size()) {
    for (Worker& w : workers_) w.held.assign(static_cast<std::size_t>(K_), 0);
    for (Shard& s : shards_) s.clock.assign(static_cast<std::size_t>(W_), 0);
    r_.compute_seconds.assign(workers_.size(), 0.0);
    r_.wait_seconds.assign(workers_.size(), 0.0);
  }

  ParamServerResult run() {
    for (int w = 0; w < W_; ++w) start_compute(w, 0.0);
    while (!queue_.empty()) {
      const Event e = queue_.top();
      queue_.pop();
      if (e.arrive) {
        on_arrive(e.id, e.time);
      } else if (e.epoch == workers_[e.id].epoch) {
        on_compute_done(e.id, e.time);
      }
    }
    for (const Worker& w : workers_)
      if (!w.finished) throw Error("parameter server: a worker never finished (internal error)");
    return collect();
  }

 private:
  void schedule(double time, int id, bool arrive, int epoch = 0) {
    queue_.push(Event{time, seq_++, id, arrive, epoch});
  }
  void log(PsOp op) { r_.ops.push_back(op); }
  void span(int w, PsSpan::Kind kind, double start, double end) {
    if (end > start) spans_[static_cast<std::size_t>(w)].push_back(PsSpan{w, kind, start, end, workers_[w].computes});
  }
  int min_held(const Worker& w) const { return *std::min_element(w.held.begin(), w.held.end()); }

  // ---- workers ----
  void start_compute(int w, double now) {
    Worker& wk = workers_[w];
    wk.used = wk.held;
    wk.gradient = next_gradient_++;
    wk.data = sync_ ? min_held(wk) : wk.computes;  // bsp/backup: the round; asp/ssp: the worker's clock
    wk.since = now;
    log(PsOp{PsOp::Kind::kCompute, now, w, -1, wk.gradient, wk.data, 0, 0, -1});
    wk.computing = true;
    schedule(now + iteration_seconds(c_.speed, w, wk.computes), w, false, ++wk.epoch);
  }

  // cancel_stragglers: a worker still computing for a round that has ended drops its work and starts on the new
  // parameters as soon as it holds them from every shard.
  void maybe_cancel(int w, double now) {
    Worker& wk = workers_[w];
    if (!c_.cancel_stragglers || !wk.computing) return;
    for (int k = 0; k < K_; ++k)
      if (wk.held[k] <= wk.used[k]) return;
    r_.compute_seconds[w] += now - wk.since;
    span(w, PsSpan::Kind::kCompute, wk.since, now);
    ++wk.computes;
    log(PsOp{PsOp::Kind::kCancel, now, w, -1, wk.gradient, wk.data, 0, 0, -1});
    ++wk.epoch;  // its compute-done event no longer counts
    if (min_held(wk) >= c_.iterations) {
      wk.computing = false;
      return finish(w, now);
    }
    start_compute(w, now);
  }

  void on_compute_done(int w, double now) {
    Worker& wk = workers_[w];
    r_.compute_seconds[w] += now - wk.since;
    span(w, PsSpan::Kind::kCompute, wk.since, now);
    ++wk.computes;
    wk.computing = false;
    if (sync_ && min_held(wk) >= c_.iterations) return finish(w, now);  // the run ended while it computed
    wk.since = now;
    wk.replies_needed = K_;
    for (int k = 0; k < K_; ++k)  // step 2: push each shard its slice of the gradient
      post(Message{w, W_ + k, w, k, wk.gradient, wk.data, wk.used[k], shard_bytes(c_, k), true}, now);
  }

  // Called when the worker's last push has left and whenever a reply arrives: continue once it may.
  void maybe_continue(int w, double now) {
    Worker& wk = workers_[w];
    if (!wk.waiting || wk.finished) return;
    bool ready = true;
    if (sync_) {
      for (int k = 0; k < K_; ++k) ready = ready && wk.held[k] > wk.used[k];  // a newer round on every shard
    } else {
      ready = wk.replies_needed == 0;  // every shard answered this push
    }
    if (!ready) return;
    wk.waiting = false;
    r_.wait_seconds[w] += now - wk.since;
    span(w, PsSpan::Kind::kWait, wk.since, now);
    const bool done = sync_ ? min_held(wk) >= c_.iterations : wk.computes >= c_.iterations;
    if (done) finish(w, now); else start_compute(w, now);
  }

  void finish(int w, double now) {
    workers_[w].finished = true;
    r_.makespan = std::max(r_.makespan, now);
  }

  // ---- messages: one send at a time per rank, each over its whole route (sim/link_table.h) ----
  int post(const Message& m, double now) {
    const int id = static_cast<int>(messages_.size());
    messages_.push_back(m);
    links_.track(id, 0);  // a slot now; its place in the links' FIFO is set when it is sent (as in simulate())
    queues_[m.src].push_back(id);
    if (!sending_[m.src]) send_next(m.src, now);
    return id;
  }

  void send_next(int rank, double now) {
    if (queues_[rank].empty()) return;
    const int id = queues_[rank].front();
    queues_[rank].pop_front();
    sending_[rank] = true;
    links_.track(id, sent_++);
    topology_.route(messages_[id].src, messages_[id].dst, route_);
    try_start(id, now);
  }

  void try_start(int id, double now) {  // route_ holds id's route
    if (links_.acquire_or_wait(id, route_))  // (now + α) + β·n, summed as simulate() sums it
      schedule(now + route_.alpha + route_.beta * messages_[id].bytes, id, true);
  }

  void on_arrive(int id, double now) {
    const Message m = messages_[id];
    topology_.route(m.src, m.dst, route_);
    links_.release(route_, route_.time(m.bytes));
    for (int waiting; (waiting = links_.next_candidate()) >= 0;) {
      topology_.route(messages_[waiting].src, messages_[waiting].dst, route_);
      try_start(waiting, now);
    }
    sending_[m.src] = false;
    send_next(m.src, now);
    if (m.push && queues_[m.src].empty() && !sending_[m.src]) {  // the worker's last push has left
      Worker& wk = workers_[m.worker];
      span(m.worker, PsSpan::Kind::kPush, wk.since, now);
      wk.waiting = true;
      wk.since = now;
    }
    if (m.push) on_push(m, now); else on_reply(id, m, now);
    if (m.push) maybe_continue(m.worker, now);
  }

  void on_reply(int id, const Message& m, double now) {
    Worker& wk = workers_[m.worker];
    log(PsOp{PsOp::Kind::kReceive, now, m.worker, m.shard, -1, 0, 0, 0, id});
    wk.held[m.shard] = std::max(wk.held[m.shard], m.version);
    --wk.replies_needed;
    maybe_continue(m.worker, now);
    if (sync_ && !wk.finished) maybe_cancel(m.worker, now);
  }

  void reply(int k, int w, double now) {
    const int id = static_cast<int>(messages_.size());
    log(PsOp{PsOp::Kind::kSend, now, w, k, -1, 0, 0, 0, id});
    post(Message{W_ + k, w, w, k, -1, 0, shards_[k].version, shard_bytes(c_, k), false}, now);
  }

  // ---- a shard handles a push: the consistency regime ----
  void on_push(const Message& m, double now) {
    Shard& s = shards_[m.shard];
    s.bytes_in += m.bytes;
    if (sync_) {
      if (m.version != s.version || s.accepted >= round_quota(c_) || s.version >= c_.iterations) {
        log(PsOp{PsOp::Kind::kDrop, now, m.worker, m.shard, m.gradient, m.iteration, 0, 0, -1});
        ++r_.dropped;
        return;
      }
      log(PsOp{PsOp::Kind::kAccept, now, m.worker, m.shard, m.gradient, m.iteration, 0, 0, -1});
      r_.updates.push_back(PsUpdate{m.shard, m.worker, m.iteration, now, 0});
      if (++s.accepted < round_quota(c_)) return;
      log(PsOp{PsOp::Kind::kAverage, now, -1, m.shard, -1, s.version, 0, s.accepted, -1});
      s.accepted = 0;
      ++s.version;
      s.done.push_back(now);
      for (int w = 0; w < W_; ++w) reply(m.shard, w, now);  // the new round's parameters to everyone
      return;
    }
    const int tau = s.version - m.version;
    log(PsOp{PsOp::Kind::kApply, now, m.worker, m.shard, m.gradient, m.iteration, tau, 0, -1});
    r_.updates.push_back(PsUpdate{m.shard, m.worker, m.iteration, now, tau});
    ++s.version;
    const int before = *std::min_element(s.clock.begin(), s.clock.end());
    s.clock[m.worker] = m.iteration + 1;
    const int slowest = *std::min_element(s.clock.begin(), s.clock.end());
    for (int c = before; c < slowest; ++c) s.done.push_back(now);
    // ssp: hold the reply until the slowest worker has finished clock (c − s); asp never holds.
    const int need = c_.consistency == Consistency::ssp ? m.iteration + 1 - c_.staleness
                                                         : std::numeric_limits<int>::min();
    s.held.emplace_back(m.worker, need);
    std::vector<std::pair<int, int>> still;
    for (const auto& [w, clock] : s.held) {
      if (slowest >= clock) reply(m.shard, w, now); else still.emplace_back(w, clock);
    }
    s.held.swap(still);
  }

  ParamServerResult collect() {
    r_.messages = static_cast<int>(messages_.size());
    for (const auto& list : spans_) r_.spans.insert(r_.spans.end(), list.begin(), list.end());
    for (int r = 0; r < c_.iterations; ++r) {
      double end = 0.0;
      for (const Shard& s : shards_) end = std::max(end, r < static_cast<int>(s.done.size()) ? s.done[r] : 0.0);
      r_.round_end.push_back(end);
      r_.round_seconds.push_back(end - (r == 0 ? 0.0 : r_.round_end[r - 1]));
    }
    double wait = 0.0, total = 0.0;
    for (int w = 0; w < W_; ++w) wait += r_.wait_seconds[w];
    for (const PsSpan& s : r_.spans) total += s.end - s.start;
    r_.stall_fraction = total > 0.0 ? wait / total : 0.0;
    r_.link_busy = links_.busy_seconds();
    for (int i = 0; i < static_cast<int>(r_.link_busy.size()); ++i)
      if (r_.link_busy[i] > 0.0 && (r_.busiest_link < 0 || r_.link_busy[i] > r_.link_busy[r_.busiest_link]))
        r_.busiest_link = i;
    for (const Shard& s : shards_) r_.bytes_into_busiest_server = std::max(r_.bytes_into_busiest_server, s.bytes_in);
    r_.topology = topology_;
    return std::move(r_);
  }

  const Topology& topology_;
  const ParamServerConfig& c_;
  const int W_, K_;
  const bool sync_;
  sim::LinkTable links_;
  Route route_;
  std::priority_queue<Event, std::vector<Event>, Later> queue_;
  std::uint64_t seq_ = 0;
  std::uint64_t sent_ = 0;  // messages that reached the head of their sender's queue
  std::vector<Message> messages_;
  std::vector<std::deque<int>> queues_;  // per rank: messages waiting to be sent, in order
  std::vector<bool> sending_;
  std::vector<Worker> workers_;
  std::vector<Shard> shards_;
  std::vector<std::vector<PsSpan>> spans_;  // per worker, in time order
  int next_gradient_ = 0;
  ParamServerResult r_;
};

}  // namespace

ParamServerResult simulate_param_server(const Topology& topology, const ParamServerConfig& config) {
  validate(config);
  if (topology.ranks() != config.workers + config.servers)
    throw Error("the parameter server needs a topology of workers + servers = " +
                std::to_string(config.workers + config.servers) + " ranks, got " + std::to_string(topology.ranks()));
  return PsEngine(topology, config).run();
}

}  // namespace dsml
