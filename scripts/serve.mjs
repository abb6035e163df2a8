// A small static file server for the built site (no dependencies): correct MIME types
// (application/wasm for streaming compilation), no caching, 127.0.0.1 only.
//   node scripts/serve.mjs <dir> [--port 8000]
// Also importable: `const { server, url } = await startServer(dir, 0)` picks a free port (used by tests).
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".json": "application/json", ".wasm": "application/wasm", ".svg": "image/svg+xml",
  ".png": "image/png", ".woff2": "font/woff2", ".txt": "text/plain; charset=utf-8",
};

export function startServer(dir, port = 8000, host = "127.0.0.1") {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw Object.assign(new Error(), { code: "ENOENT" });
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream",
                           "cache-control": "no-store" });
      res.end(body);
    } catch (err) {
      res.writeHead(err.code === "ENOENT" || err.code === "ENOTDIR" ? 404 : 500, { "content-type": "text/plain" });
      res.end(err.code === "ENOENT" || err.code === "ENOTDIR" ? "not found\n" : "server error\n");
    }
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => ok({ server, url: `http://${host}:${server.address().port}/` }));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? "site";
  const i = process.argv.indexOf("--port");
  const port = i > 0 ? Number(process.argv[i + 1]) : 8000;
  const { url } = await startServer(dir, port);
  console.log(`dsml: serving ${resolve(dir)} at ${url}`);
}
