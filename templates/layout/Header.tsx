import type { Strings } from '../../src/i18n/catalogue.js';
import { LANG_TAGS, type Lang } from '../../src/i18n/lang.js';
import type { Links } from '../../src/urls.js';
import { CitySearch } from '../components/CityFinder.js';
import { type Brand, Logo } from '../components/Logo.js';

/** The shared header; `scope` is the city About and Services point into. */
export function Header({
  brand,
  phone,
  tel,
  scope,
  formOnPage = false,
  blog = null,
  t,
  links,
  alternate = null,
  alternateLang = null,
  cityIndex,
  basePath,
}: {
  brand: Brand;
  /** As the page's language writes it. */
  phone: string;
  /** The call link of that number (links.tel). */
  tel: string;
  scope: string;
  /** The page has the claim form: the assessment button goes to it, not to another page. */
  formOnPage?: boolean;
  /** The blog's path, where the page's language has it. */
  blog?: string | null;
  t: Strings;
  links: Links;
  /** The same page in the other language, where it has one, and that language. */
  alternate?: string | null;
  alternateLang?: Lang | null;
  /** The city index's path and the site's folder: the finder in the menu, on every page. */
  cityIndex: string;
  basePath: string;
}) {
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Logo brand={brand} />
        <MenuToggle t={t} />
        <nav id="site-menu" className="site-nav" aria-label={t.layout.mainNav} data-menu="">
          <CitySearch
            id="menu-city-search"
            cityIndex={cityIndex}
            basePath={basePath}
            compact
            t={t}
            links={links}
          />
          <MenuList items={menuItems(links, scope, blog, t)} />
          {alternate && alternateLang && (
            <LanguageSwitch href={alternate} lang={alternateLang} t={t} />
          )}
          <a className="nav-phone" href={tel}>
            {phone}
          </a>
          <a
            className="button button-accent"
            href={formOnPage ? `#${links.claimFormId}` : links.cityPage(scope, 'free-consultation')}
          >
            {t.layout.assessment}
          </a>
        </nav>
      </div>
    </header>
  );
}

/** The menu's button on a phone: its label says what pressing it does. */
function MenuToggle({ t }: { t: Strings }) {
  return (
    <button
      type="button"
      className="menu-toggle"
      aria-expanded="false"
      aria-controls="site-menu"
      data-menu-toggle=""
      data-close-label={t.layout.closeMenu}
    >
      <span className="menu-icon" aria-hidden="true" />
      <span className="visually-hidden" data-menu-label="">
        {t.layout.menu}
      </span>
    </button>
  );
}

/** The same page in the other language, named in that language. */
function LanguageSwitch({ href, lang, t }: { href: string; lang: Lang; t: Strings }) {
  return (
    <a
      className="nav-lang"
      href={href}
      hrefLang={LANG_TAGS[lang]}
      lang={LANG_TAGS[lang]}
      aria-label={t.language.switchLabel}
    >
      {t.language.switchTo}
    </a>
  );
}

function MenuList({ items }: { items: readonly { href: string; label: string }[] }) {
  return (
    <ul>
      {items.map((l) => (
        <li key={l.href}>
          <a href={l.href}>{l.label}</a>
        </li>
      ))}
    </ul>
  );
}

/** The main menu: home, the scope's about and services pages, the FAQ, the blog and contact. */
function menuItems(links: Links, scope: string, blog: string | null, t: Strings) {
  return [
    { href: links.home, label: t.layout.home },
    { href: links.cityPage(scope, 'about'), label: t.layout.about },
    { href: links.cityPage(scope, 'services'), label: t.layout.services },
    { href: links.page('faq'), label: t.layout.faq },
    ...(blog ? [{ href: blog, label: t.layout.footerBlog }] : []),
    { href: links.page('contact'), label: t.layout.contact },
  ];
}
