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
