# Elastic training after a crash (elastic.h, WorldChange::crash). 4 workers, a global batch of 12, Adam;
# during step 7 one rank crashes (4 → 3). ZeRO-1 rolls back to the checkpoint taken at the start of step 5
# (--checkpoint-every 5) and recomputes steps 5 and 6: it reads Ψ = 128 parameters and 2 moment buffers, fp64,
# 3·128·8 = 3072 B; the run still equals one device. DP (--replicated) needs no checkpoint.
dsml_cli_test(cli_elastic_crash_zero1 0 ARGS elastic --workers 4 --changes 7:3:crash --checkpoint-every 5 --layers 2
  --width 4 --hidden 8 --batch 12 --steps 10
  STDOUT "\"workers\": \\[4, 4, 4, 4, 4, 3, 3, 3, 3, 3\\], \"resizes\": \\[{\"step\": 7, \"from\": 4, \"to\": 3, \"optimizer_bytes_moved\": 0, \"parameter_bytes_to_joiners\": 0, \"crash\": true, \"restored_from\": 5, \"lost_steps\": 2, \"bytes_restored\": 3072}\\].*\"max_relative_difference\": ([0-9.]+e-(1[3-9]|2[0-9])|0),")
dsml_cli_test(cli_elastic_crash_dp 0 ARGS elastic --workers 4 --changes 7:2:crash --replicated --layers 2 --width 4
  --hidden 8 --batch 12 --steps 10
  STDOUT "\"resizes\": \\[{\"step\": 7, \"from\": 4, \"to\": 2, \"optimizer_bytes_moved\": 0, \"parameter_bytes_to_joiners\": 0, \"crash\": true, \"restored_from\": -1, \"lost_steps\": 0, \"bytes_restored\": 0}\\]")
dsml_cli_test(cli_elastic_crash_grows ${error_exit} ARGS elastic --workers 2 --changes 3:4:crash --layers 2 --width 4
  --hidden 8 --batch 12 --steps 10
  STDERR "dsml: error: a crash at step 3 must leave fewer workers than the 2 running, got 4")
