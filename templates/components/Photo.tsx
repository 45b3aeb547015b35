import type { Strings } from '../../src/i18n/catalogue.js';
import type { Lang } from '../../src/i18n/lang.js';
import type { Picture, Pictures } from '../../src/photos/plan.js';
import type { OwnerPhoto } from '../../src/site/schema.js';
import type { Links } from '../../src/urls.js';
import { Section } from './Section.js';

const srcset = (files: ReadonlyArray<[string, number]>, links: Links) =>
  files.map(([p, w]) => `${links.href(p)} ${w}w`).join(', ');

/**
 * A resized owner photo: AVIF, then WebP, then JPEG, the browser taking the first it reads at
 * the width `sizes` says it shows. Its width and height keep its room before it loads; below the
 * fold it loads when scrolled near.
 */
export function Photo({
  picture,
  alt,
  sizes,
  links,
  className,
}: {
  picture: Picture;
  alt: string;
  sizes: string;
  links: Links;
  className?: string;
}) {
  return (
    <picture>
      {picture.sources.map((s) => (
        <source key={s.type} type={s.type} srcSet={srcset(s.srcset, links)} sizes={sizes} />
      ))}
      <img
        src={links.href(picture.src)}
        srcSet={srcset(picture.srcset, links)}
        sizes={sizes}
        width={picture.width}
        height={picture.height}
        alt={alt}
        loading="lazy"
        decoding="async"
        className={className}
      />
    </picture>
  );
}

/** The gallery's columns: one on a phone, two from 600 px, three in the 1180 px container. */
const GALLERY_SIZES = '(min-width: 960px) 370px, (min-width: 600px) 50vw, 100vw';

/**
 * The owner's photos (settings `photos`), `limit` of them at most, each with its caption; in
 * French the words of its `fr`, where given. Nothing when there are none.
 */
export function PhotoGallery({
  photos,
  pictures,
  limit,
  lang,
  t,
  links,
}: {
  photos: readonly OwnerPhoto[] | undefined;
  pictures: Pictures | undefined;
  limit?: number;
  lang: Lang;
  t: Strings;
  links: Links;
}) {
  const shown = (photos ?? [])
    .flatMap((p) => {
      const picture = pictures?.gallery[p.src];
      return picture ? [{ ...((lang === 'fr' && p.fr) || p), src: p.src, picture }] : [];
    })
    .slice(0, limit);
  if (shown.length === 0) return null;
  return (
    <Section id="photos-title" title={t.about.photosTitle}>
      <ul className="photo-grid">
        {shown.map((p) => (
          <li key={p.src}>
            <figure>
              <Photo picture={p.picture} alt={p.alt} sizes={GALLERY_SIZES} links={links} />
              {p.caption && <figcaption>{p.caption}</figcaption>}
            </figure>
          </li>
        ))}
      </ul>
    </Section>
  );
}
