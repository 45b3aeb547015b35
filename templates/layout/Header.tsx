import { links } from '../../src/urls.js';
import { Logo } from '../components/Logo.js';

/** The shared header; `scope` is the city About and Services point into. */
export function Header({
  siteName,
  phone,
  scope,
  formOnPage = false,
}: {
  siteName: string;
  phone: string;
  scope: string;
  /** The page has the claim form: the assessment button goes to it, not to another page. */
  formOnPage?: boolean;
}) {
  const items = [
    { href: links.home, label: 'Home' },
    { href: links.cityPage(scope, 'about'), label: 'About' },
    { href: links.cityPage(scope, 'services'), label: 'Services' },
    { href: links.page('faq'), label: 'FAQ' },
    { href: links.page('contact'), label: 'Contact' },
  ];
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Logo siteName={siteName} />
        <button
          type="button"
          className="menu-toggle"
          aria-expanded="false"
          aria-controls="site-menu"
          data-menu-toggle=""
        >
          <span className="menu-icon" aria-hidden="true" />
          <span className="visually-hidden">Menu</span>
        </button>
        <nav id="site-menu" className="site-nav" aria-label="Main" data-menu="">
          <ul>
            {items.map((l) => (
              <li key={l.href}>
                <a href={l.href}>{l.label}</a>
              </li>
            ))}
          </ul>
          <a className="nav-phone" href={links.tel(phone)}>
            {phone}
          </a>
          <a
            className="button button-accent"
            href={formOnPage ? `#${links.claimFormId}` : links.cityPage(scope, 'free-consultation')}
          >
            Free Claim Assessment
          </a>
        </nav>
      </div>
    </header>
  );
}
