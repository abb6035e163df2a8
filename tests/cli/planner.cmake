# `dsml plan`, checked by output and error message (included from CMakeLists.txt inside the test block).
#
# Table 1's largest row: its FLOPs are Narayanan's eq. 3 (96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) = 5.139e19 for
# B = 3072), printed twice, the planner's and the paper's, whatever micro-batch and interleaving the planner chose
# (unfused attention, as Megatron ran in 2021), beside the published 163 TFLOP/s per GPU.
dsml_cli_test(cli_plan_published 0 ARGS plan --published gpt-1t
  STDOUT "\"attention\": \"unfused\".*\"hardware_flops\": 5\\.13905137752735.*\"published\": {\"tflops_per_gpu\": 163, \"paper_flops\": 5\\.13905137752735")
# A layout by hand: 175B on 64 GPUs as t = 8, p = 8, d = 1, 512 micro-batches (the fields of core.planStep's
# object in snake_case, dsml/plan_fields.h).
dsml_cli_test(cli_plan_layout 0 ARGS plan --model gpt3-175b --gpu a100-80gb --nodes 8 --t 8 --p 8 --global-batch 512
  --recompute selective --sequence-parallel
  STDOUT "\"d\": 1, \"c\": 1, \"e\": 1, \"micro_batch\": 1, \"global_batch\": 512, .*\"micro_batches\": 512, .*\"fits\": true, ")
# The search: 175B on 512 GPUs, B = 1536; the fastest layout that fits comes first.
dsml_cli_test(cli_plan_search 0 ARGS plan --model gpt3-175b --gpu a100-80gb --nodes 64 --global-batch 1536 --search
  --keep 2 STDOUT "^{\"model\": \"gpt3-175b\", \"gpu\": \"a100-80gb\", \"layouts\": \\[{\"layout\": {\"t\": 4, \"p\": 8, \"v\": 4, ")
dsml_cli_test(cli_plan_bad_layers ${error_exit} ARGS plan --model gpt3-175b --gpu a100-80gb --nodes 8 --t 8 --p 8
  --v 5 --global-batch 512
  STDERR "^dsml: error: 96 layers are not divisible by p·v = 8·5 \\(interleaving gives each of the p stages v chunks of equal depth\\)\n$")
# Llama 3 405B's own layout (§3.3.2): 126 layers on 16 stages, one layer fewer on the first and the last.
dsml_cli_test(cli_plan_unequal_stages 0 ARGS plan --model llama3-405b --gpu h100-sxm --nodes 128 --t 8 --p 16
  --global-batch 128 --sequence-parallel
  STDOUT "\"d\": 8, .*\"stage_layers\": \\[7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 7\\]")
dsml_cli_test(cli_plan_bad_stage_layers ${error_exit} ARGS plan --model llama3-405b --gpu h100-sxm --nodes 128 --t 8
  --p 2 --global-batch 128 --stage-layers 60,60
  STDERR "^dsml: error: layers per stage sum to 120, the model has 126\n$")
dsml_cli_test(cli_plan_bad_d ${error_exit} ARGS plan --model gpt3-175b --gpu a100-80gb --nodes 8 --t 3 --p 8
  --global-batch 8 STDERR "^dsml: error: t·c·p = 3·1·8 = 24 does not divide the cluster's 64 GPUs \\(d = GPUs/\\(t·c·p\\) must be whole\\)\n$")
# The search says why it found nothing.
dsml_cli_test(cli_plan_search_nothing 0 ARGS plan --model gpt3-175b --gpu a100-80gb --nodes 1 --global-batch 512
  --search STDOUT "\"layouts\": \\[\\], \"reason\": \"none of the [0-9]+ admissible layouts fits: the smallest")
# FP8 needs a GPU with FP8 matmuls.
dsml_cli_test(cli_plan_fp8_a100 ${error_exit} ARGS plan --model gpt3-6.7b --gpu a100-80gb --nodes 1 --t 1 --p 1
  --global-batch 8 --precision fp8 STDERR "^dsml: error: the a100-80gb has no FP8 matmuls: choose bf16\n$")
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
  STDOUT "\"d\": 8, .*\"c\": 2, \"e\": 8, .*\"parameters\": 46702788608, \"active_parameters\": 12879921152, .*\"context\": 0\\.0[1-9].*\"expert\": [1-9]")
dsml_cli_test(cli_plan_bad_experts ${error_exit} ARGS plan --model mixtral-8x7b --gpu h100-sxm --nodes 16 --t 4
  --c 2 --p 2 --e 3 --global-batch 256
  STDERR "^dsml: error: e = 3 must divide d = 8 \\(the experts are split over data-parallel ranks\\)\n$")
dsml_cli_test(cli_plan_bad_context ${error_exit} ARGS plan --model gpt3-175b --sequence 2001 --gpu a100-80gb
  --nodes 8 --t 8 --c 8 --p 1 --global-batch 8
  STDERR "^dsml: error: sequence 2001 is not divisible by c = 8 \\(context parallelism gives each GPU an equal slice of every sequence\\)\n$")
