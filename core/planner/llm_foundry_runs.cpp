// llm_foundry_runs.cpp — published training runs the planner was never fitted to, as data: MosaicML's llm-foundry
// benchmark tables (mosaicml/llm-foundry, scripts/train/benchmarking/README.md, the tables added in b2a43a1 on
// 2023-10-19 and unchanged since): "H100 80GB BF16" and "A100 80GB with 1600 Gbps node-node interconnect (RoCE)",
// every row, transcribed by script from that file. Columns kept: model, sequence, GPUs, micro-batch, gradient
// accumulation, global batch, activation checkpointing, FSDP mixed precision PURE (else DEFAULT), MFU (%),
// throughput (tokens/s/GPU), NumParams.
//
// How they ran (the benchmark scripts at that commit; the planner prices each row this way, llm_foundry_layout):
// PyTorch FSDP FULL_SHARD over every GPU (ZeRO-3; no tensor or pipeline parallelism), llm-foundry v0.3.0 with
// attn_impl: triton (the FlashAttention-1-era Triton kernel; the H100 has no measurement of it, so FlashAttention-1
// stands in: on the A100 the two are within 10 % of each other, FlashAttention-2 paper Fig. 4d), AMP BF16,
// activation checkpointing as the row says (full recomputation), FSDP's default backward prefetch. DEFAULT mixed
// precision all-gathers BF16 parameters and reduce-scatters FP32 gradients; PURE (the two older 70b A100 rows)
// reduces in BF16. Interconnect: 1600 Gbps a node for the A100 tables (their heading); "strong interconnect (3200
// Gbps)" for the H100 ones (a maintainer, llm-foundry issue 1584). MFU there counts (6·NumParams + 12·l·h·s) FLOPs
// a token against 312 (A100) or 989.5 (H100) TFLOP/s: NumParams includes the embeddings and the final LayerNorm.
#include "dsml/planner_validation.h"

