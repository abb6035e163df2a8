# The CI tests of dsml-mpi (label "mpi": ctest -L mpi). Every rank is a process on this machine
# (mpirun_local.sh: as root, no ssh, shared memory only, oversubscribed); under SimGrid SMPI every rank a
# simulated host. They share one lock so that two MPI jobs never oversubscribe the machine together.
set(DSML_MPIRUN bash ${CMAKE_CURRENT_SOURCE_DIR}/mpirun_local.sh)
set(DSML_MPI $<TARGET_FILE:dsml-mpi>)

function(dsml_mpi_test name)
  add_test(NAME ${name} COMMAND ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS mpi RESOURCE_LOCK mpi TIMEOUT 300)
endfunction()

# Every collective algorithm × {1 element, 1001 elements, 262 147 elements (~1 MiB)} on 2, 3, 4 and 8 ranks
# (powers of two and not), each equal element by element to the MPI library's collective; exit 1 otherwise.
foreach(np 2 3 4 8)
  dsml_mpi_test(mpi_verify_np${np} ${DSML_MPIRUN} -np ${np} ${DSML_MPI} verify --bytes 4,4004,1048588)
  set_tests_properties(mpi_verify_np${np} PROPERTIES FAIL_REGULAR_EXPRESSION "\"equal\": false")
endforeach()

# Timed: verified, the library's time, the model fitted by ping-pong, its prediction.
dsml_mpi_test(mpi_collective_timed ${DSML_MPIRUN} -np 4 ${DSML_MPI} collective --collective all-reduce
              --algorithm ring --bytes 65536 --repetitions 3 --repeats 5)
set_tests_properties(mpi_collective_timed PROPERTIES PASS_REGULAR_EXPRESSION
  "\"measured_s\": [0-9.e-]+, \"library_s\": [0-9.e-]+.*\"predicted_s\": [0-9.e-]+.*\"verified\": true, \"model\": {\"alpha_s\"")
dsml_mpi_test(mpi_ping_pong ${DSML_MPIRUN} -np 2 ${DSML_MPI} ping-pong --repeats 5)
set_tests_properties(mpi_ping_pong PROPERTIES PASS_REGULAR_EXPRESSION
  "\"points\": \\[{\"bytes\": 8, \"seconds\": .*\"alpha_s\": .*\"beta_s_per_byte\": [0-9.e-]+")

# Training: every strategy over MPI equals the core's single-device training (max |param difference| ≤ 1e-10;
# the program exits 1 otherwise).
set(DSML_TRAIN_CASES
  "2|dp"  "2|dp-accumulate"  "2|zero1"  "2|zero2"  "2|zero3"  "2|pp-gpipe"
  "3|dp-bucketed --batch 24 --bucket-bytes 4096"  "3|zero2 --batch 24 --bucket-bytes 4096"  "3|tp --hidden 96"
  "4|tp"  "4|pp-1f1b"  "4|fsdp-tp"  "4|dp --algorithm recursive-doubling --optimizer momentum"
  "8|pp-1f1b --dp 2 --tp 2 --pp 2"  "8|fsdp-tp --dp 2 --tp 2 --pp 2")
foreach(case ${DSML_TRAIN_CASES})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 np)
  list(GET parts 1 args)
  string(MAKE_C_IDENTIFIER "mpi_train_np${np}_${args}" name)
  string(REGEX REPLACE "_+" "_" name "${name}")
  separate_arguments(args UNIX_COMMAND "${args}")
  dsml_mpi_test(${name} ${DSML_MPIRUN} -np ${np} ${DSML_MPI} train --strategy ${args} --steps 3)
  set_tests_properties(${name} PROPERTIES FAIL_REGULAR_EXPRESSION "\"equal_to_single_device\": false")
endforeach()

# Bad input: one clear message from rank 0, every rank exits 2, nothing hangs (expect_clean_error.sh).
set(DSML_EXPECT bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_clean_error.sh)
dsml_mpi_test(mpi_error_rank_count ${DSML_EXPECT} 4 "needs 8 ranks" ${DSML_MPI}
              train --strategy pp-1f1b --dp 2 --tp 2 --pp 2)
dsml_mpi_test(mpi_error_not_dividing ${DSML_EXPECT} 3 "tp = 3 must divide the hidden width F = 128" ${DSML_MPI}
              train --strategy tp)
dsml_mpi_test(mpi_error_bytes ${DSML_EXPECT} 2 "a multiple of 4" ${DSML_MPI}
              collective --collective all-reduce --algorithm ring --bytes 1001)
dsml_mpi_test(mpi_error_algorithm ${DSML_EXPECT} 3 "no algorithm \"telepathy\"" ${DSML_MPI}
              collective --collective all-reduce --algorithm telepathy --bytes 1024)

# SimGrid SMPI at 64 ranks: the same program, unchanged, on the shipped platforms.
if(DSML_SMPICXX)
  set(DSML_SMPIRUN bash ${CMAKE_CURRENT_SOURCE_DIR}/smpirun_platform.sh)
  set(DSML_SMPI_BIN ${CMAKE_CURRENT_BINARY_DIR}/dsml-mpi-smpi)
  dsml_mpi_test(smpi_collective_64 ${DSML_SMPIRUN} ${CMAKE_CURRENT_SOURCE_DIR}/platforms/fat_tree_256.xml -np 64
                ${DSML_SMPI_BIN} collective --collective all-reduce --algorithm ring --bytes 1048588 --repetitions 2)
  set_tests_properties(smpi_collective_64 PROPERTIES PASS_REGULAR_EXPRESSION
    "\"ranks\": 64, .*\"mpi\": \"SMPI.*\"verified\": true")
  dsml_mpi_test(smpi_train_64 ${DSML_SMPIRUN} ${CMAKE_CURRENT_SOURCE_DIR}/platforms/torus_16x16.xml -np 64
                ${DSML_SMPI_BIN} train --strategy pp-1f1b --dp 4 --tp 4 --pp 4 --steps 3)
  set_tests_properties(smpi_train_64 PROPERTIES PASS_REGULAR_EXPRESSION
    "\"grid\": {\"dp\": 4, \"tp\": 4, \"pp\": 4.*\"mpi\": \"SMPI.*\"equal_to_single_device\": true")
endif()
