// parallel/comm/run_schedule.h — what all_reduce, all_gather and reduce_scatter share: build the collective's
// schedule for n doubles, cut flat buffers into its slots and back, and log what the busiest rank sent.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dsml/collective_executor.h"
#include "dsml/comm.h"
#include "dsml/schedule.h"

namespace dsml::comm {

// make_schedule(collective, options.algorithm, p, 4·n): one schedule element per double (see comm.h).
Schedule build_schedule(const std::string& collective, const CommOptions& options, int p, std::size_t n);

// Elements per slot of the schedule: dsml::slot_elements of each slot (collective_executor.h).
std::vector<std::size_t> slot_elements(const Schedule& schedule);

// busiest_rank_send_bytes (schedule.h), scaled from the schedule's 4-byte elements to 8-byte doubles.
double busiest_double_send_bytes(const Schedule& schedule);

// Appends {kind, options.label, p, busiest_double_send_bytes} to options.log when there is one.
void log_call(const Schedule& schedule, const std::string& kind, const CommOptions& options);

// Throws Error unless there is at least one rank buffer.
void require_ranks(std::size_t ranks, const char* what);

// At least one rank buffer, all of rank 0's size, which it returns; throws Error("<what>: rank r has … elements but
// rank 0 has n; every rank must bring the same size") otherwise.
std::size_t require_same_sizes(const std::vector<Buffer>& per_rank, const char* what);

// The start of an all-reduce or a reduce-scatter: every rank holds every slot of its own flat vector, cut into
// slots of these sizes in order.
Buffers holding_everything(const std::vector<Buffer>& per_rank, const std::vector<std::size_t>& slots);

}  // namespace dsml::comm
