// The yardstick of the serve bench (scripts/bench-serve.ts): a folder served by sirv alone, as
// Vite's preview and Polka serve one, with what it offers for production: its file table made
// once at start (not `dev`), weak ETags, and the .br and .gz files beside each file.
// Usage: node scripts/sirv-server.mjs DIR [PORT]; prints the URL it serves at (PORT 0: any free).
import { createServer } from 'node:http';
import sirv from 'sirv';

const [dir, port = '0'] = process.argv.slice(2);
const serve = sirv(dir, { etag: true, brotli: true, gzip: true });
const server = createServer((req, res) => serve(req, res));
server.listen(Number(port), '127.0.0.1', () => {
  process.stdout.write(`Serving ${dir} at http://127.0.0.1:${server.address().port}\n`);
});
