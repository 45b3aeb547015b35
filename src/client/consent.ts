/** The visitor's choices, by purpose, and the banner and footer link that ask for them. */
export interface Choice {
  analytics: boolean;
  ads: boolean;
}

const KEY = 'claimsite-consent';
/** A choice is asked again after twelve months. */
const KEPT_MS = 365 * 24 * 3600 * 1000;

/**
 * The stored choice, if one was made within twelve months. An older one is forgotten, and so is
 * one made before the banner asked by purpose (a single "granted" covered purposes it never
 * named): the banner asks again.
 */
export function storedChoice(): Choice | null {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<Choice> & { at?: string };
    if (
      typeof v?.analytics === 'boolean' &&
      typeof v.ads === 'boolean' &&
      Date.now() - Date.parse(v.at ?? '') < KEPT_MS
    )
      return { analytics: v.analytics, ads: v.ads };
    localStorage.removeItem(KEY);
  } catch {
    // No storage (blocked): no choice is kept, so the banner asks on each page.
  }
  return null;
}

/**
 * Shows the banner while no choice is stored, and again from the footer's Cookie settings with
 * the purposes as last chosen; Accept all, Refuse all or Save my choices stores the choice with
 * its date and tells `onChoice`.
 */
export function initConsent(doc: Document, onChoice: (choice: Choice) => void): void {
  const banner = doc.querySelector<HTMLElement>('[data-consent]');
  if (!banner) return;
  const [analytics, ads] = Array.from(
    banner.querySelectorAll<HTMLInputElement>('[data-consent-purpose]'),
  );
  let opener: HTMLElement | null = null;
  if (!storedChoice()) banner.hidden = false;
  banner.addEventListener('click', (e) => {
    const kind = (e.target as Element).closest<HTMLElement>('[data-consent-choice]')?.dataset
      .consentChoice;
    if (!kind) return;
    const all = kind === 'all';
    const some = kind === 'some';
    const choice = {
      analytics: all || (some && Boolean(analytics?.checked)),
      ads: all || (some && Boolean(ads?.checked)),
    };
    try {
      localStorage.setItem(KEY, JSON.stringify({ ...choice, at: new Date().toISOString() }));
    } catch {
      // Kept for this page only.
    }
    banner.hidden = true;
    opener?.focus();
    onChoice(choice);
  });
  for (const item of doc.querySelectorAll<HTMLElement>('[data-consent-settings]')) {
    item.hidden = false;
    item.querySelector('button')?.addEventListener('click', (e) => {
      opener = e.currentTarget as HTMLElement;
      const stored = storedChoice();
      if (analytics) analytics.checked = Boolean(stored?.analytics);
      if (ads) ads.checked = Boolean(stored?.ads);
      banner.hidden = false;
      banner.querySelector<HTMLElement>('#consent-title')?.focus();
    });
  }
}
