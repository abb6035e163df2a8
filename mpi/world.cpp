// world.cpp — see world.h.
#include "world.h"

#include <algorithm>

#include "dsml/error.h"

namespace dsml::mpi {

World world_of(MPI_Comm comm) {
  World world;
  world.comm = comm;
  MPI_Comm_rank(comm, &world.rank);
  MPI_Comm_size(comm, &world.size);
  return world;
}

Agreement agree_on_error(const World& world, const std::string& local_error) {
  const int mine = local_error.empty() ? world.size : world.rank;
  int first = world.size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, world.comm);
  Agreement agreement;
  if (first == world.size) return agreement;
  agreement.failed = true;
  agreement.rank = first;
  constexpr int kTag = 7;
  if (first == 0) {
    if (world.rank == 0) agreement.message = local_error;
  } else if (world.rank == first) {  // only one rank sends: its text, length first
    const int length = static_cast<int>(local_error.size());
    MPI_Send(&length, 1, MPI_INT, 0, kTag, world.comm);
    MPI_Send(local_error.data(), length, MPI_CHAR, 0, kTag, world.comm);
  } else if (world.rank == 0) {
    int length = 0;
    MPI_Recv(&length, 1, MPI_INT, first, kTag, world.comm, MPI_STATUS_IGNORE);
    std::string text(static_cast<std::size_t>(length), ' ');
    MPI_Recv(&text[0], length, MPI_CHAR, first, kTag, world.comm, MPI_STATUS_IGNORE);
    agreement.message = text;
  }
  return agreement;
}

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, static_cast<std::size_t>(std::max(length, 0)));
  // "Open MPI v4.1.4, package: …" → "Open MPI v4.1.4"; "SMPI Version 3.32. Copyright …" → "SMPI Version 3.32"
  version.resize(std::min({version.find_first_of(",\n\r"), version.find(". "), version.size()}));
  while (!version.empty() && (version.back() == ' ' || version.back() == '\0')) version.pop_back();
  return version;
}

double slowest(const World& world, double seconds) {
  double result = 0;
  MPI_Allreduce(&seconds, &result, 1, MPI_DOUBLE, MPI_MAX, world.comm);
  return result;
}

namespace {

// Rank 0 receives every rank's `count` items of `type` at `data`, concatenated in rank order; `counts` per rank.
template <typename T>
std::vector<T> gather_items(const World& world, const T* data, int count, MPI_Datatype type, std::vector<int>& counts) {
  counts.assign(static_cast<std::size_t>(world.size), 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, world.comm);
  std::vector<int> displs(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<T> all(world.rank == 0 ? static_cast<std::size_t>(displs.back() + counts.back()) : 0);
  MPI_Gatherv(data, count, type, all.data(), counts.data(), displs.data(), type, 0, world.comm);
  return all;
}

}  // namespace

std::vector<std::string> gather_to_root(const World& world, const std::string& text) {
  std::vector<int> counts;
  const std::vector<char> all = gather_items(world, text.data(), static_cast<int>(text.size()), MPI_CHAR, counts);
  std::vector<std::string> out;
  std::size_t at = 0;
  if (world.rank == 0)
    for (int n : counts) {
      out.emplace_back(all.data() + at, static_cast<std::size_t>(n));
      at += static_cast<std::size_t>(n);
    }
  return out;
}

std::vector<std::vector<double>> gather_to_root(const World& world, const std::vector<double>& values) {
  std::vector<int> counts;
  const std::vector<double> all =
      gather_items(world, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, counts);
  std::vector<std::vector<double>> out;
  std::size_t at = 0;
  if (world.rank == 0)
    for (int n : counts) {
      out.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(at), all.begin() + static_cast<std::ptrdiff_t>(at + static_cast<std::size_t>(n)));
      at += static_cast<std::size_t>(n);
    }
  return out;
}

double median(std::vector<double> values) {
  if (values.empty()) throw Error("median of an empty list");
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size() / 2;
  return values.size() % 2 ? values[m] : (values[m - 1] + values[m]) / 2;
}

}  // namespace dsml::mpi