namespace dsml {

std::vector<FoundryRun> llm_foundry_h100_bf16() {
  return {
      // model      seq  GPUs  b  accum  batch  ckpt   PURE   MFU %  tok/s/GPU  NumParams
      {"mpt-70b", 2048, 64, 8, 4, 2048, true, false, 42.57, 1039, 64862437376},
      {"mpt-70b", 2048, 32, 2, 16, 1024, true, false, 36.15, 882, 64862437376},
      {"mpt-30b", 8192, 8, 1, 21, 168, true, false, 29.92, 1384, 30019254272},
      {"mpt-30b", 4096, 8, 1, 21, 168, true, false, 35.86, 1802, 29989894144},
      {"mpt-30b", 2048, 32, 14, 3, 1344, true, false, 43.92, 2308, 29975214080},
      {"mpt-30b", 2048, 16, 10, 3, 480, true, false, 43.07, 2263, 29975214080},
      {"mpt-30b", 2048, 8, 3, 21, 504, true, false, 38.11, 2002, 29975214080},
      {"mpt-30b", 1024, 8, 6, 21, 1008, true, false, 38.76, 2084, 29967874048},
      {"mpt-13b", 32768, 8, 1, 3, 24, true, false, 31.68, 1976, 13011240960},
      {"mpt-13b", 16384, 8, 3, 3, 72, true, false, 35.55, 2985, 12927354880},
      {"mpt-13b", 4096, 8, 10, 3, 240, true, false, 41.6, 4717, 12864440320},
      {"mpt-13b", 2048, 64, 2, 1, 128, false, false, 39.86, 4800, 12853954560},
      {"mpt-13b", 2048, 32, 2, 1, 64, false, false, 39.95, 4811, 12853954560},
      {"mpt-13b", 2048, 16, 2, 1, 32, false, false, 39.58, 4767, 12853954560},
      {"mpt-13b", 2048, 8, 2, 1, 16, false, false, 39.79, 4792, 12853954560},
      {"mpt-13b", 1024, 8, 40, 3, 960, true, false, 44.27, 5502, 12848711680},
      {"mpt-7b", 65536, 8, 1, 2, 16, true, false, 28.59, 1956, 6918905856},
      {"mpt-7b", 32768, 8, 2, 2, 32, true, false, 30.94, 3318, 6784688128},
      {"mpt-7b", 8192, 8, 8, 2, 128, true, false, 37.14, 6935, 6684024832},
      {"mpt-7b", 4096, 8, 16, 2, 256, true, false, 40.42, 8611, 6667247616},
      {"mpt-7b", 2048, 8, 6, 1, 48, false, false, 46.44, 10643, 6658859008},
      {"mpt-7b", 1024, 8, 64, 2, 1024, true, false, 42.83, 10203, 6654664704},
      {"mpt-3b", 65536, 8, 1, 2, 16, true, false, 26.81, 3262, 2814366720},
      {"mpt-3b", 32768, 8, 3, 6, 144, true, false, 28.84, 5873, 2730480640},
      {"mpt-3b", 16384, 8, 1, 6, 48, false, false, 36.34, 11152, 2688537600},
      {"mpt-3b", 8192, 8, 3, 6, 144, false, false, 40.31, 16578, 2667566080},
      {"mpt-3b", 4096, 8, 5, 6, 240, false, false, 42.31, 20964, 2657080320},
      {"mpt-3b", 2048, 64, 6, 3, 1152, false, false, 40.8, 22525, 2651837440},
      {"mpt-3b", 2048, 32, 6, 3, 576, false, false, 41.7, 23021, 2651837440},
      {"mpt-3b", 2048, 16, 10, 3, 480, false, false, 43.73, 24142, 2651837440},
      {"mpt-3b", 1024, 8, 20, 6, 960, false, false, 46.2, 27046, 2649216000},
      {"mpt-3b", 512, 8, 40, 6, 1920, false, false, 46.32, 27965, 2647905280},
      {"mpt-1b", 65536, 8, 1, 2, 16, true, false, 26.34, 5506, 1445974016},
      {"mpt-1b", 32768, 8, 1, 4, 32, false, false, 33.54, 12025, 1378865152},
      {"mpt-1b", 16384, 8, 2, 4, 64, false, false, 35.22, 19649, 1345310720},
      {"mpt-1b", 8192, 8, 3, 4, 96, false, false, 37.73, 29157, 1328533504},
      {"mpt-1b", 4096, 8, 7, 4, 224, false, false, 40.26, 38535, 1320144896},
      {"mpt-1b", 2048, 64, 20, 1, 1280, false, false, 40.85, 44402, 1315950592},
      {"mpt-1b", 2048, 32, 20, 1, 640, false, false, 41.52, 45130, 1315950592},
      {"mpt-1b", 2048, 16, 20, 1, 320, false, false, 42.36, 46037, 1315950592},
      {"mpt-1b", 2048, 8, 14, 1, 112, false, false, 41.82, 45455, 1315950592},
      {"mpt-1b", 1024, 8, 18, 4, 576, false, false, 41.95, 48910, 1313853440},
      {"mpt-1b", 512, 8, 56, 4, 1792, false, false, 43.21, 52275, 1312804864},
      {"mpt-760m", 32768, 8, 1, 2, 16, false, false, 31.84, 16291, 807656448},
      {"mpt-760m", 16384, 8, 3, 2, 48, false, false, 33.57, 27815, 782490624},
      {"mpt-760m", 8192, 8, 6, 2, 96, false, false, 34.84, 41825, 769907712},
      {"mpt-760m", 4096, 8, 12, 2, 192, false, false, 35.83, 55459, 763616256},
      {"mpt-760m", 2048, 32, 24, 1, 768, false, false, 37.57, 67971, 760470528},
      {"mpt-760m", 2048, 16, 24, 1, 384, false, false, 37.89, 68551, 760470528},
      {"mpt-760m", 2048, 8, 24, 2, 384, false, false, 34.9, 63147, 760470528},
      {"mpt-760m", 1024, 8, 48, 2, 768, false, false, 39.76, 78581, 758897664},
      {"mpt-760m", 512, 8, 96, 2, 1536, false, false, 40.42, 83749, 758111232},
  };
}

std::vector<FoundryRun> llm_foundry_a100_80gb() {
  return {
      // model      seq  GPUs  b  accum  batch  ckpt   PURE   MFU %  tok/s/GPU  NumParams
      {"mpt-70b", 2048, 64, 8, 4, 2048, true, true, 53.33, 410, 64862437376},
      {"mpt-70b", 2048, 32, 2, 16, 1024, true, true, 48.56, 373, 64862437376},
      {"mpt-30b", 8192, 8, 1, 21, 168, true, false, 39.38, 574, 30019254272},
      {"mpt-30b", 4096, 8, 1, 21, 168, true, false, 51.37, 814, 29989894144},
      {"mpt-30b", 2048, 8, 3, 21, 504, true, false, 55.3, 916, 29975214080},
      {"mpt-30b", 1024, 8, 6, 21, 1008, true, false, 55.82, 946, 29967874048},
      {"mpt-30b", 512, 8, 12, 21, 2016, true, false, 56.4, 967, 29964204032},
      {"mpt-13b", 32768, 8, 1, 3, 24, true, false, 51.69, 1016, 13011240960},
      {"mpt-13b", 16384, 8, 3, 3, 72, true, false, 54.07, 1431, 12927354880},
      {"mpt-13b", 8192, 8, 5, 3, 120, true, false, 56.07, 1795, 12885411840},
      {"mpt-13b", 4096, 8, 10, 3, 240, true, false, 57.62, 2060, 12864440320},
      {"mpt-13b", 2048, 8, 2, 3, 48, false, false, 59.57, 2262, 12853954560},
      {"mpt-13b", 1024, 8, 40, 3, 960, true, false, 59.48, 2330, 12848711680},
      {"mpt-7b", 65536, 8, 1, 2, 16, true, false, 46.97, 1013, 6918905856},
      {"mpt-7b", 32768, 8, 2, 2, 32, true, false, 49.46, 1672, 6784688128},
      {"mpt-7b", 16384, 8, 4, 2, 64, true, false, 51.96, 2453, 6717579264},
      {"mpt-7b", 8192, 8, 8, 2, 128, true, false, 54.47, 3206, 6684024832},
      {"mpt-7b", 4096, 8, 16, 2, 256, true, false, 54.84, 3684, 6667247616},
      {"mpt-7b", 2048, 8, 6, 2, 96, false, false, 64.23, 4641, 6658859008},
      {"mpt-7b", 1024, 8, 64, 2, 1024, true, false, 58.01, 4357, 6654664704},
      {"mpt-3b", 65536, 8, 1, 2, 16, true, false, 46.05, 1767, 2814366720},
      {"mpt-3b", 32768, 8, 3, 6, 144, true, false, 47.18, 3029, 2730480640},
      {"mpt-3b", 16384, 8, 1, 6, 48, false, false, 57.13, 5529, 2688537600},
      {"mpt-3b", 8192, 8, 3, 6, 144, false, false, 59.34, 7695, 2667566080},
      {"mpt-3b", 4096, 8, 5, 6, 240, false, false, 60.53, 9457, 2657080320},
      {"mpt-3b", 2048, 8, 10, 2, 160, false, false, 62.11, 10811, 2651837440},
      {"mpt-3b", 1024, 8, 20, 6, 960, false, false, 62.73, 11580, 2649216000},
      {"mpt-3b", 512, 8, 40, 6, 1920, false, false, 63.71, 12127, 2647905280},
      {"mpt-1b", 65536, 8, 1, 2, 16, true, false, 46.18, 3044, 1445974016},
      {"mpt-1b", 32768, 8, 1, 4, 32, false, false, 55.52, 6275, 1378865152},
      {"mpt-1b", 16384, 8, 2, 4, 64, false, false, 56.6, 9956, 1345310720},
      {"mpt-1b", 8192, 8, 3, 4, 96, false, false, 56.69, 13814, 1328533504},
      {"mpt-1b", 4096, 8, 7, 4, 224, false, false, 59.0, 17807, 1320144896},
      {"mpt-1b", 2048, 8, 14, 4, 448, false, false, 59.86, 20513, 1315950592},
      {"mpt-1b", 1024, 8, 18, 4, 576, false, false, 60.15, 22112, 1313853440},
      {"mpt-1b", 512, 8, 56, 4, 1792, false, false, 60.68, 23148, 1312804864},
      {"mpt-760m", 65536, 8, 1, 2, 16, true, false, 45.34, 4143, 857988096},
      {"mpt-760m", 32768, 8, 1, 2, 16, false, false, 54.57, 8802, 807656448},
      {"mpt-760m", 16384, 8, 3, 2, 48, false, false, 54.64, 14274, 782490624},
      {"mpt-760m", 8192, 8, 6, 2, 96, false, false, 55.31, 20933, 769907712},
      {"mpt-760m", 4096, 8, 12, 2, 192, false, false, 56.05, 27351, 763616256},
      {"mpt-760m", 2048, 8, 24, 2, 384, false, false, 56.85, 32434, 760470528},
      {"mpt-760m", 1024, 8, 48, 2, 768, false, false, 47.76, 29765, 758897664},
      {"mpt-760m", 512, 8, 96, 2, 1536, false, false, 45.07, 29446, 758111232},
      {"mpt-350m", 65536, 8, 1, 2, 16, false, false, 52.7, 7524, 420997120},
      {"mpt-350m", 32768, 8, 2, 2, 32, false, false, 52.46, 13652, 387442688},
      {"mpt-350m", 16384, 8, 4, 2, 64, false, false, 53.28, 23559, 370665472},
      {"mpt-350m", 8192, 8, 8, 2, 128, false, false, 53.8, 36569, 362276864},
      {"mpt-350m", 4096, 8, 16, 2, 256, false, false, 53.31, 49555, 358082560},
      {"mpt-350m", 2048, 8, 32, 2, 512, false, false, 51.62, 58782, 355985408},
      {"mpt-350m", 1024, 8, 64, 2, 1024, false, false, 50.51, 64813, 354936832},
      {"mpt-350m", 512, 8, 128, 2, 2048, false, false, 50.61, 69330, 354412544},
      {"mpt-125m", 65536, 8, 1, 2, 16, false, false, 54.13, 20368, 174070272},
      {"mpt-125m", 32768, 8, 2, 2, 32, false, false, 52.71, 36407, 148904448},
      {"mpt-125m", 16384, 8, 4, 2, 64, false, false, 50.61, 60040, 136321536},
      {"mpt-125m", 8192, 8, 8, 2, 128, false, false, 48.85, 90392, 130030080},
      {"mpt-125m", 4096, 8, 16, 2, 256, false, false, 46.08, 118396, 126884352},
      {"mpt-125m", 2048, 8, 40, 2, 640, false, false, 44.79, 142830, 125311488},
      {"mpt-125m", 2048, 8, 32, 2, 512, false, false, 44.45, 141737, 125311488},
      {"mpt-125m", 1024, 8, 64, 2, 1024, false, false, 43.15, 156468, 124525056},
      {"mpt-125m", 512, 8, 128, 2, 2048, false, false, 42.56, 165681, 124131840},
  };
}

}  // namespace dsml
