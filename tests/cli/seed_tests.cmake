# The subcommand options, checked by output and error message (included from CMakeLists.txt inside the
# test block).
#
# Week 2: the pipelined chain broadcast of 100 MB to 8 ranks in k = 100 segments (5 µs, 25 GB/s): 106 steps of
# 5 µs + 40 µs = 4.77 ms, simulated the same; the best k = ⌊√(6·1e8/25e9/5e-6)⌋ = ⌊69.28⌋ = 69.
dsml_cli_test(cli_collective_pipelined_chain 0 ARGS collective --collective broadcast --algorithm pipelined-chain
  --ranks 8 --bytes 1e8 --alpha 5e-6 --bandwidth 25e9 --segments 100
  STDOUT "\"closed_form_s\": 0\\.0047[67][0-9]*, .*\"segments\": 100, \"best_segments\": 69, \"best_segments_s\": 0\\.00472[0-9]*, \"simulated_s\": 0\\.0047[67][0-9]*, \"messages\": 700,")
dsml_cli_test(cli_collective_segments_not_pipelined ${error_exit} ARGS collective --collective all-reduce
  --algorithm ring --ranks 8 --bytes 1e8 --alpha 5e-6 --bandwidth 25e9 --segments 4
  STDERR "^dsml: error: --segments is for the pipelined broadcasts \\(pipelined-chain, pipelined-tree\\), not ring\n$")
