// The bare baseline of bench:media's download (bench/media.ts), written from scratch: a
// node:http server that streams one file of the same store (the local engine's folder) with
// the headers a client needs, checking a bearer token by comparing strings. None of the
// product's functions: what "the same bytes from the same store" costs with nothing around it.
// Argument: the file's path; env: PORT, BARE_TOKEN.
import fs from "node:fs";
import http from "node:http";

const file = process.argv[2] ?? "";
const size = fs.statSync(file).size;
const expected = `Bearer ${process.env.BARE_TOKEN ?? ""}`;

http
  .createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      res.writeHead(401).end();
      return;
    }
    res.writeHead(200, {
      "content-type": "image/png",
      "content-length": String(size),
      "x-content-type-options": "nosniff",
      "cache-control": "private",
    });
    fs.createReadStream(file).pipe(res);
  })
  .listen(Number(process.env.PORT), "127.0.0.1", () => console.log("bare media server ready"));
