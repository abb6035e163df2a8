# Week 6's subcommands, checked by output and error message (included from CMakeLists.txt inside the test block).
#
# Top-k at 10% of each 256-value tensor of a 2 × (8, 32) model: k = 26, 26·(4 B value + 4 B index) = 208 B a tensor,
# 4 tensors = 832 B a worker. No linear code: an all-gather of 4 workers' 832 B = 3328 B, of which a ring sends
# (3/4)·3328 = 2496 B per worker; the fp32 ring all-reduce would send 2·(3/4)·4096 = 6144 B.
dsml_cli_test(cli_compress_topk 0 ARGS compress --compressor top-k --ratio 0.1 --workers 4 --layers 2 --width 8
  --hidden 32 --steps 2
  STDOUT "\"collectives\": \\[{\"collective\": \"all-gather\", \"bytes\": 3328}\\], \"payload_bytes\": 832, \"bytes_per_step\": 2496, \"uncompressed_bytes_per_step\": 6144")
# The same step priced by the ring closed forms at α = 10 µs, 1 GB/s: the all-gather 3·α + 2496 B/β = 32.496 µs, the
# fp32 ring all-reduce 6·α + 6144 B/β = 66.144 µs (compressionWire's commSeconds, uncompressedCommSeconds).
dsml_cli_test(cli_compress_priced 0 ARGS compress --compressor top-k --ratio 0.1 --workers 4 --layers 2 --width 8
  --hidden 32 --steps 2 --alpha 1e-5 --bandwidth 1e9
  STDOUT "\"comm_seconds\": 3\\.2496e-05, \"uncompressed_comm_seconds\": 6\\.6144[0-9]*e-05}")
# Random-k with a shared seed is linear: one all-reduce of 4·26·4 = 416 B, 2·(3/4)·416 = 624 B sent.
dsml_cli_test(cli_compress_randomk 0 ARGS compress --compressor random-k --ratio 0.1 --workers 4 --layers 2 --width 8
  --hidden 32 --steps 2 --error-feedback
  STDOUT "\"error_feedback\": true, \"workers\": 4, \"composes_with_all_reduce\": true, .*\"bytes_per_step\": 624,")
dsml_cli_test(cli_compress_bad ${error_exit} ARGS compress --compressor zip --workers 4 --layers 2 --width 8 --hidden 32
  STDERR "^dsml: error: unknown compressor \"zip\"; choose none, top-k, random-k, int8, qsgd, sign or powersgd\n$")
# Young: √(2·300·21600) = 3600 s exactly; Daly: 3600·(1 + ⅓·√(1/144) + (1/9)·(1/144)) − 300 = 3402.78 s.
dsml_cli_test(cli_checkpoint 0 ARGS checkpoint --work 360000 --checkpoint 300 --mtbf 21600
  STDOUT "\"fleet_mtbf_s\": 21600, \"young_interval_s\": 3600, \"daly_interval_s\": 3402\\.7")
# 10 000 nodes of 1.8e8 s (50 000 h) fail as a fleet every 18 000 s = 5 h.
dsml_cli_test(cli_checkpoint_fleet 0 ARGS checkpoint --work 360000 --checkpoint 300 --nodes 10000 --node-mtbf 1.8e8
  STDOUT "\"fleet_mtbf_s\": 18000, ")
# A checkpoint every millisecond of a day's work is 8.64e7 checkpoints to simulate: refused at once, not run for minutes.
dsml_cli_test(cli_checkpoint_too_many ${error_exit} ARGS checkpoint --work 86400 --interval 0.001 --checkpoint 1 --mtbf 1e9 --runs 1
  STDERR "^dsml: error: a checkpoint every 0\\.001 s over 86400 s of work is 8\\.64e\\+07 checkpoints a run, × 1 run: more than the 5e\\+07 this simulation takes; use a longer interval or fewer runs\n$")
dsml_cli_test(cli_checkpoint_bad ${error_exit} ARGS checkpoint --work 100 --checkpoint 10 --mtbf 50 --node-mtbf 50
  STDERR "dsml: error: give --mtbf \\(the fleet's, s\\) or --node-mtbf \\(one node's, s, with --nodes\\), exactly one")
# Elastic: 4 → 2 → 4 workers on a global batch of 12. Ψ = 128 values; 4 → 2 moves the optimizer state of 96 of them
# (2 Adam buffers, 8 B): 1536 B. Equal to one device to rounding.
dsml_cli_test(cli_elastic 0 ARGS elastic --workers 4 --changes 3:2,6:4 --layers 2 --width 4 --hidden 8 --batch 12
  --steps 8
  STDOUT "\"workers\": \\[4, 4, 4, 2, 2, 2, 4, 4\\], \"resizes\": \\[{\"step\": 3, \"from\": 4, \"to\": 2, \"optimizer_bytes_moved\": 1536, \"parameter_bytes_to_joiners\": 0}.*\"max_relative_difference\": ([0-9.]+e-(1[3-9]|2[0-9])|0),")
dsml_cli_test(cli_elastic_bad ${error_exit} ARGS elastic --workers 4 --changes 3:5 --layers 2 --width 4 --hidden 8
  --batch 12 --steps 8
  STDERR "dsml: error: global batch of 12 rows is not divisible by 5 workers \\(from step 3\\)")
