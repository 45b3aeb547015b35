// Owner photos benchmark: what resizing one photo costs, and what its files weigh per format.
// Usage: npm run bench:photos -- [--runs N]   (default 3 runs per photo, after a warm-up)
//
// Three test pictures are made with sharp (never a real photo): a 4000x3000 gradient (flat,
// like a sky or a wall: the easy case), the same with grain (sigma 24 Gaussian noise: the hard
// case, close to a dim indoor shot), and a 3000x4000 portrait-shaped one with grain. Each is
// encoded as the build encodes it (src/photos: every width of PHOTO_WIDTHS in AVIF, WebP and
// JPEG, all at once), and once as an adjuster's portrait (96 and 192 square). Times are the
// median and range of wall time per photo, all its files together, on this machine as it is;
// bytes are the sum of each format's files. The cache is not involved: this is what a build
// pays the first time it sees a photo.
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { encodeVariant } from '../src/photos/encode.js';
import {
  ENCODING,
  FORMATS,
  type PhotoRole,
  type PhotoSource,
  planPhotos,
} from '../src/photos/plan.js';
import { encoderVersion } from '../src/photos/sharp.js';

const { values: opts } = parseArgs({
  args: process.argv.slice(2),
  options: { runs: { type: 'string' } },
});
const runs = Math.max(1, Number(opts.runs ?? 3));

async function picture(width: number, height: number, grain: boolean): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d4ed8"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  const base = sharp(Buffer.from(svg));
  if (!grain) return base.jpeg({ quality: 92 }).toBuffer();
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 24 },
    },
  })
    .png()
    .toBuffer();
  return base
    .composite([{ input: noise, blend: 'overlay' }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

const encoder = encoderVersion();
const cases: Array<[string, number, number, boolean, PhotoRole]> = [
  ['4000x3000 flat', 4000, 3000, false, 'photo'],
  ['4000x3000 grain', 4000, 3000, true, 'photo'],
  ['3000x4000 grain', 3000, 4000, true, 'photo'],
  ['portrait 3000x4000 grain', 3000, 4000, true, 'portrait'],
];

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`Owner photos: ${encoder}; ${JSON.stringify(ENCODING)}; ${runs} runs each`);
console.log(
  `${'photo'.padEnd(26)} ${'files'.padStart(5)} ${'median s'.padStart(9)} ${'min-max s'.padStart(12)}  ${FORMATS.map((f) => f.padStart(9)).join(' ')}  original`,
);
for (const [label, width, height, grain, role] of cases) {
  const bytes = await picture(width, height, grain);
  const source: PhotoSource = {
    src: '/bench.jpg',
    role,
    record: 'photos[0]',
    field: 'src',
    bytes,
    digest: '0'.repeat(64),
    width,
    height,
  };
  const variants = planPhotos([source], encoder).files[0]?.variants ?? [];
  const times: number[] = [];
  const sizes = Object.fromEntries(FORMATS.map((f) => [f, 0])) as Record<string, number>;
  for (let run = -1; run < runs; run++) {
    const started = performance.now();
    const out = await Promise.all(variants.map((v) => encodeVariant(bytes, role, v)));
    if (run < 0) {
      variants.forEach((v, i) => {
        sizes[v.format] = (sizes[v.format] ?? 0) + (out[i]?.length ?? 0);
      });
      continue;
    }
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  console.log(
    `${label.padEnd(26)} ${String(variants.length).padStart(5)} ${(median / 1000).toFixed(2).padStart(9)} ${`${((times[0] ?? 0) / 1000).toFixed(2)}-${((times.at(-1) ?? 0) / 1000).toFixed(2)}`.padStart(12)}  ${FORMATS.map((f) => kb(sizes[f] ?? 0).padStart(9)).join(' ')}  ${kb(bytes.length)}`,
  );
}
