# `dsml plan` (issue 27), checked by output and error message (included from CMakeLists.txt inside the test block).
#
# Table 1's largest row: its FLOPs are Narayanan's eq. 3 (96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) = 5.139e19 for
# B = 3072), printed twice, the planner's and the paper's; the prediction 158.3 TFLOP/s per GPU beside the published 163.
dsml_cli_test(cli_plan_published 0 ARGS plan --published gpt-1t
  STDOUT "\"hardware_flops\": 5\\.13905137752735.*\"tflops_per_gpu\": 158\\.3.*\"published\": {\"tflops_per_gpu\": 163, \"paper_flops\": 5\\.13905137752735")
# A layout by hand: 175B on 64 GPUs as t = 8, p = 8, d = 1, 512 micro-batches.
dsml_cli_test(cli_plan_layout 0 ARGS plan --model gpt3-175b --gpu a100-80gb --nodes 8 --t 8 --p 8 --global-batch 512
  --recompute selective --sequence-parallel
  STDOUT "\"d\": 1, \"micro_batch\": 1, \"global_batch\": 512, \"micro_batches\": 512, .*\"fits\": true, ")
# The search: 175B on 512 GPUs, B = 1536; the fastest layout that fits comes first.
dsml_cli_test(cli_plan_search 0 ARGS plan --model gpt3-175b --gpu a100-80gb --nodes 64 --global-batch 1536 --search
  --keep 2 STDOUT "^{\"model\": \"gpt3-175b\", \"gpu\": \"a100-80gb\", \"layouts\": \\[{\"layout\": {\"t\": 4, \"p\": 8, \"v\": 4, ")
dsml_cli_test(cli_plan_bad_layers ${error_exit} ARGS plan --model gpt3-175b --gpu a100-80gb --nodes 8 --t 8 --p 8
  --v 5 --global-batch 512
  STDERR "^dsml: error: 96 layers are not divisible by p·v = 8·5 \\(each of the p stages holds v chunks of equal depth\\)\n$")
dsml_cli_test(cli_plan_bad_heads ${error_exit} ARGS plan --model gpt3-175b --heads 36 --hidden 4608 --gpu a100-80gb
  --nodes 8 --t 8 --p 8 --global-batch 512 STDERR "^dsml: error: 36 attention heads are not divisible by t = 8\n$")
dsml_cli_test(cli_plan_bad_batch ${error_exit} ARGS plan --model gpt3-175b --gpu a100-80gb --nodes 8 --t 8 --p 1
  --global-batch 100 STDERR "^dsml: error: global batch 100 is not divisible by d·b = 8·1 \\(every data-parallel replica runs whole micro-batches\\)\n$")
dsml_cli_test(cli_plan_bad_gpu ${error_exit} ARGS plan --model gpt3-175b --gpu b200 --nodes 8 --t 8 --p 8
  --global-batch 512 STDERR "^dsml: error: unknown GPU preset \"b200\"; choose one of: a100-80gb, h100-sxm\n$")
# Week 5's `dsml layouts` is the planner too: its help says every row is plan_step's.
dsml_cli_test(cli_layouts_help_names_planner 0 ARGS --help
  STDOUT "dsml layouts .*each priced\n *by the planner's plan_step \\(the model `dsml plan` prints")
# MoE and context parallelism: Mixtral 8x7B (8 experts, top-2) on 128 H100s as t = 4, c = 2, p = 2, e = 8.
dsml_cli_test(cli_plan_moe_context 0 ARGS plan --model mixtral-8x7b --gpu h100-sxm --nodes 16 --t 4 --c 2 --p 2
  --e 8 --global-batch 256 --recompute selective --sequence-parallel
  STDOUT "\"d\": 8, .*\"c\": 2, \"e\": 8}, .*\"parameters\": 46702788608, \"active_parameters\": 12879921152, .*\"context\": 0\\.0[1-9].*\"expert\": [1-9]")
dsml_cli_test(cli_plan_bad_experts ${error_exit} ARGS plan --model mixtral-8x7b --gpu h100-sxm --nodes 16 --t 4
  --c 2 --p 2 --e 3 --global-batch 256
  STDERR "^dsml: error: e = 3 must divide d = 8 \\(the experts are split over data-parallel ranks\\)\n$")
dsml_cli_test(cli_plan_bad_context ${error_exit} ARGS plan --model gpt3-175b --sequence 2001 --gpu a100-80gb
  --nodes 8 --t 8 --c 8 --p 1 --global-batch 8
  STDERR "^dsml: error: sequence 2001 is not divisible by c = 8 \\(context parallelism gives each GPU an equal slice of every sequence\\)\n$")
