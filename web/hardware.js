// hardware.js — the hardware the course prices on, in one table: what the datasheets say, and the links every page
// prices with. A page names the preset it uses (LINKS.nvlink, "NVLink (A100 node)") rather than writing its own
// numbers, so NVLink is one speed throughout the course.
//
// The datasheets (per GPU; a link's bandwidth per direction):
//   A100 SXM4 80 GB  NVIDIA, "NVIDIA A100 Tensor Core GPU" datasheet (2021): 312 TFLOP/s dense bf16; HBM2e 2,039 GB/s;
//                    third-generation NVLink 600 GB/s in total, 300 GB/s each way, to the NVSwitches of its HGX board —
//                    an NVLink domain of 8 GPUs. DGX A100: one 200 Gb/s HDR InfiniBand NIC per GPU (25 GB/s).
//   H100 SXM5 80 GB  NVIDIA, "NVIDIA H100 Tensor Core GPU" datasheet (2023): 989 TFLOP/s dense bf16; HBM3 3.35 TB/s;
//                    fourth-generation NVLink 900 GB/s in total, 450 GB/s each way; an NVLink domain of 8 GPUs on an
//                    HGX H100 board. DGX H100: one 400 Gb/s NDR NIC per GPU (50 GB/s).
// The planner page prices with these datasheet rows, not with LINKS below: core/planner/planner_presets.cpp holds the
// same peaks, NVLink 300 or 450 GB/s, a NIC of 25 or 50 GB/s (α = 5 µs on both), and its constants were fitted on
// Narayanan et al. 2021's Table 1 with them — so the planner's NVLink is the datasheet's 300 GB/s and the lessons'
// the sustained 200 GB/s, each page saying which (tests/web/hardware.test.mjs holds the planner to these rows).
//
// The links the lessons price with (α–β model: alpha s per message, beta s per byte); `figure` says which kind of
// number each bandwidth is — "sustained" (what a collective library measures) or "datasheet" (the nominal rate):
//   nvlink        inside an A100 node of 8 GPUs: α = 3 µs, 200 GB/s — what NCCL's all-reduce sustains on NVLink 3
//                 (its bus bandwidth, 200–230 GB/s measured), not the 300 GB/s of the datasheet
//   nvlinkH100    inside an H100 node: the datasheet's 450 GB/s each way, α = 3 µs
//   infiniband    between nodes, one HDR NIC per GPU: α = 10 µs, 25 GB/s
//   infinibandNDR between H100 nodes, one NDR NIC per GPU: α = 10 µs, 50 GB/s
//   ethernet      100 Gb/s Ethernet: α = 20 µs, 12.5 GB/s
// An NVLink domain spans 8 GPUs: a job on more GPUs reaches the rest over the network, and a ring through all of them
// runs at the pace of its slowest hop.

export const DATASHEET = Object.freeze({
  a100: Object.freeze({ name: "A100 SXM4 80 GB", bf16Flops: 312e12, hbmBytesPerSecond: 2.039e12, nvlinkBytesPerSecond: 300e9,
    nvlinkDomain: 8, nicBytesPerSecond: 25e9, source: "NVIDIA A100 Tensor Core GPU datasheet, 2021" }),
  h100: Object.freeze({ name: "H100 SXM5 80 GB", bf16Flops: 989e12, hbmBytesPerSecond: 3.35e12, nvlinkBytesPerSecond: 450e9,
    nvlinkDomain: 8, nicBytesPerSecond: 50e9, source: "NVIDIA H100 Tensor Core GPU datasheet, 2023" }),
});

// What an A100 sustains on the course's models: about half its bf16 peak (a realistic utilisation).
export const A100_SUSTAINED_FLOPS = 150e12;
// GPUs one NVLink domain joins (both datasheets' HGX boards).
export const NVLINK_DOMAIN = 8;

// name: the link with which figure its bandwidth is, for sentences; label: the shorter words of a control's option,
// which fit a 360 px screen.
const link = (name, alphaSeconds, bytesPerSecond, figure) => Object.freeze({ name, alpha: alphaSeconds,
  beta: 1 / bytesPerSecond, bandwidth: bytesPerSecond, figure, label: name.replace(/ (sustained|datasheet)$/, "") });
export const LINKS = Object.freeze({
  nvlink: link("NVLink (A100 node), 200 GB/s sustained", 3e-6, 200e9, "sustained"),
  nvlinkH100: link("NVLink 4 (H100 node), 450 GB/s datasheet", 3e-6, 450e9, "datasheet"),
  infiniband: link("InfiniBand HDR, 25 GB/s per GPU", 10e-6, 25e9, "datasheet"),
  infinibandNDR: link("InfiniBand NDR, 50 GB/s per GPU", 10e-6, 50e9, "datasheet"),
  ethernet: link("Ethernet, 12.5 GB/s", 20e-6, 12.5e9, "datasheet"),
});
