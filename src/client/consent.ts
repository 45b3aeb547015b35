/** The visitor's choice about analytics, and the banner and footer link that ask for it. */
export type Choice = 'granted' | 'denied';

const KEY = 'claimsite-consent';
/** A choice is asked again after twelve months. */
const KEPT_MS = 365 * 24 * 3600 * 1000;

/** The stored choice, if one was made within twelve months (an older one is forgotten). */
export function storedChoice(): Choice | null {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? 'null') as { choice?: string; at?: string };
    if (
      (v?.choice === 'granted' || v?.choice === 'denied') &&
      Date.now() - Date.parse(v.at ?? '') < KEPT_MS
    )
      return v.choice;
    localStorage.removeItem(KEY);
  } catch {
    // No storage (blocked): no choice is kept, so the banner asks on each page.
  }
  return null;
}

/**
 * Shows the banner while no choice is stored, and again from the footer's Cookie settings; a
 * press on Accept or Refuse stores the choice with its date and tells `onChoice`.
 */
export function initConsent(doc: Document, onChoice: (choice: Choice) => void): void {
  const banner = doc.querySelector<HTMLElement>('[data-consent]');
  if (!banner) return;
  let opener: HTMLElement | null = null;
  if (!storedChoice()) banner.hidden = false;
  banner.addEventListener('click', (e) => {
    const choice = (e.target as Element).closest<HTMLElement>('[data-consent-choice]')?.dataset
      .consentChoice as Choice | undefined;
    if (!choice) return;
    try {
      localStorage.setItem(KEY, JSON.stringify({ choice, at: new Date().toISOString() }));
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
      banner.hidden = false;
      banner.querySelector<HTMLElement>('#consent-title')?.focus();
    });
  }
}
