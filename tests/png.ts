import { inflateSync } from 'node:zlib';

/**
 * The pixels of an 8-bit RGB or RGBA PNG without interlacing (what resvg writes), as #rrggbb per
 * pixel, row by row: enough to tell which colours a share image is drawn in.
 */
export function pngPixels(png: Uint8Array): {
  width: number;
  height: number;
  at(x: number, y: number): string;
} {
  const b = Buffer.from(png);
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  const [depth, colour, , , interlace] = [b[24], b[25], b[26], b[27], b[28]];
  if (depth !== 8 || (colour !== 6 && colour !== 2) || interlace !== 0)
    throw new Error(
      `not an 8-bit RGB(A) PNG without interlacing (depth ${depth}, colour ${colour})`,
    );
  const channels = colour === 6 ? 4 : 3;
  const chunks: Buffer[] = [];
  for (let at = 8; at < b.length; ) {
    const length = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') chunks.push(b.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * channels;
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x] ?? 0;
      const left = x >= channels ? (out[y * stride + x - channels] ?? 0) : 0;
      const up = y > 0 ? (out[(y - 1) * stride + x] ?? 0) : 0;
      const upLeft = y > 0 && x >= channels ? (out[(y - 1) * stride + x - channels] ?? 0) : 0;
      const predictor =
        filter === 1
          ? left
          : filter === 2
            ? up
            : filter === 3
              ? (left + up) >> 1
              : filter === 4
                ? paeth(left, up, upLeft)
                : 0;
      out[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  const hex = (n: number) => n.toString(16).padStart(2, '0');
  return {
    width,
    height,
    at: (x, y) => {
      const i = y * stride + x * channels;
      return `#${hex(out[i] ?? 0)}${hex(out[i + 1] ?? 0)}${hex(out[i + 2] ?? 0)}`;
    },
  };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