# The capstone with nothing going wrong: 8 GPUs, 10 steps of a 4.3 B-parameter MLP, bf16. Compute 6·4096·Ψ/150e12 =
# 0.7037 s a step (Ψ = 2·32·4096·16384); the ring all-reduce of 2Ψ bytes over 8: 14·10 µs + 2·(7/8)·2Ψ/25e9 =
# 0.6014 s. 10 steps: 13.05 s, all of it compute and communication.
dsml_cli_test(cli_capstone_quiet 0 ARGS capstone --workers 8 --steps 10 --no-failures --checkpoint 0 --sweep 1,8
  STDOUT "\"step_compute\": 0\\.7036[0-9]*, \"step_comm\": 0\\.6014[0-9]*, \"work\": 13\\.05[0-9]*, \"wall\": 13\\.05")
# Error feedback defaults per compressor, as the page's, and is printed: off for random-k (on, it diverges with 64
# workers), on for top-k; a flag overrides it.
dsml_cli_test(cli_capstone_feedback_default 0 ARGS capstone --workers 8 --steps 10 --no-failures --compressor random-k
  --ratio 0.01 --sweep 8 STDOUT "\"compressor\": \"random-k\", \"error_feedback\": false,")
dsml_cli_test(cli_capstone_feedback_top_k 0 ARGS capstone --workers 8 --steps 10 --no-failures --compressor top-k
  --ratio 0.01 --sweep 8 STDOUT "\"compressor\": \"top-k\", \"error_feedback\": true,")
dsml_cli_test(cli_capstone_feedback_flag 0 ARGS capstone --workers 8 --steps 10 --no-failures --compressor random-k
  --ratio 0.01 --error-feedback --sweep 8 STDOUT "\"error_feedback\": true,")
dsml_cli_test(cli_capstone_bad ${error_exit} ARGS capstone --workers 8 --steps 10 --straggler-probability 2
  STDERR "dsml: error: straggler_probability must be in \\[0, 1\\], got 2")
# 256 GPUs of 6 h MTBF (a fleet MTBF of 84.4 s) and one checkpoint at the end of 1000 steps of 1.4 s: ~e^17 retries of
# the whole run. Refused at once, with the numbers and the interval that would finish, instead of simulating for hours.
dsml_cli_test(cli_capstone_never_finishes ${error_exit} ARGS capstone --workers 256 --steps 1000 --node-mtbf 21600
  --checkpoint-every 1000
  STDERR "^dsml: error: with a checkpoint every 1000 steps \\([0-9]+ s of work\\), .* a fleet MTBF of 84\\.4 s \\(21600 s / 256 GPUs\\), the run would be expected to fail about [0-9.e+]+ times .*checkpoint more often — every [0-9]+ steps .* or use fewer GPUs\n$")
# The capstone trained to a target: synchronous, then SSP with s = 0 — the same steps (the same job, η/P per update).
dsml_cli_test(cli_capstone_target 0 ARGS capstone --workers 2 --steps 300 --no-failures --target-loss 0.3
  --sweep-workers 1,2
  STDOUT "\"target_loss\": 0\\.3, \"mode\": \"synchronous\", \"staleness\": 0, \"to_target\": {\"workers\": 2, \"reached\": true, \"steps\": [0-9]+, .*\"time_to_target\": {\"points\": \\[{\"workers\": 1, .*\"best\": [01]}, \"best_workers\": [12]}")
dsml_cli_test(cli_capstone_target_ssp_compressed ${error_exit} ARGS capstone --workers 2 --steps 100 --target-loss 0.3
  --staleness 1 --compressor top-k
  STDERR "^dsml: error: the asynchronous \\(SSP\\) job sends whole gradients to its parameter server: choose compressor none, got top-k\n$")
dsml_cli_test(cli_capstone_staleness_alone ${error_exit} ARGS capstone --workers 2 --steps 100 --staleness 1
  STDERR "^dsml: error: --staleness and --sweep-workers belong to the time-to-target report: give --target-loss too\n$")
# Week 3's partial overlap on the command line: T(o) = C + (1 − o)·M per point, o capped at C/M. Compute per rank
# 6·64 rows·Ψ/1e12 with Ψ = 2·2·64·256 = 65,536: C = 2.5165824e-05 s. One rank moves nothing (M = 0: the step is
# C); at 8 ranks M > C, so o = 0.5 is capped at C/M and the step is M itself.
dsml_cli_test(cli_scaling_overlap_fraction 0 ARGS scaling --mode weak --layers 2 --width 64 --hidden 256 --batch 64
  --ranks 1,8 --flops 1e12 --alpha 1e-5 --bandwidth 1e9 --overlap-fraction 0.5
  STDOUT "{\"ranks\": 1, [^}]*\"compute_s\": 2\\.5165824e-05, \"comm_s\": 0, [^}]*\"overlap_fraction\": 0\\.5, \"partial_overlap_step_s\": 2\\.5165824e-05}.*\"comm_s\": 0\\.000598752, [^}]*\"partial_overlap_step_s\": 0\\.000598752}")
dsml_cli_test(cli_scaling_overlap_both ${error_exit} ARGS scaling --mode weak --layers 2 --width 64 --hidden 256
  --batch 64 --ranks 1,8 --flops 1e12 --alpha 1e-5 --bandwidth 1e9 --overlap-fraction 0.5 --overlap
  STDERR "^dsml: error: --overlap prices the buckets' own overlap; --overlap-fraction hides a given fraction of a step without it: give one\n$")
