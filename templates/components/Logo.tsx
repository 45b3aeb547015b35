import type { Site } from '../../src/site/model.js';
import { SHIELD } from '../../src/site/shield.js';

/** What the brand shows: the owner's logo (site.json `logo`), or the shield in the theme's colours. */
export interface Brand {
  siteName: string;
  /** The home page of the page's language. */
  home: string;
  image: { src: string; width: number; height: number } | null;
  shield: string;
  check: string;
}

/** The brand linking to the home page of the page's language. */
export function Logo({ brand }: { brand: Brand }) {
  const { siteName, home, image } = brand;
  // The owner's logo carries the name itself; its text alternative is the name.
  if (image)
    return (
      <a className="logo" href={home}>
        <img src={image.src} alt={siteName} width={image.width} height={image.height} />
      </a>
    );
  return (
    <a className="logo" href={home}>
      <svg aria-hidden="true" viewBox="0 0 32 32" width="32" height="32" focusable="false">
        <path d={SHIELD.shield} fill={brand.shield} />
        <path
          d={SHIELD.check}
          fill="none"
          stroke={brand.check}
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span>{siteName}</span>
    </a>
  );
}

/** One per site and language, so the header made of it is a fragment every page shares. */
const brands = new WeakMap<Site, Brand>();

export function brandOf(site: Site): Brand {
  let brand = brands.get(site);
  if (!brand) {
    const { logo, theme, links } = site;
    brand = {
      siteName: site.settings.siteName,
      home: links.home,
      image: logo && { src: links.href(logo.path), width: logo.width, height: logo.height },
      shield: theme.primary,
      check: theme.accent,
    };
    brands.set(site, brand);
  }
  return brand;
}
