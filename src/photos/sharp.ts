import { createRequire } from 'node:module';
import type Sharp from 'sharp';

let loaded: typeof Sharp | null = null;

/**
 * sharp, loaded when a site has photos: a site without any never pays for its native library.
 * Required, not imported: the compiled CLI runs where a dynamic import() cannot.
 */
export function loadSharp(): typeof Sharp {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    loaded = require('sharp') as typeof Sharp;
    // Our own cache of encoded files is the one that counts; libvips' would only hold memory.
    loaded.cache(false);
  }
  return loaded;
}

/** The encoder's identity, part of every photo file's key (a new libvips may encode otherwise). */
export function encoderVersion(): string {
  const { versions } = loadSharp();
  return `photos-1 sharp-${versions.sharp} vips-${versions.vips}`;
}
