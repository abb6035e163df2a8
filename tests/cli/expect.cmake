# expect.cmake — one `dsml` command and what it must do, for ctest (CMakeLists.txt). Unlike WILL_FAIL or
# PASS_REGULAR_EXPRESSION alone, it checks the exit code AND the output: an error must exit 2 with the message
# the learner is meant to read.
#   cmake -DDSML=path/to/dsml -DARGS="train-step;--layers;4;…" -DEXIT=0 [-DSTDOUT=regex] [-DSTDERR=regex]
#         [-DSTDOUT_LACKS=regex] -P expect.cmake
execute_process(COMMAND ${DSML} ${ARGS} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code STREQUAL EXIT)
  message(FATAL_ERROR "exit code ${code}, expected ${EXIT}\nstdout: ${out}\nstderr: ${err}")
endif()
if(DEFINED STDOUT AND NOT out MATCHES "${STDOUT}")
  message(FATAL_ERROR "stdout does not match\n  ${STDOUT}\nstdout: ${out}")
endif()
if(DEFINED STDOUT_LACKS AND out MATCHES "${STDOUT_LACKS}")
  message(FATAL_ERROR "stdout has what it must not\n  ${STDOUT_LACKS}\nstdout: ${out}")
endif()
if(DEFINED STDERR AND NOT err MATCHES "${STDERR}")
  message(FATAL_ERROR "stderr does not match\n  ${STDERR}\nstderr: ${err}")
endif()
if(EXIT STREQUAL "0" AND NOT err STREQUAL "")
  message(FATAL_ERROR "a successful run printed on stderr: ${err}")
endif()
