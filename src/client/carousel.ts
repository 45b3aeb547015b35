/**
 * The testimonial strip moves 1 px every 20 ms and jumps back to the start at half its scroll
 * width (the list is rendered twice). It holds still while the pointer is over it, while focus
 * is inside it, while a finger is on it, and once its Pause button is pressed, until Play. With
 * prefers-reduced-motion it never moves (and shows no button), and can be scrolled by hand.
 */
export function initCarousel(el: HTMLElement, toggle: HTMLButtonElement | null): void {
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  let hover = false;
  let focus = false;
  let touch = false;
  let paused = false;
  const on = (type: string, fn: () => void) => el.addEventListener(type, fn, { passive: true });
  on('mouseenter', () => {
    hover = true;
  });
  on('mouseleave', () => {
    hover = false;
  });
  on('focusin', () => {
    focus = true;
  });
  on('focusout', () => {
    focus = false;
  });
  on('touchstart', () => {
    touch = true;
  });
  for (const end of ['touchend', 'touchcancel'])
    on(end, () => {
      touch = false;
    });
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener('click', () => {
      paused = !paused;
      toggle.setAttribute('aria-pressed', String(paused));
      toggle.textContent = (paused ? toggle.dataset.textPlay : toggle.dataset.textPause) ?? '';
    });
  }
  setInterval(() => {
    if (paused || hover || focus || touch || document.hidden) return;
    if (el.scrollLeft >= el.scrollWidth / 2) el.scrollLeft = 0;
    else el.scrollLeft += 1;
  }, 20);
}
