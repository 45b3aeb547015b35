import { fill, type Strings } from '../../src/i18n/catalogue.js';
import { Icon } from '../components/Icon.js';

/**
 * On phones, a slim bar at the bottom of the screen: a tap to call and the way to the form, in
 * the first screen of every page. The page keeps room for it below its last line, and focus
 * scrolls controls clear of it, so it never covers the form's buttons or the footer's links.
 */
export function CallBar({
  phone,
  tel,
  formHref,
  t,
}: {
  phone: string;
  /** The call link of that number (links.tel). */
  tel: string;
  formHref: string;
  t: Strings;
}) {
  return (
    <nav className="call-bar" aria-label={t.layout.callBarLabel}>
      <a className="call-bar-call" href={tel} aria-label={fill(t.layout.callBarCall, { phone })}>
        <Icon name="phone" size={18} /> {phone}
      </a>
      <a className="call-bar-form" href={formHref}>
        {t.layout.callBarForm}
      </a>
    </nav>
  );
}
