# Week 5's `dsml pipeline` (included from CMakeLists.txt inside the tests block; dsml_cli_test and error_exit are
# defined there). Every number by hand from the schedules' formulas, unit times (t_f = t_b = t_w = 1).
# ZB-H1, P = 4, m = 8: makespan 3m + P − 1 = 27, ideal 24, bubble (P − 1)/(3m) = 0.125 of ideal, 3/27 of the step;
# every device holds P = 4 micro-batches; 2·m·(P − 1) = 48 messages.
dsml_cli_test(cli_pipeline_zb_h1 0 ARGS pipeline --schedule zb-h1 --devices 4 --micro-batches 8
  STDOUT "\"makespan\": 27, \"ideal\": 24, \"bubble_fraction\": 0.1111111111111111, \"bubble_over_ideal\": 0.125.*\"peak_activations\": \\[4, 4, 4, 4\\], \"messages\": 48")
# Interleaved, P = 4, m = 8, v = 2, per chunk F = 1 and BW = 1 + 1: (v·m + P − 1)·3 = 57, ideal 48, (P − 1)/(v·m)
# = 0.1875; peak min(2(P − r − 1) + (v − 1)P + 1, v·m) = 11, 9, 7, 5; 2·m·(P·v − 1) = 112 messages.
dsml_cli_test(cli_pipeline_interleaved 0 ARGS pipeline --schedule interleaved --chunks 2 --devices 4 --micro-batches 8
  STDOUT "\"makespan\": 57, \"ideal\": 48, .*\"bubble_over_ideal\": 0.1875.*\"peak_activations\": \\[11, 9, 7, 5\\], \"messages\": 112")
dsml_cli_test(cli_pipeline_timeline 0 ARGS pipeline --schedule 1f1b --devices 2 --micro-batches 1 --timeline
  STDOUT "\"timeline\": \\[{\"device\": 0, \"kind\": \"F\", \"micro_batch\": 0, \"chunk\": 0, \"start\": 0, \"end\": 1}, {\"device\": 0, \"kind\": \"BW\", \"micro_batch\": 0, \"chunk\": 0, \"start\": 4, \"end\": 6}")
# --compare at P = 4, m = 8, v = 2: measured over ideal = formula: 3/8, 3/8, 3/16, 3/24.
dsml_cli_test(cli_pipeline_compare 0 ARGS pipeline --compare --devices 4 --micro-batches 8 --chunks 2
  STDOUT "\"bubble_over_ideal\": 0.375, .*\"formula_over_ideal\": 0.375.*\"bubble_over_ideal\": 0.1875, .*\"formula_over_ideal\": 0.1875.*\"bubble_over_ideal\": 0.125, .*\"formula_over_ideal\": 0.125")
dsml_cli_test(cli_pipeline_interleaved_bad_m ${error_exit} ARGS pipeline --schedule interleaved --chunks 2 --devices 4
  --micro-batches 6
  STDERR "dsml: error: the interleaved schedule needs the number of micro-batches to be a multiple of the devices \\(m = 6, P = 4\\)")
# dsml micro-batches: P = 4, t = 1 s, o = 3 ms → m* = √1000, best 32, T(32) = 35·(1/32 + 0.003) = 1.19875 s.
dsml_cli_test(cli_micro_batches 0 ARGS micro-batches --stages 4 --compute 1 --overhead 0.003 --max 1000
  STDOUT "\"closed_form\": 31.62277660168379.*\"best\": 32, \"best_step_s\": 1.19875")
# dsml layouts: OPT-30B on 8 × 8 A100s, every row the planner's. Ψ = 48·(12h² + 13h) + (V + s)·h = 29,974,511,616
# (h 7168, V 50,272, s 2048). The first row is pure data parallelism, (1, 1, 64) with 512/64 = 8 micro-batches: 2Ψ of
# bf16 weights, 2Ψ of gradients and 12Ψ = 359,694,139,392 bytes of Adam state on every GPU (479.6 GB: no fit); ZeRO-1
# shards the 12Ψ over 64 (5,620,220,928 bytes) and still does not fit (4Ψ alone is 120 GB).
dsml_cli_test(cli_layouts_opt30b 0 ARGS layouts --model opt-30b --nodes 8 --gpus-per-node 8
  STDOUT "^{\"model\": \"opt-30b\", \"gpu\": \"a100-80gb\", \"parameters\": 29974511616, \"capacity\": 80000000000, \"layouts\": \\[{\"t\": 1, \"p\": 1, \"d\": 64, \"micro_batches\": 8, \"replicated\": {\"time\": {[^}]*}[^}]*}, \"memory\": {\"params\": 59949023232, \"grads\": 59949023232, \"optimizer\": 359694139392, [^}]*}, \"fits\": false}, \"zero1\": {\"time\": {[^}]*}[^}]*}, \"memory\": {\"params\": 59949023232, \"grads\": 59949023232, \"optimizer\": 5620220928, [^}]*}, \"fits\": false}}")
dsml_cli_test(cli_layouts_bad_model ${error_exit} ARGS layouts --model gpt5 --nodes 8 --gpus-per-node 8
  STDERR "^dsml: error: unknown model preset \"gpt5\"; choose one of: gpt-1\\.7b, ")
# k = 0 segments is refused, not read as k = p.
dsml_cli_test(cli_collective_zero_segments ${error_exit} ARGS collective --collective broadcast --algorithm pipelined-chain
  --ranks 4 --bytes 1024 --alpha 1e-6 --beta 1e-9 --segments 0
  STDERR "^dsml: error: --segments takes k >= 1 segments, got 0 \\(leave it out for k = p\\)\n$")
