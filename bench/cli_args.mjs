// cli_args.mjs — the benches' command lines: `--name value` options taken out of argv, the rest left as operands.
//   const args = process.argv.slice(2); const runs = Number(takeOption(args, "--runs", "1"));
export function takeOption(args, name, fallback) {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
}
