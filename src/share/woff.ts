import { inflateSync } from 'node:zlib';

/**
 * A WOFF 1.0 font file (what the bundled fonts ship besides WOFF 2) unpacked into the TrueType or
 * OpenType file it was made of: resvg reads only those, and draws lettering in an owner's SVG logo
 * with them. Each table is inflated where it was compressed and laid out as the sfnt format
 * places it (https://www.w3.org/TR/WOFF/): a directory, then each table on four bytes.
 */
export function sfntOfWoff(woff: Uint8Array): Buffer {
  const src = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength);
  if (src.readUInt32BE(0) !== 0x774f4646) throw new Error('not a WOFF 1.0 file (wOFF)');
  const flavor = src.readUInt32BE(4);
  const numTables = src.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = 44 + i * 20;
    const offset = src.readUInt32BE(at + 4);
    const compLength = src.readUInt32BE(at + 8);
    const origLength = src.readUInt32BE(at + 12);
    const stored = src.subarray(offset, offset + compLength);
    return {
      tag: src.readUInt32BE(at),
      checksum: src.readUInt32BE(at + 16),
      data: compLength < origLength ? inflateSync(stored) : stored,
    };
  });
  const headerSize = 12 + 16 * numTables;
  const size = tables.reduce((n, t) => n + align4(t.data.length), headerSize);
  const out = Buffer.alloc(size);
  const power = 2 ** Math.floor(Math.log2(numTables));
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(power * 16, 6); // searchRange
  out.writeUInt16BE(Math.log2(power), 8); // entrySelector
  out.writeUInt16BE(numTables * 16 - power * 16, 10); // rangeShift
  let offset = headerSize;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    out.writeUInt32BE(t.tag, at);
    out.writeUInt32BE(t.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(t.data.length, at + 12);
    t.data.copy(out, offset);
    offset += align4(t.data.length);
  });
  return out;
}

const align4 = (n: number) => (n + 3) & ~3;
