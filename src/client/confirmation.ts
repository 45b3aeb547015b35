/**
 * The confirmation page: the city from ?city= as text only, the reference from ?ref= (eight
 * letters and digits, else none shown), the while-you-wait line of each damage in ?damage=;
 * Return goes back one step.
 */
export function initConfirmation(doc: Document): void {
  const q = new URLSearchParams(location.search);
  const city = q.get('city')?.trim();
  const ref = q.get('ref') ?? '';
  const slot = doc.querySelector('[data-confirmation-city]');
  if (slot && city) slot.textContent = city.slice(0, 100);
  const refLine = doc.querySelector<HTMLElement>('[data-confirmation-ref]');
  const refSlot = refLine?.querySelector('strong');
  if (refLine && refSlot && /^[0-9A-F]{8}$/.test(ref)) {
    refSlot.textContent = ref;
    refLine.hidden = false;
  }
  const damages = (q.get('damage') ?? '').split(',');
  for (const li of doc.querySelectorAll<HTMLElement>('[data-wait]'))
    li.hidden = !li.dataset.wait?.split(' ').some((d) => damages.includes(d));
  doc.querySelector('[data-history-back]')?.addEventListener('click', (e) => {
    if (history.length > 1) {
      e.preventDefault();
      history.back();
    }
  });
}
