import { ENCODING, type PhotoRole, type PhotoVariant } from './plan.js';
import { loadSharp } from './sharp.js';

/**
 * One file of a photo: turned upright by its EXIF orientation, cropped to its shape (a photo
 * around its centre, a portrait around what draws the eye) and resized, and written without
 * metadata: sharp keeps none unless
 * asked, so a camera's GPS position and serial number never reach the site.
 */
export async function encodeVariant(
  bytes: Uint8Array,
  role: PhotoRole,
  variant: PhotoVariant,
): Promise<Uint8Array> {
  const sharp = loadSharp();
  const image = sharp(bytes, { failOn: 'error', limitInputPixels: false })
    .autoOrient()
    .resize(variant.width, variant.height, {
      fit: 'cover',
      position: role === 'portrait' ? 'attention' : 'centre',
    });
  const out =
    variant.format === 'avif'
      ? image.avif(ENCODING.avif)
      : variant.format === 'webp'
        ? image.webp(ENCODING.webp)
        : image.jpeg(ENCODING.jpeg);
  return new Uint8Array(await out.toBuffer());
}
