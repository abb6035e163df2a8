// rank_clock.h — where one rank's time goes: compute (the block kernels, the loss, the optimizer) and each kind
// of communication, on MPI_Wtime. A kind is "<collective>:<group>", e.g. "all-reduce:tp", "all-gather:dp",
// "recv:pp" (a pipeline receive: the wait for the neighbouring stage, bubble included), "send:pp".
#pragma once

#include <mpi.h>

#include <map>
#include <string>

namespace dsml::mpi {

class RankClock {
 public:
  void add(const std::string& kind, double seconds) { seconds_[kind] += seconds; }
  const std::map<std::string, double>& seconds() const { return seconds_; }  // "compute" and the kinds

  // Adds the time of `work()` to `kind`.
  template <typename Work>
  auto time(const std::string& kind, Work&& work) {
    const Stopwatch stopwatch(*this, kind);
    return work();
  }

 private:
  struct Stopwatch {
    Stopwatch(RankClock& c, const std::string& k) : clock(c), kind(k), start(MPI_Wtime()) {}
    ~Stopwatch() { clock.add(kind, MPI_Wtime() - start); }
    RankClock& clock;
    const std::string& kind;
    double start;
  };
  std::map<std::string, double> seconds_;
};

}  // namespace dsml::mpi
