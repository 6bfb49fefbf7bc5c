// The baseline of the API benchmark: node:http answering every request with the same precomputed bytes,
// so the app's requests per second can be shown as a share of what this machine can do at all.
// Usage: node bench/baseline-server.mjs PORT BODY_FILE CONTENT_TYPE
import fs from 'node:fs';
import http from 'node:http';

const [port, bodyFile, contentType] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile);
const headers = { 'content-type': contentType, 'content-length': String(body.length) };
const health = Buffer.from('{"status":"ok"}');

http
  .createServer((req, res) => {
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(health.length) });
      res.end(health);
      return;
    }
    // Read the request body (the wall is a POST) before answering, as the app does.
    req.resume();
    req.on('end', () => {
      res.writeHead(200, headers);
      res.end(body);
    });
  })
  .listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
