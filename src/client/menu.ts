/**
 * Mobile slide-in menu: a toggle button that becomes its close control (its label says so),
 * the page behind dimmed and its scroll locked while open; a link, Escape or a tap on the
 * dimmed page closes it.
 */
export function initMenu(doc: Document): void {
  const toggle = doc.querySelector<HTMLButtonElement>('[data-menu-toggle]');
  const menu = doc.querySelector<HTMLElement>('[data-menu]');
  const label = toggle?.querySelector<HTMLElement>('[data-menu-label]');
  if (!toggle || !menu) return;
  const labels = [label?.textContent ?? '', toggle.dataset.closeLabel ?? ''];

  const setOpen = (open: boolean) => {
    toggle.setAttribute('aria-expanded', String(open));
    if (label) label.textContent = labels[open ? 1 : 0] || labels[0] || '';
    menu.classList.toggle('is-open', open);
    doc.documentElement.classList.toggle('menu-open', open);
  };
  const isOpen = () => toggle.getAttribute('aria-expanded') === 'true';

  toggle.addEventListener('click', () => setOpen(!isOpen()));
  menu.addEventListener('click', (e) => {
    if ((e.target as Element).closest('a')) setOpen(false);
  });
  doc.addEventListener('click', (e) => {
    const target = e.target as Element;
    if (isOpen() && !menu.contains(target) && !toggle.contains(target)) setOpen(false);
  });
  doc.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && isOpen()) {
      setOpen(false);
      toggle.focus();
    }
  });
}
