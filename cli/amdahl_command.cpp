// amdahl_command.cpp — `dsml amdahl` and `dsml gustafson` (usage in main.cpp): the two speed-up laws of
// dsml/scaling_laws.h side by side — Amdahl's for a fixed problem, Gustafson's for one that grows with N.
//
//   $ dsml amdahl --serial 0.05 --procs 64      {"speedup": 15.42…, "limit": 20}
//   $ dsml gustafson --serial 0.05 --procs 64   {"speedup": 60.85}
#include "args.h"
#include "dsml/scaling_laws.h"
#include "foundations_commands.h"
#include "json_output.h"
#include "network_flags.h"

namespace dsml::cli {

int amdahl(int argc, char** argv) {
  const Args args("amdahl", argc, argv, 2, {"serial", "procs", "speedup"});
  const double procs = args.number("procs");
  if (args.has("speedup")) {
    if (args.has("serial")) throw UsageError("give --serial (to get the speed-up) or --speedup (to get s), not both");
    print(JsonObject().add("serial_fraction", amdahl_serial_fraction(args.number("speedup"), procs)));
    return 0;
  }
  const double serial = args.number("serial");
  print(JsonObject()
            .add("speedup", amdahl_speedup(serial, procs))
            .add("limit", amdahl_limit(serial)));  // ∞ (s = 0) prints as null
  return 0;
}

int gustafson(int argc, char** argv) {
  const Args args("gustafson", argc, argv, 2, {"serial", "procs"});
  print(JsonObject().add("speedup", gustafson_speedup(args.number("serial"), args.number("procs"))));
  return 0;
}

}  // namespace dsml::cli
