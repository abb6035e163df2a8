// A small static file server for the built site (no dependencies): correct MIME types
// (application/wasm for streaming compilation), gzip like a real static host (GitHub Pages compresses text and
// wasm), a folder's URL without its slash redirected to the slash form (as GitHub Pages does), no caching,
// 127.0.0.1 only.
//   node scripts/serve.mjs <dir> [--port 8000]
// Also importable: `const { server, url } = await startServer(dir, 0)` picks a free port (used by tests).
// Options, for measuring what GitHub Pages serves (bench/lighthouse.mjs): `cacheControl` replaces "no-store"
// (Pages sends "max-age=600"); `tls: { key, cert }` serves HTTPS with HTTP/2 (and HTTP/1.1 for clients without it),
// as Pages does.
import { createServer } from "node:http";
import { createSecureServer } from "node:http2";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".json": "application/json", ".wasm": "application/wasm", ".svg": "image/svg+xml",
  ".png": "image/png", ".woff2": "font/woff2", ".txt": "text/plain; charset=utf-8",
};

const COMPRESS = new Set([".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".txt"]);

export function startServer(dir, port = 8000, host = "127.0.0.1", { cacheControl = "no-store", tls = null } = {}) {
  const root = resolve(dir);
  const handler = async (req, res) => {
    try {
      const url = new URL(req.url, "http://x");
      const path = decodeURIComponent(url.pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw Object.assign(new Error(), { code: "ENOENT" });
      if ((await stat(file)).isDirectory()) {
        // A folder without its slash (…/lessons/week6) is sent to the slash form, as GitHub Pages does: the page's
        // relative imports resolve against the slash form only.
        if (!url.pathname.endsWith("/")) {
          res.writeHead(301, { location: `${url.pathname}/${url.search}`, "cache-control": cacheControl });
          res.end();
          return;
        }
        file = join(file, "index.html");
      }
      let body = await readFile(file);
      const headers = { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": cacheControl,
                        vary: "accept-encoding" };
      if (COMPRESS.has(extname(file)) && /\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) {
        body = gzipSync(body, { level: 6 });
        headers["content-encoding"] = "gzip";
      }
      res.writeHead(200, headers);
      res.end(body);
    } catch (err) {
      res.writeHead(err.code === "ENOENT" || err.code === "ENOTDIR" ? 404 : 500, { "content-type": "text/plain" });
      res.end(err.code === "ENOENT" || err.code === "ENOTDIR" ? "not found\n" : "server error\n");
    }
  };
  const server = tls ? createSecureServer({ ...tls, allowHTTP1: true }, handler) : createServer(handler);
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => ok({ server, url: `${tls ? "https" : "http"}://${host}:${server.address().port}/` }));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? "site";
  const i = process.argv.indexOf("--port");
  const port = i > 0 ? Number(process.argv[i + 1]) : 8000;
  const { url } = await startServer(dir, port);
  console.log(`dsml: serving ${resolve(dir)} at ${url}`);
}
