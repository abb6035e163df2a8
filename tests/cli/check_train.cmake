# check_train.cmake — `dsml train` checked by value (ctest, CMakeLists.txt): the JSON parses, both loss curves
# have STEPS entries and the strategy's loss falls, the curves agree to 1e-12 and the final parameters to 1e-12
# (the same model, rounding apart), the single-device curve starts at FIRST_LOSS (the deterministic teacher task:
# the same for every strategy; to 12 significant digits), each rank count and the busiest rank's bytes by kind are the hand-derived BYTES.
#   cmake -DDSML=… -DARGS="train;--strategy;zero2;…" -DSTEPS=5 -DRANKS=4 -DFIRST_LOSS=8.4695… \
#         -DBYTES="all-gather=6144;reduce-scatter=6144" -P check_train.cmake
execute_process(COMMAND ${DSML} ${ARGS} RESULT_VARIABLE code OUTPUT_VARIABLE json ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "dsml ${ARGS} exited ${code}: ${err}")
endif()

function(expect what)  # the rest: an if() condition, e.g. n EQUAL STEPS
  if(NOT (${ARGN}))
    message(FATAL_ERROR "${what}\n${json}")
  endif()
endfunction()

string(JSON n LENGTH "${json}" losses)
string(JSON n_single LENGTH "${json}" single_losses)
expect("expected ${STEPS} losses, got ${n} and ${n_single}" n EQUAL STEPS AND n_single EQUAL STEPS)
string(JSON first GET "${json}" losses 0)
math(EXPR last_index "${STEPS} - 1")
string(JSON last GET "${json}" losses ${last_index})
expect("the loss did not fall: ${first} -> ${last}" last LESS first)
string(JSON single_first GET "${json}" single_losses 0)
# FIRST_LOSS is written to 12 significant digits: the products' rounding depends on the CPU (FMA or not).
string(FIND "${single_first}" "${FIRST_LOSS}" at)
expect("single_losses[0] = ${single_first}, expected ${FIRST_LOSS}…" at EQUAL 0)
foreach(key max_loss_relative_difference max_relative_difference)
  string(JSON d GET "${json}" ${key})
  expect("${key} = ${d}, expected < 1e-12" d LESS 1e-12 AND d GREATER_EQUAL 0)
endforeach()
string(JSON ranks LENGTH "${json}" memory_per_rank_bytes)
expect("${ranks} ranks in memory_per_rank_bytes, expected ${RANKS}" ranks EQUAL RANKS)
string(JSON kinds LENGTH "${json}" comm_bytes)
list(LENGTH BYTES want_kinds)
expect("${kinds} kinds in comm_bytes, expected ${want_kinds}" kinds EQUAL want_kinds)
foreach(pair ${BYTES})
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 kind)
  list(GET pair 1 want)
  string(JSON got GET "${json}" comm_bytes ${kind})
  expect("comm_bytes.${kind} = ${got}, expected ${want}" got EQUAL want)
endforeach()
