import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { editJson } from './helpers.js';

/**
 * Test pictures, drawn here (a gradient and a label, never a real job's photo): what the build
 * reads from public/ as an owner's photos.
 */
export function drawn(width: number, height: number, label: string, from = '#1d4ed8') {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><text x="50%" y="50%" font-family="sans-serif" font-size="${Math.round(height / 8)}" fill="#fff" text-anchor="middle">${label}</text></svg>`;
  return sharp(Buffer.from(svg));
}

/** A camera's position, as a phone writes it into a photo's EXIF. */
export const GPS = { GPSLatitudeRef: 'N', GPSLatitude: '43/1 39/1 0/1' };

/**
 * Three photos and a portrait under `publicDir/images`: a 2400x1600 JPEG carrying GPS, a
 * 1600x1200 PNG, a JPEG stored 1200x800 with EXIF orientation 6 (800x1200 upright, red above
 * blue), and a 600x800
 * portrait; named in site.json as `photos` and an adjuster serving Toronto.
 */
export async function addPhotos(data: string, publicDir: string): Promise<void> {
  const dir = path.join(publicDir, 'images');
  await mkdir(dir, { recursive: true });
  await drawn(2400, 1600, 'TEST team')
    .jpeg()
    .withExif({ IFD0: { Make: 'TestCam' }, IFD3: GPS })
    .toFile(path.join(dir, 'team.jpg'));
  await drawn(1600, 1200, 'TEST office', '#065f46').png().toFile(path.join(dir, 'office.png'));
  // Red on the left of the stored pixels: on top once turned upright (orientation 6 turns them
  // a quarter clockwise).
  await sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="600" height="800" fill="#f00"/><rect x="600" width="600" height="800" fill="#00f"/></svg>',
    ),
  )
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toFile(path.join(dir, 'job.jpg'));
  await drawn(600, 800, 'TEST', '#334155').jpeg().toFile(path.join(dir, 'adjuster.jpg'));
  await editJson(data, 'site.json', (s: Record<string, unknown>) => {
    s.photos = [
      { src: '/images/team.jpg', alt: 'Test picture labelled team', caption: 'Test caption' },
      {
        src: '/images/office.png',
        alt: 'Test picture labelled office',
        fr: { alt: "Image d'essai : bureau", caption: "Légende d'essai" },
      },
      { src: '/images/job.jpg', alt: 'Test picture labelled job' },
    ];
    s.business = {
      ...(s.business as object),
      adjusters: [
        {
          name: 'Test Adjuster',
          photo: '/images/adjuster.jpg',
          licences: [],
          cities: ['toronto'],
        },
      ],
    };
  });
}
