type Gtag = (...args: unknown[]) => void;

/**
 * GA4 only when a measurement id is configured (the build puts it on <html data-ga>): the tag
 * loads async and each page load sends page_view with page_path. No id, no request.
 */
export function initAnalytics(doc: Document): void {
  const id = doc.documentElement.dataset.ga;
  if (!id) return;
  const w = window as unknown as { dataLayer: unknown[]; gtag: Gtag };
  w.dataLayer = w.dataLayer || [];
  w.gtag = function gtag() {
    // gtag.js reads the arguments object itself, so it is pushed as it is.
    // biome-ignore lint/complexity/noArguments: the tag's documented contract
    w.dataLayer.push(arguments);
  };
  w.gtag('js', new Date());
  w.gtag('config', id, { send_page_view: false });
  w.gtag('event', 'page_view', {
    page_path: location.pathname + location.search,
    page_location: location.href,
  });
  const s = doc.createElement('script');
  s.async = true;
  s.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
  doc.head.appendChild(s);
}
